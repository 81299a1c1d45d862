"""The bots' levels, which grids each is offered on, and the refusals of a level."""

from typing import Literal

from yamb.errors import ErrorCode, YambError
from yamb.i18n import Plural, Text
from yamb.rules import GRIDS

type Level = Literal["easy", "medium", "hard", "optimal"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard", "optimal")
# The grids the optimal solitaire player (yamb.solver) is made for.
OPTIMAL_GRIDS = frozenset({"classic", "scandinavian", "yacht", "generala"})


class BotLevelError(YambError):
    """An unknown level, a level the grid does not offer, or one whose table is missing."""

    code: ErrorCode = "unknown_level"
    fields = ("level",)

    def __init__(self, message: Text | Plural | str, *, code: ErrorCode) -> None:
        super().__init__(message, code=code)


def levels_for(grid_id: str) -> tuple[Level, ...]:
    """The levels a bot may play on this grid: "optimal" only on the Yahtzee-family grids."""
    if grid_id not in GRIDS:
        raise ValueError(f"unknown grid {grid_id!r}; one of {', '.join(GRIDS)}")
    if grid_id in OPTIMAL_GRIDS:
        return LEVELS
    return tuple(level for level in LEVELS if level != "optimal")


def check_level(level: str, grid_id: str) -> Level:
    """`level` as a Level when the grid offers it; a BotLevelError ("unknown_level" or
    "level_not_for_grid") otherwise."""
    for known in LEVELS:
        if level == known:
            break
    else:
        raise BotLevelError(
            Text(
                "unknown bot level '{level}'; one of {levels}",
                level=level,
                levels=", ".join(LEVELS),
            ),
            code="unknown_level",
        )
    offered = levels_for(grid_id)
    if known not in offered:
        raise BotLevelError(
            Text(
                "the {level} bot does not play the {grid_id} grid; its levels: {offered}",
                level=known,
                grid_id=grid_id,
                offered=", ".join(offered),
            ),
            code="level_not_for_grid",
        )
    return known
