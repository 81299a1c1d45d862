"""One connection's flood does not delay another connection's frames (issue 9, item 3).

On AWS every frame is a Lambda invocation of its own: connections do not wait on each other.
Here one connection sends 200 frames as fast as it can to a slow route (each invocation holds
its thread until the test lets it go, like a Lambda waiting on a slow call), while another
connection sends a `sync` that must be answered at once, not behind the flood.
"""

import json
import threading
import time
from typing import Any

from devstack.gateway import LocalGateway
from tests.integration.test_gateway import WAIT, allow, management, open_client, replying, running

FLOOD = 200
ANSWER_WITHIN = 1.0  # seconds; behind the flood it would be WAIT at least


class SlowRoute:
    """A handler that blocks until released (at most WAIT), counting how many run at once."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.started = 0
        self.running = 0
        self.most_at_once = 0
        self._lock = threading.Lock()

    def __call__(self, event: dict[str, Any], _: Any) -> None:
        with self._lock:
            self.started += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        self.released.wait(WAIT)
        with self._lock:
            self.running -= 1


def test_a_flood_on_one_connection_does_not_delay_another_connection() -> None:
    # given a gateway with a slow route and a `sync` route answering through the management API
    slow = SlowRoute()
    client: Any = None
    handlers = {
        "slow": slow,
        "sync": replying(lambda: client, lambda event: {"type": "game", "body": event["body"]}),
    }
    with running(handlers, allow()) as gateway:
        client = management(gateway)
        with open_client(gateway) as flooder, open_client(gateway) as player:
            assert _round_trip(player, "warm-up") < WAIT  # boto3's first call costs more
            # when one connection sends 200 frames as fast as it can
            for number in range(FLOOD):
                flooder.send(json.dumps({"action": "slow", "n": number}))
            deadline = time.monotonic() + WAIT
            while slow.started < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            # and the other sends a sync while the flood holds its invocations
            elapsed = _round_trip(player, "during-the-flood")
            slow.released.set()
            # then the sync was answered at once
            assert elapsed < ANSWER_WITHIN, f"sync answered after {elapsed:.2f} s"
            # and the flood's frames all ran, never more than two of them at once
            while slow.started < FLOOD and time.monotonic() < deadline + WAIT:
                time.sleep(0.01)
    assert slow.started == FLOOD
    assert slow.most_at_once == LocalGateway({}).connection_concurrency == 2


def _round_trip(player: Any, request_id: str) -> float:
    started = time.monotonic()
    player.send(json.dumps({"action": "sync", "requestId": request_id}))
    answer = json.loads(player.recv(timeout=2 * WAIT))
    assert json.loads(answer["body"])["requestId"] == request_id
    return time.monotonic() - started


def test_frames_of_many_flooding_connections_all_run() -> None:
    # given a route counting its invocations
    seen: list[int] = []
    lock = threading.Lock()

    def count(event: dict[str, Any], _: Any) -> None:
        with lock:
            seen.append(json.loads(event["body"])["n"])

    with running({"count": count}, allow(), max_concurrency=4) as gateway:
        sockets = [open_client(gateway) for _ in range(8)]
        try:
            # when eight connections (twice the pool) flood it at once
            for number in range(400):
                sockets[number % 8].send(json.dumps({"action": "count", "n": number}))
            deadline = time.monotonic() + WAIT
            while len(seen) < 400 and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            for ws in sockets:
                ws.close()
    # then every frame ran once
    assert sorted(seen) == list(range(400))
