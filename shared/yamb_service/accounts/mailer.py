"""Mail through SES's SendEmail (Simple content: a subject and both body parts). What a mail
says is composed before it gets here (yamb.accounts.mail_text, in the recipient's language);
nothing in a mail is ever a password."""

from collections.abc import Callable, Mapping
from typing import Any

from botocore.exceptions import ClientError
from yamb.accounts.mail import MailKind, is_account_mail, may_send
from yamb.accounts.mail_text import Mail, compose
from yamb.accounts.profile import AccountStatus, Profile

from yamb_service.accounts.ports import Mailer
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import MetricUnit, logger, metrics


class SesMailer:
    def __init__(self, client: Callable[[], Any], *, sender: str) -> None:
        self._client_factory = client
        self._client: Any = None
        self._sender = sender

    def send(self, to: str, mail: Mail) -> None:
        if self._client is None:
            self._client = self._client_factory()
        try:
            reply = {"ReplyToAddresses": [mail.reply_to]} if mail.reply_to else {}
            self._client.send_email(
                Source=self._sender,
                Destination={"ToAddresses": [to]},
                **reply,
                Message={
                    "Subject": {"Data": mail.subject, "Charset": "UTF-8"},
                    "Body": {
                        "Text": {"Data": mail.text, "Charset": "UTF-8"},
                        "Html": {"Data": mail.html, "Charset": "UTF-8"},
                    },
                },
            )
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code")
            logger.error("mail not sent", kind=str(mail.kind), error_code=code)
            metrics.add_metric(name="MailFailed", unit=MetricUnit.Count, value=1)
            if code in ("Throttling", "ThrottlingException", "ServiceUnavailable"):
                raise ServiceBusyError from error
            raise
        metrics.add_metric(name="MailSent", unit=MetricUnit.Count, value=1)
        logger.info("mail sent", kind=str(mail.kind), language=mail.language)


def send_gated(
    mailer: Mailer,
    profile: Profile,
    kind: MailKind,
    values: Mapping[str, object],
    *,
    to: str | None = None,
) -> bool:
    """The one gate every mail goes through (A8); whether it went. Account and security mail
    always goes (to `to`, else the profile's address); a mail of an e-mail group (return
    reminders, tournaments, offers) only to an active account with an address whose switch for
    that group is on. It is written in the recipient's language (their account's setting),
    whoever caused it."""
    address = to or profile.email
    if address is None:
        return False
    if not is_account_mail(kind) and (
        profile.status != AccountStatus.ACTIVE or not may_send(profile.preferences, kind)
    ):
        metrics.add_metric(name="MailSkipped", unit=MetricUnit.Count, value=1)
        return False
    mailer.send(address, compose(kind, values, profile.preferences.language))
    return True
