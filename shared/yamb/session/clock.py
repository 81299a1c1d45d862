"""The turn clock (rules.md 8): it runs for a player's turn, freezes while the player is away,
and resumes where it froze, with at least 5 seconds once per turn. Turn by turn only the seat in
turn has one; in a game of own turns every seat's turn has its own, all running at once."""

from datetime import datetime, timedelta

from yamb.session.model import GameSession

RESUME_FLOOR_MS = 5_000


def turn_seconds(session: GameSession) -> int | None:
    """The length of a full turn clock; None when turns have no clock."""
    if session.solo_finish or session.settings.turn_type == "slow":
        return None
    return session.settings.turn_seconds


def turn_number(session: GameSession, seat: int) -> int:
    """The number an action names its turn by: the table's turn, or in a game of own turns
    the seat's own (0 between its turns)."""
    if not session.own_turns:
        return session.turn
    own = session.seats[seat].own
    return 0 if own is None else own.number


def start_full(session: GameSession, seat: int, now: datetime) -> None:
    """A new turn's clock: the full time, frozen at once if the player is away."""
    clock = session.slot(seat).clock
    seconds = turn_seconds(session)
    if seconds is None:
        clock.deadline, clock.frozen_ms = None, None
        return
    clock.deadline, clock.frozen_ms = None, seconds * 1000
    if session.seats[seat].present:
        resume(session, seat, now, floor=False)


def freeze(session: GameSession, seat: int, now: datetime) -> None:
    clock = session.slot(seat).clock
    if clock.deadline is None:
        return
    clock.frozen_ms = max(0, int((clock.deadline - now).total_seconds() * 1000))
    clock.deadline = None


def resume(session: GameSession, seat: int, now: datetime, *, floor: bool = True) -> None:
    """Runs a frozen clock again from what was left; a player coming back gets at least 5 s,
    once per turn."""
    clock = session.slot(seat).clock
    if clock.frozen_ms is None:
        return
    remaining = clock.frozen_ms
    turn = turn_number(session, seat)
    if floor and clock.floor_used_in_turn != turn:
        if remaining < RESUME_FLOOR_MS:
            clock.floor_used_in_turn = turn
        remaining = max(remaining, RESUME_FLOOR_MS)
    clock.deadline, clock.frozen_ms = now + timedelta(milliseconds=remaining), None


def stop(session: GameSession) -> None:
    """Every clock of the game stops (the game ended, or waits for an answer)."""
    session.clock.deadline, session.clock.frozen_ms = None, None
    for seat in session.seats:
        if seat.own is not None:
            seat.own.clock.deadline, seat.own.clock.frozen_ms = None, None


def moments(session: GameSession) -> list[datetime]:
    """When each running turn clock runs out (no engine read: every write plans its timers)."""
    if not session.own_turns:
        return [] if session.clock.deadline is None else [session.clock.deadline]
    return [
        seat.own.clock.deadline
        for seat in session.seats
        if seat.own is not None and seat.own.clock.deadline is not None
    ]


def deadlines(session: GameSession, due_by: datetime) -> list[tuple[datetime, int]]:
    """Every turn clock run out by `due_by` as (deadline, seat), earliest first. Turn by turn
    the engine is read (for the seat in turn) only when the clock has run out."""
    if not session.own_turns:
        deadline = session.clock.deadline
        if deadline is None or deadline > due_by or session.engine is None:
            return []
        return [(deadline, session.seat_in_turn(session.game()))]
    return sorted(
        (seat.own.clock.deadline, index)
        for index, seat in enumerate(session.seats)
        if seat.own is not None
        and seat.own.clock.deadline is not None
        and seat.own.clock.deadline <= due_by
    )
