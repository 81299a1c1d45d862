"""A turn (rules.md 1, 4, 8): the server's roll 1, locks, rolls 2 and 3, the announcement, the
pending choice, the write, and the auto-move when the clock runs out."""

from datetime import datetime, timedelta

from yamb import fair_dice
from yamb.dice import DiceSource, roll_all, roll_unlocked
from yamb.errors import IllegalMoveError
from yamb.game import Game
from yamb.session import clock, decisions, scorekeeping
from yamb.session.effects import Effects, GameActionError, require_status
from yamb.session.endings import finish
from yamb.session.model import GameSession

# A deadline this close is met when a timer wakes the game: a wake a moment early still ends the
# turn it was started for. Before a player's own action no tolerance applies.
DUE_TOLERANCE = timedelta(milliseconds=500)


def begin_turn(session: GameSession, game: Game, now: datetime, dice: DiceSource) -> None:
    """The server's roll 1 for the seat in turn, and its clock."""
    count = game.layout.dice_count
    fair = session.fair
    if session.settings.physical_dice:
        pass  # the player rolls at the table and types the dice (scorekeeping.enter_dice)
    elif fair is None:
        game.start_turn(roll_all(dice, count))
    else:
        seat = game.seat
        # Same dice: a player's own k-th turn; else the table's turn number.
        label = game.turns_played[seat] + 1 if session.settings.same_dice else session.turn + 1
        rolled = fair_dice.roll_dice(fair.key(session.game_id), label, 1, (), (), count)
        game.start_turn(rolled)
        fair.record_first_roll(seat, label, rolled)
    session.turn += 1
    session.pending = None
    session.locks = []
    # A turn that ended without a write (its player resigned or was given up) leaves nothing.
    session.typed_rolls, session.typed_announcement = [], None
    session.decision_from = None
    clock.start_full(session, game.seat, now)
    decisions.start(session, game.seat, now)


def after_write(session: GameSession, game: Game, now: datetime, dice: DiceSource) -> Effects:
    effects = Effects()
    if game.finished:
        finish(session, game, now, "completed", effects)
    else:
        begin_turn(session, game, now, dice)
    session.store(game)
    return effects


def current(session: GameSession, player_id: str, turn: int | None = None) -> Game:
    """The game, if `player_id` is the one to move now (in turn `turn`, when it is named)."""
    require_status(session, "running")
    if session.finish_offer is not None:
        raise GameActionError("waiting for the answer to the finish offer", code="finish_offer")
    seat = session.seat_of(player_id)
    if seat is None or session.seats[seat].left:
        raise GameActionError("you do not play in this game", code="not_seated")
    if turn is not None and turn != session.turn:
        raise GameActionError(
            f"turn {turn} is over; turn {session.turn} is being played", code="turn_over"
        )
    game = session.game()
    # At a scorekeeping table the creator types for whoever is in turn.
    host = session.settings.physical_dice and player_id == session.creator
    if seat != game.seat and not host:
        raise GameActionError("it is not your turn", code="not_your_turn")
    return game


def _check_locks(game: Game, keep: list[int]) -> list[int]:
    count = game.layout.dice_count
    if any(not 0 <= position < count for position in keep):
        raise IllegalMoveError(f"locked positions must be from 0 to {count - 1}", code="bad_keep")
    if len(set(keep)) != len(keep):
        raise IllegalMoveError("a die is locked once", code="bad_keep")
    return sorted(keep)


def lock(session: GameSession, player_id: str, keep: list[int], turn: int | None) -> None:
    """The dice the player holds back from the next roll; everyone sees them."""
    game = current(session, player_id, turn)
    if not game.can_reroll():
        raise IllegalMoveError("no roll is left to lock dice for", code="no_rolls_left")
    session.locks = _check_locks(game, keep)


def roll(
    session: GameSession,
    player_id: str,
    keep: list[int] | None,
    turn: int | None,
    dice: DiceSource,
) -> None:
    """Rolls the unlocked dice: `keep` replaces the locks when given, else the locks stand."""
    game = current(session, player_id, turn)
    if scorekeeping.is_scorekeeping(session):
        raise GameActionError(
            "at a scorekeeping table the dice are rolled at the table: type them (enter_dice)",
            code="type_the_dice",
        )
    locks = session.locks if keep is None else _check_locks(game, keep)
    fair = session.fair
    if fair is None:
        game.reroll(roll_unlocked(dice, game.dice, locks))
    else:
        key = fair.key(session.game_id)
        count = game.layout.dice_count
        rolled = fair_dice.roll_dice(
            key, fair.current_label(), game.roll + 1, game.dice, locks, count
        )
        game.reroll(rolled)  # refused before any change when no roll is left
        fair.record_roll(locks, rolled)
    session.locks = locks
    session.pending = None
    session.store(game)


def _cell(game: Game, column_id: str, row_id: str) -> tuple[int, int]:
    layout = game.layout
    return layout.column_index(column_id), layout.row_index(row_id)


def announce(
    session: GameSession, player_id: str, column_id: str, row_id: str, turn: int | None
) -> None:
    game = current(session, player_id, turn)
    game.announce(*_cell(game, column_id, row_id))
    if scorekeeping.is_scorekeeping(session):
        scorekeeping.announced(session, game, column_id, row_id)
    session.store(game)


def enter_dice(session: GameSession, player_id: str, dice: list[int], turn: int | None) -> None:
    """Scorekeeping: the dice rolled at the table, typed by the player in turn or the creator."""
    game = current(session, player_id, turn)
    if not scorekeeping.is_scorekeeping(session):
        raise GameActionError("the server rolls the dice at this table", code="not_allowed")
    scorekeeping.enter_dice(session, game, dice)


def select(
    session: GameSession,
    player_id: str,
    column_id: str | None,
    row_id: str | None,
    turn: int | None,
) -> None:
    """The pending choice: a legal cell the client chose before the deadline (rules.md 8)."""
    game = current(session, player_id, turn)
    if column_id is None or row_id is None:
        session.pending = None
        return
    column, row = _cell(game, column_id, row_id)
    game.score_of(column, row)  # raises when the cell is not legal now
    session.pending = (column, row)


def write(
    session: GameSession,
    player_id: str,
    column_id: str,
    row_id: str,
    turn: int | None,
    *,
    now: datetime,
    dice: DiceSource,
) -> Effects:
    game = current(session, player_id, turn)
    seat = game.seat
    game.write(*_cell(game, column_id, row_id))
    decisions.charge(session, seat, now)
    if scorekeeping.is_scorekeeping(session):
        scorekeeping.written(session, game.players[seat], column_id, row_id)
    return after_write(session, game, now, dice)


def turn_is_due(session: GameSession, now: datetime, tolerance: timedelta = DUE_TOLERANCE) -> bool:
    deadline = session.clock.deadline
    return session.status == "running" and deadline is not None and deadline <= now + tolerance


def expire_turn(
    session: GameSession, now: datetime, dice: DiceSource, tolerance: timedelta = DUE_TOLERANCE
) -> Effects | None:
    """The turn clock ran out: the pending choice, else the auto-move. None when not due."""
    if not turn_is_due(session, now, tolerance):
        return None
    game = session.game()
    seat, deadline = game.seat, session.clock.deadline
    if session.pending is not None and game.is_legal(*session.pending):
        game.write(*session.pending)
    else:
        game.play_auto_move()
    # The whole clock was spent deciding, however late the timer came.
    decisions.charge(session, seat, min(now, deadline) if deadline is not None else now)
    effects = after_write(session, game, now, dice)
    effects.turns_timed_out = 1
    return effects
