"""The scripted clients' answers to fair-play checks (devstack.fairplay_answers): whatever order
a connection's frames come in, the check is answered once with a die showing its face, and a
move refused for it goes again only after the check has passed."""

from typing import Any

import pytest

from devstack.fairplay_answers import ANSWER_PREFIX, FairplayAnswers

MOVE = {"action": "roll", "requestId": "ana-7", "gameId": "g1", "keep": [0]}
CHECK = {
    "type": "fairplay_check",
    "gameId": "g1",
    "checkId": "c1",
    "dice": [2, 5, 3, 5, 1],
    "face": 3,
}
REFUSAL = {"type": "error", "requestId": "ana-7", "code": "fairplay_check"}
PASSED = {"type": "fairplay_result", "gameId": "g1", "checkId": "c1", "passed": True}


def answerer() -> tuple[FairplayAnswers, list[dict[str, Any]]]:
    outbox: list[dict[str, Any]] = []
    answers = FairplayAnswers(outbox.append)
    answers.sent(MOVE)
    return answers, outbox


def test_a_check_is_answered_with_a_die_showing_its_face_and_only_once() -> None:
    # given a scripted player
    answers, outbox = answerer()
    # when its check comes, and comes again with a refusal
    assert answers.handled(CHECK)
    assert answers.handled(CHECK)
    # then one answer went: the position of the 3
    assert outbox == [
        {
            "action": "fairplay_answer",
            "requestId": ANSWER_PREFIX + "c1",
            "gameId": "g1",
            "checkId": "c1",
            "position": 2,
        }
    ]


@pytest.mark.parametrize(
    "frames",
    [
        [CHECK, REFUSAL, CHECK, PASSED],  # the check queued, the move refused behind it
        [REFUSAL, CHECK, PASSED],  # the check seen only with the refusal
        [CHECK, REFUSAL, PASSED, CHECK],  # the result before the check sent again
        [CHECK, PASSED, REFUSAL, CHECK],  # the refusal crossed the answer
    ],
)
def test_a_refused_move_goes_again_once_and_only_after_the_check_passed(
    frames: list[dict[str, Any]],
) -> None:
    # given a player whose roll was refused while its check was open
    answers, outbox = answerer()
    # when the frames come in this order
    resent_before_passing = []
    for frame in frames:
        assert answers.handled(frame)
        if frame is not PASSED and answers.checks_passed == 0:
            resent_before_passing += [m for m in outbox if m is MOVE]
    # then the roll went again once, after the answer, and never before the check passed
    assert resent_before_passing == []
    assert [m["action"] for m in outbox] == ["fairplay_answer", "roll"]
    assert outbox[1] == MOVE


def test_a_failed_check_stops_the_script_and_other_frames_are_the_callers() -> None:
    # given a player
    answers, _ = answerer()
    # then a game frame or another refusal is the caller's, an answer's own frames are not
    assert not answers.handled({"type": "game", "requestId": "ana-7", "game": {}})
    assert not answers.handled({"type": "error", "requestId": "ana-7", "code": "not_your_turn"})
    assert answers.handled({"type": "game", "requestId": ANSWER_PREFIX + "c1", "game": {}})
    # and a failed check is no part of a script's game
    with pytest.raises(AssertionError, match="failed a fair-play check"):
        answers.handled({**PASSED, "passed": False})
