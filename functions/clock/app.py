"""A deadline reached (the Step Functions task): acts only if the turn it guards is current."""

from typing import Any, Literal

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, Field
from yamb_service.observability import logger, metrics
from yamb_service.wiring import game_service


class DeadlineReached(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    kind: Literal["turn", "return"]
    game_id: str = Field(alias="gameId")
    turn: int
    version: int
    player_id: str = Field(alias="playerId")


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, bool]:
    deadline = DeadlineReached.model_validate(event)
    logger.append_keys(game_id=deadline.game_id, turn=deadline.turn, kind=deadline.kind)
    applied = game_service().deadline(
        deadline.kind, deadline.game_id, deadline.turn, deadline.version, deadline.player_id
    )
    logger.info("deadline reached", applied=applied)
    return {"applied": applied}
