"""Progression's weekly job, run by EventBridge Scheduler at each ISO week's start (Monday 00:00
UTC): {"job": "week"} chooses the week's tasks and pays the referrals' last week. By hand (the
local stack's `job` command, or an operator) an event may carry "now" (ISO 8601: the moment the
job runs as of). A run again changes nothing: the choice is kept, each payment has its key."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from dataclasses import asdict
from datetime import datetime
from typing import Any, Literal

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import AwareDatetime, BaseModel, ConfigDict
from yamb_service.common import clock
from yamb_service.common.observability import counts_job_failure, logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.progression.jobs import run_week


class WeeklyJob(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: Literal["week"]
    now: AwareDatetime | None = None


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
@counts_job_failure
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    job = WeeklyJob.model_validate(event)
    now: datetime = job.now or clock.now()
    return {"job": job.job, "now": now.isoformat(), **asdict(run_week(now))}
