"""The optimal solitaire player of the Yahtzee family grids (classic, scandinavian, yacht,
generala): every state's expected points by backward induction (Verhoeff 1999, Glenn 2006),
and, within a turn, the value of every keep and every box.

Nothing here is imported by `yamb` or a handler: importing this package loads numpy, and a
grid's table is read on the first Solver.load, never at import. Tables are made by
`yamb solve GRID` (yamb.solver.storage).

    solver = Solver.load("classic")
    state = state_of(game)
    keep, value = solver.best_keep(state, game.dice, rolls_left=3 - game.roll)
    row_id, value = solver.best_box(state, game.dice, game.roll)
"""

from yamb.solver.adapter import locks_for, play_turn, state_of
from yamb.solver.api import BoxChoice, Keep, Solver, regret
from yamb.solver.model import FAMILY, State, model_for
from yamb.solver.storage import FORMAT_VERSION, TableError

__all__ = [
    "FAMILY",
    "FORMAT_VERSION",
    "BoxChoice",
    "Keep",
    "Solver",
    "State",
    "TableError",
    "locks_for",
    "model_for",
    "play_turn",
    "regret",
    "state_of",
]
