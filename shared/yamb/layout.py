"""A game's layout: its grid, its columns and its dice, resolved once into row indices and masks.

The engine works on bitmasks of filled rows per column; everything that depends only on the
layout (chain order, row sections, masks) is computed here once and shared by every game.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain
from operator import itemgetter
from typing import Any

from yamb.errors import IllegalMoveError
from yamb.i18n import Text
from yamb.rules import COLUMN_TYPES, GRIDS, MAIN_COLUMN, ColumnType, Grid
from yamb.rules.tables import ScoreRows, dice_keys, score_rows

MAX_ROLLS = 3

ROWS_OF_MASK: dict[int, tuple[int, ...]] = {}


def rows_of_mask(mask: int) -> tuple[int, ...]:
    """The row indices set in a mask, ascending (memoised: there are at most 2^15 masks)."""
    rows = ROWS_OF_MASK.get(mask)
    if rows is None:
        rows = ROWS_OF_MASK[mask] = tuple(r for r in range(mask.bit_length()) if mask >> r & 1)
    return rows


# Legal cells, (column, row, score), in sheet order.
type Cells = tuple[tuple[int, int, int], ...]
type MaskPicker = Callable[[Sequence[Any]], tuple[Any, ...]]


def picker(indices: Sequence[int]) -> MaskPicker:
    """Picks the items at these indices (ascending) as one tuple, in C: a slice when they run
    on, itemgetter otherwise (itemgetter of one index gives the item, not a 1-tuple)."""
    if not indices:
        return _nothing
    first, last = indices[0], indices[-1]
    if last - first + 1 == len(indices):
        return itemgetter(slice(first, last + 1))
    return itemgetter(*indices)


def _nothing(items: Sequence[Any]) -> tuple[Any, ...]:
    return ()


class FlatRows(dict[int, tuple[int, ...]]):
    """One column's rows of a mask as positions in a sheet's flat cells (column * rows + row),
    memoised as masks are met."""

    __slots__ = ("offset",)

    def __init__(self, offset: int) -> None:
        super().__init__()
        self.offset = offset

    def __missing__(self, mask: int) -> tuple[int, ...]:
        flat = self[mask] = tuple(self.offset + row for row in rows_of_mask(mask))
        return flat


@cache
def _sheet_cells(grid: Grid, dice_count: int) -> list[Cells | None]:
    """Room for a whole sheet's cells, (column, row, score) for every column position and row,
    for each roll number and multiset (built as they are met). Cells differ between layouts of
    a grid only by their column index, so they share this: nine column positions for Yamb."""
    return [None] * (MAX_ROLLS * len(score_rows(grid, dice_count)[0]))


def sheet_cells(layout: "Layout", index: int) -> Cells:
    """The flat cells of one roll number and multiset: index (roll - 1) * multisets + number."""
    roll, key = divmod(index, layout.multisets)
    scores = layout.score_rows[roll][key]
    positions = len(COLUMN_TYPES) if layout.grid.has_column_types else 1
    cells = tuple(
        (column, row, score) for column in range(positions) for row, score in enumerate(scores)
    )
    layout.sheet_cells[index] = cells
    return cells


class ChainHeads(dict[int, int]):
    """filled mask -> the first empty row of each chain, as a mask; memoised as masks are met
    (a chained column meets only a few dozen of them)."""

    __slots__ = ("chains",)

    def __init__(self, chains: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.chains = chains

    def __missing__(self, filled: int) -> int:
        mask = 0
        for rows in self.chains:
            for row in rows:
                if not filled >> row & 1:
                    mask |= 1 << row
                    break
        self[filled] = mask
        return mask


# What a column's order allows next, by its filled mask: the empty rows (any order), or the chain
# heads. Both are read as `table[filled]`.
type AllowedRows = list[int] | ChainHeads


@cache
def _any_order(rows: int) -> list[int]:
    """filled mask -> every empty row, for each of the 2^rows masks (shared by every layout)."""
    full = (1 << rows) - 1
    return [full & ~filled for filled in range(full + 1)]


class Column:
    """One column of a layout, its type's rules flattened for the engine's inner loop."""

    __slots__ = ("allowed", "chains", "directed", "last_roll", "type")

    def __init__(
        self, column_type: ColumnType, chains: tuple[tuple[int, ...], ...] | None, rows: int
    ) -> None:
        self.type = column_type
        self.chains = chains
        # The last roll after which the column may be written without an announcement.
        self.last_roll = (
            1 if column_type.first_roll_only else column_type.announce_by_roll or MAX_ROLLS
        )
        self.directed = column_type.directed
        # The rows the column's order allows next, by filled mask (before the turn's conditions:
        # announcements, directions, the roll).
        self.allowed: AllowedRows = _any_order(rows) if chains is None else ChainHeads(chains)

    @property
    def id(self) -> str:
        return self.type.id


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    grid: Grid
    columns: tuple[Column, ...]
    dice_count: int
    rows_per_column: int
    cells_per_sheet: int
    full_mask: int
    upper_rows: tuple[int, ...]
    lower_rows: tuple[int, ...]
    # Middle part (Yamb): row indices of high, low and the multiplier; None elsewhere.
    middle_rows: tuple[int, int, int] | None
    # (row, required row, required value) for boxes that score only under a condition.
    conditional_rows: tuple[tuple[int, int, int], ...]
    directs_columns: tuple[int, ...]
    directed_column: int | None
    # The engine's tables, per column: what the order allows next, and the last roll.
    allowed: tuple[AllowedRows, ...]
    last_rolls: tuple[int, ...]
    # A roll (a tuple of faces) to its multiset's number, and per roll number the box scores
    # indexed by that number (rules/tables.py).
    dice_keys: dict[tuple[int, ...], int]
    score_rows: tuple[ScoreRows, ScoreRows, ScoreRows]
    # The same, for all three roll numbers: index (roll - 1) * multisets + multiset number.
    scores: ScoreRows
    # Listing a turn's cells is one pick from the sheet's flat cells for the roll and the dice
    # (index (roll - 1) * multisets + multiset number), at positions worked out once a turn:
    # each column's rows of a mask as flat positions, and per roll number the columns that
    # may be written after it without an announcement.
    sheet_cells: list[Cells | None]
    multisets: int
    flat_rows: tuple[FlatRows, ...]
    columns_by_roll: tuple[MaskPicker, MaskPicker, MaskPicker]
    # The same without the directed column, for the turns it sits out (nothing opened it).
    undirected_last_rolls: tuple[int, ...]
    undirected_columns_by_roll: tuple[MaskPicker, MaskPicker, MaskPicker]
    # Classic's joker: the Yahtzee row; None elsewhere.
    joker_row: int | None

    def column_index(self, column_id: str) -> int:
        for index, column in enumerate(self.columns):
            if column.id == column_id:
                return index
        raise IllegalMoveError(
            Text("unknown column '{column_id}'", column_id=column_id), code="unknown_cell"
        )

    def row_index(self, row_id: str) -> int:
        try:
            return self.grid.row_index(row_id)
        except KeyError:
            raise IllegalMoveError(
                Text(
                    "unknown row '{row_id}' for the {grid} grid", row_id=row_id, grid=self.grid.id
                ),
                code="unknown_cell",
            ) from None


def _columns_by_roll(last_rolls: tuple[int, ...]) -> tuple[MaskPicker, MaskPicker, MaskPicker]:
    """Per roll number, the columns that may be written after it (without an announcement)."""
    first, second, third = (
        picker([i for i, last in enumerate(last_rolls) if last >= roll]) for roll in (1, 2, 3)
    )
    return first, second, third


def layout_for(grid_id: str, columns: Sequence[str] = (), dice_count: int = 5) -> Layout:
    """The layout of a grid; `columns` (type ids in sheet order) for Yamb only."""
    return _layout(grid_id, tuple(columns), dice_count)


@cache
def _layout(grid_id: str, column_ids: tuple[str, ...], dice_count: int) -> Layout:
    grid = GRIDS.get(grid_id)
    if grid is None:
        raise ValueError(f"unknown grid {grid_id!r}; one of {', '.join(GRIDS)}")
    if dice_count not in grid.dice_counts:
        raise ValueError(
            f"the {grid_id} grid plays with {' or '.join(map(str, grid.dice_counts))} dice"
        )
    if grid.has_column_types:
        if not column_ids:
            raise ValueError("a yamb game needs at least one column")
        unknown = [c for c in column_ids if c not in COLUMN_TYPES]
        if unknown:
            raise ValueError(
                f"unknown column type {unknown[0]!r}; one of {', '.join(COLUMN_TYPES)}"
            )
        if len(set(column_ids)) != len(column_ids):
            raise ValueError("a column type may appear only once")
        types = [COLUMN_TYPES[c] for c in column_ids]
    else:
        if column_ids not in ((), ("main",)):
            raise ValueError(f"the {grid_id} grid has one column, 'main'")
        types = [MAIN_COLUMN]

    columns = tuple(
        Column(
            column_type,
            None
            if column_type.chains is None
            else tuple(tuple(grid.row_index(r) for r in chain) for chain in column_type.chains),
            len(grid.rows),
        )
        for column_type in types
    )
    directed = [i for i, c in enumerate(columns) if c.type.directed]
    last_rolls = tuple(column.last_roll for column in columns)
    undirected = tuple(0 if column.directed else column.last_roll for column in columns)
    middle = grid.middle
    return Layout(
        grid=grid,
        columns=columns,
        dice_count=dice_count,
        rows_per_column=len(grid.rows),
        cells_per_sheet=len(grid.rows) * len(columns),
        full_mask=(1 << len(grid.rows)) - 1,
        upper_rows=tuple(i for i, r in enumerate(grid.rows) if r.section == "upper"),
        lower_rows=tuple(i for i, r in enumerate(grid.rows) if r.section == "lower"),
        middle_rows=None
        if middle is None
        else (
            grid.row_index(middle.high),
            grid.row_index(middle.low),
            grid.row_index(middle.multiplier),
        ),
        conditional_rows=tuple(
            (i, grid.row_index(r.requires[0]), r.requires[1])
            for i, r in enumerate(grid.rows)
            if r.requires is not None
        ),
        directs_columns=tuple(i for i, c in enumerate(columns) if c.type.directs),
        directed_column=directed[0] if directed else None,
        allowed=tuple(column.allowed for column in columns),
        last_rolls=last_rolls,
        dice_keys=dice_keys(dice_count),
        score_rows=score_rows(grid, dice_count),
        scores=tuple(chain.from_iterable(score_rows(grid, dice_count))),
        sheet_cells=_sheet_cells(grid, dice_count),
        multisets=len(score_rows(grid, dice_count)[0]),
        flat_rows=tuple(FlatRows(i * len(grid.rows)) for i in range(len(columns))),
        columns_by_roll=_columns_by_roll(last_rolls),
        undirected_last_rolls=undirected,
        undirected_columns_by_roll=_columns_by_roll(undirected),
        joker_row=None if grid.joker is None else grid.row_index(grid.joker.yahtzee_row),
    )
