"""Web Push (issue 28, A8) on the embedded AWS: a device's subscription kept and removed through
the accounts' HTTP API, the push function invoked as the other functions invoke it (an
asynchronous Lambda call to the local stack, which runs it in-process), what it pushes shown by
the stack's outbox (GET /_local/push), each kind gated by its in-app switch, and a device its push
service calls gone dropped. The real sender (pywebpush) is checked against a push service faked
at the HTTP level: its request carries a VAPID signature and a payload only the device can read."""

import base64
import json
import os
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import http_ece
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from yamb.push.messages import (
    Notification,
    PushKind,
    PushRequest,
    PushSubscriptionRequest,
    device_id,
)
from yamb_service.common.dynamo import item_model
from yamb_service.push.dynamo import DynamoSubscriptions
from yamb_service.push.ports import Delivery, Device
from yamb_service.push.sender import WebPushSender

from devstack.stack import LocalStack
from testkit.catalogues import use_catalogues
from tests.integration.test_accounts import ROOT, Accounts

FCM = "https://fcm.googleapis.com/fcm/send/"


def p256dh() -> str:
    """A device's public key as a browser gives it."""
    public = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = public.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def subscription(endpoint: str | None = None) -> dict[str, Any]:
    """A browser's `PushSubscription.toJSON()`."""
    return {
        "endpoint": endpoint or FCM + uuid.uuid4().hex,
        "expirationTime": None,
        "keys": {"p256dh": p256dh(), "auth": "dGhlLWF1dGgtc2VjcmV0"},
    }


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalStack]:
    with LocalStack(ROOT) as running:
        yield running


@pytest.fixture(scope="module")
def accounts(stack: LocalStack) -> Accounts:
    return Accounts(stack)


@pytest.fixture
def player(stack: LocalStack, accounts: Accounts) -> tuple[str, str]:
    """A verified account: its player id and token."""
    _, token = accounts.player(f"pu{uuid.uuid4().hex[:6]}")
    return call(stack, "GET", "/me", token=token).json["playerId"], token


@dataclass
class Answer:
    status: int
    json: Any

    @property
    def code(self) -> str | None:
        return self.json.get("error", {}).get("code") if self.status >= 400 else None


