"""Dice arithmetic for the turn search, as numpy arrays built once per process and dice count.

- multisets: every sorted roll of n dice, in the order of yamb.rules.tables (the engine's
  multiset numbers, so the layout's score rows index them directly);
- keeps: every multiset of 0 to n - 1 dice held before a reroll (holding all n is writing
  now), by size then faces;
- chances[k, m]: the chance that rerolling the dice not in keep k gives multiset m;
- within[m]: the keeps within multiset m, padded with len(keeps) (a keep worth nothing).

Five dice: 252 multisets, 210 keeps; six dice: 462 multisets, 462 keeps.
"""

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod
from typing import Any

import numpy as np
import numpy.typing as npt

from yamb.rules import Grid
from yamb.rules.tables import score_rows

type FloatArray = npt.NDArray[np.float64]
type IntArray = npt.NDArray[np.int64]
type Dice = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceTables:
    count: int
    multisets: tuple[Dice, ...]
    multiset_index: dict[Dice, int]
    keeps: tuple[Dice, ...]
    chances: FloatArray
    within: IntArray


@cache
def dice_tables(count: int) -> DiceTables:
    faces = range(1, 7)
    multisets = tuple(combinations_with_replacement(faces, count))
    multiset_index = {dice: i for i, dice in enumerate(multisets)}
    keeps = tuple(
        keep for size in range(count) for keep in combinations_with_replacement(faces, size)
    )
    keep_index = {keep: i for i, keep in enumerate(keeps)}
    chances = np.zeros((len(keeps), len(multisets)))
    for k, keep in enumerate(keeps):
        rolled = count - len(keep)
        scale = 6.0**rolled
        for fresh in combinations_with_replacement(faces, rolled):
            ways = factorial(rolled) // prod(factorial(n) for n in Counter(fresh).values())
            chances[k, multiset_index[tuple(sorted(keep + fresh))]] += ways / scale
    subsets = [
        sorted({keep_index[sub] for size in range(count) for sub in combinations(dice, size)})
        for dice in multisets
    ]
    width = max(len(s) for s in subsets)
    within = np.full((len(multisets), width), len(keeps), dtype=np.int64)
    for m, subs in enumerate(subsets):
        within[m, : len(subs)] = subs
    return DiceTables(count, multisets, multiset_index, keeps, chances, within)


@cache
def score_arrays(grid: Grid, count: int) -> tuple[IntArray, IntArray, IntArray]:
    """Per roll number (index 0-2): scores[multiset, row] before sheet conditions."""
    first, second, third = (np.array(rows, dtype=np.int64) for rows in score_rows(grid, count))
    return first, second, third


def best_within(tables: DiceTables, keeps: Any, floor: float) -> FloatArray:
    """Per multiset, the best value of a keep within it: keeps' values (keeps,) or
    (keeps, options) -> (multisets,) or (multisets, options)."""
    padded = np.concatenate([keeps, np.full((1, *keeps.shape[1:]), floor)])
    best: FloatArray = padded[tables.within].max(axis=1)
    return best
