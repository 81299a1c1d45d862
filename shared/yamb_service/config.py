"""Each function's settings, read once from its environment (template.yaml sets them)."""

from functools import cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class ServiceSettings(BaseSettings):
    """What the game, connections and clock functions need."""

    model_config = SettingsConfigDict(frozen=True, extra="ignore")

    table_name: str
    connections_endpoint: str
    deadline_state_machine_arn: str
    aws_region: str = "us-east-1"
    # Local stack and tests: the embedded AWS's endpoint; None on AWS.
    aws_endpoint_url: str | None = None


class AuthorizerSettings(BaseSettings):
    model_config = SettingsConfigDict(frozen=True, extra="ignore")

    user_pool_id: str
    user_pool_client_id: str
    aws_region: str = "us-east-1"
    # The key set's address; the default is Cognito's. The local stack points it elsewhere.
    jwks_url: str | None = None

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.{self.aws_region}.amazonaws.com/{self.user_pool_id}"


@cache
def service_settings() -> ServiceSettings:
    return ServiceSettings()  # type: ignore[call-arg]  # filled from the environment


@cache
def authorizer_settings() -> AuthorizerSettings:
    return AuthorizerSettings()  # type: ignore[call-arg]