def call(
    stack: LocalStack, method: str, path: str, body: Any = None, *, token: str | None = None
) -> Answer:
    """A request to the stack's HTTP API, through its routes and its authorizer."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        stack.gateway.http_url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method=method,
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return Answer(answer.status, json.load(answer))
    except urllib.error.HTTPError as error:
        return Answer(error.code, json.load(error))


def devices(stack: LocalStack, player_id: str) -> list[str]:
    aws = stack.aws
    item = item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    return [d.device_id for d in DynamoSubscriptions(item).devices(player_id)]


def push(stack: LocalStack, request: PushRequest) -> None:
    """As the connections, clock and prizes functions hand a push over (yamb_service.push.
    invoke): an asynchronous invocation of the push function."""
    stack.aws.client("lambda").invoke(
        FunctionName=stack.aws.function_arn("PushFunction"),
        InvocationType="Event",
        Payload=request.model_dump_json(by_alias=True).encode(),
    )


def outbox(stack: LocalStack, player_id: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{stack.gateway.push_url}?player={player_id}") as answer:
        return list(json.load(answer))


def test_a_device_subscribes_and_unsubscribes(
    stack: LocalStack, accounts: Accounts, player: tuple[str, str]
) -> None:
    # given a signed-in player and their browser's subscription
    player_id, token = player
    sub = subscription()

    # when the page sends it, twice (a page renews it at each start)
    first = call(stack, "PUT", "/me/push-subscriptions", sub, token=token)
    again = call(stack, "PUT", "/me/push-subscriptions", sub, token=token)

    # then the device is kept once, under the id the page works out from its endpoint
    assert first.status == again.status == 200, first.body
    assert first.json == {"deviceId": device_id(sub["endpoint"])}
    assert devices(stack, player_id) == [device_id(sub["endpoint"])]

    # when the page turns notifications off on it, twice
    path = f"/me/push-subscriptions/{first.json['deviceId']}"
    removed = call(stack, "DELETE", path, token=token)
    removed_again = call(stack, "DELETE", path, token=token)

    # then it is gone, and removing it again is no error
    assert removed.status == removed_again.status == 200
    assert devices(stack, player_id) == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"endpoint": "https://attacker.example/collect"}, "endpoint"),
        ({"endpoint": "http://fcm.googleapis.com/fcm/send/x"}, "endpoint"),
        ({"keys": {"p256dh": "A" * 87, "auth": "dGhlLWF1dGgtc2VjcmV0"}}, "keys.p256dh"),
        ({"keys": {"p256dh": p256dh(), "auth": "short"}}, "keys.auth"),
        ({"extra": 1}, "extra"),
    ],
)
def test_a_subscription_that_is_not_a_browser_s_is_refused_naming_its_field(
    stack: LocalStack, accounts: Accounts, player: tuple[str, str], change: Any, field: str
) -> None:
    # given a subscription with one part wrong
    player_id, token = player
    body = {**subscription(), **change}

    # when it is sent
    reply = call(stack, "PUT", "/me/push-subscriptions", body, token=token)

    # then it is refused beside that field, and nothing is kept
    assert reply.status == 400, reply.body
    assert reply.json["error"]["field"] == field
    assert devices(stack, player_id) == []


def test_a_player_s_eleventh_device_is_refused(
    stack: LocalStack, accounts: Accounts, player: tuple[str, str]
) -> None:
    # given a player with notifications on for ten devices
    player_id, token = player
    for _ in range(10):
        reply = call(stack, "PUT", "/me/push-subscriptions", subscription(), token=token)
        assert reply.status == 200

    # when an eleventh device subscribes
    reply = call(stack, "PUT", "/me/push-subscriptions", subscription(), token=token)

    # then it is refused with words to show, and the ten stay
    assert reply.status == 409
    assert reply.code == "push_devices_full"
    assert "10 devices" in reply.json["error"]["message"]
    assert len(devices(stack, player_id)) == 10


def test_the_page_reads_the_vapid_public_key_without_signing_in(stack: LocalStack) -> None:
    # when the page asks for the key the stack subscribes with
    reply = call(stack, "GET", "/push/vapid-key")

    # then it is an uncompressed P-256 point, base64url
    key = reply.json["publicKey"]
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert reply.status == 200 and len(raw) == 65 and raw[0] == 4


@pytest.mark.parametrize(
    ("request_of", "title", "url_end"),
    [
        (
            lambda p: PushRequest(player_id=p, kind=PushKind.YOUR_TURN, game_id="g1"),
            "Your turn",
            "/#/game/g1",
        ),
        (
            lambda p: PushRequest(player_id=p, kind=PushKind.RETURN_COUNTDOWN, game_id="g2"),
            "Come back to your game",
            "/#/game/g2",
        ),
        (
            lambda p: PushRequest(player_id=p, kind=PushKind.PRIZE_PAID, tokens=300, board="b"),
            "Prize paid",
            "/#/wallet",
        ),
    ],
)
def test_each_kind_is_pushed_to_every_device_of_the_player(  # noqa: PLR0917 - fixtures
    stack: LocalStack,
    accounts: Accounts,
    player: tuple[str, str],
    request_of: Any,
    title: str,
    url_end: str,
) -> None:
    # given a player with two devices subscribed
    player_id, token = player
    subs = [subscription(), subscription()]
    for sub in subs:
        call(stack, "PUT", "/me/push-subscriptions", sub, token=token)

    # when a function hands the push function a push for them
    push(stack, request_of(player_id))

    # then the outbox shows one notification a device, with its words and where a click leads
    pushed = outbox(stack, player_id)
    assert sorted(p["endpoint"] for p in pushed) == sorted(s["endpoint"] for s in subs)
    for record in pushed:
        assert record["notification"]["title"] == title
        assert record["notification"]["url"] == stack.web_url.rstrip("/") + url_end


def test_a_push_speaks_its_recipients_language(
    stack: LocalStack,
    player: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # given a Danish catalogue of the prize's words, and a subscribed player whose account
    # speaks Danish
    use_catalogues(
        monkeypatch,
        tmp_path,
        {
            "da": {
                "Prize paid": "Præmie udbetalt",
                (
                    "A leaderboard prize of {count} token is in your wallet.",
                    "A leaderboard prize of {count} tokens is in your wallet.",
                ): (
                    "En præmie på {count} jeton fra ranglisten er i din tegnebog.",
                    "En præmie på {count} jetoner fra ranglisten er i din tegnebog.",
                ),
            }
        },
    )
    player_id, token = player
    call(stack, "PUT", "/me/push-subscriptions", subscription(), token=token)
    assert call(stack, "PATCH", "/me/settings", {"language": "da"}, token=token).status == 200

    # when a prize of 300 tokens is pushed to them
    push(stack, PushRequest(player_id=player_id, kind=PushKind.PRIZE_PAID, tokens=300, board="b"))

    # then the phone shows it in Danish, the plural Danish's
    (record,) = outbox(stack, player_id)
    assert record["notification"]["title"] == "Præmie udbetalt"
    assert record["notification"]["body"] == (
        "En præmie på 300 jetoner fra ranglisten er i din tegnebog."
    )


@pytest.mark.parametrize(
    ("group", "kind"),
    [
        ("system", PushKind.YOUR_TURN),
        ("system", PushKind.RETURN_COUNTDOWN),
        ("rewards", PushKind.PRIZE_PAID),
    ],
)
def test_a_push_waits_for_its_in_app_switch(
    stack: LocalStack, accounts: Accounts, player: tuple[str, str], group: str, kind: PushKind
) -> None:
    # given a subscribed player who switched the push's in-app group off
    player_id, token = player
    call(stack, "PUT", "/me/push-subscriptions", subscription(), token=token)
    off = {"notifications": {"inApp": {group: False}}}
    assert call(stack, "PATCH", "/me/settings", off, token=token).status == 200

    # when a push of that kind is handed over
    push(stack, PushRequest(player_id=player_id, kind=kind, game_id="g", tokens=1))

    # then nothing is pushed; once the switch is on again, it is
    assert outbox(stack, player_id) == []
    on = {"notifications": {"inApp": {group: True}}}
    call(stack, "PATCH", "/me/settings", on, token=token)
    push(stack, PushRequest(player_id=player_id, kind=kind, game_id="g", tokens=1))
    assert len(outbox(stack, player_id)) == 1


def test_a_device_its_push_service_calls_gone_is_dropped(
    stack: LocalStack, accounts: Accounts, player: tuple[str, str]
) -> None:
    # given a player with two devices, one of which the push service now answers 410 for
    player_id, token = player
    kept, gone = subscription(), subscription()
    for sub in (kept, gone):
        call(stack, "PUT", "/me/push-subscriptions", sub, token=token)
    request = urllib.request.Request(
        f"{stack.gateway.push_url}/gone",
        data=json.dumps({"endpoint": gone["endpoint"]}).encode(),
        method="POST",
    )
    urllib.request.urlopen(request).close()

    # when a push goes out
    push(stack, PushRequest(player_id=player_id, kind=PushKind.YOUR_TURN, game_id="g"))

    # then the gone device is dropped, the other got it
    assert devices(stack, player_id) == [device_id(kept["endpoint"])]
    assert [p["endpoint"] for p in outbox(stack, player_id)] == [kept["endpoint"]]


# ----------------------------------------------------------------------------- the real sender


class FakePushService:
    """A push service at the HTTP level: requests' transport answers with `status` and keeps
    each request."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.requests: list[requests.PreparedRequest] = []

    def send(self, adapter: Any, request: requests.PreparedRequest, **kwargs: Any) -> Any:
        self.requests.append(request)
        answer = requests.Response()
        answer.status_code = self.status
        answer._content = b""
        answer.url = str(request.url)
        answer.request = request
        return answer


