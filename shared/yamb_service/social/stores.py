"""What the social actions of the WebSocket protocol use beside the game service's own
collaborators: the chats' and invitations' stores, blocks, and the accounts' profiles (to name
a player)."""

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from yamb_service.accounts.ports import Profiles
from yamb_service.clubs.ports import ClubStore
from yamb_service.social.blocks.ports import Blocks
from yamb_service.social.chats.ports import ChatStore
from yamb_service.social.fairplay.ports import FairplayStore
from yamb_service.social.invitations.ports import InvitationStore


@dataclass
class SocialStores:
    chats: ChatStore
    blocks: Blocks
    profiles: Profiles
    invitations: InvitationStore
    # Waits out a general-chat batch (seconds of real time); tests do not wait.
    wait: Callable[[float], None] = field(default=time.sleep)
    # The wall clock the broadcast's rate is measured on.
    wall_time: Callable[[], float] = field(default=time.monotonic)
    # Fair play (S7): the players' records, and the ban at the third yellow card (player id,
    # reason), handed to the accounts' jobs; None: not judged / not banned here.
    fairplay: FairplayStore | None = None
    ban: Callable[[str, str], None] | None = None
    # A club's chat (C6): its members and announcements; None: not wired here.
    clubs: ClubStore | None = None
