"""Leaving a running game (rules.md 8): resigning, not coming back in time, and the offer to the
last player left to finish their sheet."""

from datetime import datetime, timedelta

from yamb.dice import DiceSource
from yamb.game import Game
from yamb.i18n import Text
from yamb.session import clock
from yamb.session.effects import Effects, GameActionError, require_status
from yamb.session.endings import end, finish
from yamb.session.model import GameSession, Outcome, PairsTurn
from yamb.session.turns import (
    DUE_TOLERANCE,
    begin_turn,
    next_own_turns,
    refuse_while_seeds_awaited,
)


def resign(session: GameSession, player_id: str, now: datetime, dice: DiceSource) -> Effects:
    require_status(session, "running")
    refuse_while_seeds_awaited(session)  # a few seconds: the game has no dice to leave yet
    seat_index = session.seat_of(player_id)
    if seat_index is None or session.seats[seat_index].left:
        raise GameActionError(Text("you do not play in this game"), code="not_seated")
    effects = Effects()
    if _already_won(session, player_id):
        # The last player left already won: giving up the rest of the sheet ends the game.
        session.finish_offer = None
        finish(session, session.game(), now, "declined_finish", effects)
        return effects
    _seat_leaves(session, seat_index, now=now, dice=dice, effects=effects, outcome="resigned")
    return effects


def _already_won(session: GameSession, player_id: str) -> bool:
    """The player is left alone with the win (or in 2 vs 2 is of the team left with it): their
    leaving gives up the rest of the sheet, not the win."""
    if session.finish_offer == player_id or session.solo_finish:
        return True
    return (
        session.settings.pairs
        and session.finish_offer is not None
        and (player_id in session.winners)
    )


def returns_due(
    session: GameSession, now: datetime, tolerance: timedelta = DUE_TOLERANCE
) -> list[int]:
    """Absent seats whose return deadline has passed, earliest first."""
    if session.status != "running":
        return []
    due = [
        (seat.return_deadline, index)
        for index, seat in enumerate(session.seats)
        if seat.away
        and not seat.left
        and seat.return_deadline is not None
        and seat.return_deadline <= now + tolerance
    ]
    return [index for _, index in sorted(due)]


def expire_return(
    session: GameSession, seat_index: int, now: datetime, dice: DiceSource
) -> Effects:
    """Not back in time: the player leaves the game (rules.md 8)."""
    seat = session.seats[seat_index]
    effects = Effects(returns_missed=1)
    game = session.game()
    if _already_won(session, seat.player_id):
        # The last player left, away for good: their win stands, without a recorded result.
        session.finish_offer = None
        finish(session, game, now, "declined_finish", effects)
        return effects
    if game.turns_played[session.engine_seat(seat_index)] > 0:
        effects.disappeared.append(seat.player_id)
        seat.abandoned = True
    _seat_leaves(session, seat_index, now=now, dice=dice, effects=effects, outcome="abandoned")
    if session.status == "running" and not any(
        session.seats[i].present and session.seats[i].bot is None for i in session.remaining_seats()
    ):
        end(session, now, "cancelled", [], effects)
    return effects


def _seat_leaves(
    session: GameSession,
    seat_index: int,
    *,
    now: datetime,
    dice: DiceSource,
    effects: Effects,
    outcome: Outcome,
) -> None:
    game = session.game()
    if session.settings.pairs:
        _team_leaves(session, game, seat_index, now=now, effects=effects, outcome=outcome)
        return
    was_current = game.seat == seat_index
    seat = session.seats[seat_index]
    seat.left, seat.present, seat.return_deadline = True, False, None
    seat.paused = False
    effects.players[seat.player_id] = "release"
    session.close_own_turn(seat_index)
    game.leave(seat_index)
    remaining = session.remaining_seats()
    if not remaining:
        session.store(game)
        end(session, now, outcome if len(session.seats) == 1 else "cancelled", [], effects)
        return
    if all(session.seats[i].bot is not None for i in remaining):
        # No person is left to play against: the bots win as they stand, nothing to offer.
        session.store(game)
        end(session, now, outcome, [session.seats[i].player_id for i in remaining], effects)
        return
    if len(remaining) == 1 and len(session.seats) > 1:
        last = session.seats[remaining[0]].player_id
        session.winners = [last]
        if game.sheets[remaining[0]].is_full():
            session.store(game)
            finish(session, game, now, outcome, effects)
            return
        session.finish_offer = last
        session.offered_turns = game.turns_played[remaining[0]]
        clock.stop(session)
        session.store(game)
        return
    if game.finished:
        finish(session, game, now, outcome, effects)
    elif session.own_turns:
        next_own_turns(session, game, now, dice)  # the round may have waited for this seat
    elif was_current:
        begin_turn(session, game, now, dice)
    session.store(game)


def _team_leaves(
    session: GameSession,
    game: Game,
    seat_index: int,
    *,
    now: datetime,
    effects: Effects,
    outcome: Outcome,
) -> None:
    """2 vs 2 (rules.md 7): a player resigning or leaving ends the match for their team; the
    other team wins at once and is offered to finish its sheet, answered by its first player."""
    losing = seat_index // 2
    for member in (2 * losing, 2 * losing + 1):
        seat = session.seats[member]
        seat.left, seat.return_deadline, seat.paused = True, None, False
        seat.present = seat.present and member != seat_index
        effects.players[seat.player_id] = "release"
    losing_in_turn = game.seat == losing
    game.leave(losing)
    winning = 1 - losing
    session.winners = [session.seats[2 * winning + i].player_id for i in (0, 1)]
    if game.sheets[winning].is_full() or game.finished:
        session.store(game)
        finish(session, game, now, outcome, effects)
        return
    if losing_in_turn:
        session.pairs = PairsTurn()  # the winning team's turn starts afresh
        session.pending, session.locks = None, []
    elif session.pairs is not None:
        session.pairs.grace = False  # finished without a clock: the dice are free again
    session.finish_offer = session.seats[2 * winning].player_id
    session.offered_turns = game.turns_played[winning]
    clock.stop(session)
    session.store(game)


def answer_finish_offer(
    session: GameSession, player_id: str, accept: bool, now: datetime, dice: DiceSource
) -> Effects:
    """Yes: play on alone without a clock, the result recorded. No: the game ends at once with
    the player's win and no recorded result."""
    require_status(session, "running")
    if session.finish_offer != player_id:
        raise GameActionError(Text("there is no finish offer for you"), code="no_finish_offer")
    effects = Effects()
    session.finish_offer = None
    game = session.game()
    if not accept:
        finish(session, game, now, "declined_finish", effects)
        return effects
    session.solo_finish = True
    seat = session.engine_seat(session.player_ids.index(player_id))
    if not game.turn_of(seat)[0]:
        begin_turn(session, game, now, dice, seat if session.own_turns else None)
    else:
        clock.stop(session)  # the rest of the sheet is played without a clock
    session.store(game)
    return effects
