"""The join cooldown of rules.md 8: 5, 15, 30, then 60 minutes by the day's disappearances."""

from datetime import UTC, datetime, timedelta

from yamb.session.cooldown import next_cooldown

DAY = datetime(2026, 3, 4, 22, 30, tzinfo=UTC)


def test_next_cooldown_grows_within_a_utc_day_and_starts_again_the_next() -> None:
    # given a player's disappearances counted one after another on one UTC day
    first = next_cooldown(None, 0, DAY)
    second = next_cooldown(first.day, first.disappearances, DAY)
    third = next_cooldown(second.day, second.disappearances, DAY)
    fourth = next_cooldown(third.day, third.disappearances, DAY)
    fifth = next_cooldown(fourth.day, fourth.disappearances, DAY)

    # when one more comes after midnight UTC
    next_day = next_cooldown(fifth.day, fifth.disappearances, DAY + timedelta(hours=2))

    # then each blocks longer, up to an hour, and the count starts again the next day
    assert [c.blocked_until - DAY for c in (first, second, third, fourth, fifth)] == [
        timedelta(minutes=minutes) for minutes in (5, 15, 30, 60, 60)
    ]
    assert (fifth.day, fifth.disappearances) == ("2026-03-04", 5)
    assert (next_day.day, next_day.disappearances) == ("2026-03-05", 1)
    assert next_day.blocked_until == DAY + timedelta(hours=2, minutes=5)
