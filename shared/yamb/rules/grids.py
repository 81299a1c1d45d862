"""The grids (Yamb and the Yahtzee family) declared as data: rows, bonuses and special rules.

Adding a grid is adding an entry to GRIDS; a new kind of box needs at most one scorer in
scorers.py. Row ids are the protocol's and the record format's.
"""

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

type Section = Literal["upper", "middle", "lower"]


@dataclass(frozen=True, slots=True)
class RowRule:
    id: str
    scorer: str
    params: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    section: Section = "lower"
    lower_is_better: bool = False
    # The box scores only while another row holds this value (Generala's double generala).
    requires: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class UpperBonus:
    threshold: int
    amount: int


@dataclass(frozen=True, slots=True)
class MiddleRule:
    """Yamb's middle part: (Max - Min) x Ones of the same column, once all three are written."""

    high: str
    low: str
    multiplier: str


@dataclass(frozen=True, slots=True)
class JokerRule:
    """Classic Yahtzee: five alike when the Yahtzee box is filled."""

    yahtzee_row: str
    bonus: int
    bonus_needs: int
    # Lower boxes that score flat values under the joker; the others score as usual (the sum).
    joker_values: MappingProxyType[str, int]


# Compared and hashed by identity: grids are singletons, and score tables are cached per grid.
@dataclass(frozen=True, slots=True, eq=False)
class Grid:
    id: str
    rows: tuple[RowRule, ...]
    upper_bonus: UpperBonus | None = None
    middle: MiddleRule | None = None
    joker: JokerRule | None = None
    # Only Yamb has column types; a family grid is one column, named `main`, any order.
    has_column_types: bool = False
    dice_counts: tuple[int, ...] = (5,)

    def row_index(self, row_id: str) -> int:
        for index, row in enumerate(self.rows):
            if row.id == row_id:
                return index
        raise KeyError(row_id)

    @property
    def row_ids(self) -> tuple[str, ...]:
        return tuple(row.id for row in self.rows)


def _p(**params: Any) -> MappingProxyType[str, Any]:
    return MappingProxyType(params)


_UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
UPPER = tuple(
    RowRule(row_id, "face", _p(face=value), section="upper")
    for value, row_id in enumerate(_UPPER_IDS, start=1)
)
_SMALL_RUNS = (frozenset({1, 2, 3, 4}), frozenset({2, 3, 4, 5}), frozenset({3, 4, 5, 6}))
_LOW_RUN = frozenset({1, 2, 3, 4, 5})
_HIGH_RUN = frozenset({2, 3, 4, 5, 6})

YAMB = Grid(
    id="yamb",
    rows=(
        *UPPER,
        RowRule("max", "total", section="middle"),
        RowRule("min", "total", section="middle", lower_is_better=True),
        RowRule("three_of_a_kind", "of_a_kind", _p(n=3, per_face=3, fixed=20)),
        RowRule("straight", "straight", _p(runs=(_LOW_RUN, _HIGH_RUN), by_roll=(66, 56, 46))),
        RowRule("full_house", "full_house", _p(fixed=30, add_sum=True)),
        RowRule("four_of_a_kind", "of_a_kind", _p(n=4, per_face=4, fixed=40)),
        RowRule("yamb", "of_a_kind", _p(n=5, per_face=5, fixed=50)),
    ),
    upper_bonus=UpperBonus(threshold=60, amount=30),
    middle=MiddleRule(high="max", low="min", multiplier="ones"),
    has_column_types=True,
    dice_counts=(5, 6),
)

CLASSIC = Grid(
    id="classic",
    rows=(
        *UPPER,
        RowRule("three_of_a_kind", "of_a_kind", _p(n=3, add_sum=True)),
        RowRule("four_of_a_kind", "of_a_kind", _p(n=4, add_sum=True)),
        RowRule("full_house", "full_house", _p(fixed=25)),
        RowRule("small_straight", "straight", _p(runs=_SMALL_RUNS, score=30)),
        RowRule("large_straight", "straight", _p(runs=(_LOW_RUN, _HIGH_RUN), score=40)),
        RowRule("chance", "total"),
        RowRule("yahtzee", "of_a_kind", _p(n=5, fixed=50)),
    ),
    upper_bonus=UpperBonus(threshold=63, amount=35),
    joker=JokerRule(
        yahtzee_row="yahtzee",
        bonus=100,
        bonus_needs=50,
        joker_values=_p(full_house=25, small_straight=30, large_straight=40),
    ),
)

SCANDINAVIAN = Grid(
    id="scandinavian",
    rows=(
        *UPPER,
        RowRule("one_pair", "of_a_kind", _p(n=2, per_face=2)),
        RowRule("two_pairs", "two_pairs", _p(times=2)),
        RowRule("three_of_a_kind", "of_a_kind", _p(n=3, per_face=3)),
        RowRule("four_of_a_kind", "of_a_kind", _p(n=4, per_face=4)),
        RowRule("small_straight", "straight", _p(runs=(_LOW_RUN,), score=15)),
        RowRule("large_straight", "straight", _p(runs=(_HIGH_RUN,), score=20)),
        RowRule("full_house", "full_house", _p(add_sum=True)),
        RowRule("chance", "total"),
        RowRule("yatzy", "of_a_kind", _p(n=5, fixed=50)),
    ),
    upper_bonus=UpperBonus(threshold=63, amount=50),
)

YACHT = Grid(
    id="yacht",
    rows=(
        *UPPER,
        RowRule("four_of_a_kind", "of_a_kind", _p(n=4, add_sum=True)),
        RowRule("full_house", "full_house", _p(add_sum=True)),
        RowRule("small_straight", "straight", _p(runs=(_LOW_RUN,), score=15)),
        RowRule("large_straight", "straight", _p(runs=(_HIGH_RUN,), score=30)),
        RowRule("choice", "total"),
        RowRule("yacht", "of_a_kind", _p(n=5, fixed=50)),
    ),
    upper_bonus=UpperBonus(threshold=63, amount=35),
)

GENERALA = Grid(
    id="generala",
    rows=(
        *UPPER,
        RowRule(
            "straight",
            "straight",
            _p(
                runs=(_LOW_RUN, _HIGH_RUN, frozenset({3, 4, 5, 6, 1})), score=20, first_roll_bonus=5
            ),
        ),
        RowRule("full_house", "full_house", _p(fixed=30, first_roll_bonus=5)),
        RowRule("four_of_a_kind", "of_a_kind", _p(n=4, fixed=40, first_roll_bonus=5)),
        RowRule("generala", "of_a_kind", _p(n=5, fixed=50)),
        RowRule("double_generala", "of_a_kind", _p(n=5, fixed=100), requires=("generala", 50)),
    ),
)

GRIDS: MappingProxyType[str, Grid] = MappingProxyType(
    {grid.id: grid for grid in (YAMB, CLASSIC, SCANDINAVIAN, YACHT, GENERALA)}
)
