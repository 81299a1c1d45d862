"""An account's life on the local stack, over real HTTP and WebSockets: register on the HTTP API,
read the mail in the local mailbox, follow its link, log in with Cognito, play over the
WebSocket; a second login elsewhere ends the first device's session (its connection told why and
closed, its token refused), and a sign-out everywhere closes the live one."""

import http.client
import json
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote, urlencode

import boto3
import pytest
from pycognito.aws_srp import AWSSRP
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from yamb_service.edge.identity import SIGN_IN_SKEW_SECONDS

from devstack import srp
from devstack.stack import LOCAL_PASSWORD, LocalStack
from testkit.catalogues import Languages

PASSWORD = "dice-and-4242"


def _request(
    stack: LocalStack, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{stack.gateway.http_url}{path}", data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _mailbox(stack: LocalStack, to: str) -> list[dict[str, Any]]:
    url = f"{stack.gateway.http_url}/_local/mail.json?to={quote(to)}"
    with urllib.request.urlopen(url, timeout=10) as response:
        answer = json.loads(response.read())
    mails = answer["mails"] if isinstance(answer, dict) else answer
    return list(mails)


def _cognito(stack: LocalStack) -> Any:
    return boto3.client(
        "cognito-idp",
        endpoint_url=stack.aws.endpoint_url,
        region_name=stack.aws.region,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


def _login(stack: LocalStack, email: str) -> str:
    return srp.id_token(
        _cognito(stack), stack.aws.user_pool_id(), stack.aws.user_pool_client_id(), email, PASSWORD
    )


def _frames_until_closed(socket: Any) -> list[dict[str, Any]]:
    frames = []
    try:
        while True:
            frames.append(json.loads(socket.recv(timeout=10)))
    except ConnectionClosed:
        return frames


def test_account_registered_verified_by_mail_logged_in_then_replaced_and_signed_out(
    stack: LocalStack,
) -> None:
    # given a person who registers on the HTTP API
    nickname = f"Eve{uuid.uuid4().hex[:6]}"
    email = f"{nickname.lower()}@example.com"
    status, account = _request(
        stack, "POST", "/accounts", {"nickname": nickname, "email": email, "password": PASSWORD}
    )
    assert status == 202 and "check your mail" in account["message"]

    # when they read the mail in the local mailbox, follow its link and press its button
    (mail,) = _mailbox(stack, email)
    (link,) = [url for url in mail["links"] if "/accounts/verify?token=" in url]
    browser = urllib.request.Request(link, headers={"Accept": "text/html,*/*;q=0.8"})
    with urllib.request.urlopen(browser, timeout=10) as page:
        form = page.read().decode()
    (action,) = re.findall(r"<form method=post action='([^']+)'>", form)
    (token,) = re.findall(r"name=token value='([^']+)'", form)
    button = urllib.request.Request(
        f"{stack.gateway.http_url}{action}",
        data=urlencode({"token": token}).encode(),
        method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"},
    )
    with urllib.request.urlopen(button, timeout=10) as page:
        assert page.status == 200 and "E-mail confirmed" in page.read().decode()

    # then they log in with Cognito and play over the WebSocket under their nickname
    first_token = _login(stack, email)
    first = connect(f"{stack.url}?token={first_token}")
    first.send(json.dumps({"action": "sync", "requestId": "sync-1"}))
    assert json.loads(first.recv(timeout=10))["type"] in ("sync", "lobby", "game")
    status, me = _request(stack, "GET", "/me", token=first_token)
    assert status == 200 and me["nickname"] == nickname

    # when they log in again elsewhere and connect
    second_token = _login(stack, email)
    second = connect(f"{stack.url}?token={second_token}")

    # then the first connection is told why, and closed
    frames = _frames_until_closed(first)
    assert frames[-1]["type"] == "disconnected" and frames[-1]["code"] == "signed_in_elsewhere"

    # when they sign out everywhere from the HTTP API
    assert _request(stack, "POST", "/me/sign-out", token=second_token)[0] == 200

    # then the live connection is told and closed, and neither token opens anything any more
    frames = _frames_until_closed(second)
    assert frames[-1]["type"] == "disconnected" and frames[-1]["code"] == "signed_out"
    for token in (first_token, second_token):
        assert _request(stack, "GET", "/me", token=token)[0] == 403
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{stack.url}?token={token}")
        assert refused.value.response.status_code == 401
    assert _request(stack, "GET", "/me")[0] == 401


def test_mail_bound_holds_under_a_flood_of_resets_for_one_address(stack: LocalStack) -> None:
    # given a verified player (their verification mail is the first of this hour)
    name = f"flood{uuid.uuid4().hex[:6]}"
    stack.player_token(name)
    email = f"{name}@example.com"
    assert len(_mailbox(stack, email)) == 1

    # when 200 resets come over the HTTP API, paced at 120 a second, from 32 clients at once:
    # 150 for their address, 50 for an address nobody has
    nobody = f"nobody{uuid.uuid4().hex[:6]}@example.com"
    addresses = [email if index % 4 else nobody for index in range(200)]
    start = time.monotonic()

    def ask(index: int) -> tuple[int, Any]:
        time.sleep(max(0.0, start + index / 120 - time.monotonic()))
        return _request(stack, "POST", "/accounts/password-reset", {"email": addresses[index]})

    with ThreadPoolExecutor(max_workers=32) as pool:
        replies = list(pool.map(ask, range(len(addresses))))
    rate = len(addresses) / (time.monotonic() - start)

    # then every answer is the same 202, and the mailbox holds two resets more: three this hour
    assert {json.dumps(reply) for reply in replies} == {json.dumps(replies[0])}
    assert replies[0][0] == 202
    mails = _mailbox(stack, email)
    assert len(mails) == 3, f"{len(mails)} mails at {rate:.0f} requests a second"
    assert _mailbox(stack, nobody) == []
    print(f"mail bound: {len(addresses)} resets at {rate:.0f} a second, {len(mails) - 1} mailed")


def test_sign_up_with_a_used_address_and_a_forged_host_over_http(stack: LocalStack) -> None:
    # given a verified player
    name = f"owner{uuid.uuid4().hex[:6]}"
    stack.player_token(name)
    email = f"{name}@example.com"

    # when someone signs up with their address, naming another host, and with a fresh one
    taken = {"nickname": f"Tk{uuid.uuid4().hex[:6]}", "email": email, "password": PASSWORD}
    fresh = {**taken, "nickname": f"Fr{uuid.uuid4().hex[:6]}", "email": f"x{name}@example.com"}
    connection = http.client.HTTPConnection(stack.gateway.host, stack.gateway.port, timeout=10)
    answers = []
    for body in (taken, fresh):
        connection.request(
            "POST",
            "/accounts",
            body=json.dumps(body),
            headers={"Host": "evil.example", "Content-Type": "application/json"},
        )
        response = connection.getresponse()
        answers.append((response.status, response.read()))
    connection.close()

    # then both get the same answer; the owner's mailbox says someone tried, and the fresh
    # address's link leads to the stack's own HTTP API, not to the host the request named
    assert answers[0] == answers[1] and answers[0][0] == 202
    told = _mailbox(stack, email)
    assert any(mail["subject"].startswith("Yamb: someone tried") for mail in told)
    (mail,) = _mailbox(stack, fresh["email"])
    (link,) = [url for url in mail["links"] if "/accounts/verify?token=" in url]
    assert link.startswith(f"{stack.gateway.http_url}/accounts/verify?token=")


def test_a_new_sign_in_ends_the_previous_devices_session(stack: LocalStack) -> None:
    # given a player signed in on a phone (with its refresh token), connected
    name = f"two-devices-{uuid.uuid4().hex[:6]}"
    stack.player_token(name)
    cognito = _cognito(stack)
    signed_in = AWSSRP(
        f"{name}@example.com",
        LOCAL_PASSWORD,
        stack.aws.user_pool_id(),
        stack.aws.user_pool_client_id(),
        client=cognito,
    ).authenticate_user()["AuthenticationResult"]
    phone_token, refresh_token = signed_in["IdToken"], signed_in["RefreshToken"]
    with connect(f"{stack.url}?token={phone_token}") as phone:
        phone.send(json.dumps({"action": "sync", "requestId": "phone-1"}))
        assert json.loads(phone.recv(timeout=10))["requestId"] == "phone-1"

        # when, a while later, they sign in on a laptop (before it connects)
        time.sleep(SIGN_IN_SKEW_SECONDS + 1.5)
        laptop_token = stack.player_token(name)

        # then the phone is told why at once, and closed
        frames = _frames_until_closed(phone)
    assert frames[-1]["type"] == "disconnected"
    assert frames[-1]["code"] == "signed_in_elsewhere"
    # and the phone's token opens nothing any more: it cannot come back and kick the laptop
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{stack.url}?token={phone_token}")
    assert refused.value.response.status_code == 401
    assert _request(stack, "GET", "/me", token=phone_token)[0] == 403
    # nor does a token the phone's sign-in refreshes (it keeps that sign-in's auth_time)
    refreshed = cognito.initiate_auth(
        ClientId=stack.aws.user_pool_client_id(),
        AuthFlow="REFRESH_TOKEN_AUTH",
        AuthParameters={"REFRESH_TOKEN": refresh_token},
    )["AuthenticationResult"]["IdToken"]
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{stack.url}?token={refreshed}")
    assert refused.value.response.status_code == 401
    # and the laptop plays, undisturbed
    with connect(f"{stack.url}?token={laptop_token}") as laptop:
        laptop.send(json.dumps({"action": "sync", "requestId": "laptop-1"}))
        assert json.loads(laptop.recv(timeout=10))["requestId"] == "laptop-1"
        assert _request(stack, "GET", "/me", token=laptop_token)[0] == 200


def test_refusal_over_the_socket_is_in_the_language_the_account_signed_up_in(
    stack: LocalStack, catalogue: Callable[[Languages], None]
) -> None:
    # given the catalogue's Croatian for a frame that is no action, and two players: one who
    # signed up on a Croatian page, one on a page in a language we do not speak
    catalogue({"hr": {"a frame is a JSON object with an action": "okvir je JSON objekt s akcijom"}})
    croatian = stack.player_token("socket-hr", language="hr")
    other = stack.player_token("socket-pt", language="pt")

    # when each sends a frame that is not an action, over the local gateway (its authorizer's
    # context goes to the game function as API Gateway's does)
    answers = {}
    for name, token in (("hr", croatian), ("pt", other)):
        with connect(f"{stack.url}?token={token}") as socket:
            socket.send("[1]")
            answers[name] = json.loads(socket.recv(timeout=10))

    # then the same refusal, in Croatian for the Croatian account and in English for the other
    assert answers["hr"]["code"] == answers["pt"]["code"] == "bad_request"
    assert answers["hr"]["message"] == "okvir je JSON objekt s akcijom"
    assert answers["pt"]["message"] == "a frame is a JSON object with an action"
