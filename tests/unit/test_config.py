"""Each function's settings model, read from its environment."""

import pytest
from pydantic import ValidationError
from yamb_service.common.config import AuthorizerSettings, ServiceSettings

SERVICE_ENVIRONMENT = {
    "TABLE_NAME": "yamb-GameTable",
    "CONNECTIONS_ENDPOINT": "https://abc.execute-api.eu-west-1.amazonaws.com/live",
    "LANE_STATE_MACHINE_ARN": "arn:aws:states:eu-west-1:1:stateMachine:yamb-lane",
    "WAKE_STATE_MACHINE_ARN": "arn:aws:states:eu-west-1:1:stateMachine:yamb-wake",
    "AWS_REGION": "eu-west-1",
    "POWERTOOLS_SERVICE_NAME": "yamb",
    "POWERTOOLS_METRICS_NAMESPACE": "Yamb",
}


def test_service_settings_read_every_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    # given the game function's environment as template.yaml sets it
    for name, value in SERVICE_ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)

    # when its settings are read
    settings = ServiceSettings.from_environment()

    # then each field holds its variable, and the local endpoint is unset on AWS
    assert settings.table_name == "yamb-GameTable"
    assert settings.lane_state_machine_arn.endswith(":yamb-lane")
    assert settings.aws_region == "eu-west-1"
    assert settings.aws_endpoint_url is None
    assert settings.powertools_metrics_namespace == "Yamb"


@pytest.mark.parametrize("missing", ["TABLE_NAME", "POWERTOOLS_METRICS_NAMESPACE"])
def test_service_settings_missing_variable_fails_naming_it(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    # given an environment without one required variable
    for name, value in SERVICE_ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv(missing)

    # when the settings are read / then the error names the missing setting
    with pytest.raises(ValidationError, match=missing.lower()):
        ServiceSettings.from_environment()


def test_authorizer_settings_issuer_is_the_pools_address(monkeypatch: pytest.MonkeyPatch) -> None:
    # given the authorizer's environment
    monkeypatch.setenv("USER_POOL_ID", "eu-west-1_Abc")
    monkeypatch.setenv("USER_POOL_CLIENT_ID", "client")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.setenv("TABLE_NAME", "yamb-GameTable")

    # when its settings are read / then the issuer is Cognito's address for the pool
    settings = AuthorizerSettings.from_environment()
    assert settings.issuer == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Abc"
    assert settings.jwks_url is None
