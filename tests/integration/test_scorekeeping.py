"""Scorekeeping for real dice (issue 17, P6): typed dice, every write checked by the engine, the
history kept, a correction rescoring every sheet or refused with the line it breaks."""

from typing import Any

import pytest
from pydantic import ValidationError
from yamb.protocol import CLIENT_ACTIONS
from yamb_service.edge.caller import Caller

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
TABLE = {"players": 2, "columns": ["free"], "preset": None, "physicalDice": True}
ROWS = ["ones", "twos", "threes", "fours", "fives", "sixes", "max", "min"]
ROWS += ["three_of_a_kind", "straight", "full_house", "four_of_a_kind", "yamb"]


def _table(harness: Any) -> str:
    return str(harness.running_game(ANA, BEN, turnSeconds=None, **TABLE))


def _turn(
    harness: Any, typist: Caller, game_id: str, rolls: list[list[int]], row: str
) -> dict[str, Any]:
    for dice in rolls:
        harness.ack(typist, harness.act(typist, "enter_dice", gameId=game_id, dice=dice))
    request_id = harness.act(typist, "write", gameId=game_id, column="free", row=row)
    return harness.game_answer(typist, request_id)


def _cell(game: dict[str, Any], player: str, row: str) -> int | None:
    sheet = next(sheet for sheet in game["sheets"] if sheet["playerId"] == player)
    return sheet["cells"].get("free", {}).get(row)


def test_scorekeeping_game_typed_dice_are_scored_and_kept_in_the_history(harness: Any) -> None:
    # given a scorekeeping table of ana and ben (ana created it)
    game_id = _table(harness)

    # when they play it to the end, ana typing for ben on his odd turns
    game: dict[str, Any] = {}
    for index, row in enumerate(ROWS):
        game = _turn(harness, ANA, game_id, [[1, 2, 3, 4, 5], [index % 6 + 1] * 5], row)
        ben_typist = ANA if index % 2 else BEN
        game = _turn(harness, ben_typist, game_id, [[6, 6, 6, 6, 6]], row)

    # then every write was scored by the engine, the game finished, and the history has 26 lines
    assert game["status"] == "finished"
    assert _cell(game, "ana", "ones") == 5  # five ones on the second roll
    assert _cell(game, "ben", "sixes") == 30
    totals = {sheet["playerId"]: sheet["total"] for sheet in game["sheets"]}
    assert game["winners"] == [max(totals, key=totals.__getitem__)]
    history = harness.answer(BEN, harness.act(BEN, "history", gameId=game_id))
    assert history["type"] == "history" and history["total"] == 26
    assert history["turns"][0] == {
        "player": "ana",
        "rolls": [[1, 2, 3, 4, 5], [1, 1, 1, 1, 1]],
        "announce": None,
        "write": {"column": "free", "row": "ones"},
    }


def test_scorekeeping_roll_is_refused_the_dice_are_typed(harness: Any) -> None:
    game_id = _table(harness)
    request_id = harness.act(ANA, "roll", gameId=game_id)
    assert harness.error(ANA, request_id)["code"] == "type_the_dice"


@pytest.mark.parametrize("dice", [[7, 1, 1, 1, 1], [0, 1, 1, 1, 1], [1, 2, 3, 4, 5, 6]])
def test_scorekeeping_dice_out_of_range_or_of_the_wrong_count_are_refused(
    harness: Any, dice: list[int]
) -> None:
    # given ana's turn at a 5-dice table / when she types impossible dice / then refused, unchanged
    game_id = _table(harness)
    request_id = harness.act(ANA, "enter_dice", gameId=game_id, dice=dice)
    assert harness.error(ANA, request_id)["code"] == "bad_dice"
    assert harness.session(game_id).game().roll == 0


def test_scorekeeping_four_dice_fail_at_the_edge() -> None:
    with pytest.raises(ValidationError):
        CLIENT_ACTIONS.validate_python(
            {"action": "enter_dice", "requestId": "r", "gameId": "g", "dice": [1, 2, 3, 4]}
        )


def test_scorekeeping_other_player_types_out_of_turn_is_refused(harness: Any) -> None:
    game_id = _table(harness)
    request_id = harness.act(BEN, "enter_dice", gameId=game_id, dice=[1, 1, 1, 1, 1])
    assert harness.error(BEN, request_id)["code"] == "not_your_turn"


def test_scorekeeping_correction_in_the_middle_rescores_every_sheet(harness: Any) -> None:
    # given four turns played: ana wrote ones (3 ones) and twos
    game_id = _table(harness)
    _turn(harness, ANA, game_id, [[1, 1, 1, 4, 5]], "ones")
    _turn(harness, BEN, game_id, [[2, 2, 3, 4, 5]], "twos")
    _turn(harness, ANA, game_id, [[2, 2, 2, 2, 5]], "twos")
    _turn(harness, BEN, game_id, [[3, 3, 3, 4, 5]], "threes")

    # when ana (the creator) corrects line 0: she had rolled four ones, not three
    corrected = {
        "player": "ana",
        "rolls": [[1, 1, 1, 1, 5]],
        "write": {"column": "free", "row": "ones"},
    }
    request_id = harness.act(ANA, "correct_turn", gameId=game_id, line=0, turn=corrected)

    # then her ones score 4, the rest stands, and the history has the corrected line
    game = harness.game_answer(ANA, request_id)
    assert _cell(game, "ana", "ones") == 4
    assert _cell(game, "ana", "twos") == 8
    assert _cell(game, "ben", "threes") == 9
    history = harness.answer(ANA, harness.act(ANA, "history", gameId=game_id))
    assert history["turns"][0]["rolls"] == [[1, 1, 1, 1, 5]]
    # and play goes on from there: it is ana's turn again
    assert game["turn"]["playerId"] == "ana"


