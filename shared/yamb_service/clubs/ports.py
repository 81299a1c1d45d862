"""What clubs need from storage (yamb_service.clubs.dynamo): reads that return domain models,
and writes prepared as transaction parts, each on the state read, that `commit` writes together
(or the wallet, when the treasury pays: yamb_service.economy.ports.WalletStore.change)."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

from yamb.clubs.board import ClubScore
from yamb.clubs.model import Club, ClubInvitation, ClubRequest, Member, PlayerClubs
from yamb.results.boards import Board, Entry
from yamb.social.chats import ChatLine

from yamb_service.common.ports import TransactionPart


class StaleReadError(Exception):
    """A part's condition failed: something changed since it was read. Read again and retry."""


class BoardRows(Protocol):
    """The results' boards, read (yamb_service.results.dynamo)."""

    def rows(self, board: Board, entrants: Iterable[str]) -> dict[str, Entry]:
        """The rows of these entrants on a board (absent: not on it), consistently read."""


class ClubStore(Protocol):
    def club(self, club_id: str, *, consistent: bool = False) -> Club | None: ...
    def clubs(self, club_ids: Sequence[str]) -> dict[str, Club]:
        """The clubs that exist of these, by id (one batch read)."""

    def page(self, *, prefix: str, after: str, limit: int) -> list[tuple[str, Club]]:
        """Open clubs whose search key (rules.search_key) starts with `prefix`, in name order
        after the position `after`, each with its position."""

    def name_owner(self, key: str) -> str | None:
        """The club whose name has this key (rules.name_key), if one has."""

    def members(self, club_id: str) -> list[Member]: ...
    def member(self, club_id: str, player_id: str) -> Member | None: ...
    def player_clubs(self, player_id: str) -> PlayerClubs: ...
    def main_clubs(self, player_ids: Sequence[str]) -> dict[str, str]:
        """Each of these players' main club (the first live one of their list), if any."""

    def players_in_several(self) -> list[str]:
        """The players in more than one club (those whose memberships may turn dormant)."""

    def requests(self, club_id: str) -> list[ClubRequest]: ...
    def request(self, club_id: str, player_id: str) -> ClubRequest | None: ...
    def invitations(self, player_id: str) -> list[ClubInvitation]: ...
    def invitation(self, player_id: str, club_id: str) -> ClubInvitation | None: ...

    def count_line(self, club_id: str, now: datetime) -> bool:
        """One line more in the club's chat window (False: the club writes too fast)."""

    def announce(self, club_id: str, line: ChatLine) -> None: ...
    def announcements(self, club_id: str, limit: int) -> list[ChatLine]:
        """The newest first."""

    def connections(self, player_ids: Sequence[str]) -> dict[str, str]:
        """The live connection of each of these players who has one."""

    def score(self, club_id: str, period: str) -> ClubScore | None: ...
    def board(self, period: str, limit: int) -> list[ClubScore]:
        """The month's club scores, best first."""

    def write_score(self, before: ClubScore | None, after: ClubScore) -> None:
        """The score on the version read (StaleReadError when another was written since)."""

    # Parts: each written on the state it was read in (a version, an item's presence).
    def club_part(self, before: Club | None, after: Club) -> TransactionPart: ...
    def name_part(self, key: str, club_id: str) -> TransactionPart:
        """The name taken by the club (only if no club holds it)."""

    def release_name_part(self, key: str) -> TransactionPart: ...
    def member_part(self, club_id: str, member: Member, *, new: bool) -> TransactionPart:
        """The member written: added (absent before) or changed (present)."""

    def remove_member_part(self, club_id: str, player_id: str) -> TransactionPart: ...
    def donation_part(self, club_id: str, player_id: str, amount: int) -> TransactionPart:
        """The member's donations counted (only while they are a member)."""

    def player_clubs_part(
        self, player_id: str, before: PlayerClubs, after: PlayerClubs
    ) -> TransactionPart: ...
    def request_part(self, request: ClubRequest) -> TransactionPart:
        """The request kept (only if none is pending)."""

    def remove_request_part(self, club_id: str, player_id: str) -> TransactionPart:
        """The request gone (only if it is still pending)."""

    def invitation_part(self, invitation: ClubInvitation) -> TransactionPart: ...
    def remove_invitation_part(self, player_id: str, club_id: str) -> TransactionPart:
        """The invitation gone, whether or not it was there."""

    def commit(self, parts: Sequence[TransactionPart]) -> None:
        """All the parts or none: StaleReadError when a condition failed (read again and retry)."""

    def drop_requests(self, club_id: str) -> int:
        """Every pending request of the club removed (a full club drops them); how many."""
