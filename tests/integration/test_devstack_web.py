"""The local stack's web server (devstack.web): the web client's static files, its generated
config.json and the local sign-in shortcut, and the embedded AWS answering the page's Cognito
calls across origins.

The static rules run against a `LocalWebServer` alone, on a loop in a thread of its own, over a
temporary root; the rest against one LocalStack of the project's template whose web root is
temporary too (the real client/web may not be there yet)."""

import asyncio
import base64
import http.client
import json
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pycognito.aws_srp import AWSSRP
from websockets.sync.client import connect

from devstack import __main__ as cli
from devstack.stack import LOCAL_PASSWORD, LocalStack, web_port_for
from devstack.web import LocalWebServer, static_file

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489")
WAIT = 10.0
COGNITO_TARGET = "AWSCognitoIdentityProviderService.InitiateAuth"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def request(
    url: str,
    method: str,
    path: str,
    *,
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> Answer:
    """One request, the path sent as it is (`..` and escapes too), the headers lower-cased."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=WAIT)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
        return Answer(response.status, answer_headers, response.read())
    finally:
        connection.close()


def post_token(url: str, body: bytes) -> Answer:
    return request(
        url, "POST", "/_local/token", body=body, headers={"Content-Type": "application/json"}
    )


@contextmanager
def web_server(
    root: Path,
    *,
    config: Callable[[], Mapping[str, Any]] = lambda: {"local": True},
    token: Callable[[str], str] = lambda name: f"token-of-{name}",
) -> Iterator[LocalWebServer]:
    """A LocalWebServer on a free port, on an event loop of its own in a thread."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="test-web", daemon=True)
    thread.start()
    server = LocalWebServer(root, config=config, token=token)
    try:
        asyncio.run_coroutine_threadsafe(server.start(), loop).result(WAIT)
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(WAIT)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(WAIT)
        loop.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A client directory, with a secret beside it and links leading out of it."""
    base = tmp_path_factory.mktemp("site")
    root = base / "web"
    (root / "js").mkdir(parents=True)
    (root / "img").mkdir()
    (root / "index.html").write_text("<!doctype html><title>Yamb</title>", encoding="utf-8")
    (root / "style.css").write_text("body { margin: 0 }", encoding="utf-8")
    (root / "js" / "app.js").write_text("export const ready = true;", encoding="utf-8")
    (root / "catalog.json").write_text('{"grids": []}', encoding="utf-8")
    (root / "img" / "die.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (root / "img" / "die.png").write_bytes(PNG)
    (root / ".env").write_text("SECRET=1", encoding="utf-8")
    (base / "secret.txt").write_text("outside", encoding="utf-8")
    (base / "outside").mkdir()
    (base / "outside" / "secret.txt").write_text("outside", encoding="utf-8")
    (root / "leak.txt").symlink_to(base / "secret.txt")
    (root / "leaks").symlink_to(base / "outside", target_is_directory=True)
    (root / "same.css").symlink_to(root / "style.css")
    return root


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[LocalWebServer]:
    with web_server(site) as running:
        yield running


# ------------------------------------------------------------------------------ static files


def test_web_server_serves_index_at_the_root(server: LocalWebServer) -> None:
    # given the client's directory served
    # when the browser opens / and /index.html
    root = request(server.url, "GET", "/")
    index = request(server.url, "GET", "/index.html")
    # then both are the page, as HTML
    assert root.status == index.status == 200
    assert root.body == index.body == b"<!doctype html><title>Yamb</title>"
    assert root.headers["content-type"] == "text/html; charset=utf-8"
    assert server.url == f"http://127.0.0.1:{server.port}/"


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/index.html", "text/html; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/js/app.js", "text/javascript; charset=utf-8"),
        ("/catalog.json", "application/json"),
        ("/img/die.svg", "image/svg+xml"),
        ("/img/die.png", "image/png"),
        ("/same.css", "text/css; charset=utf-8"),
    ],
)
def test_web_server_content_types(
    server: LocalWebServer, site: Path, path: str, content_type: str
) -> None:
    # given a file of the client (a link inside the root included)
    # when it is asked for
    answer = request(server.url, "GET", path)
    # then it comes as it is, with its type (an ES module's is JavaScript's)
    assert answer.status == 200
    assert answer.headers["content-type"] == content_type
    assert answer.body == (site / path.lstrip("/")).read_bytes()
    assert answer.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/"),
        ("GET", "/js/app.js"),
        ("HEAD", "/style.css"),
        ("GET", "/config.json"),
        ("GET", "/missing.js"),
        ("POST", "/index.html"),
        ("POST", "/_local/token"),
    ],
)
def test_web_server_answers_no_store(server: LocalWebServer, method: str, path: str) -> None:
    # given the client's directory served
    # when anything is asked, a file, a HEAD, the config, a missing file, a refused method
    answer = request(server.url, method, path, body=b"" if method == "POST" else None)
    # then nothing is cached: an edited file shows at the next reload
    assert answer.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/js/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/js/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/js/..\\..\\secret.txt",
        "/leak.txt",
        "/leaks/secret.txt",
        "/.env",
        "/%2eenv",
        "//etc/passwd",
        "/index.html%00.png",
    ],
)
def test_web_server_refuses_paths_out_of_its_root(server: LocalWebServer, path: str) -> None:
    # given a secret beside the root, links pointing out of it and a hidden file in it
    # when a path tries to reach them (dot segments, escaped, backslashes, links, a NUL)
    answer = request(server.url, "GET", path)
    # then it is not found, and nothing of the secrets shows
    assert answer.status == 404
    assert b"outside" not in answer.body and b"SECRET" not in answer.body


def test_web_server_missing_file_is_404(server: LocalWebServer) -> None:
    # given the client's directory served
    # when a file that is not there, a directory without an index and a HEAD of one are asked
    missing = request(server.url, "GET", "/js/missing.js")
    directory = request(server.url, "GET", "/js/")
    head = request(server.url, "HEAD", "/nothing.css")
    # then each is 404
    assert (missing.status, directory.status, head.status) == (404, 404, 404)


def test_web_server_static_file_resolves_only_inside_the_root(site: Path) -> None:
    # given the client's directory
    # when paths are resolved as the server does
    # then a directory stands for its index, and nothing leads out of the root
    assert static_file(site, "") == (site / "index.html").resolve()
    assert static_file(site, "js/app.js") == (site / "js" / "app.js").resolve()
    assert static_file(site, "same.css") == (site / "style.css").resolve()
    assert static_file(site, "js") is None  # no index there
    for path in ("../secret.txt", "leak.txt", "leaks/secret.txt", ".env", "js/./app.js"):
        assert static_file(site, path) is None, path


def test_web_server_starts_without_its_root(tmp_path: Path) -> None:
    # given a client directory that does not exist yet
    root = tmp_path / "client" / "web"
    # when the server starts
    with web_server(root) as running:
        page = request(running.url, "GET", "/")
        config = request(running.url, "GET", "/config.json")
        # then it serves: 404 for the page, the config all the same
        assert page.status == 404
        assert (config.status, config.json()) == (200, {"local": True})
        # and once the page is written it is served, without a restart
        root.mkdir(parents=True)
        (root / "index.html").write_text("<p>now</p>", encoding="utf-8")
        assert request(running.url, "GET", "/").body == b"<p>now</p>"


def test_web_server_stop_closes_its_port(tmp_path: Path) -> None:
    # given a running server
    with web_server(tmp_path) as running:
        url = running.url
        assert request(url, "GET", "/").status == 404
    # when it stopped / then its port refuses connections
    with pytest.raises(ConnectionRefusedError):
        request(url, "GET", "/")


def test_web_server_token_runs_beside_the_loop(tmp_path: Path) -> None:
    # given a sign-in that takes its time
    started, release = threading.Event(), threading.Event()

    def slow_token(name: str) -> str:
        started.set()
        release.wait(WAIT)
        return f"token-of-{name}"

    with web_server(tmp_path, token=slow_token) as running:
        answers: list[Answer] = []
        signing_in = threading.Thread(
            target=lambda: answers.append(post_token(running.url, b'{"name": "slow"}'))
        )
        signing_in.start()
        assert started.wait(WAIT)
        # when another request comes meanwhile
        moment = time.monotonic()
        config = request(running.url, "GET", "/config.json")
        elapsed = time.monotonic() - moment
        release.set()
        signing_in.join(WAIT)
    # then it was answered at once, and the sign-in once it was done
    assert config.status == 200 and elapsed < 2.0
    assert answers[0].json() == {"token": "token-of-slow", "name": "slow"}


def test_web_port_for_default_rules() -> None:
    # given the gateway's port and perhaps a web port
    # when the web client's port is chosen / then it is the one given, else a free one beside a
    # free gateway port, else the next one
    assert web_port_for(0) == 0
    assert web_port_for(8765) == 8766
    assert web_port_for(8765, 9000) == 9000
    assert web_port_for(0, 9000) == 9000
    assert web_port_for(8765, 0) == 0


# ------------------------------------------------------------------------------ the stack's


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalStack]:
    root = tmp_path_factory.mktemp("stack-web")
    (root / "index.html").write_text("<!doctype html><title>local</title>", encoding="utf-8")
    with LocalStack(web_root=root) as running:
        yield running


def _claims(token: str) -> dict[str, Any]:
    claims: dict[str, Any] = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
    return claims


def test_local_stack_web_url_serves_its_web_root(stack: LocalStack) -> None:
    # given a stack whose web root is a temporary directory
    # when the browser opens its web URL
    answer = request(stack.web_url, "GET", "/")
    # then that directory's page comes, from a port of its own
    assert answer.status == 200 and b"<title>local</title>" in answer.body
    assert stack.web_url == f"http://127.0.0.1:{stack.web.port}/"
    assert stack.web.port != stack.gateway.port


def test_local_stack_config_json_says_where_the_stack_is(stack: LocalStack) -> None:
    # given a running stack
    # when the page reads /config.json
    answer = request(stack.web_url, "GET", "/config.json")
    # then it names the WebSocket and HTTP APIs and the Cognito the stack's tokens come from
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json() == {
        "webSocketUrl": stack.url,
        "httpApiUrl": stack.gateway.http_url,
        "cognito": {
            "endpoint": stack.aws.endpoint_url,
            "region": "us-east-1",
            "userPoolId": stack.aws.user_pool_id(),
            "clientId": stack.aws.user_pool_client_id(),
        },
        "local": True,
    }
    assert stack.url.startswith("ws://")


def test_local_stack_token_signs_in_a_player_the_websocket_accepts(stack: LocalStack) -> None:
    # given a running stack
    # when the page signs in a local player by name
    answer = post_token(stack.web_url, b'{"name": "web-ana"}')
    # then it gets the player's ID token
    assert answer.status == 200
    body = answer.json()
    assert body["name"] == "web-ana"
    assert _claims(body["token"])["email"] == "web-ana@example.com"
    # and the stack's WebSocket API accepts it and answers the player
    with connect(f"{stack.url}?token={body['token']}") as socket:
        socket.send(json.dumps({"action": "list_games", "requestId": "web-1"}))
        while (frame := json.loads(socket.recv(timeout=WAIT))).get("requestId") != "web-1":
            pass
    assert frame["type"] == "game_list"
    # and the same name again is the same player
    again = post_token(stack.web_url, b'{"name": "web-ana"}').json()
    assert _claims(again["token"])["sub"] == _claims(body["token"])["sub"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"name": ""}',
        b'{"name": "Ana"}',
        b'{"name": "ana_b"}',
        b'{"name": "ana b"}',
        b'{"name": "' + b"a" * 21 + b'"}',
        b'{"name": 5}',
        b"{}",
        b'["ana"]',
        b"name=ana",
        b"",
    ],
)
def test_local_stack_token_refuses_a_bad_name(stack: LocalStack, body: bytes) -> None:
    # given a running stack
    # when the page asks a token for a name outside 1-20 of a-z, 0-9 and -, or no name
    answer = post_token(stack.web_url, body)
    # then it is refused with a message, as JSON
    assert answer.status == 400
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json()["message"]


def pay(stack: LocalStack, token: str | None, body: Mapping[str, Any] | bytes) -> Answer:
    """The shop's stand-in asks the stack to simulate a paid checkout (``POST /_local/pay``)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = token
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return request(stack.web_url, "POST", "/_local/pay", body=raw, headers=headers)


def balance(stack: LocalStack, token: str) -> int:
    wallet = urllib.request.Request(
        f"{stack.gateway.http_url}/me/wallet", headers={"Authorization": token}
    )
    with urllib.request.urlopen(wallet, timeout=WAIT) as answer:
        return int(json.loads(answer.read())["balance"])


def test_local_stack_pay_credits_a_simulated_checkout_once_per_key(stack: LocalStack) -> None:
    # given a local player signed in by the page, and another player
    token = post_token(stack.web_url, b'{"name": "web-payer"}').json()["token"]
    friend = post_token(stack.web_url, b'{"name": "web-payee"}').json()["token"]

    # when the shop's stand-in simulates the payment of the 500 tokens pack, twice with one key
    first = pay(stack, token, {"offerId": "pack-500", "key": "pay-1"})
    again = pay(stack, token, {"offerId": "pack-500", "key": "pay-1"})

    # then the stack's webhook took Stripe's signed event, and credited the pack once
    assert (first.status, first.json()["handled"]) == (200, "credited")
    assert again.status == 200
    assert balance(stack, token) == 500

    # when a gift pack is paid for the other player, by nickname
    gift = pay(stack, token, {"offerId": "gift-500", "giftTo": "web-payee", "key": "pay-2"})

    # then the tokens are theirs, not the buyer's
    assert gift.status == 200
    assert (balance(stack, token), balance(stack, friend)) == (500, 500)


@pytest.mark.parametrize(
    ("token", "body", "status"),
    [
        (None, {"offerId": "pack-500", "key": "k"}, 401),
        ("not-a-token", {"offerId": "pack-500", "key": "k"}, 401),
        ("signed-in", {"offerId": "pack-500"}, 400),
        ("signed-in", {"offerId": "pack-500", "key": "two words"}, 400),
        ("signed-in", b"offer=pack-500", 400),
        ("signed-in", {"offerId": "pack-none", "key": "k"}, 404),
        ("signed-in", {"offerId": "pack-500", "giftTo": "web-nobody-here", "key": "k"}, 404),
    ],
)
def test_local_stack_pay_refuses_without_a_sign_in_a_key_or_a_known_offer(
    stack: LocalStack, token: str | None, body: Mapping[str, Any] | bytes, status: int
) -> None:
    # given a local player
    signed_in = post_token(stack.web_url, b'{"name": "web-refused"}').json()["token"]

    # when the stand-in asks with no or a bad token, no key, a bad body, an unknown offer or
    # recipient
    answer = pay(stack, signed_in if token == "signed-in" else token, body)

    # then it is refused with a message, and nothing is credited
    assert answer.status == status
    assert answer.json()["message"]
    assert balance(stack, signed_in) == 0


def test_local_stack_cognito_answers_a_cross_origin_preflight_and_sign_in(
    stack: LocalStack,
) -> None:
    # given a player, and the page's origin (not the embedded AWS's)
    post_token(stack.web_url, b'{"name": "web-cors"}')
    origin = stack.web_url.rstrip("/")
    endpoint = stack.aws.endpoint_url
    # when the browser sends the preflight of Cognito's InitiateAuth, then the call itself
    preflight = request(
        endpoint,
        "OPTIONS",
        "/",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-amz-target,x-amz-user-agent",
        },
    )
    srp = AWSSRP(
        "web-cors@example.com",
        LOCAL_PASSWORD,
        stack.aws.user_pool_id(),
        stack.aws.user_pool_client_id(),
        client=stack.aws.client("cognito-idp"),
    )
    body = {
        "ClientId": stack.aws.user_pool_client_id(),
        "AuthFlow": "USER_SRP_AUTH",
        "AuthParameters": srp.get_auth_params(),
    }
    sign_in = request(
        endpoint,
        "POST",
        "/",
        body=json.dumps(body).encode(),
        headers={
            "Origin": origin,
            "Content-Type": "application/x-amz-json-1.1",
            "X-Amz-Target": COGNITO_TARGET,
        },
    )
    # then the preflight allows the origin, the method and the headers
    assert 200 <= preflight.status < 300
    assert preflight.headers["access-control-allow-origin"] in (origin, "*")
    assert "POST" in preflight.headers["access-control-allow-methods"]
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert "x-amz-target" in allowed and "content-type" in allowed
    # and the sign-in (SRP: the page's flow) answers its challenge to that origin
    assert sign_in.status == 200
    assert sign_in.headers["access-control-allow-origin"] in (origin, "*")
    assert sign_in.json()["ChallengeName"] == "PASSWORD_VERIFIER"


