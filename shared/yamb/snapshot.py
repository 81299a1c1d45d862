"""A game's state as plain JSON-ready data, and back: how a game is stored between actions."""

from typing import Any

from yamb.game import Game
from yamb.layout import layout_for


def dump_game(game: Game) -> dict[str, Any]:
    layout = game.layout
    return {
        "grid": layout.grid.id,
        "columns": [column.id for column in layout.columns] if layout.grid.has_column_types else [],
        "dice_count": layout.dice_count,
        "players": list(game.players),
        "sheets": [
            {"values": [list(column) for column in sheet.values], "extra": list(sheet.extra)}
            for sheet in game.sheets
        ],
        "seat": game.seat,
        "roll": game.roll,
        "dice": list(game.dice),
        "announcement": list(game.announcement) if game.announcement else None,
        "obligations": list(game.obligations),
        "left": sorted(game.left),
        "turns_played": list(game.turns_played),
        "finished": game.finished,
    }


def load_game(data: dict[str, Any]) -> Game:
    layout = layout_for(data["grid"], data["columns"], data["dice_count"])
    game = Game(layout, data["players"])
    for sheet, stored in zip(game.sheets, data["sheets"], strict=True):
        for column, values in enumerate(stored["values"]):
            for row, value in enumerate(values):
                if value is not None:
                    sheet.set(column, row, value)
        sheet.extra[:] = stored["extra"]
    game.seat = data["seat"]
    game.roll = data["roll"]
    game.dice = tuple(data["dice"])
    announcement = data["announcement"]
    game.announcement = (announcement[0], announcement[1]) if announcement else None
    game.obligations = list(data["obligations"])
    game.left = set(data["left"])
    game.turns_played = list(data["turns_played"])
    game.finished = data["finished"]
    return game
