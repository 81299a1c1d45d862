"""The browser harness on a page of its own, served by a local stack from a temporary root: the
page loads ES modules (the server's JavaScript content type), signs a local player in through
``POST /_local/token``, connects to the WebSocket API with that token and signs in with Cognito
across origins (the embedded AWS's CORS), as the web client does.

(Its own module: one local stack runs in a process at a time, and the `web_stack` of
test_harness.py serves client/web.)"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pycognito.aws_srp import AWSSRP

from devstack.stack import LOCAL_PASSWORD, LocalStack

INDEX = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>harness</title>
<link rel="icon" href="data:,">
<script type="module" src="js/main.js"></script></head>
<body><p id="status">loading</p></body>
</html>
"""
MAIN_JS = """import { loadConfig } from "./config.js";

const config = await loadConfig();
window.harnessConfig = config;
document.querySelector("#status").textContent = config.local ? "ready" : "not local";
"""
CONFIG_JS = """export async function loadConfig() {
  const answer = await fetch("config.json");
  return answer.json();
}
"""

SIGN_IN_AND_LIST = """async (name) => {
  const answer = await fetch("_local/token", {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({name}),
  });
  const {token} = await answer.json();
  const socket = new WebSocket(`${window.harnessConfig.webSocketUrl}?token=${token}`);
  const frame = await new Promise((resolve, reject) => {
    socket.onopen = () => socket.send(JSON.stringify({action: "list_games", requestId: "h-1"}));
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.requestId === "h-1") resolve(data);
    };
    socket.onerror = () => reject(new Error("the WebSocket failed"));
  });
  socket.close();
  return {status: answer.status, type: frame.type};
}"""

COGNITO_SIGN_IN = """async ({username, srp}) => {
  const {cognito} = window.harnessConfig;
  const answer = await fetch(cognito.endpoint + "/", {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.1",
      "X-Amz-Target": "AWSCognitoIdentityProviderService.InitiateAuth",
    },
    body: JSON.stringify({
      ClientId: cognito.clientId, AuthFlow: "USER_SRP_AUTH",
      AuthParameters: {USERNAME: username, SRP_A: srp},
    }),
  });
  const body = await answer.json();
  return {status: answer.status, challenge: body.ChallengeName};
}"""

BAD_NAME = """async () => {
  const answer = await fetch("_local/token", {method: "POST", body: '{"name": "Not OK!"}'});
  return {status: answer.status, body: await answer.json()};
}"""


@pytest.fixture(scope="module")
def static_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    """A local stack whose web server serves a tiny page of this module's."""
    root = tmp_path_factory.mktemp("harness-web")
    (root / "js").mkdir()
    (root / "index.html").write_text(INDEX, encoding="utf-8")
    (root / "js" / "main.js").write_text(MAIN_JS, encoding="utf-8")
    (root / "js" / "config.js").write_text(CONFIG_JS, encoding="utf-8")
    with LocalStack(web_root=root) as running:
        yield running


def test_harness_page_loads_es_modules_and_plays_against_the_stack(
    static_stack: LocalStack, new_page: Any, tmp_path: Path
) -> None:
    # given a phone-sized page of the temporary root, its module importing another
    page = new_page(viewport=(390, 844))
    page.goto(static_stack.web_url)
    # when the modules ran
    page.locator("#status", has_text="ready").wait_for()
    # then the page signs a local player in, and the token opens the WebSocket API
    assert page.evaluate(SIGN_IN_AND_LIST, "harness-ana") == {"status": 200, "type": "game_list"}
    # and the player starts Cognito's SRP sign-in (the web client's flow) from the page's origin
    # (CORS), as a client would: the embedded Cognito answers its password challenge
    aws = static_stack.aws
    srp = AWSSRP(
        "harness-ana@example.com",
        LOCAL_PASSWORD,
        aws.user_pool_id(),
        aws.user_pool_client_id(),
        client=aws.client("cognito-idp"),
    )
    signed_in = page.evaluate(
        COGNITO_SIGN_IN,
        {"username": "harness-ana@example.com", "srp": srp.get_auth_params()["SRP_A"]},
    )
    assert signed_in == {"status": 200, "challenge": "PASSWORD_VERIFIER"}
    # and a bad name is refused with a message
    refused = page.evaluate(BAD_NAME)
    assert refused["status"] == 400 and "name" in refused["body"]["message"]
    assert page.viewport_size == {"width": 390, "height": 844}
    page.screenshot(path=tmp_path / "harness.png")
    assert (tmp_path / "harness.png").stat().st_size > 0
    # and nothing went wrong in the page (the refusal aside: a 400 the page asked for)
    assert [error for error in page.errors if "400" not in error] == []
