"""The table's stream, filtered to the `ENDED` items that game endings write: each is turned
into the winners' rewards (yamb_service.rewards). A failed record is retried alone
(yamb_service.game_ends); paying is idempotent, so a retried or repeated record pays nothing
twice."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb_service.game_ends import handle_game_ends
from yamb_service.observability import logger, metrics
from yamb_service.reward_wiring import reward_service
from yamb_service.warmup import collector_after_first_call


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return handle_game_ends(event, context, lambda ended: reward_service().pay(ended))
