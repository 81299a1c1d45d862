"""Nothing the server sends may exceed API Gateway's 32 KB frame: the largest frame is the whole
game view of the largest game."""

import uuid
from datetime import UTC, datetime

from yamb.dice import SeededDice
from yamb.protocol import MAX_FRAME_BYTES, GameFrame, encode
from yamb.session import lobby, turns
from yamb.session.views import game_view
from yamb.settings import validate_settings


def test_game_frame_of_the_largest_game_fits_one_frame() -> None:
    # given a 4-player game with all nine columns and Cognito-sized player ids
    now = datetime.now(UTC)
    dice = SeededDice(1)
    players = [str(uuid.uuid4()) for _ in range(4)]
    settings = validate_settings({"players": 4, "preset": 7})
    session = lobby.create("g" * 20, players[0], "conn-0", settings, now, server_seed="ff" * 32)
    for player in players[1:]:
        lobby.join(session, player, f"conn-{player}")
    lobby.start(session, players[0], now, dice)

    # when it is played to the end, measuring the game frame after every turn
    largest = 0
    while session.status == "running":
        largest = max(largest, len(encode(GameFrame(game=game_view(session))).encode()))
        game = session.game()
        column, row, _ = game.legal_cells()[0]
        layout = game.layout
        player = game.players[game.seat]
        column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
        turns.write(session, player, column_id, row_id, None, now=now, dice=dice)

    # then every frame fits, with room to spare
    assert session.status == "finished"
    assert 0 < largest < MAX_FRAME_BYTES // 2
