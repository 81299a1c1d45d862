"""Between the engine and the solver: a family game's state, and a turn played optimally."""

from collections.abc import Sequence

from yamb.dice import DiceSource, positions_of, roll_all, roll_unlocked
from yamb.game import Game, WriteResult
from yamb.layout import MAX_ROLLS
from yamb.solver.api import Keep, Solver
from yamb.solver.model import State, model_for


def state_of(game: Game, seat: int | None = None) -> State:
    """The solver's state of a seat's sheet (the seat in turn by default) in a family game."""
    layout = game.layout
    if len(layout.columns) != 1 or layout.grid.has_column_types:
        raise ValueError(f"the solver plays the one-column family grids, not {layout.grid.id}")
    sheet = game.sheets[game.seat if seat is None else seat]
    return model_for(layout.grid).state_of_values(sheet.values[0])


def locks_for(dice: Sequence[int], keep: Keep) -> tuple[int, ...]:
    """The positions of the dice to hold (the engine's locked positions) for a keep."""
    return positions_of(dice, keep)


def play_turn(solver: Solver, game: Game, source: DiceSource) -> WriteResult:
    """One whole turn of the seat in turn, played optimally through the engine's moves."""
    state = state_of(game)
    count = game.layout.dice_count
    game.start_turn(roll_all(source, count))
    while game.roll < MAX_ROLLS:
        keep, _ = solver.best_keep(state, game.dice, MAX_ROLLS - game.roll)
        if len(keep) == count:
            break
        game.reroll(roll_unlocked(source, game.dice, locks_for(game.dice, keep)))
    row_id, _ = solver.best_box(state, game.dice, game.roll)
    return game.write(0, game.layout.row_index(row_id))
