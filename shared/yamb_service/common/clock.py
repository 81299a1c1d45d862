"""The functions' clock: real time in AWS; the local stack sets its own (`clock`), which tests
move forward. Every service looks it up at each call (`now`). Apart from the game's wiring so
that the functions that only need the time do not import the game service."""

from collections.abc import Callable
from datetime import UTC, datetime


def utc_now() -> datetime:
    return datetime.now(UTC)


clock: Callable[[], datetime] = utc_now


def now() -> datetime:
    return clock()
