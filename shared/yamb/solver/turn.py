"""One turn, by backward induction over the 252 multisets of five dice and the 462 keeps.

A keep is the multiset of dice held before a reroll (0 to 5 dice). For a batch of states, and
the values of the states after them (`after`, indexed by state number):

- box values: for every box and every multiset, the box's score plus the value of the state
  its write leads to (the upper bonus counted when a write reaches the threshold, Classic's
  Yahtzee bonus when it is earned); -inf where the box may not be written;
- after the last roll the best box; after rolls 1 and 2 the best of writing now and of every
  keep (a keep's value: the dice's values after the reroll, weighted by their chances);
- the state's value: the first roll's values, weighted by their chances.

Keeping all five dice means writing now (a reroll of nothing never gains: a later roll scores no
more than an earlier one).
"""

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod

import numpy as np

from yamb.solver.model import DICE, FACES, MULTISETS, FloatArray, IntArray, Model, States

# Every keep, by size then faces; keep 0 is the empty one (roll all five).
KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep for size in range(DICE + 1) for keep in combinations_with_replacement(range(1, 7), size)
)
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}
# The keep number of each multiset of five (keeping all of it).
REROLLING = len(KEEPS) - len(MULTISETS)
FIVE = slice(REROLLING, len(KEEPS))
assert KEEPS[FIVE] == MULTISETS
FIVE_ALIKE: tuple[int, ...] = tuple(MULTISETS.index((face,) * DICE) for face in range(1, 7))


def _chances() -> FloatArray:
    """chances[d, k]: the chance that rerolling the dice not in keep k gives multiset d."""
    chances = np.zeros((len(MULTISETS), len(KEEPS)))
    for k, keep in enumerate(KEEPS):
        held = Counter(keep)
        rolled = DICE - len(keep)
        for d, dice in enumerate(MULTISETS):
            fresh = Counter(dice)
            fresh.subtract(held)
            if min(fresh.values()) < 0:
                continue
            ways = factorial(rolled) // prod(factorial(n) for n in fresh.values())
            chances[d, k] = ways / FACES**rolled
    return chances


CHANCES = _chances()
# The chances from the keeps that reroll some dice (holding all five leaves the dice as they are).
REROLLS = np.ascontiguousarray(CHANCES.T[:REROLLING])
FIRST_ROLL = np.ascontiguousarray(CHANCES[:, 0])


def _levels() -> tuple[tuple[IntArray, IntArray], ...]:
    """Per keep size 1-5: the keeps, and for each face the keep with one die of it fewer (the
    keep itself when it holds none): the best keep within a multiset, one die at a time."""
    levels = []
    for size in range(1, DICE + 1):
        keeps = [k for k, keep in enumerate(KEEPS) if len(keep) == size]
        children = []
        for k in keeps:
            keep = list(KEEPS[k])
            row = []
            for face in range(1, 7):
                if face in keep:
                    smaller = keep.copy()
                    smaller.remove(face)
                    row.append(KEEP_INDEX[tuple(smaller)])
                else:
                    row.append(k)
            children.append(row)
        levels.append((np.array(keeps, dtype=np.int64), np.array(children, dtype=np.int64)))
    return tuple(levels)


LEVELS = _levels()


