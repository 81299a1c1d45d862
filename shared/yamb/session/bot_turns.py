"""Bots play (product G11): each move of a bot is a deadline of the game, like a turn clock.

A bot that may move (its seat in turn, or its own turn open) gets a moment a short, human-like
delay ahead (`Seat.bot_due`); the game's timers wake it then (yamb.session.timers plans them
from `deadlines.pending`), and the wake makes that one move through the same functions a
person's action uses (yamb.session.turns), in the same conditional write. So a bot rolls with
the game's dice source when its move is made, never sees a die before it is rolled, and needs
no connection: a person can play a whole game against bots alone.
"""

from datetime import datetime, timedelta

from yamb import bots
from yamb.dice import DiceSource
from yamb.game import Game
from yamb.session import turns
from yamb.session.effects import Effects
from yamb.session.model import GameSession

# A bot's pause before each move: long enough for people to follow, short enough not to bore.
BOT_STEP = timedelta(milliseconds=1200)


def _may_move(session: GameSession, game: Game, seat: int) -> bool:
    held = session.seats[seat]
    if held.bot is None or held.left or session.finish_offer is not None or session.awaiting_seeds:
        return False
    if session.own_turns:
        return bool(game.turn_of(seat)[0])  # its turn is open (it starts with roll 1)
    return session.seat_in_turn(game) == seat


def schedule(session: GameSession, now: datetime) -> None:
    """Gives each bot that may move a moment to move (kept when it has one), and takes it from
    a bot that may not. Called on the state a write is about to store."""
    if session.status != "running" or not session.bot_ids:
        for seat in session.seats:
            seat.bot_due = None
        return
    game = session.game()
    for index, seat in enumerate(session.seats):
        if seat.bot is None:
            continue
        if not _may_move(session, game, index):
            seat.bot_due = None
        elif seat.bot_due is None:
            seat.bot_due = now + BOT_STEP


def moments(session: GameSession) -> list[datetime]:
    """The bots' next moves (for the timers)."""
    return [seat.bot_due for seat in session.seats if seat.bot_due is not None]


def bots_due(
    session: GameSession, now: datetime, tolerance: timedelta
) -> list[tuple[datetime, int]]:
    """The bots whose move is due, as (moment, seat), earliest first."""
    if session.status != "running":
        return []
    return sorted(
        (seat.bot_due, index)
        for index, seat in enumerate(session.seats)
        if seat.bot_due is not None and seat.bot_due <= now + tolerance
    )


def play_bot(session: GameSession, seat: int, now: datetime, dice: DiceSource) -> Effects:
    """The bot at `seat` makes its move; the next is scheduled by the write that stores it.
    A move the rules refuse (a bot's bug) is replaced by what the clock would do, so a bot
    never stalls a game."""
    held = session.seats[seat]
    held.bot_due = None
    assert held.bot is not None
    player = held.player_id
    if not _may_move(session, session.game(), seat):
        # An earlier deadline of the same wake (its clock) ended the turn it was due in.
        return Effects()
    game = turns.current(session, player)
    try:
        move = bots.choose(game, bots.check_level(held.bot, game.layout.grid.id))
        return _play(session, game, player, move, now, dice)
    except Exception:  # whatever a bot's bug raises (refused move or other), the game goes on
        game = turns.current(session, player)  # a refused move changed nothing
        if not game.roll:
            return _play(session, game, player, bots.RollMove(()), now, dice)
        auto = game.auto_move()
        if auto.announces:
            _play(session, game, player, bots.AnnounceMove(auto.column, auto.row), now, dice)
            game = turns.current(session, player)
        effects = _play(session, game, player, bots.WriteMove(auto.column, auto.row), now, dice)
        effects.bot_moves_failed += 1
        return effects


def _play(  # noqa: PLR0917 - a move and everything it is played with
    session: GameSession,
    game: Game,
    player: str,
    move: bots.BotMove,
    now: datetime,
    dice: DiceSource,
) -> Effects:
    layout = game.layout
    match move:
        case bots.RollMove(keep=keep):
            turns.roll(session, player, list(keep), None, dice)
            return Effects()
        case bots.AnnounceMove(column=column, row=row):
            column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
            turns.announce(session, player, column_id, row_id, None)
            return Effects()
        case bots.WriteMove(column=column, row=row):
            column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
            return turns.write(session, player, column_id, row_id, None, now=now, dice=dice)
