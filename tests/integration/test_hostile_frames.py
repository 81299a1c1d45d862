"""Whatever a client sends, it gets one short error frame with a stable code (or, for a valid
action, its answer), the function never raises, and no game changes that the frame did not
name. Hypothesis writes the frames: JSON of any shape, actions with fields of any type, huge
numbers, deep nesting, odd strings, and text that is not JSON at all."""

import json
from typing import Any, get_args

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yamb.errors import ErrorCode
from yamb.protocol import ACTION_NAMES, SERVER_FRAMES
from yamb_service.edge.caller import Caller
from yamb_service.edge.websocket import BadFrameError, parse_action

CODES = set(get_args(ErrorCode.__value__))
ATTACKER = Caller("mallory", "conn-mallory")

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    st.floats(allow_nan=False),
    st.text(max_size=40),
    st.sampled_from(["", "\ud800", "a" * 200, "0" * 4500, "🎲", "\x00\x07"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
fields = st.dictionaries(
    st.sampled_from(
        ["requestId", "gameId", "keep", "turn", "column", "row", "settings", "accept", "x", "é"]
    ),
    values,
    max_size=6,
)
actions = st.one_of(st.sampled_from(ACTION_NAMES), values)


@st.composite
def frames(draw: Any) -> str:
    kind = draw(st.sampled_from(["action", "json", "text", "deep"]))
    if kind == "action":
        frame = {"action": draw(actions), **draw(fields)}
        return json.dumps(frame)
    if kind == "json":
        return json.dumps(draw(values))
    if kind == "deep":
        depth = draw(st.integers(min_value=500, max_value=20_000))
        return '{"action": "sync", "requestId": "r", "a": ' + "[" * depth + "]" * depth + "}"
    return draw(st.text(max_size=200))


def _handle(harness: Any, body: str) -> None:
    """What functions/game/app.py does with a frame."""
    service = harness.service
    try:
        action = parse_action(body)
    except BadFrameError as error:
        service.reply_error(ATTACKER.connection_id, error.code, error.message, error.request_id)
        return
    service.handle(ATTACKER, action)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=frames())
def test_hostile_frame_gets_one_plain_answer_and_changes_no_other_game(
    harness: Any, body: str
) -> None:
    # given a game between two others
    if not hasattr(harness, "bystanders"):
        harness.bystanders = harness.running_game(Caller("ana", "c-a"), Caller("ben", "c-b"))
    game_id = harness.bystanders
    version = harness.session(game_id).version
    sent = len(harness.notifier.sent)

    # when the attacker's frame arrives
    _handle(harness, body)

    # then it got exactly one frame: a known server frame, an error with a catalog code and a
    # short plain message when refused; and the others' game did not change
    answers = [f for c, f in harness.notifier.sent[sent:] if c == ATTACKER.connection_id]
    assert len(answers) == 1, answers
    (answer,) = answers
    SERVER_FRAMES.validate_python(answer)
    if answer["type"] == "error":
        assert answer["code"] in CODES
        assert len(answer["message"]) <= 500 and answer["message"].isascii()
    assert harness.session(game_id).version == version
