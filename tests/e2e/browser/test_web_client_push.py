"""Notifications on this device in a real browser (issue 28, Web Push): the settings screen's
control subscribes the device and the server keeps it, turning it off removes it, and a slow game
that waits for the player's turn is pushed to it (the local stack's outbox, GET /_local/push,
shows what would have been pushed).

Chromium without a display reaches no push service: its `pushManager.subscribe` is refused
("Registration failed - permission denied") whatever the permissions. The browser's push
manager is therefore stood in for by a script that answers as Chromium does (an FCM endpoint,
a P-256 key, an auth secret); everything past it is real: the page's control, the accounts'
routes, the push function, the switches. The service worker's showing of a push and its click
are not driven here (no push reaches it); the notification's words and address are checked in
the outbox."""

import base64
import json
import time
import urllib.request
import uuid
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Page, expect
from yamb.push.messages import device_id
from yamb_service.common.dynamo import item_model
from yamb_service.push.dynamo import DynamoSubscriptions

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique
from tests.e2e.browser.test_web_client_account import account

# The browser's push manager as Chromium's answers with a push service (see the module).
STAND_IN = """
(() => {
  const endpoint = %(endpoint)s;
  let current = null;
  const subscription = () => ({
    endpoint, expirationTime: null, options: { userVisibleOnly: true },
    toJSON: () => ({
      endpoint, expirationTime: null, keys: { p256dh: %(p256dh)s, auth: "dGhlLWF1dGgtc2VjcmV0" },
    }),
    unsubscribe: async () => { current = null; return true; },
  });
  PushManager.prototype.subscribe = async function () { current = subscription(); return current; };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""
SLOW = {"players": 2, "columns": ["free"], "turnType": "slow", "turnSeconds": None}


def p256dh() -> str:
    public = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = public.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def devices(stack: LocalStack, player_id: str) -> list[str]:
    aws = stack.aws
    item = item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    return [d.device_id for d in DynamoSubscriptions(item).devices(player_id)]


def pushed(stack: LocalStack, player_id: str, timeout: float = 20.0) -> list[dict[str, Any]]:
    """The outbox's pushes to the player, once there is one (or [] after `timeout`)."""
    deadline = time.monotonic() + timeout
    while True:
        url = f"{stack.gateway.push_url}?player={player_id}"
        with urllib.request.urlopen(url, timeout=10) as answer:
            found = json.load(answer)
        if found or time.monotonic() > deadline:
            return list(found)
        time.sleep(0.2)


def push_page(new_page: NewPage, endpoint: str) -> Page:
    page = new_page(permissions=["notifications"])
    script = STAND_IN % {"endpoint": json.dumps(endpoint), "p256dh": json.dumps(p256dh())}
    page.add_init_script(script)
    return page


def test_web_client_push_control_keeps_the_device_and_a_slow_game_s_turn_is_pushed(
    web_stack: LocalStack, new_page: NewPage, players: Any
) -> None:
    # given ana in her settings, notifications off on this device
    endpoint = f"https://fcm.googleapis.com/fcm/send/{uuid.uuid4().hex}"
    page = push_page(new_page, endpoint)
    ana = unique("push-ana")
    sign_in(page, web_stack, ana)
    page.click('#nav a[data-screen="settings"]')
    status, toggle = page.locator("#push-status"), page.locator("#push-toggle")
    expect(status).to_have_text("Notifications are off for this device.")
    player_id = account(web_stack, page)["playerId"]

    # when she turns them on
    toggle.click()

    # then the page says so and the server keeps this device
    expect(status).to_have_text("Notifications are on for this device.")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert devices(web_stack, player_id) == [device_id(endpoint)]

    # when she turns them off, then on again
    toggle.click()
    expect(status).to_have_text("Notifications are off for this device.")
    assert devices(web_stack, player_id) == []
    toggle.click()
    expect(status).to_have_text("Notifications are on for this device.")
    assert devices(web_stack, player_id) == [device_id(endpoint)]
    assert not page.errors

    # when she sits at ben's slow game of a week, leaves it, and a day passes
    page.close()
    ben_player, ana_player = players(unique("push-ben")), players(ana)
    game_id = ben_player.act("create_game", settings={**SLOW, "slowDeadlineHours": 168})["gameId"]
    ana_player.act("join_game", gameId=game_id)
    ben_player.act("start_game", gameId=game_id)
    ana_player.close()
    ben_player.game_until(lambda game: not game["seats"][1]["present"])  # after the grace
    web_stack.aws.advance(hours=24, seconds=1)

    # then her device is told the game waits for her turn, and a click leads to that game
    (record,) = pushed(web_stack, player_id)
    assert record["endpoint"] == endpoint
    assert record["notification"]["title"] == "Your turn"
    assert record["notification"]["url"] == f"{web_stack.web_url.rstrip('/')}/#/game/{game_id}"
