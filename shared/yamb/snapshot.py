"""A game's state as plain JSON-ready data, and back: how a game is stored between actions.

The stored form is compact, since it is part of every game item (version 2):

    {"v": 2, "grid": "yamb", "columns": "1234", "n": 5, "players": ["ana", "ben"],
     "sheets": ["5af..", "..."], "seat": 1, "roll": 2, "dice": "31415", "turns": [3, 2],
     "extra": [[0], [100]], "announced": [3, 9], "directed": [null, 4], "left": [1],
     "over": true}

- `columns`: the column types' ranks (1-9, rules.md 3) in sheet order; "" for a family grid.
- `sheets`: one string per seat, one character per cell, column by column and row by row:
  "." while empty, a value 0-88 as one character of `ALPHABET` (0-9 as digits, then a-z, A-Z,
  punctuation), any other value as "(" its digits ")".
- `dice`: the faces as digits, "" before roll 1. `turns`: the turns each seat played.
- `own` (a game of own turns: simultaneous, each for themself, slow): every seat's turn as
  "roll:dice:column,row" ("" while the seat has none under way, ":" before an empty
  announcement); `seat`, `roll`, `dice` and `announced` are then the focused seat's.
- Left out while they hold nothing: `extra` (Classic's Yahtzee bonuses, per seat and column),
  `announced` (the announced cell), `directed` (the directed row each seat must write next),
  `left` (the seats that left), `over` (the game is over).

load_game also reads the first form (version 1: sheets of {"values", "extra"}), so that games
stored before this one still load.
"""

from typing import Any

from yamb.game import Game
from yamb.layout import Layout, layout_for
from yamb.rules import COLUMN_TYPES

VERSION = 2
ALPHABET = (
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # 0-61
    "!#$%&'*+,-/:;<=>?@[]^_`{|}~"  # 62-88: the rest of printable ASCII that JSON keeps as is
)
EMPTY = "."
_BY_RANK = {str(column.rank): column.id for column in COLUMN_TYPES.values()}
_RANK_OF = {column.id: str(column.rank) for column in COLUMN_TYPES.values()}


class _Codes(dict[int | None, str]):
    """Cell value -> its characters; values outside the alphabet are escaped as they come."""

    def __missing__(self, value: int | None) -> str:
        return f"({value})"


_CODES = _Codes({None: EMPTY} | {value: code for value, code in enumerate(ALPHABET)})
_VALUES = {code: value for value, code in enumerate(ALPHABET)}


def encode_sheet(values: list[list[int | None]]) -> str:
    return "".join("".join(map(_CODES.__getitem__, column)) for column in values)


def decode_sheet(text: str, layout: Layout) -> list[list[int | None]]:
    cells: list[int | None] = []
    position = 0
    while position < len(text):
        code = text[position]
        if code == EMPTY:
            cells.append(None)
        elif code == "(":
            end = text.index(")", position)
            cells.append(int(text[position + 1 : end]))
            position = end
        else:
            cells.append(_VALUES[code])
        position += 1
    rows = layout.rows_per_column
    if len(cells) != layout.cells_per_sheet:
        raise ValueError(f"a stored sheet has {len(cells)} cells, not {layout.cells_per_sheet}")
    return [cells[start : start + rows] for start in range(0, len(cells), rows)]


def dump_game(game: Game) -> dict[str, Any]:
    layout = game.layout
    data: dict[str, Any] = {
        "v": VERSION,
        "grid": layout.grid.id,
        "columns": "".join(_RANK_OF[column.id] for column in layout.columns)
        if layout.grid.has_column_types
        else "",
        "n": layout.dice_count,
        "players": list(game.players),
        "sheets": [encode_sheet(sheet.values) for sheet in game.sheets],
        "seat": game.seat,
        "roll": game.roll,
        "dice": "".join(map(str, game.dice)),
        "turns": list(game.turns_played),
    }
    if any(any(sheet.extra) for sheet in game.sheets):
        data["extra"] = [list(sheet.extra) for sheet in game.sheets]
    if game.announcement is not None:
        data["announced"] = list(game.announcement)
    if any(row is not None for row in game.obligations):
        data["directed"] = list(game.obligations)
    if game.left:
        data["left"] = sorted(game.left)
    if game.finished:
        data["over"] = True
    if game.own_turns:
        data["own"] = [_own_turn(*game.turn_of(seat)) for seat in range(len(game.players))]
    return data


def _own_turn(roll: int, dice: tuple[int, ...], announced: tuple[int, int] | None) -> str:
    if not roll:
        return ""
    cell = "" if announced is None else f"{announced[0]},{announced[1]}"
    return f"{roll}:{''.join(map(str, dice))}:{cell}"


def _load_own_turn(text: str) -> tuple[int, tuple[int, ...], tuple[int, int] | None]:
    if not text:
        return (0, (), None)
    roll, dice, cell = text.split(":")
    announced = None
    if cell:
        column, row = cell.split(",")
        announced = (int(column), int(row))
    return (int(roll), tuple(int(face) for face in dice), announced)


def load_game(data: dict[str, Any]) -> Game:
    if data.get("v") != VERSION:
        return _load_first_form(data)
    columns = [_BY_RANK[rank] for rank in data["columns"]]
    layout = layout_for(data["grid"], columns, data["n"])
    own = data.get("own")
    game = Game(layout, data["players"], own_turns=own is not None)
    extras = data.get("extra")
    for seat, (sheet, stored) in enumerate(zip(game.sheets, data["sheets"], strict=True)):
        for column, values in enumerate(decode_sheet(stored, layout)):
            sheet.set_column(column, values)
        if extras is not None:
            sheet.extra[:] = extras[seat]
    game.seat = data["seat"]
    game.roll = data["roll"]
    game.dice = tuple(int(face) for face in data["dice"])
    announcement = data.get("announced")
    game.announcement = (announcement[0], announcement[1]) if announcement else None
    game.obligations = list(data.get("directed") or [None] * len(game.players))
    game.left = set(data.get("left", ()))
    game.turns_played = list(data["turns"])
    game.finished = bool(data.get("over", False))
    if own is not None:
        for seat, text in enumerate(own):
            if seat != game.seat:
                game.park(seat, _load_own_turn(text))
    return game


def _load_first_form(data: dict[str, Any]) -> Game:
    layout = layout_for(data["grid"], data["columns"], data["dice_count"])
    game = Game(layout, data["players"])
    for sheet, stored in zip(game.sheets, data["sheets"], strict=True):
        for column, values in enumerate(stored["values"]):
            sheet.set_column(column, values)
        sheet.extra[:] = stored["extra"]
    game.seat = data["seat"]
    game.roll = data["roll"]
    game.dice = tuple(data["dice"])
    announcement = data["announcement"]
    game.announcement = (announcement[0], announcement[1]) if announcement else None
    game.obligations = list(data["obligations"])
    game.left = set(data["left"])
    game.turns_played = list(data["turns_played"])
    game.finished = data["finished"]
    return game
