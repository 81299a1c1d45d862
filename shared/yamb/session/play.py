"""What each action and each deadline does to a live game (rules.md 8, product G1-G7, G10).

Pure functions over a GameSession: they check, change the session in place, and return the
Effects the application must carry out (deadlines to start, disappearances to count). Time and
dice are passed in. Nothing here knows about DynamoDB, sockets or Step Functions.
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from yamb.dice import DiceSource, roll_all, roll_unlocked
from yamb.errors import IllegalMoveError, YambError
from yamb.game import Game
from yamb.session.model import GameSession, Outcome, Seat
from yamb.settings import GameSettings, validate_settings

RETURN_WINDOW = timedelta(minutes=3)
RESUME_FLOOR_MS = 5_000
FINISHED_SHARE_NEEDED = 0.5


class GameActionError(YambError):
    """The action is not allowed in this game's state; nothing changed."""

    code = "not_allowed"


@dataclass(frozen=True, slots=True)
class Deadline:
    """A deadline timer to start: it guards `turn` and `version` (the clock's version for a
    turn deadline, the seat's absence count for a return deadline)."""

    kind: Literal["turn", "return"]
    game_id: str
    turn: int
    version: int
    player_id: str
    at: datetime

    @property
    def name(self) -> str:
        """Deterministic: starting the same deadline twice is one execution."""
        return f"{self.game_id}-{self.kind}-{self.turn}-{self.version}"[:80]


@dataclass(slots=True)
class Effects:
    deadlines: list[Deadline] = field(default_factory=list)
    # Players who disappeared (did not return in time): they get a join cooldown.
    disappeared: list[str] = field(default_factory=list)
    # Players whose current game changes (None: no game), written with the game.
    player_games: dict[str, str | None] = field(default_factory=dict)
    ended: bool = False


# ----------------------------------------------------------------------------------- lobby


def create(
    game_id: str, creator: str, connection_id: str | None, settings: GameSettings, now: datetime
) -> GameSession:
    return GameSession(
        game_id=game_id,
        created_at=now,
        creator=creator,
        settings=settings,
        seats=[Seat(player_id=creator, connection_id=connection_id)],
    )


def _require_status(session: GameSession, *statuses: str) -> None:
    if session.status not in statuses:
        raise GameActionError(f"the game is {session.status}", code="wrong_status")


def _require_creator(session: GameSession, player_id: str, what: str) -> None:
    if player_id != session.creator:
        raise GameActionError(f"only the creator can {what}", code="not_creator")


def join(session: GameSession, player_id: str, connection_id: str | None) -> Effects:
    _require_status(session, "waiting")
    if session.seat_of(player_id) is not None:
        raise GameActionError("you already sit at this table", code="already_seated")
    if len(session.seats) >= session.settings.players:
        raise GameActionError("the table is full", code="table_full")
    session.seats.append(Seat(player_id=player_id, connection_id=connection_id))
    return Effects(player_games={player_id: session.game_id})


def leave_waiting(session: GameSession, player_id: str) -> bool:
    """Leaves a game that has not started; True when the table is now empty (delete it)."""
    _require_status(session, "waiting")
    seat = session.seat_of(player_id)
    if seat is None:
        raise GameActionError("you do not sit at this table", code="not_seated")
    del session.seats[seat]
    if not session.seats:
        return True
    if player_id == session.creator:
        session.creator = session.seats[0].player_id
    return False


def edit(
    session: GameSession,
    player_id: str,
    settings: dict[str, Any] | None,
    player_order: list[str] | None,
    account: Literal["free", "premium"] = "premium",
) -> None:
    _require_status(session, "waiting")
    _require_creator(session, player_id, "edit the game")
    if settings is not None:
        new_settings = validate_settings(settings, account)
        if len(session.seats) > new_settings.players:
            raise GameActionError("more players sit than the new settings allow", code="too_many")
        session.settings = new_settings
    if player_order is not None:
        if sorted(player_order) != sorted(session.player_ids):
            raise GameActionError(
                "the order must name every seated player once", code="bad_player_order"
            )
        by_player = {seat.player_id: seat for seat in session.seats}
        session.seats = [by_player[p] for p in player_order]


def check_delete(session: GameSession, player_id: str) -> None:
    _require_status(session, "waiting")
    _require_creator(session, player_id, "delete the game")


def start(session: GameSession, player_id: str, now: datetime, dice: DiceSource) -> Effects:
    _require_status(session, "waiting")
    _require_creator(session, player_id, "start the game")
    if len(session.seats) != session.settings.players:
        raise GameActionError(
            f"the table needs {session.settings.players} players, {len(session.seats)} sit",
            code="table_not_full",
        )
    session.status = "running"
    game = session.new_game()
    effects = Effects()
    _begin_turn(session, game, now, dice, effects)
    session.store(game)
    return effects


# ----------------------------------------------------------------------------------- turns


