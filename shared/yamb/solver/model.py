"""A family grid as the solver sees it: boxes, their scores per roll, and the states between turns.

A state between turns is (the mask of filled boxes, the upper sum capped at the bonus threshold,
the flags the grid needs). A flag is "row R holds value V": Classic's Yahtzee box holding 50 (the
100-point bonus), and each `requires` rule (Generala's double generala needs the generala box at
50). Its number is `(filled * uppers + upper) * flag_states + flags`.

Every score comes from the rules' own tables (yamb.rules.tables.score_rows, per roll number), and
the joker follows the engine's reading of it (yamb.game.Game._joker_cells).
"""

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from yamb.rules import GRIDS, Grid
from yamb.rules.tables import dice_keys, score_rows

DICE = 5
FACES = 6
ROLLS = 3
# Every multiset of five dice, in the score tables' order (sorted faces, lexicographic).
MULTISETS: tuple[tuple[int, ...], ...] = tuple(
    combinations_with_replacement(range(1, FACES + 1), DICE)
)
FAMILY = ("classic", "scandinavian", "yacht", "generala")

type IntArray = npt.NDArray[np.int64]
type FloatArray = npt.NDArray[np.float64]
type BoolArray = npt.NDArray[np.bool_]
# A batch of states: (filled, upper, flags), one entry per state (or arrays broadcast together).
type States = tuple[IntArray, IntArray, IntArray]


class State(NamedTuple):
    """A sheet between turns, as far as the rest of the game depends on it."""

    filled: int  # bit r: box r (the grid's row order) is written
    upper: int = 0  # the upper boxes' sum, capped at the bonus threshold (0 without a bonus)
    flags: int = 0  # bit i: the model's flags[i] holds (row, value)


@dataclass(frozen=True, slots=True)
class Joker:
    """Classic's forced joker and Yahtzee bonus, as the engine applies them."""

    row: int  # the Yahtzee box
    bonus: int
    bonus_flag: int  # the flag bit "the Yahtzee box holds bonus_needs"
    # Per face (0-5), the score of each box under the joker (lower boxes; upper ones unused).
    values: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True, eq=False)
class Model:
    grid: Grid
    boxes: int
    row_ids: tuple[str, ...]
    # Per box: its face (1-6) for an upper box, 0 otherwise.
    faces: tuple[int, ...]
    upper_rows: tuple[int, ...]
    lower_rows: tuple[int, ...]
    threshold: int  # 0 without an upper bonus
    bonus: int
    flags: tuple[tuple[int, int], ...]  # (row, value)
    # Per box: the flag bits a write of this box can set, and the flag bits its score needs.
    sets_flags: tuple[tuple[tuple[int, int], ...], ...]  # per box: ((value, bit), ...)
    needs: tuple[int, ...]
    joker: Joker | None
    # scores[roll - 1, multiset, box]: the rules' score before sheet conditions.
    scores: npt.NDArray[np.int64]
    roll_dependent: bool

    @property
    def uppers(self) -> int:
        return self.threshold + 1

    @property
    def flag_states(self) -> int:
        return 1 << len(self.flags)

    @property
    def size(self) -> int:
        return (1 << self.boxes) * self.uppers * self.flag_states

    @property
    def full(self) -> int:
        return (1 << self.boxes) - 1

    def index(self, state: State) -> int:
        return (state.filled * self.uppers + state.upper) * self.flag_states + state.flags

    def decode(self, index: IntArray) -> tuple[IntArray, IntArray, IntArray]:
        """(filled, upper, flags) of state numbers."""
        flags = index % self.flag_states
        rest = index // self.flag_states
        return rest // self.uppers, rest % self.uppers, flags

    def state_of_values(self, values: list[int | None]) -> State:
        """The state of a sheet column (None for an empty box), rows in the grid's order."""
        filled = sum(1 << r for r, value in enumerate(values) if value is not None)
        upper = min(self.threshold, sum(values[r] or 0 for r in self.upper_rows))
        flags = sum(1 << bit for bit, (row, value) in enumerate(self.flags) if values[row] == value)
        return State(filled, upper, flags)

    def reachable(self) -> BoolArray:
        """Which state numbers a game can be in: the upper sum made of the filled upper boxes
        (each a multiple of its face, up to five), flags only on filled rows."""
        # Per subset of the upper boxes (bit i: self.upper_rows[i]), the capped sums possible.
        sums = np.zeros((1 << len(self.upper_rows), self.uppers), dtype=bool)
        for subset in range(1 << len(self.upper_rows)):
            possible = {0}
            for i, row in enumerate(self.upper_rows):
                if subset >> i & 1:
                    face = self.faces[row]
                    possible = {
                        min(self.threshold, s + face * n) for s in possible for n in range(6)
                    }
            sums[subset, sorted(possible)] = True
        filled, upper, flags = self.decode(np.arange(self.size, dtype=np.int64))
        subsets = np.zeros_like(filled)
        for i, row in enumerate(self.upper_rows):
            subsets |= (filled >> row & 1) << i
        ok: BoolArray = sums[subsets, upper]
        for bit, (row, _) in enumerate(self.flags):
            ok &= ~((flags >> bit & 1 == 1) & (filled >> row & 1 == 0))
        return ok

    def fingerprint(self) -> str:
        """What a stored table was built for: every score and rule the solver read."""
        import hashlib  # noqa: PLC0415 - only storage asks

        digest = hashlib.sha256()
        digest.update(repr((self.grid.id, self.row_ids, self.faces, self.upper_rows)).encode())
        digest.update(repr((self.threshold, self.bonus, self.flags, self.needs)).encode())
        digest.update(repr(self.joker).encode())
        digest.update(np.ascontiguousarray(self.scores, dtype="<i8").tobytes())
        return digest.hexdigest()


