"""End to end over real WebSockets: a simultaneous game of four played to the end, one player
losing the connection and coming back, another timing out, and a spectator switching whom it
follows; every frame each of them receives is recorded and checked for hidden dice."""

import json
from typing import Any

from devstack.stack import LocalStack

SIMULTANEOUS_FOUR = {
    "players": 4,
    "columns": ["free"],
    "turnType": "simultaneous",
    "turnSeconds": 60,
}
ROUNDS = 13  # one free column


def _record(player: Any) -> list[dict[str, Any]]:
    """Every frame the player's connections receive from now on, in order."""
    seen: list[dict[str, Any]] = []

    def wrap() -> None:
        socket = player.socket
        receive = socket.recv

        def recorded(*args: Any, **kwargs: Any) -> Any:
            text = receive(*args, **kwargs)
            seen.append(json.loads(text))
            return text

        socket.recv = recorded

    reconnect = player.reconnect

    def reconnect_recorded() -> None:
        reconnect()
        wrap()

    player.reconnect = reconnect_recorded
    wrap()
    return seen


def _own_turn(player: Any, number: int) -> dict[str, Any]:
    """The player's own turn `number`: in a frame already received (the answer to their last
    action, or one read while waiting for something else), or in a frame to come (a round
    starts when its last player writes)."""

    def found(game: dict[str, Any] | None) -> bool:
        return bool(game) and (game["turn"] or {}).get("number") == number  # type: ignore[index]

    for frame in reversed(player.record):
        if frame.get("type") == "game" and found(frame.get("game")):
            return frame["game"]["turn"]  # type: ignore[no-any-return]
    turn: dict[str, Any] = player.game_until(found)["turn"]
    return turn


def _write(player: Any, game_id: str, turn: dict[str, Any]) -> dict[str, Any]:
    cell = turn["legal"][0]
    game: dict[str, Any] = player.act(
        "write", gameId=game_id, column=cell["column"], row=cell["row"]
    )
    return game


def _hidden_values_leaked(frames: list[dict[str, Any]], shown: set[str]) -> list[Any]:
    """The turns in `frames` of players other than those in `shown`."""
    return [
        frame["game"]["turn"]
        for frame in frames
        if frame.get("type") == "game"
        and frame.get("game")
        and frame["game"]["turn"] is not None
        and frame["game"]["turn"]["playerId"] not in shown
    ]


def test_simultaneous_four_players_to_the_end_with_a_return_and_a_time_out(
    stack: LocalStack, players: Any
) -> None:
    # given four players at a simultaneous table, and a spectator following the second
    names = ["sim-ana", "sim-ben", "sim-cleo", "sim-dee"]
    table = [players(name) for name in names]
    ana, ben, cleo, dee = table
    records = [_record(player) for player in table]
    for player, record in zip(table, records, strict=True):
        player.record = record
    game_id = ana.act("create_game", settings=SIMULTANEOUS_FOUR)["gameId"]
    for player in table[1:]:
        player.act("join_game", gameId=game_id)
    started = ana.act("start_game", gameId=game_id)
    ids = [seat["playerId"] for seat in started["seats"]]
    for player, player_id in zip(table, ids, strict=True):
        player.player_id = player_id
    watcher = players("sim-watcher")
    watched = _record(watcher)
    view = watcher.act("watch_game", gameId=game_id, follow=ids[1])
    assert view["turn"]["playerId"] == ids[1]

    # when round 1 is written by three of them and the fourth lets the clock run out
    for player in (ana, ben, cleo):
        _write(player, game_id, _own_turn(player, 1))
    waiting = ana.game_until(lambda g: g["waitingFor"] == [ids[3]])
    assert [seat["turnsPlayed"] for seat in waiting["seats"]] == [1, 1, 1, 0]
    stack.aws.advance(seconds=61)
    timed_out = ana.game_until(lambda g: g["seats"][3]["turnsPlayed"] == 1, timeout=20)
    assert timed_out["waitingFor"] == ids

    # and in round 2 ben loses his connection, the others write, and he comes back to his turn
    before = _own_turn(ben, 2)
    ben.close()
    away = ana.game_until(lambda g: not g["seats"][1]["present"])
    assert away["seats"][1]["returnDeadline"] is not None
    for player in (ana, cleo, dee):
        _write(player, game_id, _own_turn(player, 2))
    ben.reconnect()
    synced = ben.answer(ben.send("sync"))["game"]
    assert synced["turn"]["number"] == 2 and synced["turn"]["dice"] == before["dice"]
    _write(ben, game_id, synced["turn"])

    # and the spectator switches to the fourth player
    switched = watcher.act("watch_game", gameId=game_id, follow=ids[3])
    assert switched["turn"]["playerId"] == ids[3]

    # and the remaining rounds are played by everyone
    last: dict[str, Any] = {}
    for number in range(3, ROUNDS + 1):
        for player in table:
            last = _write(player, game_id, _own_turn(player, number))

    # then the game is over for everyone, with every sheet full
    final = (
        ana.game_until(lambda g: g["status"] == "finished")
        if last["status"] != "finished"
        else last
    )
    assert all(seat["turnsPlayed"] == ROUNDS for seat in final["seats"])
    assert final["winners"]
    # and no player ever received another's turn, nor the spectator one it did not follow
    for record, player_id in zip(records, ids, strict=True):
        assert _hidden_values_leaked(record, {player_id}) == []
        assert any(frame.get("type") == "game" for frame in record)
    assert _hidden_values_leaked(watched, {ids[1], ids[3]}) == []


