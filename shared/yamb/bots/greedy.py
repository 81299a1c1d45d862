"""The easy bot: a simple greedy rule.

Roll three times holding the most common face (the higher face on a tie), unless the dice are
already all alike; then write the legal cell with the best immediate score (for a row where
lower is better, such as Min, the lowest sum counts best). It never announces: an announced or
manual cell is written only when the engine offers it straight (after roll 1, and when nothing
else is left); the directed obligation is obeyed because the engine offers only that cell.
"""

from collections import Counter

from yamb.bots.moves import BotMove, RollMove, WriteMove, options_of
from yamb.dice import positions_of
from yamb.game import Game, LegalCell
from yamb.layout import Layout

# Min (five dice between 5 and 30) is judged as this minus its sum.
_LOW_MIRROR = 35


def immediate_value(layout: Layout, cell: LegalCell) -> int:
    """A cell's score as the greedy rule judges it: higher is better."""
    _, row, score = cell
    if layout.grid.rows[row].lower_is_better:
        return _LOW_MIRROR - score
    return score


def best_cell(layout: Layout, cells: list[LegalCell]) -> LegalCell:
    """The legal cell with the best immediate value (the first in sheet order on a tie)."""
    return max(cells, key=lambda cell: immediate_value(layout, cell))


def choose(game: Game) -> BotMove:
    if not game.roll:
        return RollMove(())
    options = options_of(game)
    dice = game.dice
    counts = Counter(dice)
    face, count = max(counts.items(), key=lambda item: (item[1], item[0]))
    if options.can_reroll and count < min(5, len(dice)):
        return RollMove(positions_of(dice, [face] * count))
    column, row, _ = best_cell(game.layout, options.cells)
    return WriteMove(column, row)
