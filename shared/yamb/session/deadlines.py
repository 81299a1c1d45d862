"""A game's deadlines: the moments it must be woken at, and what waking it then does.

A deadline is data in the game (the turn clock, each absent seat's return deadline); whatever
wakes the game (a timer, on time, early, late or twice) applies what is due by then and nothing
else, so a timer needs to know nothing but the game it wakes.
"""

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from yamb.dice import DiceSource
from yamb.session import bot_turns, clock, lobby, reminders, seeds
from yamb.session.effects import Effects
from yamb.session.leaving import expire_return, returns_due
from yamb.session.model import GameSession
from yamb.session.slow import expire_slow_game, slow_game_is_due
from yamb.session.turns import DUE_TOLERANCE, due_turns, expire_turn


def pending(session: GameSession) -> list[datetime]:
    """Every moment the game must be woken at, earliest first."""
    if session.status == "waiting":
        # The away creator of a waiting table: handed over or closed then (lobby.creator_gone).
        seat = session.seat_of(session.creator)
        held = session.seats[seat] if seat is not None else None
        waiting = [] if held is None or held.present else [held.return_deadline]
        return sorted(m for m in [*waiting, *reminders.moments(session)] if m is not None)
    if session.status != "running":
        return []
    moments = [
        seat.return_deadline
        for seat in session.seats
        if seat.return_deadline is not None and seat.away and not seat.left
    ]
    moments.extend(seeds.moments(session))
    moments.extend(clock.moments(session))
    moments.extend(bot_turns.moments(session))
    if session.slow_deadline is not None:
        moments.append(session.slow_deadline)
    moments.extend(reminders.moments(session))
    return sorted(moments)


def apply_due(
    session: GameSession, now: datetime, dice: DiceSource, tolerance: timedelta = DUE_TOLERANCE
) -> Effects | None:
    """Applies every deadline due by `now`, in the order they fell due; None when none is.
    A timer's wake allows `tolerance` (it may come a moment early); before an action, none."""
    if lobby.creator_due(session, now, tolerance) is not None:
        return lobby.creator_gone(session, now)
    applied: Effects | None = None
    if seeds.due(session, now, tolerance):
        # The first roll waited for the players' seeds: it comes before anything else.
        applied = seeds.close(session, now, dice)
    # Each step ends a turn, removes a seat, ends the game or makes a bot's move (whose next
    # one is scheduled after this write), so the loop is bounded.
    for _ in range(3 * len(session.seats) + 2):
        due: list[tuple[datetime, int, Callable[[], Effects | None]]] = []
        returns = returns_due(session, now, tolerance)
        if returns:
            seat = returns[0]
            moment = session.seats[seat].return_deadline
            assert moment is not None
            due.append((moment, 0, partial(expire_return, session, seat, now, dice)))
        turns = due_turns(session, now, tolerance)
        if turns:
            moment, seat = turns[0]
            due.append((moment, 1, partial(expire_turn, session, now, dice, tolerance, seat)))
        if slow_game_is_due(session, now, tolerance):
            assert session.slow_deadline is not None
            due.append((session.slow_deadline, 2, partial(expire_slow_game, session, now)))
        bots = bot_turns.bots_due(session, now, tolerance)
        if bots:
            moment, seat = bots[0]
            due.append((moment, 3, partial(bot_turns.play_bot, session, seat, now, dice)))
        if not due:
            break
        # The earliest first; at the same moment a missed return before a clock before the end.
        _, _, apply = min(due, key=lambda entry: entry[:2])
        effects = apply()
        if effects is None:  # pragma: no cover - each was found due
            break
        applied = effects if applied is None else merged(applied, effects)
    return applied


def woken(
    session: GameSession, now: datetime, dice: DiceSource, tolerance: timedelta = DUE_TOLERANCE
) -> Effects | None:
    """What a timer's wake applies: every deadline due, then the return reminders due (taken
    only here, so that only the clock function mails them)."""
    applied = apply_due(session, now, dice, tolerance)
    due = reminders.take_due(session, now, tolerance)
    if not due:
        return applied
    return merged(applied or Effects(), Effects(reminders=due))


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
        bot_moves_failed=first.bot_moves_failed + then.bot_moves_failed,
        reminders=[*first.reminders, *then.reminders],
        fairplay_checks=[*first.fairplay_checks, *then.fairplay_checks],
        fairplay_passed=[*first.fairplay_passed, *then.fairplay_passed],
        fairplay_cards=[*first.fairplay_cards, *then.fairplay_cards],
    )
