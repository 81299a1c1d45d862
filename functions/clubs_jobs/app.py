"""Clubs' daily job, run by EventBridge Scheduler at 00:30 UTC: {"job": "dormancy"} settles the
memberships of every player in more than one club (C8): premium ended, the clubs beyond the first
and the one they administer turn dormant; premium renewed, they are live again; each changed
club scores again. The same settling happens at sign-in (GET /me/clubs); the job reaches those
who stay away. By hand an event may carry "now" (ISO 8601). A run again changes nothing."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from datetime import datetime
from typing import Any, Literal

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import AwareDatetime, BaseModel, ConfigDict
from yamb_service.clubs.wiring import clubs_service_at
from yamb_service.common import clock
from yamb_service.common.observability import counts_job_failure, logger, metrics
from yamb_service.common.warmup import collector_after_first_call


class DailyJob(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: Literal["dormancy"]
    now: AwareDatetime | None = None


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
@counts_job_failure
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    job = DailyJob.model_validate(event)
    now: datetime = job.now or clock.now()
    changed = clubs_service_at(now).settle_all()
    logger.info("memberships settled by the daily job", changed=changed)
    return {"job": job.job, "now": now.isoformat(), "changed": changed}