def sub_keeps(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct keep within these (sorted) dice, the whole of them last."""
    found = {keep for size in range(len(dice) + 1) for keep in combinations(dice, size)}
    return tuple(sorted(found, key=lambda keep: (len(keep), keep)))


@cache
def _classes(model: Model) -> tuple[tuple[tuple[IntArray, IntArray], ...], ...]:
    """Per roll and box: the distinct scores that lead to different states (an upper box's
    six, a flag's hit or miss), and each multiset's class; a box whose score changes nothing
    after it has one class."""
    per_roll = []
    for roll in range(3):
        per_box = []
        for box in range(model.boxes):
            scores = model.scores[roll, :, box]
            counts = bool(model.threshold and model.faces[box]) or bool(model.sets_flags[box])
            if counts:
                values, inverse = np.unique(scores, return_inverse=True)
            else:
                values, inverse = np.zeros(1, dtype=np.int64), np.zeros(len(scores), np.int64)
            per_box.append((values.astype(np.int64), inverse.astype(np.int64)))
        per_roll.append(tuple(per_box))
    return tuple(per_roll)


def next_values(
    model: Model,
    after: FloatArray,
    box: int,
    score: IntArray | int,
    states: States,
) -> FloatArray:
    """The value of the state a write of `score` in `box` leads to, plus the upper bonus when
    this write reaches the threshold (arrays broadcast together)."""
    filled, upper, flags = states
    threshold = model.threshold
    filled_after = filled | (1 << box)
    gain: FloatArray | float = 0.0
    upper_after = upper
    if threshold and model.faces[box]:
        upper_after = np.minimum(threshold, upper + score)
        gain = model.bonus * ((upper < threshold) & (upper_after >= threshold))
    flags_after = flags
    for value, bit in model.sets_flags[box]:
        flags_after = flags_after | np.where(np.equal(score, value), bit, 0)
    index = (filled_after * model.uppers + upper_after) * model.flag_states + flags_after
    values: FloatArray = after[index] + gain
    return values


def box_values(
    model: Model,
    after: FloatArray,
    roll: int,
    states: States,
    *,
    with_scores: bool = False,
) -> Iterator[tuple[int, FloatArray, IntArray | None]]:
    """Per box: (box, values[multiset, state], the scores written[multiset, state] when asked),
    -inf and -1 where the box may not be written."""
    filled, upper, flags = states
    classes = _classes(model)[roll - 1]
    table = model.scores[roll - 1]
    jokers = None
    if model.joker is not None:
        jokers = _Jokers(model, roll, states)
    f, u, fl = filled[None, :], upper[None, :], flags[None, :]
    for box in range(model.boxes):
        open_box = (filled >> box & 1) == 0
        if not open_box.any():
            continue
        class_scores, inverse = classes[box]
        reached = next_values(model, after, box, class_scores[:, None], (f, u, fl))
        scores = table[:, box, None]
        need = model.needs[box]
        if need:
            scores = np.where((fl & need) == need, scores, 0)
        values = np.where(open_box, reached[inverse] + scores, -np.inf)
        written = None
        if with_scores:
            written = np.where(open_box, scores, -1)
        if jokers is not None:
            jokers.apply(after, box, values, written)
        yield box, values, written


class _Jokers:
    """Classic's forced joker, as Game._joker_cells: five alike with the Yahtzee box filled go
    to the face's upper box if open; else to any open lower box at its joker value; else to any
    open upper box for 0. The Yahtzee bonus comes on top when the Yahtzee box holds 50."""

    def __init__(self, model: Model, roll: int, states: States) -> None:
        filled, upper, flags = states
        joker = model.joker
        assert joker is not None
        self.model, self.joker, self.roll = model, joker, roll
        (self.states,) = np.nonzero(filled >> joker.row & 1)
        f = self.filled = filled[self.states]
        self.upper, self.flags = upper[self.states], flags[self.states]
        self.bonus = np.where(self.flags & joker.bonus_flag, float(joker.bonus), 0.0)
        self.open_rows = [(f >> box & 1) == 0 for box in range(model.boxes)]
        self.lower_open = np.zeros(len(self.states), dtype=bool)
        for box in model.lower_rows:
            self.lower_open |= self.open_rows[box]

    def apply(
        self, after: FloatArray, box: int, values: FloatArray, written: IntArray | None
    ) -> None:
        if not self.states.size:
            return
        model, joker, states = self.model, self.joker, self.states
        open_rows = self.open_rows
        for face in range(1, FACES + 1):
            five = FIVE_ALIKE[face - 1]
            face_rows = [row for row in model.upper_rows if model.faces[row] == face]
            face_row = face_rows[0] if face_rows else None
            face_open = (
                open_rows[face_row] if face_row is not None else np.zeros_like(self.lower_open)
            )
            if box == face_row:
                legal, score = face_open, int(model.scores[self.roll - 1, five, box])
            elif box in model.lower_rows:
                legal, score = ~face_open & open_rows[box], joker.values[face - 1][box]
            else:
                legal, score = ~face_open & ~self.lower_open & open_rows[box], 0
            reached = next_values(model, after, box, score, (self.filled, self.upper, self.flags))
            values[five, states] = np.where(legal, score + reached + self.bonus, -np.inf)
            if written is not None:
                written[five, states] = np.where(legal, score, -1)


def best_box(model: Model, after: FloatArray, roll: int, states: States) -> FloatArray:
    """best[multiset, state]: the best box's value."""
    best: FloatArray | None = None
    for _, values, _ in box_values(model, after, roll, states):
        best = values if best is None else np.maximum(best, values, out=best)
    assert best is not None, "a state between turns has an open box"
    return best


def best_within(keeps: FloatArray) -> FloatArray:
    """best[k]: the best value of a keep within keep k (k itself included), keeps x states."""
    best = keeps.copy()
    for level, children in LEVELS:
        rows = best[level[0] : level[-1] + 1]
        for face in range(FACES):
            np.maximum(rows, best[children[:, face]], out=rows)
    return best


def keep_values(write_now: FloatArray, later: FloatArray) -> FloatArray:
    """keeps[k]: the value of holding keep k and rolling the rest, the next roll's dice worth
    `later` (multisets x states); holding all five is writing now (`write_now`)."""
    keeps: FloatArray = np.empty((len(KEEPS), later.shape[1]))
    np.matmul(REROLLS, later, out=keeps[:REROLLING])
    keeps[FIVE] = write_now
    return keeps


def turn(
    best: tuple[FloatArray, FloatArray, FloatArray],
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """From the best box after each roll (multisets x states): (the states' values, the keeps'
    values after roll 1, after roll 2; keeps x states)."""
    first, second, third = best
    after_second = keep_values(second, third)
    dice_second = best_within(after_second)[FIVE]
    after_first = keep_values(first, dice_second)
    dice_first = best_within(after_first)[FIVE]
    values: FloatArray = FIRST_ROLL @ dice_first
    return values, after_first, after_second
