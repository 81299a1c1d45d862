"""Precomputed scores: every box of a grid for every multiset of dice and every roll number.

Five dice have 252 multisets and six have 462, so a grid's whole table is built once, lazily, and
a turn's scores are one dictionary look-up on the sorted dice.
"""

from functools import cache
from itertools import combinations_with_replacement

from yamb.rules.grids import Grid
from yamb.rules.scorers import SCORERS, Dice, best_of_five

type ScoreTable = dict[Dice, tuple[int, ...]]

ROLLS = (1, 2, 3)


@cache
def score_tables(grid: Grid, dice_count: int) -> tuple[ScoreTable, ScoreTable, ScoreTable]:
    """One table per roll number (Kenta and Generala's servida depend on it)."""
    tables: list[ScoreTable] = []
    for roll in ROLLS:
        table: ScoreTable = {}
        for dice in combinations_with_replacement(range(1, 7), dice_count):
            table[dice] = tuple(
                best_of_five(
                    SCORERS[row.scorer],
                    dict(row.params),
                    dice,
                    roll,
                    lower_is_better=row.lower_is_better,
                )
                for row in grid.rows
            )
        tables.append(table)
    return tables[0], tables[1], tables[2]


def row_scores(grid: Grid, dice: Dice, roll: int) -> tuple[int, ...]:
    """Each box's score for these dice (any order) made on this roll, before sheet conditions."""
    return score_tables(grid, len(dice))[roll - 1][tuple(sorted(dice))]
