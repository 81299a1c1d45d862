"""Verifiable dice over the service (issues 17 and 32): the commitment in every game frame, the
players' seeds committed before the start and revealed after it (the first roll waits for them,
a withheld one is dropped at the deadline), the seed in no frame and no log line before the end,
`verify` after it."""

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


def _sha(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def _committed_table(harness: Any, seeds: dict[Caller, str], **settings: Any) -> str:
    """A waiting table of ana and ben, each caller in `seeds` committed to their seed."""
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2, **(settings or FREE_COLUMN))
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    for caller, seed in seeds.items():
        committed = harness.act(caller, "commit_seed", gameId=game_id, commitment=_sha(seed))
        harness.ack(caller, committed)
    return game_id


def test_game_frames_carry_the_commitments_and_no_seed(harness: Any) -> None:
    # given a table of ana and ben
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2, **FREE_COLUMN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))

    # when ben commits to a seed of his own
    request_id = harness.act(BEN, "commit_seed", gameId=game_id, commitment=_sha("bens-seed-7"))

    # then the game frame answering it, and ana's, show his commitment, not his seed, nor the
    # server's
    fairness = harness.game_answer(BEN, request_id)["fairness"]
    session = harness.session(game_id)
    assert fairness["scheme"] == "yamb-dice/3"
    assert fairness["commitment"] == session.fair.commitment
    assert fairness["commitments"] == {"ben": _sha("bens-seed-7")}
    assert fairness["clientSeeds"] == {} and fairness["seed"] is None
    assert fairness["takesSeeds"] is True
    assert harness.last_game(ANA)["fairness"]["commitments"] == {"ben": _sha("bens-seed-7")}
    assert all("bens-seed-7" not in json.dumps(frame) for _, frame in harness.notifier.sent)


def test_a_commitment_is_replaced_until_the_start(harness: Any) -> None:
    game_id = _committed_table(harness, {BEN: "first"})
    harness.ack(BEN, harness.act(BEN, "commit_seed", gameId=game_id, commitment=_sha("second")))
    assert harness.session(game_id).fair.commitments == {"ben": _sha("second")}


def test_the_first_roll_waits_for_the_reveals_and_mixes_the_seeds_in(harness: Any) -> None:
    # given ana and ben committed, and the game started
    game_id = _committed_table(harness, {ANA: "anas", BEN: "bens"})
    started = harness.game_answer(ANA, harness.act(ANA, "start_game", gameId=game_id))
    # then no dice yet: the frame says until when the seeds are awaited, and a roll waits
    assert started["status"] == "running" and started["turn"] is None
    assert started["fairness"]["revealBy"] is not None
    refused = harness.act(ANA, "roll", gameId=game_id, keep=[])
    assert harness.error(ANA, refused)["code"] == "awaiting_seeds"
    # when ana reveals: still no dice, and the frames say she has, not what
    shown = harness.game_answer(ANA, harness.act(ANA, "reveal_seed", gameId=game_id, seed="anas"))
    assert shown["turn"] is None and shown["fairness"]["revealed"] == ["ana"]
    assert "anas" not in json.dumps(harness.last_game(BEN))
    # when ben reveals: the first turn is rolled, both seeds in the key
    shown = harness.game_answer(BEN, harness.act(BEN, "reveal_seed", gameId=game_id, seed="bens"))
    assert shown["turn"] is not None and shown["turn"]["roll"] == 1
    assert shown["fairness"]["clientSeeds"] == {"ana": "anas", "ben": "bens"}
    assert shown["fairness"]["revealBy"] is None and shown["fairness"]["withheld"] == []


def test_a_seed_that_is_not_the_committed_one_is_refused(harness: Any) -> None:
    game_id = _committed_table(harness, {ANA: "anas"})
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    error = harness.error(ANA, harness.act(ANA, "reveal_seed", gameId=game_id, seed="other"))
    assert error["code"] == "seed_mismatch"
    assert "SHA-256" in error["message"]
    assert harness.session(game_id).fair.reveals == {}


def test_a_reveal_before_the_start_is_refused(harness: Any) -> None:
    game_id = _committed_table(harness, {ANA: "anas"})
    error = harness.error(ANA, harness.act(ANA, "reveal_seed", gameId=game_id, seed="anas"))
    assert error["code"] == "too_early"
    assert harness.session(game_id).status == "waiting"


def test_a_seed_withheld_is_dropped_at_the_deadline_and_named(harness: Any) -> None:
    # given ana revealed and ben, who committed, sends nothing
    game_id = _committed_table(harness, {ANA: "anas", BEN: "bens"})
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "reveal_seed", gameId=game_id, seed="anas"))
    # when the deadline passes (a timer wakes the game)
    harness.advance(seconds=16)
    # then the first turn is rolled with ana's seed alone, and ben is named as withholding
    session = harness.session(game_id)
    assert session.turn == 1 and not session.awaiting_seeds
    assert session.fair.client_seeds == {"ana": "anas"}
    assert harness.last_game(BEN)["fairness"]["withheld"] == ["ben"]
    # and his seed, late, is refused
    late = harness.act(BEN, "reveal_seed", gameId=game_id, seed="bens")
    assert harness.error(BEN, late)["code"] == "reveals_closed"


def test_add_seed_is_retired_with_its_own_code(harness: Any) -> None:
    # given a waiting table / when ana sends a seed in the clear / then it is refused
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=2, **FREE_COLUMN)
    request_id = harness.act(ANA, "add_seed", gameId=game_id, seed="late")
    error = harness.error(ANA, request_id)
    assert error["code"] == "seed_retired" and "commit_seed" in error["message"]
    assert harness.session(game_id).fair.client_seeds == {}


@pytest.mark.parametrize("commitment", ["ab" * 31, "AB" * 32, "g" * 64, ""])
def test_a_commitment_not_of_64_lowercase_hex_digits_fails_at_the_edge(commitment: str) -> None:
    with pytest.raises(ValidationError):
        CLIENT_ACTIONS.validate_python(
            {"action": "commit_seed", "requestId": "r", "gameId": "g", "commitment": commitment}
        )


@pytest.mark.parametrize("seed", ["x" * 65, "", "with space", "caf\u00e9"])
def test_a_seed_too_long_or_not_printable_fails_at_the_edge(seed: str) -> None:
    # given / when a seed of 65 characters, none, or not printable ASCII / then refused by the model
    with pytest.raises(ValidationError):
        CLIENT_ACTIONS.validate_python(
            {"action": "reveal_seed", "requestId": "r", "gameId": "g", "seed": seed}
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
    game_id = _committed_table(harness, {ANA: "anas"})
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "reveal_seed", gameId=game_id, seed="anas"))
    _play_to_end(harness, game_id, {"ana": ANA, "ben": BEN})

    # when ben asks to verify it
    record = harness.answer(BEN, harness.act(BEN, "verify", gameId=game_id))

    # then the record has 26 turns, matches, and a third party's check agrees
    assert record["type"] == "dice_record"
    assert record["mismatch"] is None and record["seedMatchesCommitment"] is True
    assert len(record["turns"]) == 26
    assert record["clientSeeds"] == {"ana": "anas"}
    assert record["commitments"] == {"ana": _sha("anas")} and record["withheld"] == []
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
