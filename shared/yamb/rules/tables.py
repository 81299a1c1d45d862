"""Precomputed scores: every box of a grid for every multiset of dice and every roll number.

Five dice have 252 multisets and six have 462, so a grid's whole table is built once, lazily.
The engine numbers the multisets (`dice_keys`: a roll, in any order, to its multiset's number,
worked out once per roll) and reads a turn's scores from rows indexed by that number
(`score_rows`), so that listing cells never sorts the dice.
"""

from functools import cache
from itertools import combinations_with_replacement, product

from yamb.rules.grids import Grid
from yamb.rules.scorers import ROLL_PARAMS, SCORERS, Dice, best_of_five

type ScoreTable = dict[Dice, tuple[int, ...]]
type ScoreRows = tuple[tuple[int, ...], ...]

# Up to this many dice, `dice_keys` holds every ordered roll (6**5 = 7,776 of them); beyond, only
# the sorted ones (6**6 would be 46,656 entries, built at every cold start): sort, then look up.
ORDERED_KEYS_UP_TO = 5

ROLLS = (1, 2, 3)


@cache
def score_tables(grid: Grid, dice_count: int) -> tuple[ScoreTable, ScoreTable, ScoreTable]:
    """One table per roll number (Kenta and Generala's servida depend on it). A box whose
    parameters do not involve the roll (ROLL_PARAMS) is scored once for all three."""
    multisets = _multisets(dice_count)
    by_roll: list[list[list[int]]] = [[], [], []]
    for row in grid.rows:
        scorer, params = SCORERS[row.scorer], dict(row.params)
        scored: list[int] = []
        for roll in ROLLS:
            if roll == 1 or not ROLL_PARAMS.isdisjoint(params):
                scored = [
                    best_of_five(scorer, params, dice, roll, lower_is_better=row.lower_is_better)
                    for dice in multisets
                ]
            by_roll[roll - 1].append(scored)
    first, second, third = (
        dict(zip(multisets, zip(*rows, strict=True), strict=True)) for rows in by_roll
    )
    return first, second, third


def row_scores(grid: Grid, dice: Dice, roll: int) -> tuple[int, ...]:
    """Each box's score for these dice (any order) made on this roll, before sheet conditions."""
    return score_tables(grid, len(dice))[roll - 1][tuple(sorted(dice))]


def _multisets(dice_count: int) -> list[Dice]:
    return list(combinations_with_replacement(range(1, 7), dice_count))


@cache
def dice_keys(dice_count: int) -> dict[Dice, int]:
    """Each roll of `dice_count` dice to the number of its multiset (the index into a score
    row table): every order of the faces for five dice or fewer, the sorted order only above."""
    keys = {dice: key for key, dice in enumerate(_multisets(dice_count))}
    if dice_count > ORDERED_KEYS_UP_TO:
        return keys
    rolls = list(product(range(1, 7), repeat=dice_count))
    return dict(zip(rolls, map(keys.__getitem__, map(tuple, map(sorted, rolls))), strict=True))


@cache
def score_rows(grid: Grid, dice_count: int) -> tuple[ScoreRows, ScoreRows, ScoreRows]:
    """Per roll number, each multiset's box scores, indexed by its number in `dice_keys`."""
    tables = score_tables(grid, dice_count)
    multisets = _multisets(dice_count)
    first, second, third = (tuple(table[dice] for dice in multisets) for table in tables)
    return first, second, third
