"""Sending frames to clients: a small interface, and API Gateway's management API behind it."""

import contextlib
import json
from typing import Any, Protocol

from yamb.protocol import MAX_FRAME_BYTES, Frame, encode

from yamb_service.observability import MetricUnit, logger, metrics


class FrameTooLargeError(Exception):
    pass


class Notifier(Protocol):
    def send(self, connection_id: str, frame: Frame) -> bool:
        """True when delivered; False when the connection is gone (and was cleaned up)."""
        ...

    def close(self, connection_id: str) -> None: ...


class ApiGatewayNotifier:
    """Posts to `@connections`; a 410 Gone answers False so the caller forgets the connection."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def send(self, connection_id: str, frame: Frame) -> bool:
        data = encode(frame).encode()
        if len(data) > MAX_FRAME_BYTES:
            raise FrameTooLargeError(f"{frame.__class__.__name__} is {len(data)} bytes")
        try:
            self._client.post_to_connection(ConnectionId=connection_id, Data=data)
        except self._client.exceptions.GoneException:
            logger.info("connection gone", connection_id=connection_id)
            metrics.add_metric(name="ConnectionGone", unit=MetricUnit.Count, value=1)
            return False
        return True

    def close(self, connection_id: str) -> None:
        with contextlib.suppress(self._client.exceptions.GoneException):
            self._client.delete_connection(ConnectionId=connection_id)


class RecordingNotifier:
    """For tests: keeps every frame per connection; connections in `gone` answer Gone."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.closed: list[str] = []
        self.gone: set[str] = set()

    def send(self, connection_id: str, frame: Frame) -> bool:
        data = encode(frame)
        if len(data.encode()) > MAX_FRAME_BYTES:
            raise FrameTooLargeError(f"{frame.__class__.__name__} is {len(data)} bytes")
        if connection_id in self.gone:
            return False
        self.sent.append((connection_id, json.loads(data)))
        return True

    def close(self, connection_id: str) -> None:
        self.closed.append(connection_id)

    def frames_to(self, connection_id: str) -> list[dict[str, Any]]:
        return [frame for target, frame in self.sent if target == connection_id]
