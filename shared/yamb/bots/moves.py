"""A bot's moves, and what the engine allows the seat in turn to do now.

A move is what a player could send: roll (holding some dice), announce a cell, write a cell.
`TurnOptions` lists the legal ones from the engine's public questions, so that every level
picks among them and never produces an illegal move.
"""

from dataclasses import dataclass

from yamb.game import Game, LegalCell


@dataclass(frozen=True, slots=True)
class RollMove:
    """Roll (or reroll) holding the dice at these positions of game.dice (() at roll 0)."""

    keep: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AnnounceMove:
    """Announce this cell (column index, row index of the layout)."""

    column: int
    row: int


@dataclass(frozen=True, slots=True)
class WriteMove:
    """Write this cell now."""

    column: int
    row: int


type BotMove = RollMove | AnnounceMove | WriteMove


@dataclass(frozen=True, slots=True)
class TurnOptions:
    """What the seat in turn may do after a roll: write one of `cells` (with their scores),
    announce one of `announceable`, or roll again when `can_reroll`."""

    cells: list[LegalCell]
    announceable: list[LegalCell]
    can_reroll: bool


def options_of(game: Game) -> TurnOptions:
    """The legal moves after a roll (game.roll >= 1)."""
    cells = game.legal_cells()
    announceable: list[LegalCell] = []
    if game.announcement is None:
        columns = game.layout.columns
        roll = game.roll
        for cell in cells:
            by_roll = columns[cell[0]].type.announce_by_roll
            if by_roll is not None and roll <= by_roll:
                announceable.append(cell)
    return TurnOptions(cells, announceable, game.can_reroll())
