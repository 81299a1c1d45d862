"""Verifiable dice over the service (issue 17): the commitment in every game frame, client seeds
before the start, the seed in no frame and no log line before the end, `verify` after it."""

import hashlib
import json
from typing import Any

import pytest
from pydantic import ValidationError
from yamb.protocol import CLIENT_ACTIONS
from yamb_service.edge.caller import Caller
from yamb_tools.cli import verify_record

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
FREE_COLUMN = {"columns": ["free"], "preset": None}  # 13 cells in any order: short games


def _play_to_end(harness: Any, game_id: str, callers: dict[str, Caller]) -> None:
    while harness.session(game_id).status == "running":
        game = harness.session(game_id).game()
        caller = callers[game.players[game.seat]]
        harness.ack(caller, harness.act(caller, "roll", gameId=game_id, keep=[0, 1]))
        harness.write_any(caller, game_id)


def test_game_frames_carry_the_commitment_and_the_client_seeds(harness: Any) -> None:
    # given a table of ana and ben
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2, **FREE_COLUMN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))

    # when ben adds his own seed
    request_id = harness.act(BEN, "add_seed", gameId=game_id, seed="bens-seed-7")

    # then the game frame answering it shows the commitment and his seed, not the server seed
    fairness = harness.game_answer(BEN, request_id)["fairness"]
    session = harness.session(game_id)
    assert fairness["scheme"] == "yamb-dice/2"
    assert fairness["commitment"] == session.fair.commitment
    assert fairness["clientSeeds"] == {"ben": "bens-seed-7"}
    assert fairness["seed"] is None
    assert harness.last_game(ANA)["fairness"]["clientSeeds"] == {"ben": "bens-seed-7"}


def test_add_seed_after_the_start_is_refused(harness: Any) -> None:
    # given a running game / when ana sends a seed / then it is refused with a stable code
    game_id = harness.running_game(ANA, BEN, **FREE_COLUMN)
    request_id = harness.act(ANA, "add_seed", gameId=game_id, seed="late")
    assert harness.error(ANA, request_id)["code"] == "wrong_status"
    assert harness.session(game_id).fair.client_seeds == {}


@pytest.mark.parametrize("seed", ["x" * 65, "", "with space", "caf\u00e9"])
def test_add_seed_too_long_or_not_printable_fails_at_the_edge(seed: str) -> None:
    # given / when a seed of 65 characters, none, or not printable ASCII / then refused by the model
    with pytest.raises(ValidationError):
        CLIENT_ACTIONS.validate_python(
            {"action": "add_seed", "requestId": "r", "gameId": "g", "seed": seed}
        )


def test_seed_is_in_no_frame_and_no_log_line_before_the_end(
    harness: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # given a game played to its end
    game_id = harness.running_game(ANA, BEN, **FREE_COLUMN)
    seed = harness.session(game_id).fair.server_seed
    _play_to_end(harness, game_id, {"ana": ANA, "ben": BEN})

    # then no frame before the first that shows the game finished, and no log line, carries
    # the seed; that frame and every game frame after it do
    frames = [frame for _, frame in harness.notifier.sent]
    texts = [json.dumps(frame) for frame in frames]
    ending = next(
        i for i, frame in enumerate(frames) if (frame.get("game") or {}).get("status") == "finished"
    )
    assert all(seed not in text for text in texts[:ending])
    assert all(
        seed in text
        for frame, text in zip(frames[ending:], texts[ending:], strict=True)
        if frame.get("game")
    )
    assert seed not in capsys.readouterr().out
    # and the last game frame reveals it, matching the commitment
    fairness = harness.last_game(BEN)["fairness"]
    assert fairness["seed"] == seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == fairness["commitment"]


def test_verify_after_the_end_answers_a_record_every_die_matches(harness: Any) -> None:
    # given a finished game with a client seed
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2, **FREE_COLUMN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "add_seed", gameId=game_id, seed="anas"))
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    _play_to_end(harness, game_id, {"ana": ANA, "ben": BEN})

    # when ben asks to verify it
    record = harness.answer(BEN, harness.act(BEN, "verify", gameId=game_id))

    # then the record has 26 turns, matches, and a third party's check agrees
    assert record["type"] == "dice_record"
    assert record["mismatch"] is None and record["seedMatchesCommitment"] is True
    assert len(record["turns"]) == 26
    assert record["clientSeeds"] == {"ana": "anas"}
    assert verify_record(record) == {"ok": True, "turns": 26}
    # and the game item kept only its latest turns: the others were moved to items of their own
    fair = harness.session(game_id).fair
    assert fair.archived_chunks >= 1
    assert len(fair.turns) <= 13


def test_verify_of_a_running_game_is_refused(harness: Any) -> None:
    game_id = harness.running_game(ANA, BEN, **FREE_COLUMN)
    assert harness.error(ANA, harness.act(ANA, "verify", gameId=game_id))["code"] == "wrong_status"


def test_same_dice_for_2_vs_2_is_refused_at_creation(harness: Any) -> None:
    # given / when a 2 vs 2 table asks for the same dice / then the error names the settings
    harness.connect(ANA)
    request_id = harness.act(
        ANA, "create_game", settings={"players": 4, "pairs": True, "preset": 1, "sameDice": True}
    )
    error = harness.error(ANA, request_id)
    assert error["code"] == "invalid_settings"
    assert "2 vs 2" in error["message"]
