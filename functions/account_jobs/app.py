"""The daily account jobs, run by EventBridge Scheduler with {"job": "daily"} (and by hand on
the local stack, with a chosen "now"), and the operators' tasks: {"task": "ban", "playerId":
..., "reason": ...}. The event is checked first: an unknown job or task does nothing."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from dataclasses import asdict
from datetime import datetime
from typing import Annotated, Any, Literal

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, TypeAdapter
from yamb_service.accounts.wiring import account_service
from yamb_service.common import clock
from yamb_service.common.observability import counts_job_failure, logger, metrics
from yamb_service.common.warmup import collector_after_first_call


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class DailyJob(_Event):
    job: Literal["daily"]
    # The moment the job runs as of (ISO 8601 with its offset); the clock's now otherwise.
    now: AwareDatetime | None = None


class BanTask(_Event):
    task: Literal["ban"]
    player_id: Annotated[str, Field(alias="playerId", min_length=1, max_length=64)]
    reason: Annotated[str, Field(min_length=1, max_length=200)]


_EVENTS: TypeAdapter[DailyJob | BanTask] = TypeAdapter(DailyJob | BanTask)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
@counts_job_failure
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = _EVENTS.validate_python(event)
    if isinstance(request, BanTask):
        logger.append_keys(player_id=request.player_id)
        profile = account_service().ban(request.player_id, request.reason)
        return {"task": "ban", "playerId": profile.player_id, "status": profile.status}
    now: datetime = request.now or clock.now()
    report = account_service().daily(now)
    logger.info("daily account jobs done", **asdict(report))
    return {"job": "daily", "now": now.isoformat(), **asdict(report)}