def test_scorekeeping_correction_breaking_a_later_write_is_refused_with_that_line(
    harness: Any,
) -> None:
    # given ana wrote ones (line 0), then twos (line 2)
    game_id = _table(harness)
    _turn(harness, ANA, game_id, [[1, 1, 1, 4, 5]], "ones")
    _turn(harness, BEN, game_id, [[2, 2, 3, 4, 5]], "twos")
    _turn(harness, ANA, game_id, [[2, 2, 2, 2, 5]], "twos")
    before = harness.session(game_id)

    # when line 0 is corrected to a write of twos, which line 2 writes again
    corrected = {
        "player": "ana",
        "rolls": [[2, 1, 1, 4, 5]],
        "write": {"column": "free", "row": "twos"},
    }
    request_id = harness.act(ANA, "correct_turn", gameId=game_id, line=0, turn=corrected)

    # then it is refused, naming line 2, and nothing changed
    error = harness.error(ANA, request_id)
    assert error["code"] == "correction_refused"
    assert "line 2" in error["message"]
    after = harness.session(game_id)
    assert (after.history, after.engine) == (before.history, before.engine)


def test_scorekeeping_correction_by_another_player_is_refused(harness: Any) -> None:
    game_id = _table(harness)
    _turn(harness, ANA, game_id, [[1, 1, 1, 4, 5]], "ones")
    line = {"player": "ana", "rolls": [[1, 1, 1, 1, 1]], "write": {"column": "free", "row": "ones"}}
    request_id = harness.act(BEN, "correct_turn", gameId=game_id, line=0, turn=line)
    assert harness.error(BEN, request_id)["code"] == "not_creator"


def test_scorekeeping_correction_during_a_typed_turn_is_refused(harness: Any) -> None:
    # given ana's first turn written and ben's under way (one roll typed)
    game_id = _table(harness)
    _turn(harness, ANA, game_id, [[1, 1, 1, 4, 5]], "ones")
    harness.ack(BEN, harness.act(BEN, "enter_dice", gameId=game_id, dice=[2, 2, 2, 2, 2]))
    line = {"player": "ana", "rolls": [[1, 1, 1, 1, 1]], "write": {"column": "free", "row": "ones"}}
    # when ana corrects line 0 / then she is asked to let the turn finish first
    request_id = harness.act(ANA, "correct_turn", gameId=game_id, line=0, turn=line)
    assert harness.error(ANA, request_id)["code"] == "turn_started"


def test_scorekeeping_table_with_a_turn_clock_is_refused_at_creation(harness: Any) -> None:
    harness.connect(ANA)
    request_id = harness.act(ANA, "create_game", settings={**TABLE, "turnSeconds": 60})
    assert harness.error(ANA, request_id)["code"] == "invalid_settings"


def test_scorekeeping_turn_given_up_leaves_its_typed_dice_out_of_the_next_line(
    harness: Any,
) -> None:
    # given a 3-player scorekeeping table; ana typed two rolls and announced nothing yet
    cleo = Caller("cleo", "conn-cleo")
    game_id = str(harness.running_game(ANA, BEN, cleo, turnSeconds=None, **{**TABLE, "players": 3}))
    for dice in ([1, 2, 3, 4, 5], [2, 2, 3, 4, 5]):
        harness.ack(ANA, harness.act(ANA, "enter_dice", gameId=game_id, dice=dice))

    # when she resigns, and ben plays his turn
    harness.ack(ANA, harness.act(ANA, "resign", gameId=game_id))
    _turn(harness, BEN, game_id, [[4, 4, 4, 4, 4]], "fours")

    # then ben's history line has his roll alone
    history = harness.answer(BEN, harness.act(BEN, "history", gameId=game_id))
    assert history["turns"] == [
        {
            "player": "ben",
            "rolls": [[4, 4, 4, 4, 4]],
            "announce": None,
            "write": {"column": "free", "row": "fours"},
        }
    ]


def test_scorekeeping_correction_of_a_finished_game_rewrites_its_result(harness: Any) -> None:
    # given a finished scorekeeping game
    game_id = _table(harness)
    for row in ROWS:
        _turn(harness, ANA, game_id, [[5, 5, 5, 5, 5]], row)
        _turn(harness, ANA, game_id, [[5, 5, 5, 5, 5]], row)
    assert harness.session(game_id).status == "finished"
    tied = harness.games.result(game_id)
    assert tied is not None and sorted(tied.winners) == ["ana", "ben"]

    # when the creator corrects ben's first line: he had rolled five ones, not five fives
    line = {"player": "ben", "rolls": [[1, 1, 1, 1, 1]], "write": {"column": "free", "row": "ones"}}
    harness.ack(ANA, harness.act(ANA, "correct_turn", gameId=game_id, line=1, turn=line))

    # then the session and the stored result both say ben won alone
    assert harness.session(game_id).winners == ["ben"]
    result = harness.games.result(game_id)
    assert result is not None and result.winners == ["ben"]


def test_scorekeeping_table_has_no_seeds_and_nothing_to_verify(harness: Any) -> None:
    # given a scorekeeping table / when a seed is added / then it is refused; nothing to verify
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, turnSeconds=None, **TABLE)
    refused = harness.act(ANA, "commit_seed", gameId=game_id, commitment="ab" * 32)
    assert harness.error(ANA, refused)["code"] == "not_allowed"
