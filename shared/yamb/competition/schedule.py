"""The tournaments the platform holds on its own (issue 32), as data: each series' kind, day,
hour (UTC), length, rules, fee and prizes. The planning job (EventBridge, daily) creates each
series' next tournaments a week ahead, with an id made of the series and the start, so a rerun
creates nothing twice; each is announced by mail (A8 "tournament announcements")."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import Any

from yamb.competition.tournaments import Kind, TournamentPlan

# How far ahead the planning job creates tournaments (their commitments are public from then).
AHEAD = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class Series:
    series: str
    name: str
    kind: Kind
    at: time  # UTC
    weekday: int | None = None  # 0 Monday; None every day
    minutes: int | None = None
    rounds: int | None = None
    rules: dict[str, Any] = field(default_factory=lambda: {"preset": 1})
    entry_fee: int = 0
    prizes: tuple[int, ...] = ()

    def plan(self, starts_at: datetime) -> TournamentPlan:
        return TournamentPlan(
            kind=self.kind,
            name=self.name,
            starts_at=starts_at,
            minutes=self.minutes,
            rounds=self.rounds,
            rules=dict(self.rules),
            entry_fee=self.entry_fee,
            prizes=list(self.prizes),
            series=self.series,
        )


SCHEDULE: tuple[Series, ...] = (
    Series("daily-duplicate", "Daily duplicate", "duplicate", time(19), minutes=120,
           prizes=(30, 20, 10)),
    Series("wednesday-swiss", "Wednesday Swiss", "swiss", time(19), weekday=2, rounds=5,
           entry_fee=10, prizes=(120, 60, 30)),
    Series("sunday-arena", "Sunday arena", "arena", time(18), weekday=6, minutes=60,
           entry_fee=10, prizes=(200, 100, 50, 25, 25)),
)  # fmt: skip


def upcoming(now: datetime, ahead: timedelta = AHEAD) -> Iterator[tuple[Series, datetime]]:
    """Each series' starts after `now` and within `ahead`, earliest first."""
    found = []
    for series in SCHEDULE:
        day = now.astimezone(UTC).date()
        while True:
            starts_at = datetime.combine(day, series.at, tzinfo=UTC)
            if starts_at > now + ahead:
                break
            if starts_at > now and (series.weekday is None or day.weekday() == series.weekday):
                found.append((series, starts_at))
            day += timedelta(days=1)
    yield from sorted(found, key=lambda pair: (pair[1], pair[0].series))
