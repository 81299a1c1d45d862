"""A naive Yamb engine: the benchmark's baseline, and a second opinion for the tests.

Written straight from rules.md 1-4 for the Yamb grid (any of the nine column types, 5 or 6
dice, 1 to 4 players), without the engine's tables, masks or caches: every question about the
turn looks at the sheet's values again, and every score is worked out again from the dice.
It knows nothing of leaving, the joker or the family grids, which the benchmark does not play.

Its moves mirror yamb.game.Game's (start_turn, can_reroll, reroll, announce, legal_cells, write)
and list the legal cells in the same order (column by column, rows top down), so that the same
seeds play the same random game on both; tests/unit/test_naive_reference.py checks that they
agree.
"""

from collections.abc import Sequence
from itertools import combinations

ROWS = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "max",
    "min",
    "three_of_a_kind",
    "straight",
    "full_house",
    "four_of_a_kind",
    "yamb",
)
ONES, MAX, MIN = 0, 6, 7
TOP_DOWN = tuple(range(len(ROWS)))
# From the middle: Max up to Ones, and Min down to Yamb; to the middle is the reverse of each.
MIDDLE_OUT = ((6, 5, 4, 3, 2, 1, 0), (7, 8, 9, 10, 11, 12))
CHAINS = {
    "down": (TOP_DOWN,),
    "up": (TOP_DOWN[::-1],),
    "from_middle": MIDDLE_OUT,
    "to_middle": tuple(chain[::-1] for chain in MIDDLE_OUT),
}
# The last roll after which a cell of the column may be written without an announcement.
LAST_ROLL = {"announced": 1, "manual": 1, "late_announced": 2}
ANNOUNCE_BY = {"announced": 1, "late_announced": 2}
UPPER_BONUS_AT, UPPER_BONUS = 60, 30


def score_five(row: int, dice: Sequence[int], roll: int) -> int:
    """rules.md 2: one box's score for five dice made on this roll."""
    counts = [dice.count(face) for face in range(7)]
    if row < MAX:
        return (row + 1) * counts[row + 1]
    if row in (MAX, MIN):
        return sum(dice)
    name = ROWS[row]
    if name == "straight":
        faces = set(dice)
        made = faces >= {1, 2, 3, 4, 5} or faces >= {2, 3, 4, 5, 6}
        return (66, 56, 46)[roll - 1] if made else 0
    if name == "full_house":
        return sum(dice) + 30 if sorted(c for c in counts if c) == [2, 3] else 0
    alike, fixed = {"three_of_a_kind": (3, 20), "four_of_a_kind": (4, 40), "yamb": (5, 50)}[name]
    faces = [face for face in range(1, 7) if counts[face] >= alike]
    return alike * max(faces) + fixed if faces else 0


def score(row: int, dice: Sequence[int], roll: int) -> int:
    """Six dice score on the best five for the box: the lowest five for Min."""
    if len(dice) == 5:
        return score_five(row, dice, roll)
    scores = [score_five(row, five, roll) for five in combinations(dice, 5)]
    return min(scores) if row == MIN else max(scores)


