"""The tournaments' scheduled jobs (issue 32, docs/competition.md), run by EventBridge
Scheduler:
- {"job": "plan"} (daily): the schedule's tournaments of the coming week created, each once, and
  announced by mail to the players of its rules (A8 "tournament announcements");
- {"job": "run"} (every minute): every tournament moved on: started when due (cancelled, fees
  refunded, with too few entrants), its free entrants paired and their tables made, finished
  when over, its prizes paid;
- {"job": "pay", "tournament": id}: a finished tournament's prizes paid (each once; a running
  one is refused);
- {"job": "season"} (weekly): the last ended season closed: each league's promotions and
  relegations and each player's badge, written once ("season": its first day, one by hand).
By hand (the local stack's `job` command, or an operator) an event may carry "now" (ISO 8601)
and "tournament" (one tournament only)."""

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
from yamb_service.competition.jobs_wiring import tournament_runner
from yamb_service.competition.wiring import season_service, tournament_announcer


class TournamentJob(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: Literal["plan", "run", "pay", "season"]
    now: AwareDatetime | None = None
    tournament: str | None = Field(default=None, min_length=1, max_length=64)
    season: str | None = Field(default=None, min_length=10, max_length=10)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
@counts_job_failure
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    job = TournamentJob.model_validate(event)
    now: datetime = job.now or clock.now()
    service = tournament_runner()
    match job.job:
        case "plan":
            made = service.plan_schedule(now)
            mailed = tournament_announcer().announce(made)
            created = [t.tournament_id for t in made]
            return {"job": "plan", "now": now.isoformat(), "created": created, "mailed": mailed}
        case "run":
            return {
                "job": "run",
                "now": now.isoformat(),
                **asdict(done := service.run(now, job.tournament)),
                "unseated": sorted(done.unseated),
            }
        case "season":
            closed = season_service().close(now, job.season)
            return {"job": "season", "now": now.isoformat(), **asdict(closed)}
        case "pay":
            if job.tournament is None:
                raise ValueError("the pay job names its tournament")
            return {
                "job": "pay",
                "now": now.isoformat(),
                **asdict(service.pay(job.tournament, now)),
            }
