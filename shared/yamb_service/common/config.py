"""Each function's settings: one pydantic model per function, read from its environment once
(template.yaml sets the variables) and cached. Plain pydantic: pydantic-settings would add tens
of milliseconds to every cold start for what one dictionary comprehension does here."""

import os
from functools import cache
from typing import Self

from pydantic import BaseModel, ConfigDict


class _EnvironmentSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    @classmethod
    def from_environment(cls) -> Self:
        """Each field from the variable of its name in capitals; a missing one fails here, at
        the first call, with its name."""
        environment = os.environ
        return cls.model_validate(
            {
                name: environment[name.upper()]
                for name in cls.model_fields
                if name.upper() in environment
            }
        )


class ServiceSettings(_EnvironmentSettings):
    """What the game, connections and clock functions need."""

    table_name: str
    connections_endpoint: str
    # The timers (yamb_service.game.timers): the heartbeat lane and the one-shot wake machines.
    lane_state_machine_arn: str
    wake_state_machine_arn: str
    aws_region: str = "us-east-1"
    # Local stack and tests: the embedded AWS's endpoint; None on AWS.
    aws_endpoint_url: str | None = None
    # The frames one connection may send (yamb_service.game.throttle): a burst, then a rate.
    throttle_burst: int = 30
    throttle_per_second: float = 10.0
    # The clock function mails return reminders (A8): only it has these (template.yaml).
    mail_from: str | None = None
    web_base_url: str = "https://yamb.example"
    # The push function (Web Push, yamb_service.push): the connections and clock functions
    # hand it a return countdown and a slow game's turn; None: nothing is pushed.
    push_function_name: str | None = None
    # The accounts' jobs function (fair play's ban at the third yellow card: the game and clock
    # functions); None: the card is recorded and the ban is logged as not handed over.
    account_jobs_function_name: str | None = None
    # Read by Powertools itself at import; required here so that a deployment without them
    # fails on its first call, not when the metrics are flushed.
    powertools_service_name: str
    powertools_metrics_namespace: str


class AuthorizerSettings(_EnvironmentSettings):
    user_pool_id: str
    user_pool_client_id: str
    # The profiles (status, sign-out generation) every token is checked against.
    table_name: str
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None
    # The key set's address; the default is Cognito's. The local stack points it elsewhere.
    jwks_url: str | None = None

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.{self.aws_region}.amazonaws.com/{self.user_pool_id}"


class AccountSettings(_EnvironmentSettings):
    """What the accounts, account-jobs and account-triggers functions need."""

    table_name: str
    connections_endpoint: str
    mail_from: str
    # Where the mailed links lead: the HTTP API's address (stacks/accounts.yaml); only the
    # accounts function mails links. Never taken from a request.
    link_base_url: str | None = None
    # The web client's address (template parameter WebUrl): a password reset link opens its
    # #/reset screen. None: the reset link leads to the API's own page too.
    web_base_url: str | None = None
    # The triggers get the pool from Cognito's event: only the others have these.
    user_pool_id: str | None = None
    user_pool_client_id: str | None = None
    # Web Push's VAPID public key (base64url), which the page subscribes with: not a secret
    # (its private half is the push function's, in SSM). Empty: this deployment pushes nothing.
    push_vapid_public_key: str = ""
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None
    powertools_service_name: str
    powertools_metrics_namespace: str


class EconomySettings(_EnvironmentSettings):
    """What the economy function needs (the wallet, premium, gifts)."""

    table_name: str
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None
    powertools_service_name: str
    powertools_metrics_namespace: str


@cache
def economy_settings() -> EconomySettings:
    return EconomySettings.from_environment()


class ResultsSettings(EconomySettings):
    """What the results functions need (the recorder, the boards' API, the prize payouts): the
    table, as the economy's functions; the results function names the tournaments' job, which
    it asks for a run as a tournament's game ends (None: the minute's run alone)."""

    tournaments_jobs_function_name: str | None = None


