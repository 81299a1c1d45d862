"""Small builders shared by the unit tests: games, cells by name, pre-filled sheets."""

from collections.abc import Callable, Iterable, Sequence

import pytest
from yamb.errors import IllegalMoveError
from yamb.game import Game, WriteResult
from yamb.layout import layout_for
from yamb.rules import GRIDS, row_scores

PLAYER_NAMES = ("ana", "ben", "cleo", "dan")


def make_game(
    columns: Sequence[str] = ("free",), players: int = 1, grid: str = "yamb", dice_count: int = 5
) -> Game:
    """A fresh game: `columns` for Yamb (ignored for a family grid), seats named in order."""
    column_ids = tuple(columns) if GRIDS[grid].has_column_types else ()
    return Game(layout_for(grid, column_ids, dice_count), PLAYER_NAMES[:players])


def cell(game: Game, column_id: str, row_id: str) -> tuple[int, int]:
    """(column index, row index) of a cell named by ids."""
    return game.layout.column_index(column_id), game.layout.row_index(row_id)


def cell_name(game: Game, column: int, row: int) -> tuple[str, str]:
    """(column id, row id) of a cell given by indices."""
    return game.layout.columns[column].id, game.layout.grid.rows[row].id


def offered(game: Game) -> dict[tuple[str, str], int]:
    """The legal cells of the seat in turn, {(column id, row id): score}."""
    return {cell_name(game, column, row): s for column, row, s in game.legal_cells()}


def legal(game: Game) -> set[tuple[str, str]]:
    """The legal cells of the seat in turn as (column id, row id)."""
    return set(offered(game))


def error_code(move: Callable[..., object], *args: object) -> str:
    """The code of the IllegalMoveError that `move(*args)` must raise."""
    with pytest.raises(IllegalMoveError) as caught:
        move(*args)
    return caught.value.code


def prefill(
    game: Game,
    seat: int,
    column_id: str,
    row_ids: Iterable[str] | None = None,
    value: int = 0,
) -> None:
    """Writes `value` straight into a sheet (every row of the column when `row_ids` is None),
    to set up a position without playing the turns that lead to it."""
    column = game.layout.column_index(column_id)
    rows = game.layout.grid.row_ids if row_ids is None else tuple(row_ids)
    for row_id in rows:
        game.sheets[seat].set(column, game.layout.row_index(row_id), value)


def prefill_all_but(game: Game, seat: int, keep: Iterable[tuple[str, str]]) -> None:
    """Fills every cell of a seat's sheet except the (column id, row id) cells in `keep`."""
    kept = set(keep)
    for column in game.layout.columns:
        rows = [r for r in game.layout.grid.row_ids if (column.id, r) not in kept]
        prefill(game, seat, column.id, rows)


def score(grid_id: str, dice: Sequence[int], row_id: str, roll: int = 1) -> int:
    """One box's score for these dice made on this roll, before sheet conditions."""
    grid = GRIDS[grid_id]
    return row_scores(grid, tuple(dice), roll)[grid.row_index(row_id)]


def prefill_values(game: Game, seat: int, column_id: str, values: dict[str, int]) -> None:
    """Writes each row's value straight into a sheet: {row id: value}."""
    for row_id, value in values.items():
        prefill(game, seat, column_id, [row_id], value)


def play_turn(game: Game, dice: Sequence[int], column_id: str, row_id: str) -> WriteResult:
    """A whole turn of the seat in turn: roll 1 with `dice`, then the write."""
    game.start_turn(dice)
    return game.write(*cell(game, column_id, row_id))
