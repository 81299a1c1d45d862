"""End to end over real WebSockets: what a hostile or unlucky client does (issue 9): frames
that used to crash a handler, handshakes that race, reconnects faster than their disconnects."""

import json
import threading
from typing import Any

import pytest
from websockets.sync.client import connect

from devstack.stack import LocalStack

FOUR_UNLIMITED = {"players": 4, "preset": 1, "turnSeconds": None}
HOSTILE = {
    "huge number": '{"action": "roll", "requestId": "h-1", "gameId": "g", "turn": '
    + "9" * 5000
    + "}",
    "lone surrogate": '{"action": "sync", "requestId": "h-2", "x": "\\ud800"}',
    "deep nesting": '{"action": "sync", "requestId": "h-3", "a": '
    + "[" * 10_000
    + "]" * 10_000
    + "}",
    "unknown fields": json.dumps(
        {"action": "roll", "requestId": "h-4", "gameId": "g"} | {f"f{i}": 1 for i in range(2500)}
    ),
    "many locks": json.dumps(
        {"action": "roll", "requestId": "h-5", "gameId": "g", "keep": [0] * 6000}
    ),
    "long names": json.dumps({"action": "x" * 5000, "requestId": "h-6"}),
    "not an object": "[1, 2, 3]",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_frame_gets_a_short_error_frame(players: Any, name: str) -> None:
    # given a connected player
    mallory = players(f"mallory-{name.replace(' ', '-')}")

    # when a frame that used to crash a handler arrives
    mallory.socket.send(HOSTILE[name])
    answer = mallory.receive("error")

    # then it is answered with one short error frame with a stable code, and the connection
    # goes on working
    assert answer["code"] in {"bad_request", "frame_too_large", "unknown_action"}
    assert len(answer["message"]) <= 500
    request_id = mallory.send("sync")
    assert mallory.answer(request_id)["type"] == "game"


def test_handshakes_racing_for_one_game_all_connect(stack: LocalStack, players: Any) -> None:
    # given a four-player game
    names = ["race-a", "race-b", "race-c", "race-d"]
    seated = [players(name) for name in names]
    game_id = seated[0].act("create_game", settings=FOUR_UNLIMITED)["gameId"]
    for player in seated[1:]:
        player.act("join_game", gameId=game_id)
    seated[0].act("start_game", gameId=game_id)
    urls = [player.url for player in seated]

    # when ten new connections of its players open at the same moment
    barrier = threading.Barrier(10)
    outcomes: list[str] = []

    def handshake(url: str) -> None:
        barrier.wait()
        try:
            with connect(url, open_timeout=20) as socket:
                socket.send(json.dumps({"action": "sync", "requestId": "s-1"}))
                while True:
                    frame = json.loads(socket.recv(timeout=20))
                    if frame.get("requestId") == "s-1":
                        outcomes.append(frame["type"])
                        return
        except Exception as error:  # a refused handshake, a closed socket
            outcomes.append(type(error).__name__)

    threads = [threading.Thread(target=handshake, args=(urls[i % 4],)) for i in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then none was refused by a server error: each connected and was answered (a connection
    # replaced by a newer one of the same player may have been closed, as it should be)
    assert "InvalidStatus" not in outcomes, outcomes
    assert outcomes.count("game") >= 4, outcomes


def test_reconnects_faster_than_their_disconnects_leave_the_seat_present(players: Any) -> None:
    # given a two-player game
    ana, ben = players("fast-ana"), players("fast-ben")
    game_id = ana.act("create_game", settings={"players": 2, "preset": 1, "turnSeconds": None})[
        "gameId"
    ]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ana_id = game["creator"]

    # when ana reconnects twelve times in a row, as fast as she can
    for _ in range(12):
        ana.reconnect()

    # then, once she syncs, her seat is present and holds her last connection, for her and ben
    synced = ana.answer(ana.send("sync"))["game"]
    seat = next(s for s in synced["seats"] if s["playerId"] == ana_id)
    assert seat["present"] is True
    later = ben.answer(ben.send("sync"))["game"]
    assert next(s for s in later["seats"] if s["playerId"] == ana_id)["present"] is True
