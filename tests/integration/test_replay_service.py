"""The replay action through the service on moto (product G8): finished games only, in frames
under 32 KB, and still there once the game item has expired."""

import json
from typing import Any

from yamb_service.edge.caller import Caller

ANA = Caller("ana", "conn-ana", nickname="Ana")
BEN = Caller("ben", "conn-ben", nickname="Ben")
DAN = Caller("dan", "conn-dan")
FREE = {"columns": ["free"], "preset": None}


def finished_game(harness: Any) -> str:
    game_id = harness.running_game(ANA, BEN, **FREE)
    while harness.session(game_id).status == "running":
        game = harness.session(game_id).game()
        caller = ANA if game.players[game.seat] == "ana" else BEN
        harness.write_any(caller, game_id)
    return str(game_id)


def replay_frames(harness: Any, caller: Caller, request_id: str) -> list[dict[str, Any]]:
    return [f for f in harness.answers(caller, request_id) if f["type"] == "replay"]


def test_replay_of_a_finished_game_returns_every_turn(harness: Any) -> None:
    # given a finished game, and dan who did not play it
    game_id = finished_game(harness)
    harness.connect(DAN)

    # when dan asks for its replay
    request = harness.act(DAN, "replay", gameId=game_id)

    # then he gets every turn, each with its rolls and write, matching the final sheets
    frames = replay_frames(harness, DAN, request)
    turns = [turn for frame in frames for turn in frame["turns"]]
    assert len(turns) == frames[0]["total"] == 26
    sheets = {s["playerId"]: s["cells"] for s in harness.last_game(ANA)["sheets"]}
    for turn in turns:
        write = turn["write"]
        assert sheets[turn["playerId"]][write["column"]][write["row"]] == write["score"]
        assert turn["rolls"][0]["kept"] == []
    for frame in frames:
        assert len(json.dumps(frame).encode()) < 32 * 1024
    # and the players' names at the table, in the order of the players
    names = {"ana": "Ana", "ben": "Ben"}
    assert frames[0]["nicknames"] == [names[player] for player in frames[0]["players"]]


def test_replay_outlives_the_game_item(harness: Any, item: Any) -> None:
    # given a finished game whose game item has expired (TTL)
    game_id = finished_game(harness)
    before = replay_frames(harness, ANA, harness.act(ANA, "replay", gameId=game_id))
    item.get(f"GAME#{game_id}", "GAME").delete()

    # when it is replayed again
    after = replay_frames(harness, ANA, harness.act(ANA, "replay", gameId=game_id))

    # then the same turns come from the record's own items, without the seats' names (the
    # game item held them)
    def without_request(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in f.items() if k not in ("requestId", "nicknames")} for f in frames]

    assert without_request(after) == without_request(before)
    assert [f.get("nicknames") for f in after] == [None] * len(after)


def test_replay_refusals(harness: Any) -> None:
    # given a running game
    running = harness.running_game(ANA, BEN, **FREE)
    harness.connect(DAN)

    # when replays are asked of the running game and of a game that never existed
    of_running = harness.act(DAN, "replay", gameId=running)
    unknown = harness.act(DAN, "replay", gameId="nosuchgame")

    # then each is refused with its code, and nothing is changed
    assert harness.error(DAN, of_running)["code"] == "wrong_status"
    assert harness.error(DAN, unknown)["code"] == "game_not_found"
    assert harness.session(running).status == "running"
