"""A game played by the time-out auto-move on seeded dice, printed turn by turn and as sheets."""

from collections.abc import Sequence

from yamb.dice import SeededDice, roll_all
from yamb.game import Game
from yamb.layout import layout_for
from yamb.replay import summary
from yamb.rules import PRESETS


def render_sheet(game: Game, seat: int) -> str:
    layout = game.layout
    sheet = game.sheets[seat]
    width = max(len(row.id) for row in layout.grid.rows)
    header = " " * width + "".join(f"{column.id[:6]:>7}" for column in layout.columns)
    lines = [f"{game.players[seat]}: {sheet.total()}", header]
    for row_index, row in enumerate(layout.grid.rows):
        cells = "".join(
            f"{'.' if value is None else value:>7}"
            for value in (sheet.values[c][row_index] for c in range(len(layout.columns)))
        )
        lines.append(f"{row.id:<{width}}{cells}")
    totals = "".join(f"{sheet.column_totals(c).total:>7}" for c in range(len(layout.columns)))
    lines.append(f"{'total':<{width}}{totals}")
    return "\n".join(lines)


def play_demo(preset: int, players: Sequence[str], seed: str) -> int:
    layout = layout_for("yamb", PRESETS[preset])
    game = Game(layout, players)
    dice = SeededDice(seed)
    while not game.finished:
        game.start_turn(roll_all(dice, layout.dice_count))
        player, rolled = game.players[game.seat], game.dice
        result = game.play_auto_move()
        column = layout.columns[result.column].id
        row = layout.grid.rows[result.row].id
        print(f"{player:>8} rolled {rolled} -> {column}/{row} = {result.score}")
    for seat in range(len(game.players)):
        print()
        print(render_sheet(game, seat))
    print()
    print("winners:", ", ".join(summary(game)["winners"]))
    return 0