class NaiveGame:
    def __init__(self, columns: Sequence[str], dice_count: int, players: Sequence[str]) -> None:
        self.columns = tuple(columns)
        self.dice_count = dice_count
        self.players = tuple(players)
        # sheets[seat][column][row]: the written value, None while empty.
        self.sheets = [[[None] * len(ROWS) for _ in columns] for _ in players]
        self.extra = [[0] * len(columns) for _ in players]
        self.seat = 0
        self.roll = 0
        self.dice: tuple[int, ...] = ()
        self.announcement: tuple[int, int] | None = None
        self.obligations: list[int | None] = [None] * len(players)
        self.finished = False

    # -- dice ----------------------------------------------------------------------------------

    def _dice(self, dice: Sequence[int]) -> tuple[int, ...]:
        if len(dice) != self.dice_count or any(face not in range(1, 7) for face in dice):
            raise ValueError("bad dice")
        return tuple(dice)

    def start_turn(self, dice: Sequence[int]) -> None:
        if self.finished or self.roll:
            raise ValueError("no turn to start")
        self.dice = self._dice(dice)
        self.roll = 1

    def can_reroll(self) -> bool:
        return not self.finished and 1 <= self.roll < 3 and bool(self._cells(self.roll + 1))

    def reroll(self, dice: Sequence[int]) -> None:
        dice = self._dice(dice)
        if not self.can_reroll():
            raise ValueError("no reroll")
        self.dice = dice
        self.roll += 1

    # -- legal cells -------------------------------------------------------------------------

    def _empty(self, seat: int, column: int) -> list[int]:
        return [row for row, value in enumerate(self.sheets[seat][column]) if value is None]

    def _directed_free(self, seat: int, column: int) -> bool:
        """rules.md 4: no direction can reach the column's empty cells any more."""
        director = (seat - 1) % len(self.players)
        announced_full = all(
            not self._empty(director, c)
            for c, kind in enumerate(self.columns)
            if kind == "announced"
        )
        only_these_left = all(
            not self._empty(seat, c) for c in range(len(self.columns)) if c != column
        )
        return announced_full or only_these_left

    def _rows(self, column: int, roll: int) -> list[int]:
        """The rows of the column that the seat in turn may write after this roll."""
        seat, kind = self.seat, self.columns[column]
        empty = self._empty(seat, column)
        if roll > LAST_ROLL.get(kind, 3):
            return []
        if kind == "directed" and not self._directed_free(seat, column):
            return []
        if kind in CHAINS:
            heads = [next((r for r in chain if r in empty), None) for chain in CHAINS[kind]]
            return sorted(r for r in heads if r is not None)
        return empty

    def _cells(self, roll: int) -> list[tuple[int, int]]:
        if self.announcement is not None:
            return [self.announcement]
        obligation = self.obligations[self.seat]
        if obligation is not None and "directed" in self.columns:
            return [(self.columns.index("directed"), obligation)]
        return [(c, r) for c in range(len(self.columns)) for r in self._rows(c, roll)]

    def legal_cells(self) -> list[tuple[int, int, int]]:
        if not self.roll or self.finished:
            return []
        return [(c, r, score(r, self.dice, self.roll)) for c, r in self._cells(self.roll)]

    # -- moves ---------------------------------------------------------------------------------

    def announce(self, column: int, row: int) -> None:
        by_roll = ANNOUNCE_BY.get(self.columns[column])
        if by_roll is None or self.announcement is not None or not 1 <= self.roll <= by_roll:
            raise ValueError("no announcement")
        if (column, row) not in self._cells(self.roll):
            raise ValueError("not a legal cell")
        self.announcement = (column, row)

    def write(self, column: int, row: int) -> int:
        if not self.roll or self.finished or (column, row) not in self._cells(self.roll):
            raise ValueError("not a legal cell")
        value = score(row, self.dice, self.roll)
        seat = self.seat
        self.sheets[seat][column][row] = value
        self.obligations[seat] = None
        if self.columns[column] == "announced" and "directed" in self.columns:
            target = (seat + 1) % len(self.players)
            if self.sheets[target][self.columns.index("directed")][row] is None:
                self.obligations[target] = row
        self.roll, self.dice, self.announcement = 0, (), None
        for step in range(1, len(self.players) + 1):
            candidate = (seat + step) % len(self.players)
            if any(v is None for column in self.sheets[candidate] for v in column):
                self.seat = candidate
                return value
        self.finished = True
        return value

    # -- totals --------------------------------------------------------------------------------

    def column_total(self, seat: int, column: int) -> int:
        values = self.sheets[seat][column]
        upper = sum(v or 0 for v in values[:MAX])
        bonus = UPPER_BONUS if upper >= UPPER_BONUS_AT else 0
        high, low, ones = values[MAX], values[MIN], values[ONES]
        middle = 0 if high is None or low is None or ones is None else (high - low) * ones
        return upper + bonus + middle + sum(v or 0 for v in values[MIN + 1 :])

    def total(self, seat: int) -> int:
        return sum(self.column_total(seat, c) for c in range(len(self.columns)))
