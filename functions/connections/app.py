"""$connect and $disconnect: one live connection per player, and presence in their game."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import CORRELATION_ID, MetricUnit, logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.edge.websocket import parse_event
from yamb_service.game.ports import HandshakeLimitError
from yamb_service.game.wiring import game_service


@collector_after_first_call
# API Gateway's id of the frame: a player's report of a lost action can be found with it.
@logger.inject_lambda_context(clear_state=True, correlation_id_path=CORRELATION_ID)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, int]:
    websocket = parse_event(event)
    caller = websocket.caller
    logger.append_keys(player_id=caller.player_id, connection_id=caller.connection_id)
    try:
        if websocket.request_context.route_key == "$connect":
            game_service().connect(caller)
        else:
            game_service().disconnect(caller)
    except HandshakeLimitError as error:
        # The handshake is refused with 429 Too Many Requests ($connect cannot send a frame).
        logger.info("connection refused: too many handshakes", reason=error.message)
        metrics.add_metric(name="HandshakeRefused", unit=MetricUnit.Count, value=1)
        return {"statusCode": 429}
    except ServiceBusyError:
        # A handshake the client may try again (a $disconnect's answer goes nowhere).
        logger.warning("connection refused for now: AWS is busy")
        return {"statusCode": 503}
    return {"statusCode": 200}
