"""Web Push (docs/push.md): the functions that have something to push (a slow game's turn, a
return countdown, a prize paid) invoke this one asynchronously with a PushRequest; it pushes the
notification to each device of the player, while the player's switch for its group is on (A8),
and drops a device its push service calls gone. Only this function carries pywebpush."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from dataclasses import asdict
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.push.messages import PushRequest
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.push.wiring import push_service


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = PushRequest.model_validate(event)
    logger.append_keys(player_id=request.player_id, kind=request.kind)
    return asdict(push_service().deliver(request))
