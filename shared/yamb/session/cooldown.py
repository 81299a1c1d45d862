"""The join cooldown (rules.md 8): a player who disappears from a game after playing a turn may
not join another for 5, 15, 30, then 60 minutes, by the disappearances of that UTC day."""

from datetime import UTC, datetime, timedelta

COOLDOWN_MINUTES = (5, 15, 30, 60)


def cooldown_for(disappearances_today: int) -> timedelta:
    index = min(disappearances_today, len(COOLDOWN_MINUTES)) - 1
    return timedelta(minutes=COOLDOWN_MINUTES[index])


def utc_day(moment: datetime) -> str:
    return moment.astimezone(UTC).date().isoformat()
