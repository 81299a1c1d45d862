"""Replaying a recorded game (the `yamb check` format) through the engine.

A record is checked turn by turn; the first illegal turn stops the replay and is reported with
its 0-based index. A valid record, complete or not, gives every player's column totals.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, StrictInt, ValidationError

from yamb.errors import IllegalMoveError, joined
from yamb.game import Game
from yamb.i18n import Plural, Text
from yamb.i18n.validation import located, location
from yamb.layout import MAX_ROLLS, Layout, layout_for


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RecordedAnnouncement(_Strict):
    column: str
    row: str
    after_roll: StrictInt


class RecordedWrite(_Strict):
    column: str | None = None
    row: str


class RecordedTurn(_Strict):
    player: str
    rolls: list[list[StrictInt]]
    announce: RecordedAnnouncement | None = None
    write: RecordedWrite


class GameRecord(_Strict):
    grid: Literal["yamb", "classic", "scandinavian", "yacht", "generala"]
    dice: Literal[5, 6] | None = None
    columns: list[str] | None = None
    players: list[str]
    # Turns are validated one by one, so that a bad turn is reported with its index.
    turns: list[Any]


class RecordError(Exception):
    def __init__(self, turn: int | None, message: Text | Plural | str) -> None:
        super().__init__(str(message))
        self.turn = turn
        self.text = message
        self.message = str(message)

    def as_dict(self) -> dict[str, Any]:
        return {"error": {"turn": self.turn, "message": self.message}}


def _describe(error: ValidationError) -> Text | Plural | str:
    return joined([located(location(issue, "record"), issue) for issue in error.errors()])


def _layout_of(record: GameRecord) -> Layout:
    if record.grid == "yamb":
        missing = [name for name in ("dice", "columns") if getattr(record, name) is None]
        if missing:
            raise RecordError(
                None, Text("a yamb record needs {missing}", missing=" and ".join(missing))
            )
    elif record.dice not in (None, 5):
        raise RecordError(None, Text("the {grid} grid plays with 5 dice", grid=record.grid))
    try:
        return layout_for(record.grid, record.columns or (), record.dice or 5)
    except ValueError as error:
        raise RecordError(None, str(error)) from None


def _new_game(record: GameRecord) -> Game:
    layout = _layout_of(record)
    try:
        return Game(layout, record.players)
    except ValueError as error:
        raise RecordError(None, Text("players: {error}", error=error)) from None


def _play_turn(game: Game, turn: RecordedTurn) -> None:
    layout = game.layout
    expected = game.players[game.seat]
    if game.finished:
        raise IllegalMoveError(Text("the game is already over"), code="game_over")
    if turn.player != expected:
        raise IllegalMoveError(
            Text(
                "out of turn: {expected} plays now, not {player}",
                expected=expected,
                player=turn.player,
            )
        )
    if not 1 <= len(turn.rolls) <= MAX_ROLLS:
        raise IllegalMoveError(
            Text(
                "a turn has 1 to {max_rolls} rolls, not {count}",
                max_rolls=MAX_ROLLS,
                count=len(turn.rolls),
            )
        )
    announcement = turn.announce
    if announcement is not None and not 1 <= announcement.after_roll <= len(turn.rolls):
        raise IllegalMoveError(
            Plural(
                "announcement after roll {after_roll}, but the turn has {count} roll",
                "announcement after roll {after_roll}, but the turn has {count} rolls",
                len(turn.rolls),
                after_roll=announcement.after_roll,
            )
        )
    for number, dice in enumerate(turn.rolls, start=1):
        if number == 1:
            game.start_turn(dice)
        else:
            game.reroll(dice)
        if announcement is not None and announcement.after_roll == number:
            game.announce(
                layout.column_index(announcement.column), layout.row_index(announcement.row)
            )
    write = turn.write
    if layout.grid.has_column_types:
        if write.column is None:
            raise IllegalMoveError(Text("write: a yamb write names its column"))
        column = layout.column_index(write.column)
    else:
        column = 0 if write.column in (None, "main") else layout.column_index(write.column)
    game.write(column, layout.row_index(write.row))


def replay(data: Any) -> Game:
    """The game a record describes, played to its last turn; RecordError at the first fault."""
    try:
        record = GameRecord.model_validate(data)
    except ValidationError as error:
        raise RecordError(None, _describe(error)) from None
    game = _new_game(record)
    for index, raw_turn in enumerate(record.turns):
        try:
            _play_turn(game, RecordedTurn.model_validate(raw_turn))
        except ValidationError as error:
            raise RecordError(index, _describe(error)) from None
        except IllegalMoveError as error:
            raise RecordError(index, error.text) from None
    return game


def summary(game: Game) -> dict[str, Any]:
    """Every player's totals per column, the winners, and whether every sheet is full."""
    column_ids = [column.id for column in game.layout.columns]
    players = {}
    for name, sheet in zip(game.players, game.sheets, strict=True):
        columns = {cid: sheet.column_totals(i).as_dict() for i, cid in enumerate(column_ids)}
        players[name] = {
            "total": sum(c["total"] for c in columns.values()),
            "columns": columns,
        }
    complete = game.is_complete()
    return {"players": players, "winners": game.winners() if complete else [], "complete": complete}


def check(data: Any) -> dict[str, Any]:
    """The `yamb check` answer for one record: its summary, or its first error."""
    try:
        return summary(replay(data))
    except RecordError as error:
        return error.as_dict()
