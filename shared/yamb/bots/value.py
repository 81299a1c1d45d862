"""What writing a score in a cell is worth: the turn search's leaf values.

medium: the plain score (for a row where lower is better, such as Min, 35 minus the sum).

hard: the change the write makes to the column's expected final total,

    value(cell, s) = own(s) - par(cell)                      the cell's own points vs. its par
                   + bonus x [P(bonus | after) - P(bonus | before)]       the upper bonus
                   + the change of the expected middle part (Yamb: (Max - Min) x Ones)

where par(cell) is the points that cell is expected to bring when it is left open and filled
later (PARS, per grid, dice count, column type and row), own(s) is s for the upper and lower
rows and 0 for Max and Min (which count only through the middle part), and an open cell stands
for its par in the middle part: writing Ones s changes it by (Max - Min) x (s - par(Ones)),
writing Max s by (s - par(Max)) x Ones, writing Min s by (par(Min) - s) x Ones. P(bonus) assumes
each open upper row scores face x a binomial(5, par / (5 x face)) count.

How the constants were tuned (offline, `python -m yamb_tools.tune KEY`, 2 processes):

- PARS: a fixed point by simulation. Start from guessed pars; play N seeded solo games with the
  hard bot; set each par to the average score the bot then wrote in that row (crossed-out zeros
  included); repeat on the same dice (common random numbers) and keep the pars that scored best.
  - Yamb, 5 dice, on preset 7 (every column type): per column type the iteration oscillated and
    scored worse (2,309-2,364 over 600 games) than one par per row shared by every type
    (`--shared`: the types' averages), which settled in two rounds at 2,408 +- 8 (from 2,364
    with the guessed pars). The same pars are the best found on preset 5 (1,917 +- 6 over
    1,000 games; re-tuning on preset 5 gave 1,881-1,897).
  - Preset 1 (Down and Up only) got pars of its own, tuned on it: 409.6 +- 1.6 against 387.5
    with the general ones (3,000 games).
  - Yamb, 6 dice, on preset 7, shared: 3,362 -> 3,413 +- 8 (400 games); the last two rounds
    averaged.
  - Family grids, 2,000 games a round: the iteration alternates between two sets of pars
    (its Scandinavian, Yacht and Generala averages: 235.8/237.9/234.7/237.7, 168.8/171.2/
    167.3/169.9, 157.0/147.8/160.2/149.6); the best-scoring set is kept. Classic (1,000
    games): 242.0/246.2/240.3, the second set kept.
- BONUS_WEIGHT (a factor on the upper bonus' change): 0.6, 1.0, 1.5 on the same dice gave
  2,411 / 2,409 / 2,398 (Yamb preset 7, 500 games, +-9) and 239.1 / 239.2 / 241.1 (Classic,
  3,000 games, +-1.0): no weight is clearly better, 1.0 is kept.
- LOW_MIRROR (medium only): Min's range mirrored, not tuned.
"""

from functools import cache
from math import comb

import numpy as np

from yamb.bots.dice_tables import FloatArray
from yamb.layout import Layout

# Scores are 0..SCORES - 1 (Generala's double generala is 100).
SCORES = 106
# The mirror of a lower-is-better row for the plain value (Min's five dice sum 5 to 30).
LOW_MIRROR = 35
BONUS_WEIGHT = 1.0

# Per layout key (yamb5, yamb6, or the family grid's id) and column type ("*": every type),
# each row's par. Yamb rows: ones twos threes fours fives sixes max min triling kenta ful
# poker yamb; a family grid's: ones..sixes, then its lower boxes in row order.
PARS: dict[str, dict[str, tuple[float, ...]]] = {
    "yamb5": {"*": (3.0, 4.5, 7.4, 10.2, 12.9, 15.5, 24.0, 10.6, 30.6, 40.1, 38.8, 36.5, 13.7)},
    # Preset 1 (Down and Up only) has pars of its own: +22 points against the general ones.
    "yamb5:down,up": {
        "*": (2.4, 3.7, 5.9, 8.0, 10.3, 12.5, 23.3, 11.5, 25.5, 28.5, 29.4, 31.7, 4.6)
    },
    "yamb6": {"*": (3.5, 5.4, 8.9, 12.2, 15.1, 17.8, 26.0, 8.6, 33.2, 59.3, 49.2, 47.8, 39.6)},
    "classic": {
        "main": (2.1, 5.3, 8.7, 11.9, 15.1, 19.4, 22.2, 10.1, 22.4, 29.4, 30.9, 22.7, 18.2)
    },
    "scandinavian": {
        "main": (
            2.3,
            5.8,
            9.2,
            12.6,
            16.3,
            18.6,
            10.9,
            19.6,
            16.3,
            11.1,
            4.3,
            10.1,
            20.1,
            22.7,
            18.9,
        )
    },
    "yacht": {"main": (1.9, 5.3, 8.6, 11.9, 15.0, 17.8, 11.9, 18.7, 3.4, 16.2, 22.9, 17.2)},
    "generala": {"main": (1.9, 5.2, 8.3, 11.3, 15.0, 18.3, 16.1, 23.9, 27.7, 16.0, 4.1)},
}


