"""The prize payouts (R2), run by EventBridge Scheduler after each week and month (UTC):
{"job": "week"} or {"job": "month"} pays the period of that kind that ended last. By hand (the
local stack's `job` command, or an operator) an event may carry "now" (ISO 8601: the moment the
job runs as of) and "period" (a past period's id, e.g. "2026-W48", to pay again what a failed
run left). Each prize is paid once, however often a period is run; a period that has not ended
is refused (nothing closed or paid)."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from dataclasses import asdict
from datetime import datetime
from typing import Any, Literal

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field
from yamb_service.common import clock
from yamb_service.common.observability import counts_job_failure, logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.results.wiring import prize_service


class PayoutJob(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: Literal["week", "month"]
    now: AwareDatetime | None = None
    period: str | None = Field(default=None, min_length=4, max_length=16)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
@counts_job_failure
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    job = PayoutJob.model_validate(event)
    now: datetime = job.now or clock.now()
    payout = prize_service().pay(job.job, now, job.period)
    return {"job": job.job, "now": now.isoformat(), **asdict(payout)}
