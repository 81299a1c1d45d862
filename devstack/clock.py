"""The local stack's clock: real time plus an offset that tests move forward.

The game service reads it as its `now`, and the state machines' Wait states and heartbeat
timeouts (devstack.aws patches moto's) wait on it, so `advance(seconds=61)` lets a turn clock run
out at once, for the service and for Step Functions alike.
"""

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

# How often a wait looks at the clock again: the delay with which an advance takes effect.
POLL_SECONDS = 0.05


class LocalClock:
    def __init__(self) -> None:
        self._offset = timedelta()
        self._waits = 0
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            offset = self._offset
        return datetime.now(UTC) + offset

    def advance(self, **delta: float) -> datetime:
        """Moves the clock forward by `timedelta(**delta)`; the new now."""
        with self._lock:
            self._offset += timedelta(**delta)
        return self.now()

    def waits(self) -> int:
        """How many waits have their moment set and run now."""
        with self._lock:
            return self._waits

    def wait_until(self, moment: datetime, interrupted: Callable[[float], bool]) -> bool:
        """Waits until the clock reaches `moment`; `interrupted(timeout)` waits up to `timeout`
        seconds for what ends the wait early (an event's `wait`). True when interrupted."""
        with self._lock:
            self._waits += 1
        try:
            while True:
                remaining = (moment - self.now()).total_seconds()
                if remaining <= 0:
                    return False
                if interrupted(min(remaining, POLL_SECONDS)):
                    return True
        finally:
            with self._lock:
                self._waits -= 1
