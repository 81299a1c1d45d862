"""The optimal solitaire player's questions: what a state is worth, the best keep, the best box.

Every value is the points still to come under optimal play from that point on: the box being
written, the upper bonus once reached, Classic's Yahtzee bonuses, and the later turns. A game's
expected final score is its sheet's total so far plus `expected(state)`. A choice's regret is
the best value minus its own (`regret`).

A keep is the sorted faces held before rerolling the rest; keeping all five dice is writing now
(the best box after this roll).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from yamb.rules import Grid
from yamb.rules.tables import dice_keys
from yamb.solver import storage
from yamb.solver.build import build
from yamb.solver.model import DICE, MULTISETS, FloatArray, IntArray, Model, State, model_for
from yamb.solver.turn import KEEP_INDEX, box_values, sub_keeps, turn

type Keep = tuple[int, ...]
# Solved turns kept per solver (a state's turn is worked out once, for all its questions).
TURN_CACHE = 4096


class BoxChoice(NamedTuple):
    score: int  # what the box gets now (the Yahtzee bonus not included)
    value: float  # the points to come if written now: the score, bonuses, and the later turns


@dataclass(frozen=True, slots=True)
class _Turn:
    # Per roll (0-2): box values and the scores written, boxes x multisets (-inf / -1: illegal).
    values: tuple[FloatArray, FloatArray, FloatArray]
    written: tuple[IntArray, IntArray, IntArray]
    # Per roll 1 and 2: the keeps' values (writing now for the five-dice keeps).
    keeps: tuple[FloatArray, FloatArray]


class Solver:
    """A solved family grid. Loading reads a stored table on first use (never at import)."""

    # The process-wide cache of load(): (grid id, the directories searched) -> solver.
    _loaded: dict[tuple[str, tuple[Path, ...]], "Solver"] = {}  # noqa: RUF012

    def __init__(self, model: Model, values: FloatArray) -> None:
        if values.shape != (model.size,):
            raise ValueError(f"{model.grid.id}: {values.shape} values, expected {model.size}")
        self.model = model
        self.values = values
        self._turns: dict[int, _Turn] = {}
        self._multisets = dice_keys(DICE)

    # -- making one ------------------------------------------------------------------------

    @classmethod
    def build(cls, grid: str | Grid, progress: Callable[[str], None] | None = None) -> "Solver":
        """Solves the grid now (seconds for Yacht and Generala, about a minute for Classic and
        Scandinavian)."""
        model = model_for(grid)
        return cls(model, build(model, progress))

    @classmethod
    def load(
        cls, grid: str, *, directories: Sequence[Path] | None = None, build: bool = False
    ) -> "Solver":
        """The grid's solver from its stored table (the committed tables, then the cache),
        loaded once per process. With `build`, a grid with no stored table is solved instead
        (kept in memory only); otherwise that is a TableError naming the command that makes it.
        A table that is present but does not check is always a TableError."""
        places = tuple(storage.search_dirs() if directories is None else directories)
        cached = cls._loaded.get((grid, places))
        if cached is not None:
            return cached
        model = model_for(grid)
        for directory in places:
            path = storage.table_path(directory, grid)
            if path.exists():
                solver = cls(model, storage.load(model, path))
                break
        else:
            if not build:
                searched = ", ".join(str(p) for p in places)
                raise storage.TableError(
                    f"no solved table for {grid} in {searched}: run `yamb solve {grid}`"
                )
            solver = cls.build(grid)
        cls._loaded[grid, places] = solver
        return solver

    def save(self, directory: Path) -> Path:
        return storage.save(self.model, self.values, directory)

    # -- questions -------------------------------------------------------------------------

    def expected(self, state: State) -> float:
        """The points still to come from this state between turns, under optimal play."""
        return float(self.values[self._index(state)])

    def box_values(self, state: State, dice: Sequence[int], roll: int) -> dict[str, BoxChoice]:
        """Every box that may be written now (the engine's legal cells), in row order, with its
        score and its value."""
        if roll not in (1, 2, 3):
            raise ValueError("roll is 1, 2 or 3")
        solved = self._turn(state)
        multiset = self._multiset(dice)
        values, written = solved.values[roll - 1], solved.written[roll - 1]
        return {
            row_id: BoxChoice(int(written[box, multiset]), float(values[box, multiset]))
            for box, row_id in enumerate(self.model.row_ids)
            if written[box, multiset] >= 0
        }

    def best_box(self, state: State, dice: Sequence[int], roll: int) -> tuple[str, float]:
        """The box to write (the first in row order on a tie) and its value."""
        choices = self.box_values(state, dice, roll)
        row_id = max(choices, key=lambda row: choices[row].value)
        return row_id, choices[row_id].value

    def keep_values(self, state: State, dice: Sequence[int], rolls_left: int) -> dict[Keep, float]:
        """Every distinct keep of these dice with its value, the whole dice (writing now)
        first, then from the most dice held to none."""
        if rolls_left not in (1, 2):
            raise ValueError("rolls_left is 1 or 2 (after the last roll, choose a box)")
        self._multiset(dice)
        keeps = self._turn(state).keeps[2 - rolls_left]
        return {keep: float(keeps[KEEP_INDEX[keep]]) for keep in reversed(sub_keeps(_sorted(dice)))}

    def best_keep(self, state: State, dice: Sequence[int], rolls_left: int) -> tuple[Keep, float]:
        """The dice to hold (all five: write now; more dice held first on a tie) and the value."""
        choices = self.keep_values(state, dice, rolls_left)
        keep = max(choices, key=choices.__getitem__)
        return keep, choices[keep]

    # -- internals -------------------------------------------------------------------------

    def _index(self, state: State) -> int:
        model = self.model
        if not (0 <= state.filled <= model.full and 0 <= state.upper <= model.threshold):
            raise ValueError(f"not a {model.grid.id} state: {state}")
        if not 0 <= state.flags < model.flag_states:
            raise ValueError(f"not a {model.grid.id} state: {state}")
        return model.index(state)

    def _multiset(self, dice: Sequence[int]) -> int:
        key = self._multisets.get(tuple(dice))
        if key is None:
            raise ValueError(f"dice must be {DICE} faces from 1 to 6, not {tuple(dice)}")
        return key

    def _turn(self, state: State) -> _Turn:
        index = self._index(state)
        solved = self._turns.get(index)
        if solved is None:
            if state.filled == self.model.full:
                raise ValueError("the sheet is full: no turn is left")
            solved = self._solve_turn(state)
            if len(self._turns) >= TURN_CACHE:
                self._turns.clear()
            self._turns[index] = solved
        return solved

    def _solve_turn(self, state: State) -> _Turn:
        model = self.model
        filled, upper, flags = (np.array([n], dtype=np.int64) for n in state)
        states = (filled, upper, flags)
        values: list[FloatArray] = []
        written: list[IntArray] = []
        for roll in (1, 2, 3):
            if roll > 1 and not model.roll_dependent:
                values.append(values[0])
                written.append(written[0])
                continue
            roll_values = np.full((model.boxes, len(MULTISETS)), -np.inf)
            roll_written = np.full(roll_values.shape, -1, dtype=np.int64)
            for box, box_value, box_written in box_values(
                model, self.values, roll, states, with_scores=True
            ):
                assert box_written is not None
                roll_values[box] = box_value[:, 0]
                roll_written[box] = box_written[:, 0]
            values.append(roll_values)
            written.append(roll_written)
        best = tuple(v.max(axis=0)[:, None] for v in values)
        _, first, second = turn((best[0], best[1], best[2]))
        return _Turn(
            (values[0], values[1], values[2]),
            (written[0], written[1], written[2]),
            (first[:, 0], second[:, 0]),
        )


def regret[K](choices: Mapping[K, BoxChoice] | Mapping[K, float], choice: K) -> float:
    """How many expected points a choice loses against the best one (0 for the best), from
    box_values' or keep_values' answer."""
    values = {
        key: value.value if isinstance(value, BoxChoice) else value
        for key, value in choices.items()
    }
    return max(values.values()) - values[choice]


def _sorted(dice: Sequence[int]) -> Keep:
    return tuple(sorted(dice))
