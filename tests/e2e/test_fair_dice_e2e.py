"""End to end over real WebSockets (issue 17): a game's dice verified after its end with the
`verify` action and `yamb verify`, and a scorekeeping game with a correction."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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
