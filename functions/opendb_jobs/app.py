"""The open game database's monthly export (issue 32), run by EventBridge Scheduler on the
first of each month (UTC): {"job": "month"} exports the month that ended last. By hand (the
local stack's `job` command, or an operator) an event may carry "now" (ISO 8601: the moment the
job runs as of) and "month" (a past month, e.g. "2026-11", to export one a failed run left).
A month is written once, however often it is run; a month not yet over is refused (nothing
written)."""

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
from yamb_service.opendb.wiring import opendb_exporter


class ExportJob(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: Literal["month"]
    now: AwareDatetime | None = None
    month: str | None = Field(default=None, min_length=7, max_length=7)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
@counts_job_failure
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    job = ExportJob.model_validate(event)
    now: datetime = job.now or clock.now()
    export = opendb_exporter().export(now, job.month)
    logger.info("month exported", **asdict(export))
    return {"job": job.job, "now": now.isoformat(), **asdict(export)}
