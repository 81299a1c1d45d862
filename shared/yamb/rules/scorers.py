"""How one box scores five dice: a handful of parameterised functions that the grids name.

Every function takes the five dice sorted ascending and the roll number (1-3) they were made on,
plus the parameters the grid's data gives. None of them knows about sheets or columns.
"""

from collections import Counter
from collections.abc import Callable, Collection
from itertools import combinations
from typing import Any

type Dice = tuple[int, ...]
type Scorer = Callable[..., int]


def face(dice: Dice, roll: int, *, face: int) -> int:
    return face * dice.count(face)


def total(dice: Dice, roll: int) -> int:
    return sum(dice)


def _first_roll_bonus(roll: int, bonus: int) -> int:
    return bonus if roll == 1 else 0


def of_a_kind(
    dice: Dice,
    roll: int,
    *,
    n: int,
    per_face: int = 0,
    fixed: int = 0,
    add_sum: bool = False,
    first_roll_bonus: int = 0,
) -> int:
    """At least `n` dice alike; the best-scoring qualifying face counts."""
    best = 0
    for value, count in Counter(dice).items():
        if count >= n:
            score = fixed + per_face * value + (sum(dice) if add_sum else 0)
            best = max(best, score + _first_roll_bonus(roll, first_roll_bonus))
    return best


def two_pairs(dice: Dice, roll: int, *, times: int) -> int:
    """Two different faces shown at least twice each: `times` x their sum, best pair of pairs."""
    paired = sorted(value for value, count in Counter(dice).items() if count >= 2)
    if len(paired) < 2:
        return 0
    return times * (paired[-1] + paired[-2])


def full_house(
    dice: Dice, roll: int, *, fixed: int = 0, add_sum: bool = False, first_roll_bonus: int = 0
) -> int:
    """Three of one face and two of another face; five alike is not a full house."""
    if sorted(Counter(dice).values()) != [2, 3]:
        return 0
    return fixed + (sum(dice) if add_sum else 0) + _first_roll_bonus(roll, first_roll_bonus)


def straight(
    dice: Dice,
    roll: int,
    *,
    runs: Collection[frozenset[int]],
    score: int = 0,
    by_roll: tuple[int, int, int] | None = None,
    first_roll_bonus: int = 0,
) -> int:
    """Any of `runs` shown (as a subset of the faces); scored flat or by the roll it was made on."""
    faces = set(dice)
    if not any(run <= faces for run in runs):
        return 0
    base = by_roll[roll - 1] if by_roll is not None else score
    return base + _first_roll_bonus(roll, first_roll_bonus)


# The parameters through which a box's score depends on the roll it was made on; with none of
# them, a scorer gives the same score on every roll (the score tables count on it).
ROLL_PARAMS = frozenset({"by_roll", "first_roll_bonus"})

SCORERS: dict[str, Scorer] = {
    "face": face,
    "total": total,
    "of_a_kind": of_a_kind,
    "two_pairs": two_pairs,
    "full_house": full_house,
    "straight": straight,
}


def best_of_five(
    scorer: Scorer, params: dict[str, Any], dice: Dice, roll: int, *, lower_is_better: bool
) -> int:
    """Scores more than five dice on the best five for this box (the lowest five for Min)."""
    if len(dice) == 5:
        return scorer(dice, roll, **params)
    scores = [scorer(five, roll, **params) for five in set(combinations(dice, 5))]
    return min(scores) if lower_is_better else max(scores)