def _turn_seconds(session: GameSession) -> int | None:
    if session.solo_finish or session.settings.turn_type == "slow":
        return None
    return session.settings.turn_seconds


def _begin_turn(
    session: GameSession, game: Game, now: datetime, dice: DiceSource, effects: Effects
) -> None:
    """The server's roll 1 for the seat in turn, and its clock."""
    game.start_turn(roll_all(dice, game.layout.dice_count))
    session.turn += 1
    session.pending = None
    _start_clock(session, game, now, effects, full=True)


def _start_clock(
    session: GameSession, game: Game, now: datetime, effects: Effects, *, full: bool
) -> None:
    clock = session.clock
    clock.version += 1
    seconds = _turn_seconds(session)
    if seconds is None:
        clock.deadline, clock.frozen_ms = None, None
        return
    seat = session.seats[game.seat]
    remaining_ms = seconds * 1000 if full or clock.frozen_ms is None else clock.frozen_ms
    if not seat.present and session.settings.turn_type != "slow":
        clock.deadline, clock.frozen_ms = None, remaining_ms
        return
    clock.deadline = now + timedelta(milliseconds=remaining_ms)
    clock.frozen_ms = None
    effects.deadlines.append(
        Deadline(
            "turn", session.game_id, session.turn, clock.version, seat.player_id, clock.deadline
        )
    )


def _current(session: GameSession, player_id: str) -> Game:
    _require_status(session, "running")
    if session.finish_offer is not None:
        raise GameActionError("waiting for the answer to the finish offer", code="finish_offer")
    game = session.game()
    seat = session.seat_of(player_id)
    if seat is None:
        raise GameActionError("you do not play in this game", code="not_seated")
    if seat != game.seat:
        raise GameActionError("it is not your turn", code="not_your_turn")
    return game


def roll(session: GameSession, player_id: str, keep: list[int], dice: DiceSource) -> None:
    game = _current(session, player_id)
    try:
        new_dice = roll_unlocked(dice, game.dice, keep)
    except ValueError as error:
        raise IllegalMoveError(str(error), code="bad_keep") from None
    game.reroll(new_dice)
    session.pending = None
    session.store(game)


def _cell(game: Game, column_id: str, row_id: str) -> tuple[int, int]:
    layout = game.layout
    return layout.column_index(column_id), layout.row_index(row_id)


def announce(session: GameSession, player_id: str, column_id: str, row_id: str) -> None:
    game = _current(session, player_id)
    game.announce(*_cell(game, column_id, row_id))
    session.store(game)


def select(session: GameSession, player_id: str, column_id: str | None, row_id: str | None) -> None:
    """The pending choice: a legal cell the client chose before the deadline (rules.md 8)."""
    game = _current(session, player_id)
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
    *,
    now: datetime,
    dice: DiceSource,
) -> Effects:
    game = _current(session, player_id)
    game.write(*_cell(game, column_id, row_id))
    return _after_write(session, game, now, dice)


def _after_write(session: GameSession, game: Game, now: datetime, dice: DiceSource) -> Effects:
    effects = Effects()
    if game.finished:
        _finish(session, game, now, "completed", effects)
    else:
        _begin_turn(session, game, now, dice, effects)
    session.store(game)
    return effects


def expire_turn(
    session: GameSession, turn: int, version: int, now: datetime, dice: DiceSource
) -> Effects | None:
    """The turn deadline: the pending choice, else the auto-move. None when stale."""
    if session.status != "running" or session.turn != turn or session.clock.version != version:
        return None
    game = session.game()
    if session.pending is not None and game.is_legal(*session.pending):
        game.write(*session.pending)
    else:
        game.play_auto_move()
    return _after_write(session, game, now, dice)


# ----------------------------------------------------------------------------------- presence


def disconnect(session: GameSession, player_id: str, now: datetime) -> Effects:
    """A lost connection: the player's clock freezes and a return countdown starts."""
    effects = Effects()
    seat_index = session.seat_of(player_id)
    if seat_index is None or session.status != "running":
        return effects
    seat = session.seats[seat_index]
    if seat.left or not seat.present:
        return effects
    seat.present = False
    seat.absences += 1
    seat.absent_since = now
    if session.settings.turn_type == "slow":
        return effects
    seat.return_deadline = now + RETURN_WINDOW
    effects.deadlines.append(
        Deadline(
            "return", session.game_id, session.turn, seat.absences, player_id, now + RETURN_WINDOW
        )
    )
    game = session.game()
    if game.seat == seat_index and session.clock.deadline is not None:
        remaining = max(0, int((session.clock.deadline - now).total_seconds() * 1000))
        session.clock.version += 1
        session.clock.deadline, session.clock.frozen_ms = None, remaining
    return effects


