"""`make dev`'s scheduler for `rate(...)` jobs: EventBridge runs the tournaments' minute job on
AWS; locally a thread runs each rate schedule at its rate, so that a tournament started from the
web client starts, pairs and ends by itself. Cron schedules (daily, weekly) stay by hand (`python
-m devstack job NAME --now ...`), as do all jobs in tests, which choose their moments."""

import logging
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from devstack.template import Schedule

LOG = logging.getLogger("devstack.ticker")
_RATE = re.compile(r"rate\((\d+) (minute|minutes|hour|hours)\)")


def rate_seconds(expression: str) -> int | None:
    """A `rate(N unit)` expression's period in seconds; None for anything else (cron)."""
    found = _RATE.fullmatch(expression.strip())
    if found is None:
        return None
    count, unit = int(found.group(1)), found.group(2)
    return count * (3600 if unit.startswith("hour") else 60)


@dataclass
class Ticker:
    """Runs each enabled rate schedule every period until stopped; a failed run is logged."""

    schedules: Iterable[Schedule]
    run: Callable[[str], object]
    scale: float = 1.0  # tests shorten the periods

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> "Ticker":
        for schedule in self.schedules:
            period = rate_seconds(schedule.expression)
            if period is None or not schedule.enabled:
                continue
            thread = threading.Thread(
                target=self._loop, args=(schedule.name, period * self.scale), daemon=True,
                name=f"ticker-{schedule.name}",
            )  # fmt: skip
            thread.start()
            self._threads.append(thread)
        return self

    def _loop(self, name: str, period: float) -> None:
        while not self._stop.wait(period):
            try:
                self.run(name)
            except Exception:
                LOG.exception("scheduled job %s failed", name)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
