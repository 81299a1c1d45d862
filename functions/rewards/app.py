"""The table's stream, filtered to the `ENDED` items that game endings write: each is turned
into the winners' rewards (yamb_service.economy.rewards.service). A failed record is retried alone
(yamb_service.edge.game_ends); paying is idempotent, so a retried or repeated record pays nothing
twice."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.economy.rewards.wiring import reward_service
from yamb_service.edge.game_ends import handle_game_ends


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return handle_game_ends(event, context, lambda ended: reward_service().pay(ended))
