"""End to end over real WebSockets (issue 17): a game's dice verified after its end with the
`verify` action and `yamb verify`, and a scorekeeping game with a correction."""

import hashlib
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from devstack.stack import LocalStack

ROOT = Path(__file__).resolve().parents[2]
FREE_SOLO = {"players": 1, "columns": ["free"], "turnSeconds": None}


def test_fair_dice_solo_game_verified_by_the_action_and_by_yamb_verify(
    players: Any, tmp_path: Path
) -> None:
    # given ana's solo game with a seed of her own, played to the end with a roll each turn
    ana = players("ana-fair")
    game = ana.act("create_game", settings=FREE_SOLO)
    game_id = game["gameId"]
    commitment = game["fairness"]["commitment"]
    ana.act("add_seed", gameId=game_id, seed="ana-was-here")
    game = ana.act("start_game", gameId=game_id)
    while game["status"] == "running":
        assert game["fairness"]["seed"] is None
        if game["turn"]["canRoll"]:
            game = ana.act("roll", gameId=game_id, keep=[0])
        cell = game["turn"]["legal"][0]
        game = ana.act("write", gameId=game_id, column=cell["column"], row=cell["row"])

    # when she asks for the dice record, and checks it with `yamb verify`
    record = ana.answer(ana.send("verify", gameId=game_id))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    checked = subprocess.run(
        [sys.executable, "-m", "yamb_client.cli", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    # then the seed revealed is the one committed at creation, and every die matches
    assert game["fairness"]["seed"] == record["seed"]
    assert record["commitment"] == commitment and record["seedMatchesCommitment"] is True
    assert record["mismatch"] is None and len(record["turns"]) == 13
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout) == {"ok": True, "turns": 13}


def test_scorekeeping_game_with_a_correction_over_websockets(players: Any) -> None:
    # given a scorekeeping table of ana (its creator) and ben
    ana, ben = players("ana-real-dice"), players("ben-real-dice")
    settings = {"players": 2, "columns": ["free"], "turnSeconds": None, "physicalDice": True}
    game_id = ana.act("create_game", settings=settings)["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    assert game["turn"] == {**game["turn"], "roll": 0, "dice": [], "playerId": game["creator"]}

    # when ana types her roll and writes ones, ana types ben's and writes his sixes for him
    ana.act("enter_dice", gameId=game_id, dice=[1, 1, 1, 4, 5])
    ana.act("write", gameId=game_id, column="free", row="ones")
    ana.act("enter_dice", gameId=game_id, dice=[6, 6, 2, 3, 6])
    game = ana.act("write", gameId=game_id, column="free", row="sixes")
    # and she then corrects her own first line: four ones, not three
    history = ana.answer(ana.send("history", gameId=game_id))
    line = history["turns"][0] | {"rolls": [[1, 1, 1, 1, 5]]}
    corrected = ana.act("correct_turn", gameId=game_id, line=0, turn=line)

    # then the sheets were scored from the typed dice, and again from the corrected line
    def cell(view: dict[str, Any], seat: int, row: str) -> int:
        return int(view["sheets"][seat]["cells"]["free"][row])

    assert (cell(game, 0, "ones"), cell(game, 1, "sixes")) == (3, 18)
    assert (cell(corrected, 0, "ones"), cell(corrected, 1, "sixes")) == (4, 18)
    assert history["total"] == 2


def _public(stack: LocalStack, game_id: str) -> tuple[int, dict[str, Any], str]:
    """GET /games/{id}/fairness without sign-in: the status, the body, the Cache-Control."""
    url = f"{stack.gateway.http_url}/games/{game_id}/fairness"
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, json.loads(answer.read()), answer.headers["Cache-Control"]
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers["Cache-Control"] or ""


def test_fair_dice_one_public_commitment_a_spectator_and_a_player_compare(
    stack: LocalStack, players: Any
) -> None:
    # given ana's solo table, ana's seed added, and cleo watching
    ana, cleo = players("ana-public"), players("cleo-public")
    game = ana.act("create_game", settings=FREE_SOLO)
    game_id = game["gameId"]
    ana.act("add_seed", gameId=game_id, seed="ana-public-seed")
    watched = cleo.act("watch_game", gameId=game_id)

    # when anyone, signed in or not, reads the game's public fairness page
    status, page, cache = _public(stack, game_id)

    # then it is the commitment every frame showed, the seed added, no server seed yet, and it
    # is cached only briefly
    assert status == 200
    assert page["commitment"] == game["fairness"]["commitment"]
    assert page["commitment"] == watched["fairness"]["commitment"]
    assert page["clientSeeds"] == {game["creator"]: "ana-public-seed"}
    assert (page["status"], page["seed"], page["scheme"]) == ("waiting", None, "yamb-dice/2")
    assert cache == "public, max-age=5"

    # when the game is played to its end
    game = ana.act("start_game", gameId=game_id)
    while game["status"] == "running":
        cell = game["turn"]["legal"][0]
        game = ana.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    status, page, cache = _public(stack, game_id)

    # then the page reveals the seed that the commitment sealed, and is kept a day
    assert status == 200 and page["status"] == "finished"
    assert page["seed"] == game["fairness"]["seed"]
    assert hashlib.sha256(bytes.fromhex(page["seed"])).hexdigest() == page["commitment"]
    assert cache == "public, max-age=86400"


def test_fair_dice_public_page_of_an_unknown_game_is_404(stack: LocalStack) -> None:
    status, page, _ = _public(stack, "no-such-game")
    assert status == 404 and page["error"]["code"] == "unknown_game"
    status, page, _ = _public(stack, "bad%20id")
    assert status == 404 and page["error"]["field"] == "gameId"
