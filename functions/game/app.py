"""Every client action of the game protocol (all routes but $connect and $disconnect)."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb_service.common.observability import CORRELATION_ID, MetricUnit, logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.edge.websocket import BadFrameError, parse_action, parse_event
from yamb_service.game.wiring import game_service

OK = {"statusCode": 200}


@collector_after_first_call
# API Gateway's id of the frame: a player's report of a lost action can be found with it.
@logger.inject_lambda_context(clear_state=True, correlation_id_path=CORRELATION_ID)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, int]:
    websocket = parse_event(event)
    caller = websocket.caller
    service = game_service()
    try:
        action = parse_action(websocket.body)
    except BadFrameError as error:
        metrics.add_metric(name="FrameRefused", unit=MetricUnit.Count, value=1)
        logger.info("frame refused", code=error.code, request_id=error.request_id)
        service.reply_error(
            caller.connection_id,
            error.code,
            error.text,
            error.request_id,
            language=caller.language,
        )
        return OK
    service.handle(caller, action)
    return OK
