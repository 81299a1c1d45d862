"""Cognito's PostAuthentication trigger, run once the password is verified: an account that may
not sign in (not verified yet, banned, purged, unknown) is refused, and Cognito answers the client
with the refusal's code and message; any other login ends the previous device's session (A2:
its tokens refused, its connection told `signed_in_elsewhere` and closed), cancels a pending
deletion (A7), then is
paid the badge levels reached since the last one (E8; a failure there is logged and counted, and
the login goes on: what is due is paid at the next login or on the badges page)."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

import time
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.accounts.errors import AccountError
from yamb_service.accounts.wiring import account_service
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.progression.wiring import badge_service


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    source = event.get("triggerSource", "")
    attributes = (event.get("request") or {}).get("userAttributes") or {}
    player_id = attributes.get("sub") or event["userName"]
    logger.append_keys(player_id=player_id, trigger=source)
    if not source.startswith("PostAuthentication"):
        logger.warning("a trigger this function does not serve", trigger=source)
        return event
    service = account_service(event["userPoolId"], event["callerContext"]["clientId"])
    try:
        # The wall clock, as Cognito's tokens' auth_time is (not the service's clock, which the
        # local stack's tests move forward).
        service.signed_in(player_id, attributes.get("email"), at=int(time.time()))
    except AccountError as error:
        logger.info("login refused", code=error.code)
        # Cognito puts the message in its answer to the client: the code first.
        raise Exception(f"{error.code}: {error.message}") from None
    _pay_badges(player_id)
    return event


def _pay_badges(player_id: str) -> None:
    """Badge levels due, each paid once under its key (a second login pays nothing more)."""
    try:
        service = badge_service()
        service.pay_due(player_id, service.now())
    except Exception:  # a payment never refuses a login that succeeded
        logger.exception("badge levels not paid at login")
        metrics.add_metric(name="BadgePaymentFailed", unit=MetricUnit.Count, value=1)
