"""A timer woke a game (a lane's heartbeat ran out, or a one-shot wake reached its instant):
every deadline due by now applies; a lane gets back its next input."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb_service.observability import logger, metrics
from yamb_service.timers import CLOCK_EVENTS, LaneLost, LaneWoken
from yamb_service.warmup import collector_after_first_call
from yamb_service.wiring import game_service


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any] | None:
    woken = CLOCK_EVENTS.validate_python(event)
    lane = woken.lane if isinstance(woken, LaneWoken | LaneLost) else None
    logger.append_keys(game_id=woken.game_id, source=woken.source, lane=lane)
    decision = game_service().wake(woken.game_id, lane=lane, lost=isinstance(woken, LaneLost))
    logger.info("woken", rearm=None if decision is None else decision.rearm)
    return None if decision is None else decision.model_dump(by_alias=True)
