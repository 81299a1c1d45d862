"""What invitations need from storage (yamb_service.social.invitations.dynamo)."""

from datetime import datetime
from typing import Protocol

from yamb.social.invitations import Invitation


class InvitationStore(Protocol):
    def put(self, invitation: Invitation, now: datetime) -> bool:
        """The invitation kept as the invitee's one pending invitation; False when another is
        still pending (one lapsed is replaced)."""

    def pending(self, invitee: str, now: datetime) -> Invitation | None:
        """The invitee's pending invitation, if any."""

    def take(self, invitee: str, invitation_id: str) -> Invitation | None:
        """The invitation removed if it is still the invitee's (None: it is not: answered,
        withdrawn or replaced meanwhile)."""

    def refused(self, game_id: str, invitee: str) -> bool:
        """Whether the invitee refused an invitation to this game."""

    def mark_refused(self, game_id: str, invitee: str, expires_at: datetime) -> None: ...
