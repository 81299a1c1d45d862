"""Which mail a player gets (A8): account and security mail always; a mail of an e-mail group
only while its switch is on."""

from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import NamedTuple

from yamb.accounts.preferences import Preferences


class MailKind(StrEnum):
    """Each kind is an SES template of that name (after the stack's prefix)."""

    VERIFY_EMAIL = "verify-email"
    RESET_PASSWORD = "reset-password"
    CHANGE_EMAIL = "change-email"
    DELETION = "deletion"
    DELETION_CANCELLED = "deletion-cancelled"
    # A sign-up with the address of an account: told to the account's owner, not to the caller.
    ACCOUNT_EXISTS = "account-exists"
    # An e-mail change asked: told to the address the account leaves.
    EMAIL_CHANGE_NOTICE = "email-change-notice"
    # An operator's warning after reports were reviewed (S5: docs/social.md).
    MODERATION_WARNING = "moderation-warning"
    # The contact form's message, to the author (S6).
    CONTACT = "contact"
    # E-mail groups (A8); their mails come with the features that send them.
    RETURN_REMINDER = "return-reminder"
    TOURNAMENT = "tournament"
    OFFER = "offer"


# The e-mail group of each kind that has one; the others are account and security mail.
_GROUPS = {
    MailKind.RETURN_REMINDER: "return_reminders",
    MailKind.TOURNAMENT: "tournaments",
    MailKind.OFFER: "offers",
}


def may_send(preferences: Preferences, kind: MailKind) -> bool:
    group = _GROUPS.get(kind)
    return group is None or bool(getattr(preferences.notifications.email, group))


class MailBound(NamedTuple):
    """At most `limit` mails to one address in each window of `window` (counted from the epoch,
    so every request agrees on which window it is in)."""

    limit: int
    window: timedelta

    def window_start(self, now: datetime) -> datetime:
        seconds = int(self.window.total_seconds())
        return datetime.fromtimestamp(int(now.timestamp()) // seconds * seconds, UTC)


# The mails anyone may have sent to an address (a sign-up, a verification or reset link, the
# "you have an account" notice, an e-mail change's link): three an hour, ten a day. A person
# who asks again and again gets the same answer and no more mail; a flood against one address
# sends at most these (decision 109).
ADDRESS_BOUNDS = (MailBound(3, timedelta(hours=1)), MailBound(10, timedelta(days=1)))


def is_account_mail(kind: MailKind) -> bool:
    """Account and security mail: it always goes, whatever the switches and the account's
    state (a locked account is told of its deletion)."""
    return kind not in _GROUPS