def model_for(grid: str | Grid) -> Model:
    return _model(GRIDS[grid] if isinstance(grid, str) else grid)


@cache
def _model(grid: Grid) -> Model:
    if grid.has_column_types or grid.middle is not None:
        raise ValueError(f"the solver plays the one-column family grids, not {grid.id!r}")
    if DICE not in grid.dice_counts:
        raise ValueError(f"the solver plays five dice; {grid.id!r} does not")
    rows = grid.rows
    upper_rows = tuple(r for r, row in enumerate(rows) if row.section == "upper")
    lower_rows = tuple(r for r, row in enumerate(rows) if row.section == "lower")
    faces = tuple(int(row.params["face"]) if row.section == "upper" else 0 for row in rows)
    if any(faces[r] == 0 for r in upper_rows):
        raise ValueError("an upper box must score one face")
    flags: list[tuple[int, int]] = []
    for row in rows:
        if row.requires is not None:
            flags.append((grid.row_index(row.requires[0]), row.requires[1]))
    if grid.joker is not None:
        flags.append((grid.row_index(grid.joker.yahtzee_row), grid.joker.bonus_needs))
    flags = list(dict.fromkeys(flags))
    needs = tuple(
        0
        if row.requires is None
        else 1 << flags.index((grid.row_index(row.requires[0]), row.requires[1]))
        for row in rows
    )
    sets_flags = tuple(
        tuple((value, 1 << bit) for bit, (row, value) in enumerate(flags) if row == r)
        for r in range(len(rows))
    )
    for r in range(len(rows)):
        if needs[r] and (sets_flags[r] or r in upper_rows):
            raise ValueError("a conditional box may not be an upper box or set a flag")
    # The engine's score rows are indexed by dice_keys' numbering: check it is MULTISETS' order.
    keys = dice_keys(DICE)
    if any(keys[dice] != i for i, dice in enumerate(MULTISETS)):
        raise AssertionError("the score tables' multiset order changed")
    scores = np.array(score_rows(grid, DICE), dtype=np.int64)  # (roll, multiset, box)
    joker = None
    if grid.joker is not None:
        rule = grid.joker
        joker_row = grid.row_index(rule.yahtzee_row)
        values = []
        for face in range(1, FACES + 1):
            five = MULTISETS.index((face,) * DICE)
            values.append(
                tuple(
                    int(rule.joker_values.get(rows[r].id, scores[0, five, r]))
                    for r in range(len(rows))
                )
            )
        joker = Joker(
            joker_row,
            rule.bonus,
            1 << flags.index((joker_row, rule.bonus_needs)),
            tuple(values),
        )
    bonus = grid.upper_bonus
    return Model(
        grid=grid,
        boxes=len(rows),
        row_ids=grid.row_ids,
        faces=faces,
        upper_rows=upper_rows,
        lower_rows=lower_rows,
        threshold=0 if bonus is None else bonus.threshold,
        bonus=0 if bonus is None else bonus.amount,
        flags=tuple(flags),
        sets_flags=sets_flags,
        needs=needs,
        joker=joker,
        scores=scores,
        roll_dependent=not (
            np.array_equal(scores[0], scores[1]) and np.array_equal(scores[1], scores[2])
        ),
    )
