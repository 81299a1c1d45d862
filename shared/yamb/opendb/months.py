"""A month of the database: `YYYY-MM`, in UTC. A game belongs to the month it ended in."""

import re
from datetime import UTC, datetime

from yamb.i18n import Text
from yamb.opendb.errors import OpenDbError

_MONTH = re.compile(r"(\d{4})-(0[1-9]|1[0-2])")


def month_of(moment: datetime) -> str:
    """The month (UTC) a moment falls in."""
    return moment.astimezone(UTC).strftime("%Y-%m")


def parse_month(text: str) -> str:
    """A month as `YYYY-MM`, or OpenDbError `unknown_month`."""
    if not _MONTH.fullmatch(text):
        raise OpenDbError(
            Text("a month is written YYYY-MM, e.g. 2026-11"), code="unknown_month", field="month"
        )
    return text


def previous_month(now: datetime) -> str:
    """The month that ended last (UTC) as of `now`."""
    moment = now.astimezone(UTC)
    year, month = (moment.year, moment.month - 1) if moment.month > 1 else (moment.year - 1, 12)
    return f"{year:04d}-{month:02d}"


def month_end(month: str) -> datetime:
    """The first moment after the month (UTC)."""
    year, number = (int(part) for part in parse_month(month).split("-"))
    if number == 12:
        return datetime(year + 1, 1, 1, tzinfo=UTC)
    return datetime(year, number + 1, 1, tzinfo=UTC)


def require_over(month: str, now: datetime) -> None:
    """Refuses a month not yet over: its games are still being played."""
    if now < month_end(month):
        raise OpenDbError(
            Text(
                "the month {month} is not over yet: it is exported once it has ended (UTC)",
                month=month,
            ),
            code="month_not_over",
            field="month",
        )
