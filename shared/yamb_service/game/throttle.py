"""A rate limit per connection: a token bucket in the memory of the execution environment.

It adds no request to a normal move (the guide's cost goal stands) and costs nothing when a
client behaves. It is per execution environment, so a flood spread over many concurrent
instances of the function gets its budget in each; the outer wall is API Gateway's route
throttling and the function's reserved concurrency (template.yaml).
"""

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

# Connections remembered in one execution environment (the least recently seen go first).
REMEMBERED = 10_000
# At most one "slow down" frame a connection in this time: a flood's other frames are dropped.
NOTICE_EVERY_SECONDS = 1.0

type Verdict = Literal["allow", "warn", "drop"]


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float
    warned_at: float = float("-inf")


class ConnectionThrottle:
    def __init__(
        self,
        *,
        burst: int,
        per_second: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._burst = burst
        self._per_second = per_second
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def check(self, connection_id: str) -> Verdict:
        """`allow` the frame; else `warn` (answer "slow down") or `drop` (answered already)."""
        now = self._clock()
        bucket = self._buckets.pop(connection_id, None) or _Bucket(float(self._burst), now)
        self._buckets[connection_id] = bucket
        if len(self._buckets) > REMEMBERED:
            self._buckets.popitem(last=False)
        bucket.tokens = min(self._burst, bucket.tokens + (now - bucket.at) * self._per_second)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return "allow"
        if now - bucket.warned_at >= NOTICE_EVERY_SECONDS:
            bucket.warned_at = now
            return "warn"
        return "drop"