def _vapid_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


@pytest.mark.parametrize(
    ("status", "delivery"),
    [
        (201, Delivery.SENT),
        (410, Delivery.GONE),
        (404, Delivery.GONE),
        (429, Delivery.FAILED),
        (500, Delivery.FAILED),
    ],
)
def test_pywebpush_sends_a_signed_push_only_the_device_can_read(
    monkeypatch: pytest.MonkeyPatch, status: int, delivery: Delivery
) -> None:
    # given a device's keys, as its browser made them, and a push service answering `status`
    device_key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    raw = device_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    sub = PushSubscriptionRequest.model_validate(
        {"endpoint": FCM + "device-1", "keys": {"p256dh": b64(raw), "auth": b64(auth)}}
    )
    service = FakePushService(status)

    def answer_as_the_push_service(adapter: Any, request: Any, **options: Any) -> Any:
        return service.send(adapter, request, **options)

    monkeypatch.setattr(requests.adapters.HTTPAdapter, "send", answer_as_the_push_service)
    shown = Notification(title="Your turn", body="b", url="https://yamb.example/#/game/g", tag="t")

    # when the sender pushes a notification to it
    sender = WebPushSender(_vapid_pem, "mailto:admin@yamb.example")
    answer = sender.send("ana", Device("d1", sub), shown)

    # then the push service's answer is read as it should be
    assert answer == delivery
    # and the request went to the endpoint, signed with VAPID, with a time to live, encrypted
    (sent,) = service.requests
    assert sent.url == FCM + "device-1"
    assert str(sent.headers["Authorization"]).startswith("vapid t=")
    assert sent.headers["Content-Encoding"] == "aes128gcm"
    assert int(sent.headers["TTL"]) > 0
    assert b"Your turn" not in (sent.body or b"")
    # and the device, with its private key, reads the notification
    body = sent.body if isinstance(sent.body, bytes) else str(sent.body).encode()
    clear = http_ece.decrypt(body, private_key=device_key, auth_secret=auth, version="aes128gcm")
    assert Notification.model_validate_json(clear) == shown


def test_an_account_s_purge_forgets_its_devices(
    stack: LocalStack, accounts: Accounts, player: tuple[str, str]
) -> None:
    # given a player with a device subscribed, who asked for the account's deletion
    player_id, token = player
    call(stack, "PUT", "/me/push-subscriptions", subscription(), token=token)
    assert call(stack, "DELETE", "/me", token=token).status == 202

    # when the grace period is over and the daily job purges the account
    report = accounts.daily(timedelta(days=31))

    # then its devices are gone with the rest of its personal data
    assert report["purged"] >= 1
    assert devices(stack, player_id) == []


def test_the_push_function_s_sample_event_for_no_account_pushes_nothing(stack: LocalStack) -> None:
    # given the sample push request (events/push.json), for a player with no account here
    event = json.loads((ROOT / "events" / "push.json").read_text(encoding="utf-8"))

    # when the push function is invoked with it
    answer = stack.aws.invoke_function("PushFunction", event)

    # then nothing is pushed, and the answer says why
    assert answer == {"skipped": "no_account", "sent": [], "dropped": [], "failed": []}
    assert outbox(stack, event["playerId"]) == []
