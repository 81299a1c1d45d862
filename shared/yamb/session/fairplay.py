"""Fair play at the table (S7; the rules: yamb.social.fairplay): each person's decision times,
measured by the server from the moment it shows them their dice to their next roll or write;
the "not a robot" check put to a player whose record shows a signal, after one of their
writes; its answer; and the yellow card of a check failed, or ignored past its deadline (seen
at the player's next action, or at the game's end).

Bots are never measured nor judged. A scorekeeping table's dice are rolled by hand, so nothing
is measured there. Solo games are judged like any other: a script plays alone best of all.
"""

from collections.abc import Callable
from datetime import datetime

from yamb.i18n import Text
from yamb.session.effects import Effects, GameActionError
from yamb.session.model import GameSession, SeatFairplay
from yamb.social.fairplay import (
    CLEARED_FOR,
    DECISION_CAP_MS,
    DECISION_TIMES,
    DECISIONS_KEPT,
    FairplayCheck,
    FairplayRecord,
    Picker,
    Signal,
    decision_times_signal,
    new_check,
)


class FairplayCheckPendingError(GameActionError):
    """The player's move waits for their answer to the check (which is sent to them again)."""

    def __init__(self, game_id: str, check: FairplayCheck) -> None:
        super().__init__(
            Text("answer the check first: tap the die showing {face}", face=check.face),
            code="fairplay_check",
        )
        self.game_id, self.check = game_id, check


def _measured(session: GameSession, seat_index: int) -> SeatFairplay | None:
    seat = session.seats[seat_index]
    if seat.bot is not None or session.settings.physical_dice:
        return None
    if seat.fairplay is None:
        seat.fairplay = SeatFairplay()
    return seat.fairplay


def shown(session: GameSession, seat_index: int, now: datetime) -> None:
    """The seat's player has dice in front of them: a decision starts (not while away)."""
    measured = _measured(session, seat_index)
    if measured is not None:
        seat = session.seats[seat_index]
        measured.shown_at = None if seat.away else now


def decided(session: GameSession, seat_index: int, now: datetime) -> None:
    """The player rolled or wrote: the time since their dice were shown is one decision."""
    measured = _measured(session, seat_index)
    if measured is None or measured.shown_at is None:
        return
    elapsed = int((now - measured.shown_at).total_seconds() * 1000)
    measured.decisions = [*measured.decisions, min(max(0, elapsed), DECISION_CAP_MS)][
        -DECISIONS_KEPT:
    ]
    measured.shown_at = None


def unseen(session: GameSession, seat_index: int) -> None:
    """Away, paused, or the clock moved for them: the decision under way is not measured."""
    measured = session.seats[seat_index].fairplay
    if measured is not None:
        measured.shown_at = None


def guard(
    session: GameSession, player_id: str, now: datetime, change: Callable[[], Effects | None]
) -> Effects | None:
    """A player's move: refused while their check waits for an answer; a check past its
    deadline is a yellow card, and the move goes ahead."""
    seat_index = session.seat_of(player_id)
    measured = None if seat_index is None else session.seats[seat_index].fairplay
    check = None if measured is None else measured.check
    if measured is None or check is None:
        return change()
    if not check.overdue(now):
        raise FairplayCheckPendingError(session.game_id, check)
    measured.check, measured.suspect = None, None
    carded = Effects(fairplay_cards=[(player_id, check.check_id)])
    then = change()
    if then is None:
        return carded
    then.fairplay_cards = [*carded.fairplay_cards, *then.fairplay_cards]
    return then


def seat_state(record: FairplayRecord, now: datetime) -> SeatFairplay | None:
    """What a seat keeps of the player's record as they sit down (None: banned, never judged
    again; the accounts' ban takes them out)."""
    if record.banned:
        return None
    return SeatFairplay(
        judged=True,
        carried=record.decisions[-DECISION_TIMES.window :],
        suspect=None if record.cleared(now) else record.suspect,
        cleared_until=record.cleared_until,
    )


def signal_of(session: GameSession, seat_index: int, now: datetime) -> Signal | None:
    """The signal the seat's record and this game's decisions show, if a check is due."""
    seat = session.seats[seat_index]
    measured = seat.fairplay
    if seat.bot is not None or measured is None or not measured.judged:
        return None
    if measured.check is not None:
        return None
    if measured.cleared_until is not None and now < measured.cleared_until:
        return None
    if measured.suspect is not None:
        return measured.suspect
    if decision_times_signal([*measured.carried, *measured.decisions]) is not None:
        return "decision_times"
    return None


def judge(
    session: GameSession, player_id: str, now: datetime, check_id: str, pick: Picker
) -> Effects:
    """After a player's own write: a check for them when a signal shows (and none is open)."""
    effects = Effects()
    seat_index = session.seat_of(player_id)
    if seat_index is None or session.status != "running":
        return effects
    signal = signal_of(session, seat_index, now)
    measured = session.seats[seat_index].fairplay
    if signal is None or measured is None:
        return effects
    measured.check = new_check(check_id, signal, now, pick)
    effects.fairplay_checks.append(player_id)
    return effects


def answer(
    session: GameSession, player_id: str, check_id: str, position: int, now: datetime
) -> Effects:
    """The player's answer: passed, or failed (a wrong die, or too late): a yellow card."""
    seat_index = session.seat_of(player_id)
    measured = None if seat_index is None else session.seats[seat_index].fairplay
    check = None if measured is None else measured.check
    if measured is None or check is None or check.check_id != check_id:
        raise GameActionError(
            Text("there is no check to answer here"), code="fairplay_check_not_found"
        )
    measured.check = None
    if check.passes(position, now):
        # As the record has it (FairplayRecord.passed): cleared for a while, the evidence anew.
        measured.cleared_until = now + CLEARED_FOR
        measured.suspect, measured.carried, measured.decisions = None, [], []
        return Effects(fairplay_passed=[(player_id, check_id)])
    measured.suspect = None
    return Effects(fairplay_cards=[(player_id, check_id)])


def settle(session: GameSession, effects: Effects) -> None:
    """The game ends: a check still open was ignored."""
    for seat in session.seats:
        measured = seat.fairplay
        if measured is not None and measured.check is not None:
            effects.fairplay_cards.append((seat.player_id, measured.check.check_id))
            measured.check = None
        if measured is not None:
            measured.shown_at = None


def decisions_of(session: GameSession) -> dict[str, list[int]]:
    """Each person's decisions this game (for their record, once it ends)."""
    return {
        seat.player_id: seat.fairplay.decisions
        for seat in session.seats
        if seat.bot is None and seat.fairplay is not None and seat.fairplay.decisions
    }