def test_local_stack_http_api_allows_its_web_client_and_no_other_origin(
    stack: LocalStack,
) -> None:
    # given the page's origins (by its address and by localhost), and another site's
    port = stack.web.port
    origins = [stack.web_url.rstrip("/"), f"http://localhost:{port}", "https://evil.example"]

    # when a browser on each sends the preflight of a call to the HTTP API
    def preflight(origin: str) -> Any:
        return request(
            stack.gateway.http_url,
            "OPTIONS",
            "/me",
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization",
            },
        )

    ours, local, evil = (preflight(origin) for origin in origins)

    # then the web client's origin is allowed (the template's WebUrl is not this one), by either
    # name, and the other site's is not
    assert ours.headers["access-control-allow-origin"] == origins[0]
    assert local.headers["access-control-allow-origin"] == origins[1]
    assert "access-control-allow-origin" not in evil.headers


def test_local_stack_describe_and_banner_name_the_web_client(
    stack: LocalStack, capsys: pytest.CaptureFixture[str]
) -> None:
    # given a running stack
    # when its state is described and `make dev` prints its banner
    state = stack.describe()
    cli._print_started(stack)
    lines = capsys.readouterr().out.splitlines()
    # then the state file's webUrl is the web client's, the banner's first URL too
    assert state["webUrl"] == stack.web_url
    assert lines[0] == "Yamb local stack up."
    assert lines[1] == f"  Web client: {stack.web_url}"
    assert lines[2].startswith("  WebSocket: ")


def test_local_stack_web_client_stops_with_the_stack(stack: LocalStack) -> None:
    # given a running stack's web client (the module's last test: it stops the stack)
    url = stack.web_url
    assert request(url, "GET", "/").status == 200
    # when the stack stops
    stack.stop()
    # then the web client's port is closed too, and a second stop does nothing
    with pytest.raises(ConnectionRefusedError):
        request(url, "GET", "/")
    assert not stack.web.running
    stack.stop()
