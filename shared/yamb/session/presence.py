"""Presence (rules.md 1, 8): a lost connection freezes the turn as it is, dice, roll count,
locks and announcement; the others see a 3-minute return countdown; a player back in time goes
on from where they were."""

from datetime import datetime, timedelta

from yamb.session import clock, decisions, fairplay, reminders
from yamb.session.model import GameSession

RETURN_WINDOW = timedelta(minutes=3)


def in_turn(session: GameSession, seat: int) -> bool:
    if session.engine is None:
        return False
    game = session.game()
    return bool(game.turn_of(seat)[0]) if session.own_turns else session.seat_in_turn(game) == seat


def _done(session: GameSession, seat: int) -> bool:
    """In a game of own turns, a seat whose sheet is full only waits for the others: being
    away is no leaving (the winner is known when all have finished, rules.md 7)."""
    return (
        session.own_turns
        and session.engine is not None
        and not session.game().sheets[seat].empty_cells
    )


def disconnect(session: GameSession, player_id: str, connection_id: str, now: datetime) -> bool:
    """The connection `connection_id` closed (or was found gone); False when that changes
    nothing (a game over, or a connection the player has already replaced). At a waiting table
    the seat is kept, away: if the game starts without the player, their countdown starts."""
    seat_index = session.seat_of(player_id)
    if seat_index is None or not session.in_play:
        return False
    seat = session.seats[seat_index]
    if seat.connection_id != connection_id or seat.left:
        return False
    seat.connection_id = None
    if not seat.present:
        return True
    seat.present = False
    reminders.schedule(session, seat_index, now)
    if session.status == "waiting":
        if player_id == session.creator:
            # The table waits for its creator a short while, then is handed over or closed
            # (rules.md 7, yamb.session.lobby.creator_gone).
            seat.return_deadline = now + RETURN_WINDOW
        return True
    if seat.paused:
        return True  # the pause's countdown runs on, its clock is frozen already
    if session.settings.turn_type != "slow" and not _done(session, seat_index):
        seat.return_deadline = now + RETURN_WINDOW
    if in_turn(session, seat_index):
        clock.freeze(session, seat_index, now)
        decisions.charge(session, seat_index, now)  # away is not deciding
        fairplay.unseen(session, seat_index)
    return True


def reconnect(session: GameSession, player_id: str, connection_id: str, now: datetime) -> bool:
    """A new connection of a seated player; False when the game has nothing to change."""
    seat_index = session.seat_of(player_id)
    if seat_index is None or not session.in_play:
        return False
    seat = session.seats[seat_index]
    if seat.left or (seat.connection_id == connection_id and seat.present):
        return False
    seat.connection_id = connection_id
    seat.remind_at = None
    if session.status == "waiting":
        seat.present, seat.return_deadline = True, None
    elif not seat.present and seat.paused:
        seat.present = True  # back to a paused turn: it stays paused until `resume`
    elif not seat.present:
        seat.present, seat.return_deadline = True, None
        if in_turn(session, seat_index) and session.finish_offer is None:
            clock.resume(session, seat_index, now)
            decisions.start(session, seat_index, now)
    return True
