"""Sending frames to clients: a small interface, and API Gateway's management API behind it."""

import contextlib
from collections.abc import Callable
from typing import Any, Protocol

from yamb.protocol import MAX_FRAME_BYTES, Frame, encode

from yamb_service.common.observability import MetricUnit, logger, metrics


class FrameTooLargeError(Exception):
    pass


class Notifier(Protocol):
    def send(self, connection_id: str, frame: Frame) -> bool:
        """True when delivered; False when the connection is gone (and was cleaned up)."""
        ...

    def close(self, connection_id: str) -> None: ...


class ApiGatewayNotifier:
    """Posts to `@connections`; a 410 Gone answers False so the caller forgets the connection.
    The client is made on the first frame (`make_client`), not when the function starts."""

    def __init__(self, make_client: Callable[[], Any]) -> None:
        self._make_client = make_client
        self._made: Any = None

    @property
    def _client(self) -> Any:
        if self._made is None:
            self._made = self._make_client()
        return self._made

    def send(self, connection_id: str, frame: Frame) -> bool:
        data = encode(frame).encode()
        if len(data) > MAX_FRAME_BYTES:
            raise FrameTooLargeError(f"{frame.__class__.__name__} is {len(data)} bytes")
        client = self._client
        try:
            client.post_to_connection(ConnectionId=connection_id, Data=data)
        except client.exceptions.GoneException:
            logger.info("connection gone", connection_id=connection_id)
            metrics.add_metric(name="ConnectionGone", unit=MetricUnit.Count, value=1)
            return False
        return True

    def close(self, connection_id: str) -> None:
        client = self._client
        with contextlib.suppress(client.exceptions.GoneException):
            client.delete_connection(ConnectionId=connection_id)
