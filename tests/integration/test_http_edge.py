"""The one HTTP edge on the local stack (template.yaml's functions on moto, behind the HTTP API
and its authorizer): every authenticated GET route's answer is private (`Cache-Control:
no-store`), the stack serves docs/openapi.yaml to anyone, a refusal is said in the reader's
language (the account's, else the browser's) and a sign-up takes the page's language."""

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from yamb_tools.moderation import grant

from devstack.openapi import DOCUMENT, template_routes
from devstack.stack import LocalStack, local_nickname
from testkit.catalogues import Languages
from testkit.clubs import founded_club

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
    # an operator: the review queue answers them (anyone else is refused, not_an_operator)
    table = stack.aws.physical_ids["GameTable"]
    grant("edge-ana", table, stack.aws.region, stack.aws.endpoint_url, True)
    assert "/me/wallet" in PRIVATE_GETS and "/me/ledger" in PRIVATE_GETS
    # and a club of hers (a club's routes name it)
    club_id = founded_club(stack, "edge-ana", "Edge Club")
    # and a tournament (she is an operator: she creates one)
    plan = {"kind": "arena", "name": "Edge arena", "minutes": 30, "startsAt": "2099-01-01T10:00Z"}
    status, made = _call(f"{stack.gateway.http_url}/tournaments", token=token, data=plan)
    assert status == 201, made
    # when each is asked for (a player's routes name the rival)
    answers = {
        path: _get(
            stack.gateway.http_url
            + re.sub(r"\{nickname\}", "edge-ben", path)
            .replace("{clubId}", club_id)
            .replace("{tournamentId}", made["tournamentId"]),
            token,
        )
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


def _call(
    url: str, *, token: str | None = None, language: str | None = None, data: Any = None
) -> tuple[int, dict[str, Any]]:
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = token
    if language:
        headers["Accept-Language"] = language
    body = None if data is None else json.dumps(data).encode()
    request = urllib.request.Request(url, data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


# "a page holds 1 to 100 entries" (GET /me/ledger?limit=500) in each language.
LEDGER_PAGE = "a page holds 1 to {max_ledger_page} entries"
LEDGER_PAGE_IN = {
    "fr": "une page contient de 1 à {max_ledger_page} écritures",
    "da": "en side rummer 1 til {max_ledger_page} posteringer",
    "hr": "stranica sadrži od 1 do {max_ledger_page} stavki",
}


def test_sign_up_takes_its_language_from_accept_language(stack: LocalStack) -> None:
    # given a player who signs up on a Croatian page (Accept-Language: hr), one on a page in a
    # language we do not speak, and one whose browser prefers Danish over French
    croatian = stack.player_token("speaks-hr", language="hr-HR, en;q=0.5")
    unknown = stack.player_token("speaks-pt", language="pt-BR")
    danish = stack.player_token("speaks-da", language="fr;q=0.4, da")

    # when each reads their account
    accounts = {
        name: _call(f"{stack.gateway.http_url}/me", token=token)[1]
        for name, token in (("hr", croatian), ("xx", unknown), ("da", danish))
    }

    # then the account's language is the page's, negotiated among ours (English when none fits)
    assert accounts["hr"]["preferences"]["language"] == "hr"
    assert accounts["xx"]["preferences"]["language"] == "en"
    assert accounts["da"]["preferences"]["language"] == "da"


@pytest.mark.parametrize("language", ["fr", "da", "hr"])
def test_http_refusal_is_in_the_account_language_with_the_same_code(
    stack: LocalStack, catalogue: Callable[[Languages], None], language: str
) -> None:
    # given the server's catalogue says the ledger's page limit in French, Danish and Croatian,
    # a player whose account is in `language` and one whose account is in English
    catalogue({tongue: {LEDGER_PAGE: said} for tongue, said in LEDGER_PAGE_IN.items()})
    theirs = stack.player_token(f"ledger-{language}", language=language)
    english = stack.player_token("ledger-en")

    # when both ask for a ledger page of 500 entries, the English one from a French browser
    url = f"{stack.gateway.http_url}/me/ledger?limit=500"
    status, refused = _call(url, token=theirs)
    english_status, english_refused = _call(url, token=english, language="fr")

    # then the same refusal (status, code, field) comes back in each account's language
    assert status == english_status == 400
    assert refused["error"]["code"] == english_refused["error"]["code"] == "bad_request"
    assert refused["error"]["field"] == english_refused["error"]["field"] == "limit"
    assert refused["error"]["message"] == LEDGER_PAGE_IN[language].format(max_ledger_page=100)
    assert english_refused["error"]["message"] == LEDGER_PAGE.format(max_ledger_page=100)


def test_http_refusal_of_a_public_route_is_in_the_browser_language(
    stack: LocalStack, catalogue: Callable[[Languages], None]
) -> None:
    # given the catalogue says pydantic's "Field required" in Danish
    catalogue({"da": {"Field required": "Feltet skal udfyldes"}})
    url = f"{stack.gateway.http_url}/accounts"
    incomplete = {"email": "nobody@example.com", "password": "a long password 1"}

    # when a sign-up without its nickname comes from a Danish browser, and from an English one
    status, danish = _call(url, language="da-DK,da;q=0.9", data=incomplete)
    english_status, english = _call(url, language="en-GB", data=incomplete)

    # then the same refusal of the field, in the browser's language
    assert status == english_status == 400
    assert danish["error"]["code"] == english["error"]["code"] == "bad_request"
    assert danish["error"]["field"] == english["error"]["field"] == "nickname"
    assert danish["error"]["message"] == "nickname: Feltet skal udfyldes"
    assert english["error"]["message"] == "nickname: Field required"
