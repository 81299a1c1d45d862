"""Web Push (issue 28, A8): a device's subscription as the browser gives it
(`PushSubscription.toJSON()`), the push function's request, and the notification a phone shows.

A subscription's endpoint is a push service's address: only the browsers' push services are
taken (`PUSH_SERVICES`), so that the push function never posts to an address a player chose."""

import base64
import hashlib
from enum import StrEnum
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

# The push services of Chrome/Edge/Opera (FCM), Firefox (autopush), Edge on Windows (WNS) and
# Safari (Apple): an endpoint's host is one of these or under one of them.
PUSH_SERVICES = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "push.services.mozilla.com",
    "notify.windows.com",
    "push.apple.com",
)
# A player's devices that get pushes; one more is refused (push_devices_full).
MAX_DEVICES = 10

# base64url without padding, as the browser writes the keys.
_B64URL = r"^[A-Za-z0-9_-]+={0,2}$"


class _Message(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class PushKeys(_Message):
    # The device's P-256 public key (65 bytes: 87 characters) and its 16-byte auth secret.
    p256dh: Annotated[str, Field(alias="p256dh", min_length=80, max_length=100, pattern=_B64URL)]
    auth: Annotated[str, Field(min_length=16, max_length=32, pattern=_B64URL)]

    @field_validator("p256dh")
    @classmethod
    def _a_point(cls, value: str) -> str:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        if len(raw) != 65 or raw[0] != 4:
            raise ValueError("not an uncompressed P-256 public key")
        return value


class PushSubscriptionRequest(_Message):
    """PUT /me/push-subscriptions: the browser's subscription of this device."""

    endpoint: Annotated[str, Field(max_length=1024)]
    expiration_time: int | None = None
    keys: PushKeys

    @field_validator("endpoint")
    @classmethod
    def _a_push_service(cls, value: str) -> str:
        parts = urlsplit(value)
        host = (parts.hostname or "").lower()
        if parts.scheme != "https" or not any(
            host == service or host.endswith("." + service) for service in PUSH_SERVICES
        ):
            raise ValueError("not the address of a browser's push service")
        return value


def device_id(endpoint: str) -> str:
    """A device's id: its endpoint's digest (the page works it out the same way to remove it)."""
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


class PushDeviceView(_Message):
    """The device's subscription kept: its id (DELETE /me/push-subscriptions/{deviceId})."""

    device_id: str


class PushKeyView(_Message):
    """The application server's VAPID public key (base64url, uncompressed P-256), which the
    page subscribes with; null when this deployment sends no pushes."""

    public_key: str | None


class PushKind(StrEnum):
    YOUR_TURN = "your_turn"  # a slow game waits for the player's turn
    RETURN_COUNTDOWN = "return_countdown"  # the player's connection went: 3 minutes to return
    PRIZE_PAID = "prize_paid"  # a leaderboard's prize reached the wallet


class PushRequest(_Message):
    """What a function asks the push function to push (an asynchronous invocation)."""

    player_id: Annotated[str, Field(max_length=128)]
    kind: PushKind
    game_id: Annotated[str, Field(max_length=64)] | None = None
    tokens: int | None = None  # a prize's
    board: Annotated[str, Field(max_length=128)] | None = None


class Notification(_Message):
    """The push's payload, which the service worker shows (client/web/sw.js)."""

    title: str
    body: str
    # The page to open on a click: the web client's own hash route.
    url: str
    # One notification per game or kind on the device: a newer one replaces it.
    tag: str
