"""The join cooldown (rules.md 8): a player who disappears from a game after playing a turn may
not join another for 5, 15, 30, then 60 minutes, by the disappearances of that UTC day."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

COOLDOWN_MINUTES = (5, 15, 30, 60)


@dataclass(frozen=True, slots=True)
class Cooldown:
    """A player's disappearances of a UTC day, and until when they may not join."""

    day: str
    disappearances: int
    blocked_until: datetime


def cooldown_for(disappearances_today: int) -> timedelta:
    index = min(disappearances_today, len(COOLDOWN_MINUTES)) - 1
    return timedelta(minutes=COOLDOWN_MINUTES[index])


def utc_day(moment: datetime) -> str:
    return moment.astimezone(UTC).date().isoformat()


def next_cooldown(day: str | None, disappearances: int, now: datetime) -> Cooldown:
    """One more disappearance, `now`, after `disappearances` on `day` (the last one counted)."""
    today = utc_day(now)
    count = disappearances + 1 if day == today else 1
    return Cooldown(today, count, now + cooldown_for(count))
