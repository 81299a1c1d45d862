"""The medium and hard bots: a search over the rest of the turn (expectimax over keeps).

After each roll the seat may write a legal cell, announce one (where the rules allow), or hold
some dice and roll the rest. The dice's worth after the last roll is the best write; after an
earlier roll the best of writing now, of every keep (the chance-weighted worth of the next
roll's dice, dice_tables.chances), and of every announcement it may still make. A write is
worth value.py's value of its score in its cell.

- medium looks one roll ahead, with plain scores: a keep is worth the best write after the next
  roll, an announcement the best write of that cell after the next roll.
- hard looks to the end of the turn with sheet-aware values: writing now, every keep after
  roll 1 and 2, announcing an Announced cell after roll 1 (then two rolls for it alone), a Late
  announced one after roll 1 or 2 (the search announces it after roll 2 at the latest, since
  waiting a roll loses nothing).

What is worked out is kept per process: a turn's arrays by the seat's sheet and the cells its
later rolls may write (so that roll 2 costs almost nothing), an announced column's arrays by
that column's values (they change only when it is written). The matrix products are
matrix-vector ones: BLAS runs those on one thread, where a small matrix-matrix product would
wait for threads. Classic's forced joker is read from the engine for the dice shown; the
search's later rolls ignore it.
"""

from dataclasses import dataclass, field

import numpy as np

from yamb.bots.dice_tables import (
    DiceTables,
    FloatArray,
    best_within,
    dice_tables,
    score_arrays,
)
from yamb.bots.levels import Level
from yamb.bots.moves import AnnounceMove, BotMove, RollMove, WriteMove, options_of
from yamb.bots.value import SCORES, plain_values, sheet_values
from yamb.bots.value import forget as sheet_values_forget
from yamb.dice import positions_of
from yamb.game import Game
from yamb.layout import MAX_ROLLS, Layout

# The worth of what may not be done (finite, so that a chance of 0 times it is 0).
NEG = -1e9
_EPSILON = 1e-9
_KEPT = 256

type Values = tuple[tuple[int | None, ...], ...]


def _table(layout: Layout, deep: bool, column: int, values: Values) -> FloatArray:
    """rows x scores: the value of each score written in each row of the column."""
    if deep:
        return sheet_values(layout, column, values[column])
    return plain_values(layout)


def _values(
    layout: Layout, deep: bool, values: Values, cells: list[tuple[int, int]], roll: int
) -> FloatArray:
    """multisets x cells: each cell's value of each multiset written after `roll`."""
    scores = score_arrays(layout.grid, layout.dice_count)[roll - 1]
    rows = np.array([r for _, r in cells], dtype=np.int64)
    got = scores[:, rows]
    zero = [
        k
        for k, (column, row) in enumerate(cells)
        for conditional, required, value in layout.conditional_rows
        if row == conditional and values[column][required] != value
    ]
    if zero:
        got[:, zero] = 0
    tables = np.concatenate([_table(layout, deep, c, values)[r][None, :] for c, r in cells]).ravel()
    result: FloatArray = tables[np.arange(len(cells)) * SCORES + got]
    return result


def _product(tables: DiceTables, values: FloatArray) -> FloatArray:
    """chances @ values, one column at a time (values: multisets x options)."""
    result: FloatArray = np.empty((len(tables.keeps), values.shape[1]))
    for j in range(values.shape[1]):
        result[:, j] = tables.chances @ values[:, j]
    return result


@dataclass(slots=True)
class _Announced:
    """An announced column's open rows, and what announcing each is worth: per keep after
    roll 1 (announced by roll 1) or 2 (late), and per multiset of roll 2's dice (late)."""

    rows: list[int]
    keeps: FloatArray  # keeps x rows
    dice2: FloatArray | None = None  # multisets: the best late announcement after roll 2


_ANNOUNCED: dict[tuple[object, ...], _Announced] = {}


def _announced(layout: Layout, deep: bool, values: Values, column: int) -> _Announced:
    key = (layout, deep, column, values[column])
    found = _ANNOUNCED.get(key)
    if found is not None:
        return found
    tables = dice_tables(layout.dice_count)
    rows = [r for r, value in enumerate(values[column]) if value is None]
    cells = [(column, r) for r in rows]
    by_roll = layout.columns[column].type.announce_by_roll
    if by_roll == 1:
        second = _values(layout, deep, values, cells, 2)
        if deep:
            third = _product(tables, _values(layout, deep, values, cells, 3))
            second = np.maximum(second, best_within(tables, third, NEG))
        found = _Announced(rows, _product(tables, second))
    else:
        keeps = _product(tables, _values(layout, deep, values, cells, 3))
        found = _Announced(rows, keeps, best_within(tables, keeps, NEG).max(axis=1))
    if len(_ANNOUNCED) >= _KEPT:
        _ANNOUNCED.clear()
    _ANNOUNCED[key] = found
    return found