def reconnect(
    session: GameSession, player_id: str, connection_id: str, now: datetime, dice: DiceSource
) -> Effects:
    """Back in time: the started turn restarts with a new roll 1, and the clock resumes with at
    least 5 seconds, once per turn."""
    effects = Effects()
    seat_index = session.seat_of(player_id)
    if seat_index is None:
        return effects
    seat = session.seats[seat_index]
    seat.connection_id = connection_id
    if session.status != "running" or seat.left or seat.present:
        return effects
    seat.present, seat.absent_since, seat.return_deadline = True, None, None
    game = session.game()
    if game.seat != seat_index or game.finished or session.finish_offer is not None:
        return effects
    game.restart_turn(roll_all(dice, game.layout.dice_count))
    session.pending = None
    clock = session.clock
    if clock.frozen_ms is not None and clock.floor_used_in_turn != session.turn:
        if clock.frozen_ms < RESUME_FLOOR_MS:
            clock.floor_used_in_turn = session.turn
        clock.frozen_ms = max(clock.frozen_ms, RESUME_FLOOR_MS)
    _start_clock(session, game, now, effects, full=False)
    session.store(game)
    return effects


def expire_return(
    session: GameSession, player_id: str, absences: int, now: datetime, dice: DiceSource
) -> Effects | None:
    """Not back in time: the player leaves the game. None when stale."""
    seat_index = session.seat_of(player_id)
    if seat_index is None or session.status != "running":
        return None
    seat = session.seats[seat_index]
    if seat.present or seat.left or seat.absences != absences:
        return None
    effects = Effects(disappeared=[player_id])
    _seat_leaves(session, seat_index, now=now, dice=dice, effects=effects, outcome="abandoned")
    if session.status == "running" and not any(
        session.seats[i].present for i in session.remaining_seats()
    ):
        _end(session, now, "cancelled", [], effects)
    return effects


def resign(session: GameSession, player_id: str, now: datetime, dice: DiceSource) -> Effects:
    _require_status(session, "running")
    seat_index = session.seat_of(player_id)
    if seat_index is None or session.seats[seat_index].left:
        raise GameActionError("you do not play in this game", code="not_seated")
    effects = Effects()
    _seat_leaves(session, seat_index, now=now, dice=dice, effects=effects, outcome="resigned")
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
    was_current = game.seat == seat_index
    session.seats[seat_index].left = True
    game.leave(seat_index)
    remaining = session.remaining_seats()
    if not remaining:
        session.store(game)
        _end(session, now, outcome if len(session.seats) == 1 else "cancelled", [], effects)
        return
    if len(remaining) == 1 and len(session.seats) > 1:
        last = session.seats[remaining[0]].player_id
        session.winners = [last]
        if game.sheets[remaining[0]].is_full():
            session.store(game)
            _finish(session, game, now, outcome, effects)
            return
        session.finish_offer = last
        session.clock.version += 1
        session.clock.deadline, session.clock.frozen_ms = None, None
        session.outcome = outcome
        session.store(game)
        return
    if game.finished:
        _finish(session, game, now, outcome, effects)
    elif was_current:
        _begin_turn(session, game, now, dice, effects)
    session.store(game)


def answer_finish_offer(
    session: GameSession, player_id: str, accept: bool, now: datetime, dice: DiceSource
) -> Effects:
    """Yes: play on alone without a clock, the result recorded. No: the game ends at once with
    the player's win and no recorded result."""
    _require_status(session, "running")
    if session.finish_offer != player_id:
        raise GameActionError("there is no finish offer for you", code="no_finish_offer")
    effects = Effects()
    session.finish_offer = None
    game = session.game()
    if not accept:
        _finish(session, game, now, "declined_finish", effects)
        return effects
    session.solo_finish = True
    if not game.roll:
        _begin_turn(session, game, now, dice, effects)
    else:
        _start_clock(session, game, now, effects, full=True)
    session.store(game)
    return effects


# ----------------------------------------------------------------------------------- the end


def _finish(
    session: GameSession, game: Game, now: datetime, outcome: Outcome, effects: Effects
) -> None:
    """Every remaining sheet is full: the best totals win, unless a winner played fewer than
    half of their turns, which cancels the game."""
    winners = session.winners or game.winners()
    cells = game.layout.cells_per_sheet
    for player in winners:
        seat = session.player_ids.index(player)
        if game.turns_played[seat] < FINISHED_SHARE_NEEDED * cells:
            _end(session, now, "cancelled", [], effects)
            return
    _end(session, now, outcome, winners, effects)


def _end(
    session: GameSession, now: datetime, outcome: Outcome, winners: list[str], effects: Effects
) -> None:
    session.status = "cancelled" if outcome == "cancelled" else "finished"
    session.outcome = outcome
    session.winners = winners
    session.ended_at = now
    session.finish_offer = None
    session.clock.version += 1
    session.clock.deadline, session.clock.frozen_ms = None, None
    effects.ended = True


def records_result(session: GameSession) -> bool:
    """Only finished games whose remaining sheets are all full enter results."""
    if session.status != "finished" or session.outcome == "declined_finish":
        return False
    game = session.game()
    return all(game.sheets[i].is_full() for i in session.remaining_seats())
