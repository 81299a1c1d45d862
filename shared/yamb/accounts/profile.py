"""A player's account as the game keeps it (Cognito keeps the password): who they are, in which
state, their settings, their small token balance (until the economy's wallet), and the
generation of sign-outs their tokens must match."""

from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from yamb.accounts.errors import AccountError
from yamb.accounts.preferences import Preferences
from yamb.i18n import Text

# A7: how long a deletion can be cancelled, and when the reminders go (days left).
DELETION_GRACE = timedelta(days=30)
DELETION_REMINDERS_DAYS_LEFT = (7, 1)
# A1: a never-verified account is deleted after this long.
UNVERIFIED_LIFETIME = timedelta(days=30)


class AccountStatus(StrEnum):
    UNVERIFIED = "unverified"
    ACTIVE = "active"
    # Deletion asked: locked (no token works) until a login cancels it or the purge runs.
    DELETING = "deleting"
    # The purge has begun (a login can no longer cancel it): the next run finishes it.
    PURGING = "purging"
    BANNED = "banned"
    # Purged: no personal data left; the item stays for the opponents' games.
    DELETED = "deleted"


class Profile(BaseModel):
    model_config = ConfigDict(frozen=True)

    player_id: str
    nickname: str
    email: str | None
    status: AccountStatus
    created_at: datetime
    version: int = 0
    # Every token carries the generation it was issued in (Cognito's custom:session); a
    # sign-out everywhere moves it on, and older tokens stop working at once.
    session: int = 0
    # When the latest sign-in happened (Unix seconds, on Cognito's clock, as its tokens'
    # `auth_time`): one device at a time (product A2), tokens of an earlier sign-in are refused.
    signed_in_at: int = 0
    preferences: Preferences = Preferences()
    nickname_changes: int = 0
    nickname_changed_at: datetime | None = None
    pending_email: str | None = None
    deletion_requested_at: datetime | None = None
    deletion_reminders: int = 0
    # Moderation (S5, docs/social.md): hidden from the players list while three reports of the
    # player wait for review; an operator works through the review queue.
    hidden: bool = False
    operator: bool = False

    @property
    def purge_at(self) -> datetime | None:
        if self.deletion_requested_at is None:
            return None
        return self.deletion_requested_at + DELETION_GRACE


def refusal(profile: Profile | None) -> AccountError | None:
    """Why a token of this account opens nothing, or None when it may play."""
    if profile is None:
        return AccountError(Text("this account does not exist"), code="account_not_found")
    match profile.status:
        case AccountStatus.ACTIVE:
            return None
        case AccountStatus.UNVERIFIED:
            return AccountError(
                Text("confirm your e-mail address first (the link we mailed)"),
                code="account_unverified",
            )
        case AccountStatus.DELETING:
            return AccountError(
                Text("this account is being deleted: sign in again to keep it"),
                code="account_locked",
            )
        case AccountStatus.BANNED:
            return AccountError(Text("this account is banned"), code="account_banned")
        case AccountStatus.PURGING | AccountStatus.DELETED:
            return AccountError(Text("this account was deleted"), code="account_deleted")


def reminder_due(profile: Profile, now: datetime) -> int | None:
    """The reminder (its index) that a deleting account should get now, if any: each goes
    once, the last one due when several are (a job that did not run for days)."""
    purge_at = profile.purge_at
    if profile.status != AccountStatus.DELETING or purge_at is None or now >= purge_at:
        return None
    days_left = (purge_at - now) / timedelta(days=1)
    due = [
        index
        for index, threshold in enumerate(DELETION_REMINDERS_DAYS_LEFT)
        if days_left <= threshold
    ]
    latest = max(due, default=None)
    if latest is None or latest < profile.deletion_reminders:
        return None
    return latest
