"""JSON the parser cannot take is a bad request on every HTTP route that reads a body, as it is a
bad frame on the WebSocket: nesting 100,000 deep or an integer of 4,300 digits and more answers
400 `bad_request`, never 500. Each route with a request body is called over the local stack's
HTTP API (its authorizer and function in-process, on moto)."""

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from devstack.openapi import functions
from devstack.stack import LocalStack

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

BODIES = {
    "deep_list": "[" * 100_000 + "]" * 100_000,
    "deep_object": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "long_integer": '{"week": ' + "7" * 4_301 + "}",
    "long_integer_deep_inside": '{"a": [[[' + "9" * 10_000 + "]]]}",
}
ROUTES = sorted(
    (operation.method, operation.path, operation.public)
    for routes in functions().values()
    for operation in routes.operations
    if operation.request is not None
)


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with LocalStack() as running:
        yield running


@pytest.fixture(scope="module")
def token(stack: LocalStack) -> str:
    return stack.player_token("hostile-bodies")


def call(stack: LocalStack, method: str, path: str, body: str, token: str | None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"{stack.gateway.http_url}{path}", data=body.encode(), method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_routes_with_a_body_are_found() -> None:
    # the five functions' routes that read a JSON body (accounts, economy, payments, progression)
    assert len(ROUTES) >= 5


@pytest.mark.parametrize("kind", sorted(BODIES))
@pytest.mark.parametrize("route", ROUTES, ids=lambda route: f"{route[0]} {route[1]}")
def test_json_beyond_the_parser_is_a_bad_request(
    stack: LocalStack, token: str, route: tuple[str, str, bool], kind: str
) -> None:
    # given a route that reads a JSON body, and a body the parser cannot take
    method, path, public = route
    concrete = re.sub(r"\{\w+\}", "weekly-1", path)

    # when it is sent
    status, answer = call(stack, method, concrete, BODIES[kind], None if public else token)

    # then it is a bad request saying what is wrong, not a failure of ours
    assert (status, answer["error"]["code"]) == (400, "bad_request"), answer
    assert answer["error"]["message"] in {
        "the body is nested too deeply",
        "the body is not JSON",
    }
