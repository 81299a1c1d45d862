"""Progression's weekly job (functions/progression_jobs): at a week's start, the week's tasks
are chosen (and kept), and the referrals' week that just ended is paid. Each part is idempotent,
so a run again, or a run after a failed one, does what is missing and nothing twice."""

from dataclasses import dataclass
from datetime import datetime

from yamb.results.periods import previous

from yamb_service.progression.referral.service import ReferralPayout
from yamb_service.progression.wiring import referral_service, task_service


@dataclass(frozen=True, slots=True)
class WeekRun:
    week: str
    tasks: list[str]
    referrals: ReferralPayout  # of the week that ended


def run_week(now: datetime) -> WeekRun:
    chosen = task_service().choose_week(now)
    paid = referral_service().pay_week(previous("week", now), now)
    return WeekRun(week=chosen.week, tasks=[c.task.id for c in chosen.chosen], referrals=paid)
