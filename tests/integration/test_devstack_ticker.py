"""`make dev`'s ticker: the template's rate jobs (the tournaments' minute) run by themselves at
their rate, cron jobs never; a failing run is logged and the next one still comes."""

import threading
from pathlib import Path

from devstack.template import Template
from devstack.ticker import Ticker, rate_seconds

ROOT = Path(__file__).resolve().parents[2]


def test_rate_expressions_read_as_periods_and_cron_is_not_one() -> None:
    assert rate_seconds("rate(1 minute)") == 60
    assert rate_seconds("rate(5 minutes)") == 300
    assert rate_seconds("rate(2 hours)") == 7200
    assert rate_seconds("cron(5 0 * * ? *)") is None


def test_the_ticker_runs_the_templates_rate_jobs_only_and_survives_a_failure() -> None:
    # given the template's schedules, and a run that fails the first time
    schedules = Template(ROOT / "template.yaml").schedules()
    rated = {s.name for s in schedules if rate_seconds(s.expression) is not None}
    assert rated == {"TournamentsJobsFunctionRun"}
    ran: list[str] = []
    enough = threading.Event()

    def run(name: str) -> None:
        ran.append(name)
        if len(ran) >= 3:
            enough.set()
        if len(ran) == 1:
            raise RuntimeError("the first run fails")

    # when it ticks with the periods shortened (a minute is 10 ms)
    ticker = Ticker(schedules, run, scale=1 / 6000).start()
    try:
        assert enough.wait(10)
    finally:
        ticker.stop()

    # then only the rate job ran, again after its failure
    assert set(ran) == rated and len(ran) >= 3
