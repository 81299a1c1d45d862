"""End to end over real WebSockets against the local stack."""

from typing import Any

from devstack.stack import LocalStack

SOLO_UNLIMITED = {"players": 1, "preset": 1, "turnSeconds": None}


def _write_first_legal(player: Any, game: dict[str, Any]) -> dict[str, Any]:
    cell = game["turn"]["legal"][0]
    return player.act("write", gameId=game["gameId"], column=cell["column"], row=cell["row"])  # type: ignore[no-any-return]


def test_stack_full_solo_game(players: Any) -> None:
    # given a connected player who creates and starts a solo game with two columns
    ana = players("ana-solo")
    game_id = ana.act("create_game", settings=SOLO_UNLIMITED)["gameId"]
    game = ana.act("start_game", gameId=game_id)
    assert game["turn"]["roll"] == 1
    # when every turn rolls once more and writes a legal cell
    turns = 0
    while game["status"] == "running":
        if game["turn"]["canRoll"]:
            game = ana.act("roll", gameId=game_id, keep=[0, 1])
        game = _write_first_legal(ana, game)
        turns += 1
    # then the sheet is full after rows x columns turns and the player wins
    assert turns == 13 * 2
    assert game["status"] == "finished"
    assert game["winners"] == [game["sheets"][0]["playerId"]]
    assert sum(len(cells) for cells in game["sheets"][0]["cells"].values()) == 26


def test_stack_two_players_take_turns_and_see_each_other(stack: LocalStack, players: Any) -> None:
    # given two players at one table of preset 3 (premium's: both hold it)
    stack.grant_premium("ana-duo")
    stack.grant_premium("ben-duo")
    ana, ben = players("ana-duo"), players("ben-duo")
    game_id = ana.act("create_game", settings={"players": 2, "preset": 3, "turnSeconds": None})[
        "gameId"
    ]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ana_id = game["turn"]["playerId"]
    # when ana announces and writes, and ben plays the next turn
    announced = next(c for c in game["turn"]["legal"] if c["column"] == "announced")
    game = ana.act("announce", gameId=game_id, column="announced", row=announced["row"])
    assert [c["row"] for c in game["turn"]["legal"]] == [announced["row"]]
    game = ana.act("write", gameId=game_id, column="announced", row=announced["row"])
    seen_by_ben = ben.game_at(game["version"])
    # then ben sees ana's sheet and it is ben's turn
    assert seen_by_ben["turn"]["playerId"] != ana_id
    assert announced["row"] in seen_by_ben["sheets"][0]["cells"]["announced"]
    refused = ana.send("roll", gameId=game_id, keep=[])
    error = ana.receive("error")
    assert error["requestId"] == refused
    assert error["code"] == "not_your_turn"


def test_stack_turn_deadline_writes_the_auto_move(stack: LocalStack, players: Any) -> None:
    # given a solo game with a 10 s turn clock
    ana = players("ana-clock")
    settings = {"players": 1, "preset": 1, "turnSeconds": 10}
    game_id = ana.act("create_game", settings=settings)["gameId"]
    started = ana.act("start_game", gameId=game_id)

    # when 11 s pass on the stack's clock without a move
    stack.aws.advance(seconds=11)

    # then the lane's missed heartbeat woke the game: the server wrote the best legal cell for
    # the player and started the next turn
    after = ana.receive("game", timeout=15)["game"]
    assert after["turn"]["number"] == started["turn"]["number"] + 1
    best = max(cell["score"] for cell in started["turn"]["legal"])
    written = after["sheets"][0]["totals"]
    assert sum(column["total"] for column in written.values()) == best


def test_stack_free_account_refused_premium_preset_until_granted(
    stack: LocalStack, players: Any
) -> None:
    # given eve, a local player and so a free account
    eve = players("eve-free")

    # when she creates a preset 5 table
    request_id = eve.send("create_game", settings={"players": 2, "preset": 5})
    refused = eve.receive("error")

    # then she is refused, naming the setting (rules.md 5)
    assert (refused["requestId"], refused["code"]) == (request_id, "invalid_settings")
    assert refused["fields"] == ["account", "preset"]

    # and once an operator grants her premium, the same table is created
    stack.grant_premium("eve-free")
    game = eve.act("create_game", settings={"players": 2, "preset": 5})
    assert game["settings"]["preset"] == 5