@dataclass(slots=True)
class _Turn:
    """The cells the turn's later rolls may write (each with its last roll), and the keeps'
    worth after roll 1 and 2, worked out as they are asked for."""

    layout: Layout
    deep: bool
    values: Values
    cells: list[tuple[int, int]]
    lasts: list[int]
    # Late announced columns whose announcement may still be made after roll 2.
    late: list[int]
    found: dict[int, FloatArray] = field(default_factory=dict)

    def best_write(self, roll: int) -> FloatArray:
        cells = [cell for cell, last in zip(self.cells, self.lasts, strict=True) if last >= roll]
        if not cells:
            return np.full(len(dice_tables(self.layout.dice_count).multisets), NEG)
        best: FloatArray = _values(self.layout, self.deep, self.values, cells, roll).max(axis=1)
        return best

    def keeps(self, roll: int) -> FloatArray:
        """keeps: each keep's worth after this roll (1 or 2)."""
        found = self.found.get(roll)
        if found is None:
            tables = dice_tables(self.layout.dice_count)
            if roll == 2:
                after = self.best_write(3)
            elif not self.deep:
                after = self.best_write(2)
            else:
                after = np.maximum(self.best_write(2), best_within(tables, self.keeps(2), NEG))
                for column in self.late:
                    dice2 = _announced(self.layout, True, self.values, column).dice2
                    assert dice2 is not None
                    after = np.maximum(after, dice2)
            found = self.found[roll] = tables.chances @ after
        return found


_TURNS: dict[tuple[object, ...], _Turn] = {}


def _turn_of(game: Game, deep: bool, values: Values) -> _Turn:
    layout = game.layout
    seat = game.seat
    announcement = game.announcement
    obligation = game.obligations[seat]
    directed = layout.directed_column
    cells: list[tuple[int, int]] = []
    lasts: list[int] = []
    if layout.joker_row is not None:
        # Classic's joker narrows this roll's cells only: later rolls may write any empty box.
        filled = game.sheets[seat].filled[0]
        cells = [(0, row) for row in range(layout.rows_per_column) if not filled >> row & 1]
        lasts = [MAX_ROLLS] * len(cells)
    else:
        for column, row, _ in game.legal_cells():
            if (column, row) == announcement or (column == directed and row == obligation):
                last = MAX_ROLLS
            else:
                last = layout.columns[column].last_roll
            if last >= 2:
                cells.append((column, row))
                lasts.append(last)
    key = (layout, deep, values, tuple(cells), tuple(lasts))
    turn = _TURNS.get(key)
    if turn is None:
        late = sorted(
            {c for (c, _), last in zip(cells, lasts, strict=True) if last == 2}
            if deep and announcement is None
            else set()
        )
        turn = _Turn(layout, deep, values, cells, lasts, late)
        if len(_TURNS) >= _KEPT:
            _TURNS.clear()
        _TURNS[key] = turn
    return turn


def choose(game: Game, level: Level) -> BotMove:
    if not game.roll:
        return RollMove(())
    deep = level == "hard"
    layout = game.layout
    options = options_of(game)
    values: Values = tuple(tuple(column) for column in game.sheets[game.seat].values)
    roll = game.roll

    # Writing now, at the engine's scores for these dice (the first best in sheet order).
    best_move: BotMove | None = None
    best = 2 * NEG
    for column, row, score in options.cells:
        worth = float(_table(layout, deep, column, values)[row, min(score, SCORES - 1)])
        if worth > best + _EPSILON:
            best_move, best = WriteMove(column, row), worth
    assert best_move is not None, "a roll always leaves a legal cell"
    if roll >= MAX_ROLLS:
        return best_move

    tables = dice_tables(layout.dice_count)
    dice = game.dice
    within = tables.within[tables.multiset_index[tuple(sorted(dice))]]
    within = within[within < len(tables.keeps)]
    if options.can_reroll:
        keeps = _turn_of(game, deep, values).keeps(roll)[within]
        k = int(np.argmax(keeps))
        if keeps[k] > best + _EPSILON:
            best = float(keeps[k])
            best_move = RollMove(positions_of(dice, tables.keeps[within[k]]))

    announceable = {(c, r) for c, r, _ in options.announceable}
    for column in sorted({c for c, _ in announceable}):
        if layout.columns[column].type.announce_by_roll != roll:
            continue  # a late announcement waits for roll 2, losing nothing
        announced = _announced(layout, deep, values, column)
        worth = announced.keeps[within]
        for j, row in enumerate(announced.rows):
            if (column, row) in announceable:
                top = float(worth[:, j].max())
                if top > best + _EPSILON:
                    best_move, best = AnnounceMove(column, row), top
    return best_move


def forget() -> None:
    """Drops every kept array (after value.py's constants change: yamb_tools.tune)."""
    _TURNS.clear()
    _ANNOUNCED.clear()
    sheet_values_forget()
