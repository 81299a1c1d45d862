"""Regret (issue 16): for a finished game on a Yahtzee-family grid, how many expected points
each turn's choices lost against the optimal solitaire player (yamb.solver), and each player's
total. A turn's regret adds up its keeps' (the best keep's value minus the one kept; writing
early is keeping all five dice) and its box's (the best box's value minus the one written), all
measured from the sheet as it stood before the turn, so a turn is judged on its own.

The game is rebuilt from its record, each player's sheet on its own (a family grid's value
depends on nothing but that sheet). Loading the solver imports numpy and reads a table: done
only when a replay asks, never at import.
"""

from collections.abc import Mapping, Sequence

from yamb import fair_dice
from yamb.game import Game
from yamb.layout import MAX_ROLLS, layout_for
from yamb.settings import GameSettings

FAMILY_GRIDS = frozenset({"classic", "scandinavian", "yacht", "generala"})


def turn_regrets(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> list[float | None] | None:
    """Each recorded turn's regret, in the record's order (None for a turn without a write);
    None when the grid has no optimal player here (not a family grid, or its table is not
    built where this runs)."""
    if settings.grid not in FAMILY_GRIDS:
        return None
    from yamb.solver import Solver, TableError, state_of  # noqa: PLC0415 - numpy, a table

    try:
        solver = Solver.load(settings.grid)
    except TableError:
        return None
    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    sheets = [Game(layout, [player]) for player in players]
    regrets: list[float | None] = []
    for line in lines:
        recorded = fair_dice.parse_turn(line)
        game = sheets[recorded.seat]
        written = _written_row(line)
        if written is None:  # the turn ended without a write: its player left
            regrets.append(None)
            continue
        state = state_of(game, 0)
        rolls = [roll.dice for roll in recorded.rolls]
        lost = 0.0
        for number, dice in enumerate(rolls, start=1):
            if number == len(rolls):
                break
            kept = tuple(sorted(dice[p] for p in recorded.rolls[number].kept))
            keeps = solver.keep_values(state, dice, MAX_ROLLS - number)
            lost += max(keeps.values()) - keeps[kept]
        last, number = rolls[-1], len(rolls)
        if number < MAX_ROLLS:  # written early: all five dice kept
            keeps = solver.keep_values(state, last, MAX_ROLLS - number)
            lost += max(keeps.values()) - keeps[tuple(sorted(last))]
        boxes = solver.box_values(state, last, number)
        row_id = layout.grid.rows[written].id
        lost += max(choice.value for choice in boxes.values()) - boxes[row_id].value
        regrets.append(round(lost, 2))
        game.start_turn(rolls[0])
        for dice in rolls[1:]:
            game.reroll(dice)
        game.write(0, written)
    return regrets


def totals(
    players: Sequence[str], lines: Sequence[str], regrets: Sequence[float | None]
) -> Mapping[str, float]:
    """Each player's regret over the game."""
    summed = dict.fromkeys(players, 0.0)
    for line, lost in zip(lines, regrets, strict=True):
        if lost is not None:
            player = players[fair_dice.parse_turn(line).seat]
            summed[player] = round(summed[player] + lost, 2)
    return summed


def _written_row(line: str) -> int | None:
    for part in line.split(fair_dice.MOVES_MARK)[1:]:
        if part.startswith("w"):
            cell = part[1:].split(":")[0]
            return int(cell.split(".")[1])
    return None
