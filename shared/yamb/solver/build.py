"""The whole table: every reachable state's value, from the full sheet back to the empty one.

A state's value is the points still to come under optimal play (the upper bonus and Yahtzee
bonuses included, once they are earned): the full sheet is worth 0, and the states with k boxes
filled are worked out from those with k + 1, in batches (yamb.solver.turn).
"""

import time
from collections.abc import Callable

import numpy as np

from yamb.solver.model import FloatArray, IntArray, Model, States
from yamb.solver.turn import best_box, turn

# States per batch: a batch's values are 462 x BATCH floats per array.
BATCH = 2048


def state_values(model: Model, states: States, after: FloatArray) -> FloatArray:
    """The values of a batch of states, from the values of the states after them."""
    best: list[FloatArray] = []
    for roll in (1, 2, 3):
        if roll > 1 and not model.roll_dependent:
            best.append(best[0])
            continue
        best.append(best_box(model, after, roll, states))
    values, _, _ = turn((best[0], best[1], best[2]))
    return values


def build(model: Model, progress: Callable[[str], None] | None = None) -> FloatArray:
    """Every state's value, indexed by state number (0 for the states no game reaches)."""
    values = np.zeros(model.size)
    reachable = model.reachable()
    (states,) = np.nonzero(reachable)
    written = _popcount(model.decode(states)[0])
    start = time.perf_counter()
    for count in range(model.boxes - 1, -1, -1):
        level = states[written == count]
        for begin in range(0, len(level), BATCH):
            batch = level[begin : begin + BATCH]
            values[batch] = state_values(model, model.decode(batch), values)
        if progress is not None:
            elapsed = time.perf_counter() - start
            progress(
                f"{model.grid.id}: {count:2} boxes filled, {len(level):7} states, {elapsed:.1f} s"
            )
    return values


def _popcount(masks: IntArray) -> IntArray:
    counts = np.zeros_like(masks)
    for bit in range(int(masks.max()).bit_length() if masks.size else 0):
        counts += masks >> bit & 1
    return counts
