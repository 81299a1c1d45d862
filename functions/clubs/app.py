"""Clubs' HTTP API (C1-C5): founding, entry by request or invitation, roles, levels and the
treasury. Each route parses its request, calls one method of the clubs' service and maps the
answer or the error to a reply."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.clubs.errors import ClubError
from yamb.economy.errors import EconomyError
from yamb_service.clubs import routes as clubs_routes
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.edge.http_api import (
    HttpApi,
    Response,
    Routes,
    add_common_handlers,
    error_reply,
    on_error,
    resolve,
)

app = HttpApi()
routes = Routes(
    app,
    statuses={
        "unknown_club": 404,
        "unknown_player": 404,
        "club_name_taken": 409,
        "club_limit": 409,
        "admin_limit": 409,
        "already_member": 409,
        "not_a_member": 403,
        "not_allowed": 403,
        "club_full": 409,
        "request_pending": 409,
        "no_request": 404,
        "invitation_pending": 409,
        "no_invitation": 404,
        "admin_cannot_leave": 409,
        "club_not_empty": 409,
        "deputy_limit": 409,
        "max_level": 409,
        "treasury_too_low": 409,
        "not_enough_tokens": 409,
        "blocked": 403,
        "key_reused": 409,
        "busy": 503,
    },
)
routes.include(clubs_routes.routes)


@on_error(app, ClubError)
def refused(error: ClubError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    return error_reply(routes.statuses.get(error.code, 400), error.code, error.text, error.field)


@on_error(app, EconomyError)
def refused_payment(error: EconomyError) -> Response[str]:
    logger.info("payment refused", code=error.code, field=error.field)
    return error_reply(routes.statuses.get(error.code, 400), error.code, error.text, error.field)


add_common_handlers(app)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
