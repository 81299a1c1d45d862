"""The WebSocket edge's reading of a frame it refuses: the requestId is echoed wherever it is
in the 32 KB API Gateway lets through, so the client can match the refusal to its action."""

import json

import pytest
from yamb.protocol import MAX_FRAME_BYTES
from yamb_service.edge.websocket import MAX_ACTION_BYTES, BadFrameError, parse_action


def refusal(body: str) -> BadFrameError:
    with pytest.raises(BadFrameError) as refused:
        parse_action(body)
    return refused.value


def test_frame_too_large_echoes_a_request_id_after_a_long_field() -> None:
    # given a 32,737-byte frame whose requestId comes after a 32,700-character field
    body = json.dumps({"action": "chat", "text": "x" * 32_700, "requestId": "late-1"})
    assert MAX_ACTION_BYTES < len(body.encode()) <= MAX_FRAME_BYTES

    # when the edge reads it
    error = refusal(body)

    # then it is too large, and the refusal names its requestId
    assert (error.code, error.request_id) == ("frame_too_large", "late-1")


def test_frame_too_large_and_not_json_finds_the_request_id_in_its_text() -> None:
    # given a frame over the action limit, cut off, its requestId near its end
    body = '{"action": "chat", "text": "' + "y" * 20_000 + '", "requestId": "cut-2", "x": ['

    # when the edge reads it / then the requestId is found in its text
    assert refusal(body).request_id == "cut-2"


def test_frame_too_large_echoes_only_a_top_level_valid_request_id() -> None:
    # given large frames whose requestId is nested, not the protocol's, or beyond 32 KB
    nested = json.dumps({"action": "chat", "a": {"requestId": "inner"}, "text": "z" * 9000})
    invalid = json.dumps({"action": "chat", "text": "z" * 9000, "requestId": "has spaces"})
    beyond = '{"text": "' + "z" * MAX_FRAME_BYTES + '", "requestId": "far-3"}'

    # when the edge reads them / then none is echoed
    assert [refusal(body).request_id for body in (nested, invalid, beyond)] == [None, None, None]
