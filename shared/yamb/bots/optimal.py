"""The optimal level: the optimal solitaire player of the Yahtzee-family grids (yamb.solver).

The solver's table is loaded on the first move (Solver.load keeps it per process). A grid whose
table was never built (Scandinavian's is made by `yamb solve scandinavian`) is a BotLevelError
"level_unavailable" naming that command.
"""

from yamb.bots.greedy import best_cell
from yamb.bots.levels import BotLevelError
from yamb.bots.moves import BotMove, RollMove, WriteMove, options_of
from yamb.dice import positions_of
from yamb.game import Game
from yamb.i18n import Text
from yamb.layout import MAX_ROLLS
from yamb.solver import Solver, TableError, state_of


def solver_for(grid_id: str) -> Solver:
    try:
        return Solver.load(grid_id)
    except TableError as error:
        raise BotLevelError(
            Text(
                "the optimal bot needs the solved table of the {grid_id} grid: {error}",
                grid_id=grid_id,
                error=error,
            ),
            code="level_unavailable",
        ) from error


def choose(game: Game) -> BotMove:
    solver = solver_for(game.layout.grid.id)
    if not game.roll:
        return RollMove(())
    options = options_of(game)
    state = state_of(game)
    dice = game.dice
    if options.can_reroll:
        keep, _ = solver.best_keep(state, dice, MAX_ROLLS - game.roll)
        if len(keep) < len(dice):
            return RollMove(positions_of(dice, keep))
    row_id, _ = solver.best_box(state, dice, game.roll)
    row = game.layout.row_index(row_id)
    if game.is_legal(0, row):
        return WriteMove(0, row)
    # Not expected (the solver follows the engine's rules, the joker included): stay legal.
    column, row, _ = best_cell(game.layout, options.cells)
    return WriteMove(column, row)
