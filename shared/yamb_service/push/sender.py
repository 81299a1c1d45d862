"""How a notification leaves: Web Push (RFC 8030, encrypted per RFC 8291, signed with VAPID per
RFC 8292) through pywebpush, only in the push function (its import alone is about 270 ms:
aiohttp comes with it); or, on the local stack, to its outbox (``POST /_local/push``), which
keeps what would have been pushed for ``GET /_local/push`` to show."""

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from yamb.push.messages import Notification

from yamb_service.common.observability import logger
from yamb_service.push.ports import Delivery, Device

# The push service keeps an undelivered push this long (a phone that is off for a while still
# gets a turn that waits for days, not a countdown that ran out: those carry their own TTL).
TTL_SECONDS = 12 * 3600
_GONE = (404, 410)
_TIMEOUT = 5.0


def _delivery(status: int) -> Delivery:
    if status in _GONE:
        return Delivery.GONE
    return Delivery.SENT if 200 <= status < 300 else Delivery.FAILED


class WebPushSender:
    """`private_key` gives the VAPID private key (PEM or base64url DER) when first needed;
    `subject` is the contact the push services may write to (mailto: or https:)."""

    def __init__(self, private_key: Callable[[], str], subject: str) -> None:
        self._private_key = private_key
        self._subject = subject
        self._vapid: Any = None

    def _signer(self) -> Any:
        """The VAPID key, parsed once (a PEM; or base64url DER as `vapid --gen` writes it)."""
        if self._vapid is None:
            from py_vapid import Vapid  # noqa: PLC0415 - the push function's

            key = self._private_key().strip()
            self._vapid = (
                Vapid.from_pem(key.encode()) if key.startswith("-----") else Vapid.from_string(key)
            )
        return self._vapid

    def send(self, player_id: str, device: Device, notification: Notification) -> Delivery:
        from pywebpush import WebPushException, webpush  # noqa: PLC0415 - the push function's

        info = device.subscription.model_dump(by_alias=True, include={"endpoint", "keys"})
        try:
            answer: Any = webpush(
                info,
                data=notification.model_dump_json(),
                vapid_private_key=self._signer(),
                vapid_claims={"sub": self._subject},
                ttl=TTL_SECONDS,
                timeout=_TIMEOUT,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            logger.info("push refused", device=device.device_id, status=status, reason=str(error))
            return _delivery(status) if isinstance(status, int) else Delivery.FAILED
        except OSError:  # the network (requests' errors are OSErrors)
            logger.warning("push service unreachable", device=device.device_id)
            return Delivery.FAILED
        return _delivery(int(answer.status_code))


class LocalOutboxSender:
    """The local stack's: the notification in clear with its device, posted to the outbox,
    whose answer stands for the push service's (201, or 410 for a device the outbox was told
    is gone)."""

    def __init__(self, outbox_url: str) -> None:
        self._url = outbox_url

    def send(self, player_id: str, device: Device, notification: Notification) -> Delivery:
        record = {
            "playerId": player_id,
            "deviceId": device.device_id,
            "endpoint": device.subscription.endpoint,
            "notification": notification.model_dump(by_alias=True),
        }
        request = urllib.request.Request(
            self._url,
            data=json.dumps(record).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=_TIMEOUT) as answer:
                return _delivery(answer.status)
        except urllib.error.HTTPError as error:
            return _delivery(error.code)
        except OSError:
            return Delivery.FAILED
