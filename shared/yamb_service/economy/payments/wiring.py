"""Builds the payment service from the function's settings, once per execution environment, on
first use. Stripe's API key and webhook secret are SSM Parameter Store SecureStrings named by
the settings, each read (decrypted) the first time it is needed, then kept for the life of the
execution environment: never in code, in the template or in the environment."""

from collections.abc import Callable
from functools import cache
from typing import Any

import stripe
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from yamb.economy.errors import EconomyError
from yamb.i18n import Text

from yamb_service.accounts.dynamo import load_profile, nickname_owner
from yamb_service.common import clock
from yamb_service.common.config import payment_settings
from yamb_service.common.dynamo import botocore_session, item_model
from yamb_service.common.errors import ServiceBusyError
from yamb_service.economy.payments.service import PaymentService
from yamb_service.economy.ports import Accounts
from yamb_service.economy.wallet_dynamo import DynamoWalletStore

_CONFIG = Config(retries={"mode": "standard", "max_attempts": 4}, connect_timeout=2, read_timeout=5)
# Stripe within the function's 10 s: one retry of a lost connection (Stripe's idempotency
# keys make the SDK's retries safe), each attempt under 4 s.
STRIPE_TIMEOUT_SECONDS = 4.0
STRIPE_RETRIES = 1


def stripe_http_client() -> stripe.HTTPClient:
    """The HTTP client Stripe's SDK sends with (tests put a fake Stripe in its place)."""
    return stripe.RequestsClient(timeout=STRIPE_TIMEOUT_SECONDS)


class SsmSecrets:
    """SecureString parameters, each read once (decrypted) and kept."""

    def __init__(self, client: Callable[[], Any]) -> None:
        self._client = client
        self._values: dict[str, str] = {}

    def get(self, name: str) -> str:
        if name not in self._values:
            try:
                answer = self._client().get_parameter(Name=name, WithDecryption=True)
            except ClientError as error:
                code = error.response.get("Error", {}).get("Code", "")
                if code in ("ThrottlingException", "InternalServerError"):
                    raise ServiceBusyError() from error
                raise
            except BotoCoreError as error:
                raise ServiceBusyError() from error
            self._values[name] = str(answer["Parameter"]["Value"])
        return self._values[name]


@cache
def payment_service() -> PaymentService:
    settings = payment_settings()
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    session = botocore_session(item)
    ssm: list[Any] = []

    def ssm_client() -> Any:
        if not ssm:
            ssm.append(
                session.create_client(
                    "ssm",
                    region_name=settings.aws_region,
                    endpoint_url=settings.aws_endpoint_url,
                    config=_CONFIG,
                )
            )
        return ssm[0]

    secrets = SsmSecrets(ssm_client)

    @cache
    def client() -> stripe.StripeClient:
        try:
            api_key = secrets.get(settings.stripe_api_key_parameter)
        except ServiceBusyError:
            raise EconomyError(
                Text("the payment provider's key cannot be read: try again in a moment"),
                code="payment_provider_unavailable",
            ) from None
        base = {} if settings.stripe_api_base is None else {"api": settings.stripe_api_base}
        return stripe.StripeClient(
            api_key,
            http_client=stripe_http_client(),
            max_network_retries=STRIPE_RETRIES,
            base_addresses=base,  # type: ignore[arg-type]
        )

    return PaymentService(
        wallets=DynamoWalletStore(item),
        accounts=Accounts(
            profile=lambda player_id: load_profile(item, player_id),
            nickname_owner=lambda nickname: nickname_owner(item, nickname),
        ),
        client=client,
        webhook_secret=lambda: secrets.get(settings.stripe_webhook_secret_parameter),
    )


def now() -> Any:
    return clock.now()
