"""Mail through SES's templates (template.yaml: one AWS::SES::Template per MailKind, named
`<prefix><kind>`). What a mail says is in its template; only its data is sent from here, and no
data is ever a password."""

import json
from collections.abc import Callable, Mapping
from typing import Any

from botocore.exceptions import ClientError
from yamb.accounts.mail import MailKind, is_account_mail, may_send
from yamb.accounts.profile import AccountStatus, Profile

from yamb_service.accounts.ports import Mailer
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import MetricUnit, logger, metrics


class SesMailer:
    def __init__(self, client: Callable[[], Any], *, sender: str, template_prefix: str) -> None:
        self._client_factory = client
        self._client: Any = None
        self._sender = sender
        self._prefix = template_prefix

    def send(self, to: str, kind: MailKind, data: Mapping[str, str]) -> None:
        if self._client is None:
            self._client = self._client_factory()
        try:
            self._client.send_templated_email(
                Source=self._sender,
                Destination={"ToAddresses": [to]},
                Template=f"{self._prefix}{kind}",
                TemplateData=json.dumps(dict(data)),
            )
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code")
            logger.error("mail not sent", kind=str(kind), error_code=code)
            metrics.add_metric(name="MailFailed", unit=MetricUnit.Count, value=1)
            if code in ("Throttling", "ThrottlingException", "ServiceUnavailable"):
                raise ServiceBusyError from error
            raise
        metrics.add_metric(name="MailSent", unit=MetricUnit.Count, value=1)


def send_gated(
    mailer: Mailer,
    profile: Profile,
    kind: MailKind,
    data: Mapping[str, str],
    *,
    to: str | None = None,
) -> bool:
    """The one gate every mail goes through (A8); whether it went. Account and security mail
    always goes (to `to`, else the profile's address); a mail of an e-mail group (return
    reminders, tournaments, offers) only to an active account with an address whose switch for
    that group is on."""
    address = to or profile.email
    if address is None:
        return False
    if not is_account_mail(kind) and (
        profile.status != AccountStatus.ACTIVE or not may_send(profile.preferences, kind)
    ):
        metrics.add_metric(name="MailSkipped", unit=MetricUnit.Count, value=1)
        return False
    mailer.send(address, kind, data)
    return True
