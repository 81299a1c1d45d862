"""Route selection of the local gateway under hostile frames (issue 9, item 2).

API Gateway selects the route from ``$request.body.action``: a body that is not JSON, or has no
string ``action``, goes to ``$default``; a frame over 32 KB closes the connection with 1009. The
gateway does the same whatever the frame: nested ten thousand levels deep, a 5,000-digit number,
lone surrogates, not an object. Each frame goes over a real WebSocket, and the connection serves
the next frame as before; a Hypothesis property covers arbitrary JSON-like frames.
"""

import json
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection

from devstack.gateway import FRAME_LIMIT, MESSAGE_LIMIT, GatewayThread, LocalGateway
from tests.integration.test_gateway import (
    WAIT,
    Recorder,
    allow,
    closed_code,
    management,
    open_client,
    replying,
    running,
)

ROUTES = ("sync", "$default")
ANSWER_WITHIN = 1.0  # seconds: a frame that hangs route selection would take longer

DEEP = 10_000  # levels: past what the C parser nests (RecursionError)
DIGITS = "9" * 5_000  # past Python's 4,300-digit conversion limit (ValueError on int())


@pytest.fixture(scope="module")
def gateway() -> Iterator[GatewayThread]:
    """A gateway whose `sync` and `$default` routes answer with their name and the body's size."""
    client: Any = None

    def answer(route: str) -> Any:
        return replying(lambda: client, lambda event: {"route": route, "size": len(event["body"])})

    with running({route: answer(route) for route in ROUTES}, allow()) as started:
        client = management(started)
        yield started


def route_of(ws: ClientConnection, frame: str | list[str]) -> str:
    """Sends `frame` (a list: one message in those fragments); the route that answered it."""
    started = time.monotonic()
    ws.send(frame)
    answer = json.loads(ws.recv(timeout=WAIT))
    assert time.monotonic() - started < ANSWER_WITHIN, answer
    expected_size = sum(map(len, frame)) if isinstance(frame, list) else len(frame)
    assert answer["size"] == expected_size, answer
    return str(answer["route"])


HOSTILE = [
    pytest.param("[" * DEEP + "]" * DEEP, "$default", id="array-nested-10000-deep"),
    pytest.param('{"a":' * 5_000 + "1" + "}" * 5_000, "$default", id="object-nested-5000-deep"),
    pytest.param(
        '{"action": "sync", "x": ' + "[" * DEEP + "]" * DEEP + "}",
        "$default",
        id="action-beside-10000-levels",
    ),
    pytest.param(
        '{"action": "sync", "x": ' + "[" * 3_000 + "]" * 3_000 + "}",
        "sync",
        id="action-beside-3000-levels",
    ),
    pytest.param("[" * 30_000, "$default", id="30000-unclosed-brackets"),
    pytest.param('{"action": "sync", "n": ' + DIGITS + "}", "sync", id="5000-digit-integer"),
    pytest.param('{"action": "sync", "n": -' + DIGITS + ".5e9999}", "sync", id="huge-float"),
    pytest.param(DIGITS, "$default", id="bare-5000-digit-integer"),
    pytest.param('{"action": "sync", "n": NaN}', "$default", id="NaN-is-not-JSON"),
    pytest.param('{"action": "sync", "n": -Infinity}', "$default", id="Infinity-is-not-JSON"),
    pytest.param('{"action": "\\ud800"}', "$default", id="lone-surrogate-action"),
    pytest.param('{"action": "sync\\udfff"}', "$default", id="action-ending-in-lone-surrogate"),
    pytest.param('{"action": "sync", "name": "\\udc00\\ud800"}', "sync", id="lone-surrogates"),
    pytest.param('[{"action": "sync"}]', "$default", id="array"),
    pytest.param('"sync"', "$default", id="string"),
    pytest.param("null", "$default", id="null"),
    pytest.param("42", "$default", id="number"),
    pytest.param("true", "$default", id="boolean"),
    pytest.param("", "$default", id="empty"),
    pytest.param("\ufeff" + '{"action": "sync"}', "$default", id="byte-order-mark"),
    pytest.param('{"action": ["sync"]}', "$default", id="action-a-list"),
    pytest.param('{"action": {"action": "sync"}}', "$default", id="action-an-object"),
    pytest.param('{"action": null}', "$default", id="action-null"),
    pytest.param('{"action": "$connect"}', "$default", id="action-a-reserved-route"),
    pytest.param('{"action": "sync"', "$default", id="truncated"),
    pytest.param('{"action": "sync"} {}', "$default", id="two-documents"),
    pytest.param('{"action": "nope", "action": "sync"}', "sync", id="repeated-key-last-wins"),
    pytest.param(' \n{"action": "sync"}\t', "sync", id="whitespace-around"),
]