def test_slow_game_deadline_passes_with_one_sheet_finished(stack: LocalStack, players: Any) -> None:
    # given a slow game of two: no turn clock, a deadline in an hour
    ana, ben = players("slow-ana"), players("slow-ben")
    settings = {
        "players": 2,
        "columns": ["free"],
        "turnType": "slow",
        "turnSeconds": None,
        "slowDeadlineHours": 1,
    }
    game_id = ana.act("create_game", settings=settings)["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    assert game["turn"]["deadline"] is None and game["slowDeadline"] is not None

    # when ana fills her sheet, ben plays one turn and goes offline, and the hour passes
    for _ in range(ROUNDS):
        game = _write(ana, game_id, game["turn"])
    synced = ben.answer(ben.send("sync"))
    assert synced["game"] is None and synced["slowGames"] == [game_id]
    ben_turn = ben.answer(ben.send("sync", gameId=game_id))["game"]["turn"]
    _write(ben, game_id, ben_turn)
    ben.close()
    stack.aws.advance(hours=1, seconds=1)

    # then the game ends at its deadline: ana, the one finished sheet, wins
    final = ana.game_until(lambda g: g["status"] != "running", timeout=20)
    assert (final["status"], final["outcome"], final["winners"]) == (
        "finished",
        "deadline",
        [game["seats"][0]["playerId"]],
    )
    assert final["seats"][1]["returnDeadline"] is None
    # and the ended game replays turn by turn: ana's 13 writes, ben's one, and last ben's
    # second turn, which the deadline ended before he wrote it
    replay = ana.answer(ana.send("replay", gameId=game_id))
    assert replay["type"] == "replay" and replay["parts"] == 1
    written = [turn["write"] is not None for turn in replay["turns"]]
    assert written == [True] * (ROUNDS + 1) + [False]


def test_two_vs_two_to_the_end_with_proposals_an_announcement_and_a_direction(
    stack: LocalStack, players: Any
) -> None:
    # given a 2 vs 2 game with the announced and directed columns (premium's, which all four
    # hold): ana and ben against cy and dee
    names = ("pairs-ana", "pairs-ben", "pairs-cy", "pairs-dee")
    for name in names:
        stack.grant_premium(name)
    table = [players(name) for name in names]
    ana, ben, cy, dee = table
    settings = {"players": 4, "pairs": True, "columns": ["down", "announced", "directed"]}
    game_id = ana.act("create_game", settings=settings)["gameId"]
    for player in table[1:]:
        player.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ids = [seat["playerId"] for seat in game["seats"]]
    by_id = dict(zip(ids, table, strict=True))

    def latest(player: Any, version: int) -> dict[str, Any]:
        seen: dict[str, Any] = player.game_at(version)
        return seen

    def act(player: Any, action: str, **fields: Any) -> dict[str, Any]:
        nonlocal game
        game = player.act(action, gameId=game_id, **fields)
        for other in table:
            if other is not player:
                latest(other, game["version"])
        return game

    def cell(view: dict[str, Any], column: str) -> dict[str, Any]:
        return next(c for c in view["turn"]["legal"] if c["column"] == column)

    # when ana announces a cell of the announced column, then proposes a down cell instead
    announced = cell(game, "announced")
    act(ana, "announce", column=announced["column"], row=announced["row"])
    proposed = cell(game, "down")
    act(ana, "write", column=proposed["column"], row=proposed["row"])
    assert game["turn"]["playerId"] == ids[1] and game["turn"]["proposal"]["row"] == proposed["row"]
    assert [(c["column"], c["row"]) for c in game["turn"]["opened"]] == [
        (announced["column"], announced["row"])
    ]
    # and ben replaces the proposal: he writes the announced cell from his own dice
    own = next(
        c
        for c in game["turn"]["legal"]
        if (c["column"], c["row"]) == (announced["column"], announced["row"])
    )
    act(ben, "write", column=own["column"], row=own["row"])
    team_one = game["sheets"][0]["cells"]
    assert team_one["down"] == {} and team_one["announced"] == {own["row"]: own["score"]}

    # then team 1's announced write directs team 2; cy proposes the directed cell, dee takes it
    directed_row = own["row"]
    assert game["turn"]["playerId"] == ids[2] and game["turn"]["directedRow"] == directed_row
    assert {(c["column"], c["row"]) for c in game["turn"]["legal"]} == {("directed", directed_row)}
    act(cy, "write", column="directed", row=directed_row)
    taken = game["turn"]["proposal"]
    act(dee, "write", column="directed", row=directed_row)
    written = game["sheets"][1]["cells"]["directed"][directed_row]
    assert written >= taken["score"] or directed_row == "min"

    # and the game is played to the end, each part writing its first choice
    while game["status"] == "running":
        player = by_id[game["turn"]["playerId"]]
        choice = game["turn"]["legal"][0]
        act(player, "write", column=choice["column"], row=choice["row"])

    # then both players of the better team win
    totals = [sheet["total"] for sheet in game["sheets"]]
    best_team = totals.index(max(totals))
    expected = set(ids[2 * best_team : 2 * best_team + 2]) if totals[0] != totals[1] else set(ids)
    assert game["status"] == "finished" and set(game["winners"]) == expected
    replay = ana.answer(ana.send("replay", gameId=game_id))
    assert replay["turns"][0]["proposal"]["row"] == proposed["row"]
    assert replay["turns"][0]["announcement"]["row"] == announced["row"]


def test_each_for_themself_to_the_end_at_different_paces(stack: LocalStack, players: Any) -> None:
    # given an each-for-themself game of two, watched by a spectator following the second
    ana, ben, watcher = players("eft-ana"), players("eft-ben"), players("eft-watcher")
    records = [_record(ana), _record(ben)]
    watched = _record(watcher)
    settings = {"players": 2, "columns": ["free"], "turnType": "each_for_themself"}
    game_id = ana.act("create_game", settings=settings)["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ids = [seat["playerId"] for seat in game["seats"]]
    watcher.act("watch_game", gameId=game_id, follow=ids[1])

    # when ana plays her whole sheet while ben has not moved, then ben plays his
    for _ in range(ROUNDS):
        game = _write(ana, game_id, game["turn"])
    assert game["status"] == "running" and game["turn"] is None
    ben_game = ben.answer(ben.send("sync"))["game"]
    for _ in range(ROUNDS):
        ben_game = _write(ben, game_id, ben_game["turn"])

    # then the game ends when both sheets are full, and no frame carried a hidden turn
    assert ben_game["status"] == "finished" and ben_game["winners"]
    for record, player_id in zip(records, ids, strict=True):
        assert _hidden_values_leaked(record, {player_id}) == []
    assert _hidden_values_leaked(watched, {ids[1]}) == []
