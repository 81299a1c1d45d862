"""The local stack's push outbox: no push leaves this machine, the push function posts each
notification here in clear instead (``LOCAL_PUSH_OUTBOX_URL``: yamb_service.push.sender.
LocalOutboxSender), and ``GET /_local/push`` shows what would have been pushed, newest first
(``?player=<id>``, ``?last=N``). An endpoint marked gone (``POST /_local/push/gone`` with
``{"endpoint": ...}``) is answered 410, as a push service answers for an expired subscription,
so that the push function drops it.

The stack's VAPID key pair is made at its start (`local_vapid_public_key`): the page subscribes
with a real P-256 public key, although nothing is signed with it here."""

import base64
import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["PushOutbox", "local_vapid_public_key"]


def local_vapid_public_key() -> str:
    """A fresh P-256 public key, uncompressed, base64url without padding (what a page's
    `pushManager.subscribe` takes as its applicationServerKey)."""
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415

    public = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = public.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class PushOutbox:
    """What the push function pushed, and the endpoints to answer 410 for."""

    records: list[dict[str, Any]] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def receive(self, record: dict[str, Any], now: datetime) -> int:
        """The status a push service would answer: 201 kept, 410 for an endpoint gone."""
        with self._lock:
            if record.get("endpoint") in self.gone:
                return 410
            self.records.append({**record, "pushedAt": now.isoformat()})
            return 201

    def mark_gone(self, endpoint: str) -> None:
        with self._lock:
            self.gone.add(endpoint)

    def listed(self, player: str | None = None, last: int | None = None) -> list[dict[str, Any]]:
        with self._lock:
            found = [r for r in reversed(self.records) if player in (None, r.get("playerId"))]
        return found if last is None else found[:last]