@cache
def results_settings() -> ResultsSettings:
    return ResultsSettings.from_environment()


class OpenDbSettings(ResultsSettings):
    """The open game database (issue 32): the results' table and the bucket of its files
    (the boards function hands out links to them, the monthly job writes them)."""

    open_data_bucket: str


@cache
def opendb_settings() -> OpenDbSettings:
    return OpenDbSettings.from_environment()


class PrizeSettings(ResultsSettings):
    """The prize payouts: the results' table, and the push function a paid prize is pushed
    through (None: nothing is pushed)."""

    push_function_name: str | None = None


@cache
def prize_settings() -> PrizeSettings:
    return PrizeSettings.from_environment()


class PushSettings(_EnvironmentSettings):
    """What the push function needs (Web Push, docs/push.md)."""

    table_name: str
    # The SSM SecureString that holds the VAPID private key (PEM), read once per cold start:
    # never in code, in the template or in the environment.
    push_vapid_private_key_parameter: str
    # The contact the push services may write to about our pushes (VAPID's `sub`).
    push_contact: str = "mailto:admin@yamb.example"
    # Where a notification's click leads (the web client).
    web_base_url: str = "https://yamb.example"
    # The local stack: the notifications go to its outbox (GET /_local/push), not out.
    local_push_outbox_url: str | None = None
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None
    powertools_service_name: str
    powertools_metrics_namespace: str


@cache
def push_settings() -> PushSettings:
    return PushSettings.from_environment()


class ProgressionSettings(EconomySettings):
    """What the progression functions need (tasks, referral, badges and their weekly job)."""

    # The web client's address: a referral link is `<web_base_url>/?ref=<code>` (template
    # parameter WebUrl).
    web_base_url: str = "https://yamb.example"


@cache
def progression_settings() -> ProgressionSettings:
    return ProgressionSettings.from_environment()


class PaymentSettings(_EnvironmentSettings):
    """What the payments function needs (docs/economy.md)."""

    table_name: str
    # SSM Parameter Store SecureString names (template parameters), read once per cold start:
    # Stripe's secret API key and the webhook endpoint's signing secret. Never the values.
    stripe_api_key_parameter: str
    stripe_webhook_secret_parameter: str
    # Where Stripe's checkout page sends the player back (success and cancel).
    shop_url: str
    # The local stack points Stripe's SDK elsewhere (it cannot reach Stripe); None on AWS.
    stripe_api_base: str | None = None
    aws_region: str = "us-east-1"
    aws_endpoint_url: str | None = None
    powertools_service_name: str
    powertools_metrics_namespace: str


@cache
def payment_settings() -> PaymentSettings:
    return PaymentSettings.from_environment()


@cache
def account_settings() -> AccountSettings:
    return AccountSettings.from_environment()


@cache
def service_settings() -> ServiceSettings:
    return ServiceSettings.from_environment()


@cache
def authorizer_settings() -> AuthorizerSettings:
    return AuthorizerSettings.from_environment()


class SocialSettings(EconomySettings):
    """What the social HTTP function needs (the players list, blocks, reports and their review,
    the contact form: docs/social.md)."""

    # SES: warnings come from `mail_from`; the contact form goes to `author_email`.
    mail_from: str = "no-reply@yamb.example"
    author_email: str = "author@yamb.example"
    # A ban is handed to the accounts' jobs function (None: bans are refused).
    account_jobs_function_name: str | None = None


@cache
def social_settings() -> SocialSettings:
    return SocialSettings.from_environment()


class ClubsSettings(EconomySettings):
    """What the clubs' functions need (docs/clubs.md): the table, as the economy's, and the
    WebSocket API's management endpoint (an invitation told live)."""

    connections_endpoint: str | None = None


@cache
def clubs_settings() -> ClubsSettings:
    return ClubsSettings.from_environment()
