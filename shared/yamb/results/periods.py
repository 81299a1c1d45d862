"""The periods of the boards, in UTC: all time, a calendar month (`2026-12`), an ISO week
(`2026-W49`, Monday 00:00 to the next Monday 00:00). A result belongs to the periods its game
ended in; a period's board is paid once the period has ended."""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal, get_args

from yamb.i18n import Text
from yamb.results.errors import ResultsError

type PeriodKind = Literal["all", "month", "week"]
PERIOD_KINDS: tuple[PeriodKind, ...] = get_args(PeriodKind.__value__)

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


@dataclass(frozen=True, slots=True)
class Period:
    kind: PeriodKind
    id: str  # "all", "2026-12", "2026-W49"
    start: datetime | None  # None: all time
    end: datetime | None  # exclusive

    def has_ended(self, now: datetime) -> bool:
        return self.end is not None and now >= self.end

    def contains(self, moment: datetime) -> bool:
        if self.start is None or self.end is None:
            return True
        return self.start <= moment < self.end


ALL_TIME = Period("all", "all", None, None)


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a moment of a period is timezone-aware")
    return moment.astimezone(UTC)


def month_of(moment: datetime) -> Period:
    moment = _utc(moment)
    return _month(moment.year, moment.month)


def week_of(moment: datetime) -> Period:
    year, week, _ = _utc(moment).isocalendar()
    return _week(year, week)


def period_of(kind: PeriodKind, moment: datetime) -> Period:
    if kind == "month":
        return month_of(moment)
    if kind == "week":
        return week_of(moment)
    return ALL_TIME


def periods_of(moment: datetime) -> tuple[Period, ...]:
    """Every period a result of this moment counts in."""
    return ALL_TIME, month_of(moment), week_of(moment)


def previous(kind: PeriodKind, now: datetime) -> Period:
    """The period of this kind that ended last before `now` (the one a payout pays)."""
    if kind == "all":
        raise ResultsError(
            Text("all time never ends: nothing is paid for it"), code="unknown_period"
        )
    current = period_of(kind, now)
    assert current.start is not None
    return period_of(kind, current.start - timedelta(seconds=1))


def parse(text: str, now: datetime) -> Period:
    """`all`, `month` or `week` (the one running at `now`), or a period's id."""
    if text in PERIOD_KINDS:
        return period_of(text, now)
    if match := _MONTH.match(text):
        year, month = int(match[1]), int(match[2])
        if 2000 <= year <= 9998 and 1 <= month <= 12:
            return _month(year, month)
    if match := _WEEK.match(text):
        year, week = int(match[1]), int(match[2])
        if 2000 <= year <= 9998 and 1 <= week <= date(year, 12, 28).isocalendar()[1]:
            return _week(year, week)
    raise ResultsError(
        Text(
            "unknown period '{period}': all, month, week, a month (2026-12) or an ISO week "
            "(2026-W49)",
            period=text,
        ),
        code="unknown_period",
        field="period",
    )


def _month(year: int, month: int) -> Period:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return Period("month", f"{year:04d}-{month:02d}", start, end)


def _week(year: int, week: int) -> Period:
    start = datetime.combine(date.fromisocalendar(year, week, 1), datetime.min.time(), UTC)
    return Period("week", f"{year:04d}-W{week:02d}", start, start + timedelta(days=7))
