"""The one HTTP edge on the local stack (template.yaml's functions on moto, behind the HTTP API
and its authorizer): every authenticated GET route's answer is private (`Cache-Control:
no-store`), and the stack serves docs/openapi.yaml to anyone."""

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from devstack.openapi import DOCUMENT, template_routes
from devstack.stack import LocalStack, local_nickname

ROOT = Path(__file__).resolve().parents[2]
# Each authenticated GET route of the template (and of the templates it nests).
PRIVATE_GETS = sorted(
    route.path for route in template_routes() if route.method == "GET" and not route.public
)


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with LocalStack(ROOT) as running:
        yield running


def _get(url: str, token: str | None = None) -> tuple[int, dict[str, str], bytes]:
    headers = {"Authorization": token} if token else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_every_authenticated_get_route_answers_no_store(stack: LocalStack) -> None:
    # given a signed-in player and a rival, and every authenticated GET route of the template
    token = stack.player_token("edge-ana")
    stack.player_token("edge-ben")
    assert "/me/wallet" in PRIVATE_GETS and "/me/ledger" in PRIVATE_GETS
    # when each is asked for (a player's routes name the rival)
    answers = {
        path: _get(stack.gateway.http_url + re.sub(r"\{nickname\}", "edge-ben", path), token)
        for path in PRIVATE_GETS
    }
    # then each answers its player's JSON, never to be cached
    for path, (status, headers, body) in answers.items():
        assert status == 200, (path, body)
        assert headers["Content-Type"] == "application/json", path
        assert headers["Cache-Control"] == "no-store", path
        json.loads(body)
    assert local_nickname("edge-ben") == "edge-ben"


def test_local_stack_serves_the_openapi_document(stack: LocalStack) -> None:
    # given the running stack / when its OpenAPI document is asked for without a token
    status, headers, body = _get(stack.gateway.openapi_url)
    # then it is docs/openapi.yaml
    assert status == 200
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert yaml.safe_load(body) == yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    assert stack.describe()["openApiUrl"] == stack.gateway.openapi_url