@pytest.mark.parametrize(("frame", "route"), HOSTILE)
def test_hostile_frame_goes_to_its_route_and_the_connection_goes_on(
    gateway: GatewayThread, frame: str, route: str
) -> None:
    # given an open connection
    with open_client(gateway) as ws:
        # when the client sends the frame / then one route answers it, within a second
        assert route_of(ws, frame) == route
        # and the connection goes on as before
        assert route_of(ws, '{"action": "sync"}') == "sync"


def test_128kb_message_of_nesting_in_32kb_fragments_goes_to_default(
    gateway: GatewayThread,
) -> None:
    # given an open connection
    with open_client(gateway) as ws:
        # when a 128 KB message of opening brackets comes in four 32 KB frames
        fragments = ["[" * FRAME_LIMIT] * (MESSAGE_LIMIT // FRAME_LIMIT)
        # then it is not JSON for the route selection: $default answers, and the connection goes on
        assert route_of(ws, fragments) == "$default"
        assert route_of(ws, '{"action": "sync"}') == "sync"


def test_hostile_frame_over_32kb_closes_1009_without_an_invocation() -> None:
    # given a gateway recording its invocations
    recorder = Recorder()
    handlers = {"$default": recorder.handler("$default"), "$disconnect": recorder.handler("bye")}
    with running(handlers, allow()) as started, open_client(started) as ws:
        # when a frame of nesting one byte over 32 KB comes
        frame = '{"action": "sync", "x": ' + "[" * FRAME_LIMIT
        # then the gateway itself closes the connection with 1009, as API Gateway does
        assert closed_code(ws, lambda: ws.send(frame)) == 1009
        assert recorder.wait_for("bye")[0]["requestContext"]["disconnectStatusCode"] == 1009
    assert recorder.events("$default") == []


def test_invalid_utf8_text_frame_closes_1007_and_others_are_served(
    gateway: GatewayThread,
) -> None:
    # given two open connections
    with open_client(gateway) as ws, open_client(gateway) as other:
        # when one sends a text frame holding an encoded lone surrogate (not UTF-8)
        frame = b'{"action": "sync", "name": "\xed\xa0\x80"}'
        # then that connection fails with 1007 (RFC 6455's invalid frame payload data)
        assert closed_code(ws, lambda: ws.send(frame, text=True)) == 1007
        # and the other connection is served as before
        assert route_of(other, '{"action": "sync"}') == "sync"


# ------------------------------------------------------------------------------ property


SELECTOR = LocalGateway({route: lambda event, _: None for route in ROUTES})


@dataclass(frozen=True)
class Digits:
    """A JSON number written as it is (a huge integer, a long fraction, a big exponent)."""

    text: str


def _text(value: Any, ascii_only: bool) -> str:
    """`value` as JSON text, floats as Python writes them (NaN, Infinity: not JSON)."""
    if isinstance(value, Digits):
        return value.text
    if isinstance(value, list):
        return "[" + ", ".join(_text(item, ascii_only) for item in value) + "]"
    if isinstance(value, dict):
        members = (
            json.dumps(key, ensure_ascii=ascii_only) + ": " + _text(item, ascii_only)
            for key, item in value.items()
        )
        return "{" + ", ".join(members) + "}"
    return json.dumps(value, ensure_ascii=ascii_only)


def _finite(value: Any) -> bool:
    """No NaN or infinity in `value` (json.dumps writes them, the JSON grammar has none)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(map(_finite, value))
    if isinstance(value, dict):
        return all(map(_finite, value.values()))
    return True


# Strings with anything in them: lone surrogates, controls, quotes, backslashes, non-BMP.
odd_text = st.text(
    st.characters(codec=None, exclude_categories=())
    | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
    | st.sampled_from('"\\/\x00\x1f\u2028\ufeff'),
    max_size=20,
)
numbers = st.one_of(
    st.integers(),
    st.floats(),  # NaN and infinities included
    st.integers(min_value=4_000, max_value=6_000).map(lambda digits: Digits("7" * digits)),
    st.from_regex(
        r"-?(0|[1-9][0-9]{0,50})(\.[0-9]{1,50})?([eE][+-]?[0-9]{1,6})?", fullmatch=True
    ).map(Digits),
)
json_like = st.recursive(
    st.none() | st.booleans() | numbers | odd_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(odd_text, children, max_size=4)
    ),
    max_leaves=25,
)
actions = st.just("sync") | st.sampled_from(["$default", "$connect", "nope", "sync "]) | odd_text


@settings(max_examples=300, deadline=1000)
@given(
    action=actions, rest=st.dictionaries(odd_text, json_like, max_size=4), ascii_only=st.booleans()
)
def test_json_like_frames_pick_the_action_route_when_json_else_default(
    action: str, rest: dict[str, Any], ascii_only: bool
) -> None:
    # given an object frame with an action and arbitrary other members
    body = {**rest, "action": action}
    frame = _text(body, ascii_only)
    # when the gateway selects its route
    route = SELECTOR._select_route(frame)
    # then it is the action's route when that names one and the frame is JSON, else $default
    valid = action in ROUTES and not action.startswith("$") and _finite(body)
    assert route == (action if valid else "$default")


@settings(max_examples=300, deadline=1000)
@given(value=json_like, ascii_only=st.booleans())
def test_frames_other_than_objects_go_to_default(value: Any, ascii_only: bool) -> None:
    # given any JSON-like value but an object, as a frame / then it goes to $default
    frame = _text(value if not isinstance(value, dict) else [value], ascii_only)
    assert SELECTOR._select_route(frame) == "$default"


@settings(max_examples=200, deadline=1000)
@given(
    depth=st.integers(min_value=0, max_value=FRAME_LIMIT // 2),
    opener=st.sampled_from(["[", '{"a": ']),
    action_first=st.booleans(),
)
def test_nesting_of_any_depth_picks_a_route(depth: int, opener: str, action_first: bool) -> None:
    # given a frame with an action and a member nested `depth` levels deep
    closer = "]" if opener == "[" else "}"
    nested = opener * depth + "0" + closer * depth
    members = ['"action": "sync"', f'"x": {nested}']
    frame = "{" + ", ".join(members if action_first else members[::-1]) + "}"
    # when the gateway selects its route / then there is one: the action's while the parser
    # nests that deep, $default (not JSON for it) past its limit
    route = SELECTOR._select_route(frame)
    assert route in ROUTES
    if depth < 5_000:
        assert route == "sync"


@settings(max_examples=300, deadline=1000)
@given(frame=st.text(st.characters(codec=None, exclude_categories=()), max_size=200) | odd_text)
def test_arbitrary_text_picks_a_route(frame: str) -> None:
    # given any text at all / when the gateway selects its route / then it has one
    assert SELECTOR._select_route(frame) in ROUTES


@settings(max_examples=200, deadline=1000)
@given(value=json_like, cut=st.integers(min_value=0), junk=odd_text)
def test_broken_json_picks_a_route(value: Any, cut: int, junk: str) -> None:
    # given a JSON-like text cut short and followed by junk
    text = _text({"action": "sync", "v": value}, ascii_only=False)
    frame = text[: cut % (len(text) + 1)] + junk
    # when the gateway selects its route / then it has one
    assert SELECTOR._select_route(frame) in ROUTES
