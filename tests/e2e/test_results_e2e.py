"""Results over the local stack: a ranked game played to the end over WebSockets writes its end,
the table's stream (polled as Lambda's event source mapping does) runs the results function,
and the HTTP API shows the game on the board, in the statistics, in the head-to-head and on the
public page; the weekly prize job, run by hand as of the Monday after, pays the week's main
board once."""

import json
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from typing import Any

import pytest
from yamb.progression.tasks import catalogue
from yamb.results.periods import week_of
from yamb_service.results import wiring as results_wiring

from devstack.stack import LocalStack, local_nickname
from devstack.streams import wait_until

# The smallest ranked table: 2 players, preset 1 (down and up: 26 turns a sheet).
RANKED = {"players": 2, "ranked": True, "preset": 1, "turnSeconds": 60}


def http(
    stack: LocalStack, path: str, token: str | None = None, accept: str = "application/json"
) -> tuple[int, str, str]:
    """GET `path` on the stack's HTTP API (signed in with `token`): status, type and body."""
    headers = {"Accept": accept}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{stack.gateway.http_url}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def get(stack: LocalStack, path: str, token: str) -> Any:
    status, _, body = http(stack, path, token)
    assert status == 200, (path, status, body)
    return json.loads(body)


def test_results_ranked_game_reaches_boards_statistics_page_and_weekly_prize(
    stack: LocalStack, players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given two players play a ranked preset-1 game to the end over the sockets, one always
    # taking her best-scoring legal cell and the other his worst; from here on "ana" is the
    # winner and "ben" the loser, whoever they are (a draw, which her choices make rare, is
    # played again by two new players a week later on the stack's clock, so that the week's
    # board and prizes hold only the game under test)
    for attempt in range(3):
        ana, ben, game, totals = play_a_ranked_game(players, f"results-{attempt}")
        if len(game["winners"]) == 1:
            break
        stack.aws.advance(days=7)
    names = {ana: local_nickname(ana.name), ben: local_nickname(ben.name)}
    game_id = game["gameId"]
    assert totals[ana] > totals[ben]
    token = stack.player_token(ana.name)

    # when the stream hands the game's end to the results function
    def on_board() -> bool:
        return len(get(stack, "/boards?columns=1&period=week", token)["rows"]) == 2

    # then the preset's board of the week lists both players with their totals, ana first
    assert wait_until(on_board, timeout=10)
    rows = get(stack, "/boards?columns=1&period=week", token)["rows"]
    assert [(r["place"], r["names"], r["score"], r["gameIds"], r["me"]) for r in rows] == [
        (1, [names[ana]], totals[ana], [game_id], True),
        (2, [names[ben]], totals[ben], [game_id], False),
    ]
    # and ben's statistics count the game, a loss
    stats = get(stack, f"/players/{names[ben]}/statistics", token)
    assert (stats["games"], stats["wins"], stats["losses"]) == (1, 0, 1)
    assert stats["records"]["preset-1/5d/individual"]["score"] == totals[ben]
    # and ana's head-to-head with ben shows the meeting, a win
    h2h = get(stack, f"/players/{names[ben]}/head-to-head", token)
    [meeting] = h2h["meetings"]
    assert (h2h["wins"], h2h["losses"], meeting["gameId"], meeting["verdict"]) == (
        1,
        0,
        game_id,
        "win",
    )
    assert (meeting["mine"], meeting["theirs"]) == (totals[ana], totals[ben])
    # and ana's public page answers a browser with HTML, without signing in
    status, content_type, page = http(stack, f"/pages/{names[ana]}", accept="text/html")
    assert (status, content_type) == (200, "text/html; charset=utf-8")
    assert f"<h1>{names[ana]}</h1>" in page
    # and ana's tasks of the game's week count it; the weekly job run by hand keeps the week
    tasks_count_the_game(stack, token, datetime.fromisoformat(meeting["at"]))

    # when the weekly prize job is run by hand as of the Monday 00:10 after the game's week,
    # then again (the payout's wait for gsi1 after closing is skipped: moto's index follows at
    # once)
    monkeypatch.setattr(results_wiring.prize_service(), "settle_seconds", 0.0)
    week = week_of(datetime.fromisoformat(meeting["at"]))
    assert week.end is not None
    now = week.end + timedelta(minutes=10)
    first = stack.run_job("PrizesFunctionWeekly", now=now)
    again = stack.run_job("PrizesFunctionWeekly", now=now)

    # then the week's main board paid its winner, ana, 100 tokens (and ben, second, 60) once
    board = f"individual/main/best/{week.id}"
    assert (first["period"], first["paid"]) == (
        week.id,
        [f"{board} {ana.player_id} 100", f"{board} {ben.player_id} 60"],
    )
    assert (again["paid"], again["repeated"]) == ([], 2)
    ledger = get(stack, "/me/ledger", token)["entries"]
    assert [(e["amount"], e["detail"]) for e in ledger if e["reason"] == "prize"] == [(100, board)]


def play_a_ranked_game(
    players: Any, prefix: str
) -> tuple[Any, Any, dict[str, Any], dict[Any, int]]:
    """A ranked preset-1 game of two new players to the end: the winner (the first player on a
    draw), the other, the last game frame and each player's total."""
    ana, ben = players(f"{prefix}-ana"), players(f"{prefix}-ben")
    game = ana.act("create_game", settings=RANKED)
    game_id = game["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ana.player_id = game["creator"]
    ben.player_id = next(s["playerId"] for s in game["seats"] if s["playerId"] != ana.player_id)
    by_id = {ana.player_id: ana, ben.player_id: ben}
    while game["status"] == "running":
        mover = by_id[game["turn"]["playerId"]]
        pick = max if mover is ana else min
        cell = pick(game["turn"]["legal"], key=lambda c: c["score"])
        game = mover.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    totals = {
        by_id[seat["playerId"]]: sheet["total"]
        for seat, sheet in zip(game["seats"], game["sheets"], strict=True)
    }
    winner = by_id[game["winners"][0]]
    loser = ben if winner is ana else ana
    return winner, loser, game, totals


def tasks_count_the_game(stack: LocalStack, token: str, played_at: datetime) -> None:
    """The winner's tasks of the game's week (the stream runs progression after the results):
    each task as far as one won, full, ranked preset-1 game of 26 turns takes it; the weekly
    job, run by hand as of the week's start, keeps the week's choice."""
    played = week_of(played_at)
    one_game = {"games": 1, "turns": 26, "full_sheets": 1, "opponents": 1, "wins": 1,
                "ranked_wins": 1, "presets": 1, "games_of_preset:1": 1}  # fmt: skip
    chosen = {task.id: task for task in catalogue().tasks}

    def counted() -> bool:
        # Progression is the results function's last step for a game (after the statistics
        # this test saw, the ratings, the season and the tournaments): wait for it.
        return all(
            task["progress"] == min(task["target"], one_game[chosen[task["id"]].counter])
            for task in get(stack, "/me/tasks", token)["tasks"]
            if chosen[task["id"]].counter in one_game
        )

    wait_until(counted, timeout=30)
    tasks = get(stack, "/me/tasks", token)
    assert tasks["week"] == played.id and 0 < tasks["secondsLeft"] <= 7 * 24 * 3600
    for task in tasks["tasks"]:
        counter = chosen[task["id"]].counter
        if counter in one_game:
            assert task["progress"] == min(task["target"], one_game[counter]), task
    # and the weekly job, run by hand as of the week's start, keeps the week's choice
    ran = stack.run_job("ProgressionJobsFunctionWeekly", now=played.start)
    assert ran["week"] == played.id and len(ran["tasks"]) == len(tasks["tasks"])
