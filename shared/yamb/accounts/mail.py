"""Which mail a player gets (A8): account and security mail always; a mail of an e-mail group
only while its switch is on."""

from enum import StrEnum

from yamb.accounts.preferences import Preferences


class MailKind(StrEnum):
    """Each kind is an SES template of that name (after the stack's prefix)."""

    VERIFY_EMAIL = "verify-email"
    RESET_PASSWORD = "reset-password"
    CHANGE_EMAIL = "change-email"
    DELETION = "deletion"
    DELETION_CANCELLED = "deletion-cancelled"
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
