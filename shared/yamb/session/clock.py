"""The turn clock (rules.md 8): it runs for the seat in turn, freezes while its player is away,
and resumes where it froze, with at least 5 seconds once per turn."""

from datetime import datetime, timedelta

from yamb.session.model import GameSession

RESUME_FLOOR_MS = 5_000


def turn_seconds(session: GameSession) -> int | None:
    """The length of a full turn clock; None when turns have no clock."""
    if session.solo_finish or session.settings.turn_type == "slow":
        return None
    return session.settings.turn_seconds


def start_full(session: GameSession, seat: int, now: datetime) -> None:
    """A new turn's clock: the full time, frozen at once if the player is away."""
    clock = session.clock
    seconds = turn_seconds(session)
    if seconds is None:
        clock.deadline, clock.frozen_ms = None, None
        return
    clock.deadline, clock.frozen_ms = None, seconds * 1000
    if session.seats[seat].present:
        resume(session, now, floor=False)


def freeze(session: GameSession, now: datetime) -> None:
    clock = session.clock
    if clock.deadline is None:
        return
    clock.frozen_ms = max(0, int((clock.deadline - now).total_seconds() * 1000))
    clock.deadline = None


def resume(session: GameSession, now: datetime, *, floor: bool = True) -> None:
    """Runs a frozen clock again from what was left; a player coming back gets at least 5 s,
    once per turn."""
    clock = session.clock
    if clock.frozen_ms is None:
        return
    remaining = clock.frozen_ms
    if floor and clock.floor_used_in_turn != session.turn:
        if remaining < RESUME_FLOOR_MS:
            clock.floor_used_in_turn = session.turn
        remaining = max(remaining, RESUME_FLOOR_MS)
    clock.deadline, clock.frozen_ms = now + timedelta(milliseconds=remaining), None


def stop(session: GameSession) -> None:
    session.clock.deadline, session.clock.frozen_ms = None, None
