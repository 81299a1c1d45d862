"""Pause (rules.md 1, 8; product G5): the player in turn may freeze their turn clock on request,
once a turn, where turns have a clock. A paused turn is kept exactly as it is, as for a lost
connection: the clock freezes with what is left, the others see the 3-minute return countdown,
and not resuming in time counts as leaving (yamb.session.leaving.expire_return). On `resume` the
clock runs again from where it froze, with at least 5 seconds (the floor is once a turn, shared
with a return after a lost connection). While paused, the player's turn actions are refused
(`paused`, yamb.session.turns.current); resigning is not."""

from datetime import datetime

from yamb.i18n import Text
from yamb.session import clock, decisions, fairplay
from yamb.session.effects import GameActionError, require_status
from yamb.session.model import GameSession
from yamb.session.presence import RETURN_WINDOW, in_turn
from yamb.session.turns import refuse_turn


def _own_seat(session: GameSession, player_id: str) -> int:
    require_status(session, "running")
    seat = session.seat_of(player_id)
    if seat is None or session.seats[seat].left:
        raise GameActionError(Text("you do not play in this game"), code="not_seated")
    return seat


def _check_turn(session: GameSession, seat: int, turn: int | None) -> int:
    number = clock.turn_number(session, seat)
    if turn is not None and turn != number:
        refuse_turn(turn, number, "your " if session.own_turns else "")
    return number


def pause(session: GameSession, player_id: str, turn: int | None, now: datetime) -> None:
    seat_index = _own_seat(session, player_id)
    seat = session.seats[seat_index]
    if seat.paused:
        raise GameActionError(Text("your turn is paused already"), code="paused")
    if session.finish_offer is not None:
        raise GameActionError(
            Text("waiting for the answer to the finish offer"), code="finish_offer"
        )
    if clock.turn_seconds(session) is None:
        raise GameActionError(
            Text("turns have no clock in this game: there is nothing to pause"), code="not_allowed"
        )
    if not in_turn(session, seat_index):
        raise GameActionError(
            Text("only the player in turn pauses their clock"), code="not_your_turn"
        )
    number = _check_turn(session, seat_index, turn)
    if seat.paused_in_turn == number:
        raise GameActionError(
            Text("you have paused this turn already: once a turn"), code="pause_used"
        )
    if session.slot(seat_index).clock.deadline is None:
        raise GameActionError(Text("your turn clock is not running"), code="not_allowed")
    clock.freeze(session, seat_index, now)
    decisions.charge(session, seat_index, now)  # a pause is not deciding
    fairplay.unseen(session, seat_index)
    seat.paused, seat.paused_in_turn = True, number
    seat.return_deadline = now + RETURN_WINDOW


def resume(session: GameSession, player_id: str, turn: int | None, now: datetime) -> None:
    seat_index = _own_seat(session, player_id)
    seat = session.seats[seat_index]
    if not seat.paused:
        raise GameActionError(Text("your turn is not paused"), code="not_paused")
    _check_turn(session, seat_index, turn)
    seat.paused, seat.return_deadline = False, None
    if in_turn(session, seat_index) and session.finish_offer is None:
        clock.resume(session, seat_index, now)
        decisions.start(session, seat_index, now)
