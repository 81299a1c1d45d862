"""Yamb's nine column types and seven presets, as data.

A column type says in which order its cells may be written (`chains`: each chain is written in
order, any chain may advance; None means any order), and which conditions a write needs: an
announcement made by a given roll, a direction from the previous player, or roll 1 only.
"""

from dataclasses import dataclass
from types import MappingProxyType

_TOP_DOWN = (
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
_MAX_TO_ONES = ("max", "sixes", "fives", "fours", "threes", "twos", "ones")
_MIN_TO_YAMB = ("min", "three_of_a_kind", "straight", "full_house", "four_of_a_kind", "yamb")


@dataclass(frozen=True, slots=True)
class ColumnType:
    id: str
    rank: int  # 1-9, the canonical order; free accounts play ranks 1-3
    chains: tuple[tuple[str, ...], ...] | None = None
    # Announced cells may be written only after an announcement made by this roll (or at once).
    announce_by_roll: int | None = None
    # A write here opens the same row in the next player's directed column.
    directs: bool = False
    directed: bool = False
    first_roll_only: bool = False


COLUMN_TYPES: MappingProxyType[str, ColumnType] = MappingProxyType(
    {
        column.id: column
        for column in (
            ColumnType("down", 1, chains=(_TOP_DOWN,)),
            ColumnType("up", 2, chains=(tuple(reversed(_TOP_DOWN)),)),
            ColumnType("free", 3),
            ColumnType("announced", 4, announce_by_roll=1, directs=True),
            ColumnType("directed", 5, directed=True),
            ColumnType("manual", 6, first_roll_only=True),
            ColumnType("from_middle", 7, chains=(_MAX_TO_ONES, _MIN_TO_YAMB)),
            ColumnType(
                "to_middle",
                8,
                chains=(tuple(reversed(_MAX_TO_ONES)), tuple(reversed(_MIN_TO_YAMB))),
            ),
            ColumnType("late_announced", 9, announce_by_roll=2),
        )
    }
)

# The single column of a family grid: any order, no conditions.
MAIN_COLUMN = ColumnType("main", 3)

PRESETS: MappingProxyType[int, tuple[str, ...]] = MappingProxyType(
    {
        1: ("down", "up"),
        2: ("down", "up", "free"),
        3: ("down", "up", "free", "announced"),
        4: ("down", "up", "free", "announced", "manual"),
        5: ("down", "up", "free", "announced", "manual", "from_middle", "to_middle"),
        6: (
            "down",
            "up",
            "free",
            "announced",
            "manual",
            "from_middle",
            "to_middle",
            "late_announced",
        ),
        7: (
            "down",
            "up",
            "free",
            "announced",
            "directed",
            "manual",
            "from_middle",
            "to_middle",
            "late_announced",
        ),
    }
)
