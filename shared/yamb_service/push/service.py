"""The push domain's service: a device subscribes and unsubscribes (the accounts' HTTP API), and
a push is delivered (the push function): to each device of the player, only while the player's
account is active and the in-app group of the push's kind is on (A8); a device its push service
calls gone (404, 410) is dropped."""

from collections.abc import Callable
from dataclasses import dataclass, field

from yamb.accounts.errors import AccountError
from yamb.accounts.profile import AccountStatus, Profile
from yamb.i18n import Text
from yamb.push.gate import may_push, notification
from yamb.push.messages import MAX_DEVICES, PushRequest, PushSubscriptionRequest, device_id

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.push.ports import Delivery, Device, PushSender, Subscriptions


@dataclass
class Pushed:
    """What became of one push request (the push function's answer, for its log)."""

    skipped: str | None = None  # why nothing went: "no_account", "switched_off", "no_device"
    sent: list[str] = field(default_factory=list)  # device ids
    dropped: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


class PushDevices:
    """The accounts' side: this device's subscription kept or removed."""

    def __init__(self, subscriptions: Subscriptions) -> None:
        self.subscriptions = subscriptions

    def subscribe(self, player_id: str, request: PushSubscriptionRequest) -> str:
        device = Device(device_id(request.endpoint), request)
        if not self.subscriptions.put(player_id, device):
            raise AccountError(
                Text(
                    "notifications are on for {max_devices} devices already: turn them off on one "
                    "of them first",
                    max_devices=MAX_DEVICES,
                ),
                code="push_devices_full",
            )
        return device.device_id

    def unsubscribe(self, player_id: str, device: str) -> None:
        self.subscriptions.delete(player_id, device)

    def forget(self, player_id: str) -> None:
        """Every device of the player (an account's purge)."""
        for device in self.subscriptions.devices(player_id):
            self.subscriptions.delete(player_id, device.device_id)


class PushService:
    def __init__(
        self,
        subscriptions: Subscriptions,
        profile: Callable[[str], Profile | None],
        sender: PushSender,
        web_base_url: str,
    ) -> None:
        self.subscriptions = subscriptions
        self.profile = profile
        self.sender = sender
        self.web_base_url = web_base_url

    def deliver(self, request: PushRequest) -> Pushed:
        found = self.profile(request.player_id)
        if found is None or found.status != AccountStatus.ACTIVE:
            return self._skipped("no_account")
        if not may_push(found.preferences, request.kind):
            return self._skipped("switched_off")
        devices = self.subscriptions.devices(request.player_id)
        if not devices:
            return self._skipped("no_device")
        shown = notification(request, self.web_base_url, found.preferences.language)
        pushed = Pushed()
        for device in devices:
            match self.sender.send(request.player_id, device, shown):
                case Delivery.SENT:
                    pushed.sent.append(device.device_id)
                case Delivery.GONE:
                    self.subscriptions.delete(request.player_id, device.device_id)
                    pushed.dropped.append(device.device_id)
                case Delivery.FAILED:
                    pushed.failed.append(device.device_id)
        for name, count in (
            ("PushSent", len(pushed.sent)),
            ("PushDeviceDropped", len(pushed.dropped)),
            ("PushFailed", len(pushed.failed)),
        ):
            if count:
                metrics.add_metric(name=name, unit=MetricUnit.Count, value=count)
        logger.info("pushed", kind=request.kind, sent=len(pushed.sent), dropped=pushed.dropped)
        return pushed

    @staticmethod
    def _skipped(reason: str) -> Pushed:
        metrics.add_metric(name="PushSkipped", unit=MetricUnit.Count, value=1)
        return Pushed(skipped=reason)
