"""A game's deadlines: the moments it must be woken at, and what waking it then does.

A deadline is data in the game (the turn clock, each absent seat's return deadline); whatever
wakes the game (a timer, on time, early, late or twice) applies what is due by then and nothing
else, so a timer needs to know nothing but the game it wakes.
"""

from datetime import datetime, timedelta

from yamb.dice import DiceSource
from yamb.session.effects import Effects
from yamb.session.leaving import expire_return, returns_due
from yamb.session.model import GameSession
from yamb.session.turns import DUE_TOLERANCE, expire_turn, turn_is_due


def pending(session: GameSession) -> list[datetime]:
    """Every moment the game must be woken at, earliest first."""
    if session.status != "running":
        return []
    moments = [
        seat.return_deadline
        for seat in session.seats
        if seat.return_deadline is not None and not seat.present and not seat.left
    ]
    if session.clock.deadline is not None:
        moments.append(session.clock.deadline)
    return sorted(moments)


def apply_due(
    session: GameSession, now: datetime, dice: DiceSource, tolerance: timedelta = DUE_TOLERANCE
) -> Effects | None:
    """Applies every deadline due by `now`, in the order they fell due; None when none is.
    A timer's wake allows `tolerance` (it may come a moment early); before an action, none."""
    applied: Effects | None = None
    # Each step ends a turn or removes a seat, so the loop is bounded by the seats.
    for _ in range(len(session.seats) + 1):
        returns = returns_due(session, now, tolerance)
        turn_due = turn_is_due(session, now, tolerance)
        if not returns and not turn_due:
            break
        first_return = session.seats[returns[0]].return_deadline if returns else None
        turn_deadline = session.clock.deadline
        effects: Effects | None
        if first_return is not None and (
            not turn_due or turn_deadline is None or first_return <= turn_deadline
        ):
            effects = expire_return(session, returns[0], now, dice)
        else:
            effects = expire_turn(session, now, dice, tolerance)
        if effects is None:  # pragma: no cover - turn_is_due said it was due
            break
        applied = effects if applied is None else merged(applied, effects)
    return applied


def merged(first: Effects, then: Effects) -> Effects:
    """Two changes' effects as one (the second's player changes win)."""
    return Effects(
        disappeared=[*first.disappeared, *then.disappeared],
        players={**first.players, **then.players},
        ended=first.ended or then.ended,
        result_changed=first.result_changed or then.result_changed,
        removed=first.removed or then.removed,
        turns_timed_out=first.turns_timed_out + then.turns_timed_out,
        returns_missed=first.returns_missed + then.returns_missed,
    )
