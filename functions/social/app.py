"""Social's HTTP API (S1, S2, S5, S6): the players list with presence, blocks, reports and
their review, the contact form. Each route parses its request, calls one method of its service
and maps the answer or the error to a reply."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.social.errors import SocialError
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
from yamb_service.social.fairplay import routes as fairplay_routes
from yamb_service.social.players import routes as players_routes
from yamb_service.social.reports import routes as reports_routes

app = HttpApi()
routes = Routes(
    app,
    statuses={
        "unknown_player": 404,
        "unknown_club": 404,
        "too_many_blocks": 409,
        "report_self": 400,
        "message_not_visible": 404,
        "already_reported": 409,
        "report_limit": 429,
        "not_an_operator": 403,
        "unknown_case": 404,
        "contact_limit": 429,
        "busy": 503,
    },
)
routes.include(players_routes.routes)
routes.include(reports_routes.routes)
routes.include(fairplay_routes.routes)


@on_error(app, SocialError)
def refused(error: SocialError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    status = routes.statuses.get(error.code, 400)
    return error_reply(status, error.code, error.text, error.field)


add_common_handlers(app)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