def pars_key(layout: Layout) -> str:
    """yamb5 / yamb6 (or, when it has pars of its own, "yamb5:down,up": the dice count and
    the column types), or the family grid's id."""
    grid = layout.grid
    if not grid.has_column_types:
        return grid.id
    general = f"{grid.id}{layout.dice_count}"
    own = f"{general}:{','.join(column.id for column in layout.columns)}"
    return own if own in PARS else general


def pars_of(layout: Layout, column: int) -> tuple[float, ...]:
    pars = PARS[pars_key(layout)]
    return pars.get(layout.columns[column].id) or pars["*"]


@cache
def _counts(par: float, face: int) -> tuple[float, ...]:
    """The chances of 0-5 dice of `face` in an open upper row of this par."""
    p = min(0.95, max(0.05, par / (5 * face)))
    return tuple(comb(5, n) * p**n * (1 - p) ** (5 - n) for n in range(6))


@cache
def reach(pars: tuple[float, ...], mask: int, need: int) -> float:
    """The chance that the open upper rows in `mask` (bit f - 1 for face f) score `need` more."""
    if need <= 0:
        return 1.0
    if not mask:
        return 0.0
    low = mask & -mask
    face = low.bit_length()
    rest = mask ^ low
    return sum(
        chance * reach(pars, rest, need - face * n)
        for n, chance in enumerate(_counts(pars[face - 1], face))
    )


_S = np.arange(SCORES, dtype=np.float64)


@cache
def plain_values(layout: Layout) -> FloatArray:
    """medium: rows x scores, the plain value of each score in each row."""
    values = np.tile(_S, (layout.rows_per_column, 1))
    for row, rule in enumerate(layout.grid.rows):
        if rule.lower_is_better:
            values[row] = LOW_MIRROR - _S
    return values


_COLUMN_CACHE: dict[tuple[Layout, int, tuple[int | None, ...]], FloatArray] = {}
_COLUMN_CACHE_SIZE = 1024


def sheet_values(layout: Layout, column: int, values: tuple[int | None, ...]) -> FloatArray:
    """hard: rows x scores, each open cell's value of each score given the column's values
    (the rows already written are left at 0: they are never asked for)."""
    key = (layout, column, values)
    found = _COLUMN_CACHE.get(key)
    if found is None:
        if len(_COLUMN_CACHE) >= _COLUMN_CACHE_SIZE:
            _COLUMN_CACHE.clear()
        found = _COLUMN_CACHE[key] = _sheet_values(layout, column, values)
    return found


def _sheet_values(layout: Layout, column: int, values: tuple[int | None, ...]) -> FloatArray:
    grid = layout.grid
    pars = pars_of(layout, column)
    table = np.zeros((layout.rows_per_column, SCORES))
    for row, rule in enumerate(grid.rows):
        if values[row] is None and rule.section != "middle":
            table[row] = _S - pars[row]
    bonus = grid.upper_bonus
    if bonus is not None:
        upper = layout.upper_rows
        need = bonus.threshold - sum(values[r] or 0 for r in upper)
        mask = sum(1 << f for f, r in enumerate(upper) if values[r] is None)
        if need > 0 and mask:
            upper_pars = tuple(pars[r] for r in upper)
            before = reach(upper_pars, mask, need)
            weight = bonus.amount * BONUS_WEIGHT
            for f, row in enumerate(upper):
                if mask >> f & 1:
                    face = f + 1
                    for n in range(6):
                        after = reach(upper_pars, mask ^ 1 << f, need - face * n)
                        table[row, face * n] += weight * (after - before)
    if layout.middle_rows is not None:
        high, low, multiplier = layout.middle_rows
        h = pars[high] if values[high] is None else values[high]
        lo = pars[low] if values[low] is None else values[low]
        ones = pars[multiplier] if values[multiplier] is None else values[multiplier]
        assert h is not None and lo is not None and ones is not None
        if values[multiplier] is None:
            table[multiplier] += (h - lo) * (_S - pars[multiplier])
        if values[high] is None:
            table[high] += (_S - pars[high]) * ones
        if values[low] is None:
            table[low] += (pars[low] - _S) * ones
    return table


def forget() -> None:
    """Drops the kept column tables (after PARS or BONUS_WEIGHT change)."""
    _COLUMN_CACHE.clear()
    plain_values.cache_clear()
