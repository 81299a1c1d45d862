"""The push domain's ports: the devices' subscriptions (kept in the table under the player),
the push service a notification goes out through, and the asking side (a function that has
something to push hands it to the push function)."""

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from yamb.push.messages import Notification, PushRequest, PushSubscriptionRequest


@dataclass(frozen=True, slots=True)
class Device:
    """One device's subscription of a player."""

    device_id: str
    subscription: PushSubscriptionRequest


class Subscriptions(Protocol):
    def put(self, player_id: str, device: Device) -> bool:
        """Keeps (or renews) the device's subscription; False when the player has as many
        devices as allowed already and this one is not among them."""

    def delete(self, player_id: str, device_id: str) -> None: ...

    def devices(self, player_id: str) -> list[Device]: ...


class Delivery(StrEnum):
    SENT = "sent"
    # The push service says the subscription is no more (404, 410): the device is dropped.
    GONE = "gone"
    # Anything else (a 429, a 5xx, the network): not retried, the next push tries again.
    FAILED = "failed"


class PushSender(Protocol):
    def send(self, player_id: str, device: Device, notification: Notification) -> Delivery: ...


class Pusher(Protocol):
    """What the game, clock and prize functions call: it never fails their own work."""

    def push(self, request: PushRequest) -> None: ...


class NoPusher:
    """A deployment or test without the push function."""

    def push(self, request: PushRequest) -> None:
        return None
