"""What the referral needs from storage (yamb_service.progression.referral.dynamo), with domain
types; the wallet, the results (statistics, favorites) and the accounts come through their own
domains' ports."""

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Literal, Protocol

from yamb.progression.referral import Referral

from yamb_service.common.ports import TransactionPart

# What making a code did: made it; or not, as another player holds that code (draw again) or
# as this player got one meanwhile (read it).
type CodeMade = Literal["made", "code_taken", "had_one"]


class ReferralStore(Protocol):
    # -------------------------------------------------------------- codes
    def code_of(self, player_id: str) -> str | None: ...
    def owner_of(self, code: str) -> str | None: ...
    def make_code(self, player_id: str, code: str) -> CodeMade:
        """The code, the player's and unique, both kept at once, each only if absent."""

    # -------------------------------------------------------------- referrals
    def referral(self, invitee: str) -> Referral | None: ...
    def referrals(self, invitees: Iterable[str]) -> dict[str, Referral]: ...
    def take(self, referral: Referral) -> bool:
        """The referral and the inviter's pointer to it; False when the invitee has one."""

    def invitees(self, inviter: str) -> list[str]: ...
    def start(self, before: Referral, started: Referral, week: str) -> bool:
        """The referral started (as read at `before.version`), its first week played, and the
        inviter's recruits counted, at once; False when it moved (read it again)."""

    def mark_week(self, invitee: str, week: str) -> None:
        """A week played (once however often)."""

    def choose(self, before: Referral, chosen: Referral) -> bool:
        """The scheme chosen, if the referral is still as read and nothing was paid under the
        default; False otherwise (read it again)."""

    def started_before(self, end: datetime) -> Iterator[str]:
        """The invitees of the started, not settled referrals started before `end`."""

    def paid_part(self, invitee: str, week: str, version: int) -> TransactionPart:
        """The week marked paid, in the wallet change that pays it, on the referral being still
        as read (`version`): a scheme chosen meanwhile makes the payment fail."""

    def settle(self, invitee: str) -> None:
        """Nothing more is paid: off the list `started_before` reads."""
