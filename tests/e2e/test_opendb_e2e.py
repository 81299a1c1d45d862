"""The open game database over the local stack (issue 32): two games played to their end over
WebSockets (a line of chat in one), their ends staged from the table's stream, the monthly job
run by hand as of the first of the next month, then the month's file listed and downloaded
over HTTP as anyone would (no sign-in, through the signed link), its SHA-256 checked against
the listing and each game verified with `yamb verify --game`."""

import gzip
import hashlib
import json
import subprocess
import sys
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

from yamb.opendb.months import month_end, month_of

from devstack.stack import LocalStack, local_nickname
from devstack.streams import wait_until

ROOT = Path(__file__).resolve().parents[2]
# A two-player table of one free column: 13 turns a sheet.
TABLE = {"players": 2, "columns": ["free"], "turnSeconds": None}
CHAT = "this line of chat stays out of the database"


def _play(ana: Any, ben: Any, chat: bool) -> dict[str, Any]:
    game = ana.act("create_game", settings=TABLE)
    game_id = game["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    by_id = {}
    for seat, player in zip(game["seats"], (ana, ben), strict=True):
        player.player_id = seat["playerId"]
        by_id[seat["playerId"]] = player
    if chat:
        ana.send("chat", gameId=game_id, text=CHAT)
    while game["status"] == "running":
        player = by_id[game["turn"]["playerId"]]
        if game["turn"]["canRoll"]:
            game = player.act("roll", gameId=game_id, keep=[0])
        cell = game["turn"]["legal"][0]
        game = player.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    # the other player's last frame: the game at its end
    return game


def _fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(url, timeout=30) as answer:  # follows the redirect
        return answer.status, dict(answer.headers), answer.read()


def test_a_month_of_games_is_exported_downloaded_and_verified(
    stack: LocalStack, players: Any, tmp_path: Path
) -> None:
    # given two games of ana and ben played to their end over the sockets, chat in the first
    ana, ben = players("ana-opendb"), players("ben-opendb")
    games = [_play(ana, ben, chat=True), _play(ana, ben, chat=False)]
    ids = [game["gameId"] for game in games]
    month = month_of(stack.aws.clock.now())

    # when their ends have reached the results function (which stages them) and the monthly
    # job is run by hand as of 01:00 on the first of the next month
    def staged() -> bool:
        items = stack.aws.client("dynamodb").query(
            TableName=stack.aws.physical_ids["GameTable"],
            IndexName="gsi1",
            KeyConditionExpression="gsi1pk = :pk",
            ExpressionAttributeValues={":pk": {"S": f"OPENDB#{month}"}},
        )["Items"]
        return {item["gsi1sk"]["S"].rsplit("#", 1)[1] for item in items} >= set(ids)

    assert wait_until(staged, timeout=20)
    exported = stack.run_job("OpenDbJobsFunctionMonthly", now=month_end(month) + timedelta(hours=1))
    again = stack.run_job("OpenDbJobsFunctionMonthly", now=month_end(month) + timedelta(hours=2))

    # then anyone lists the month, with its file's size and SHA-256 and the licence
    base = stack.gateway.http_url
    status, headers, body = _fetch(f"{base}/database")
    listing = json.loads(body)
    assert status == 200 and headers["Cache-Control"] == "public, max-age=3600"
    [listed] = [m for m in listing["months"] if m["month"] == month]
    [file] = listed["files"]
    assert exported["written"] is True and again["written"] is False
    assert file["sha256"] == exported["sha256"][0] == again["sha256"][0]
    assert listing["licence"]["url"] == "https://creativecommons.org/publicdomain/zero/1.0/"
    # and the file downloads over HTTP through its link, the bytes the listing describes
    status, _, data = _fetch(base + file["url"])
    assert status == 200 and len(data) == file["bytes"]
    assert hashlib.sha256(data).hexdigest() == file["sha256"]
    lines = [json.loads(line) for line in gzip.decompress(data).splitlines()]
    ours = [line for line in lines if line["id"] in ids]
    assert [line["id"] for line in ours] == ids
    names = {local_nickname("ana-opendb"), local_nickname("ben-opendb")}
    assert all({seat["nickname"] for seat in line["seats"]} == names for line in ours)
    # and nothing of the players but their nicknames is in it: no id, no chat
    text = gzip.decompress(data).decode()
    assert CHAT not in text
    assert ana.player_id not in text and ben.player_id not in text
    # and `yamb verify --game` verifies every game of the downloaded file
    path = tmp_path / f"yamb_games_{month}.jsonl.gz"
    path.write_bytes(data)
    checked = subprocess.run(
        [sys.executable, "-m", "yamb_client.cli", "verify", "--game", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verdicts = [json.loads(line) for line in checked.stdout.splitlines()]
    assert {v["id"] for v in verdicts} >= set(ids) and all(v["ok"] for v in verdicts)
    # and the licence and README are beside it
    _, _, licence = _fetch(f"{base}/database/LICENSE.txt")
    assert b"CC0 1.0" in licence
