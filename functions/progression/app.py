"""Progression's HTTP API (E6-E8): the week's tasks and their claims (tasks_routes), referral
codes, referrers and schemes (referral_routes), badges (badge_routes). Each route parses its
request, calls one method of its service and maps the answer or the error to a reply."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.progression.errors import ProgressionError
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
from yamb_service.progression.badges import routes as badge_routes
from yamb_service.progression.referral import routes as referral_routes
from yamb_service.progression.tasks import routes as tasks_routes

app = HttpApi()
routes = Routes(
    app,
    statuses={
        "unknown_task": 404,
        "unknown_referral_code": 404,
        "unknown_badge": 404,
        "unknown_player": 404,
        "task_claimed": 409,
        "already_referred": 409,
        "referral_closed": 409,
        "not_your_invitee": 404,
        "no_scheme_to_choose": 409,
        "scheme_window_over": 409,
        "scheme_chosen": 409,
        "week_not_chosen": 409,
        "busy": 503,
    },
)
routes.include(tasks_routes.routes)
routes.include(referral_routes.routes)
routes.include(badge_routes.routes)


@on_error(app, ProgressionError)
def refused(error: ProgressionError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    status = routes.statuses.get(error.code, 400)
    return error_reply(status, error.code, error.text, error.field)


add_common_handlers(app)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
