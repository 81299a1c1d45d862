"""The bots' brains: the next move of the seat in turn, at four levels.

Pure domain code: no AWS, no event shapes. Importing this package loads neither numpy nor a
solver table; the levels that need them import them on their first move.

    move = choose(game, "hard")        # RollMove | AnnounceMove | WriteMove, always legal

- easy (greedy.py): roll three times holding the most common face, write the best score.
- medium (search.py, with value.py's plain scores): one roll ahead.
- hard (search.py, with value.py's sheet-aware values): expectimax over the turn's remaining
  rolls and announcements.
- optimal (optimal.py): the optimal solitaire player of the Yahtzee-family grids (yamb.solver).

A bot reads only the game's visible state: the seat's sheet, the dice shown, the roll number,
the announcement and the directed obligation (and, through the engine, the other sheets' effect
on which cells are legal). It never draws dice; a RollMove asks the caller to roll.
"""

import random

from yamb.bots.levels import LEVELS, BotLevelError, Level, check_level, levels_for
from yamb.bots.moves import AnnounceMove, BotMove, RollMove, WriteMove
from yamb.game import Game

__all__ = [
    "LEVELS",
    "AnnounceMove",
    "BotLevelError",
    "BotMove",
    "Level",
    "RollMove",
    "WriteMove",
    "check_level",
    "choose",
    "levels_for",
]


def choose(game: Game, level: Level, rng: random.Random | None = None) -> BotMove:
    """The next move of the seat in turn of `game` (the focused seat in a game of own turns),
    always a legal one: RollMove(()) at roll 0; after a roll an AnnounceMove where the rules
    allow one, a RollMove only when game.can_reroll(), or a WriteMove of a legal cell.

    `rng` is accepted for levels that break ties at random; the current levels are
    deterministic (the same position always gets the same move). Raises BotLevelError for an
    unknown level or one the grid does not offer, and ("level_unavailable") for optimal on a
    grid whose solver table was not built."""
    del rng
    if game.finished:
        raise ValueError("the game is over: no move is left")
    checked = check_level(level, game.layout.grid.id)
    if checked == "easy":
        from yamb.bots import greedy  # noqa: PLC0415 (one module per level, loaded when used)

        return greedy.choose(game)
    if checked == "optimal":
        from yamb.bots import optimal  # noqa: PLC0415 (imports numpy and a solver table)

        return optimal.choose(game)
    from yamb.bots import search  # noqa: PLC0415 (imports numpy)

    return search.choose(game, checked)
