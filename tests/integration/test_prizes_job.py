"""The prizes function in-process on moto, called as EventBridge Scheduler or an operator calls
it (events/prize_payout_week.json: the weekly job as of Monday 00:10 UTC after the sample game's
week): the week's prize boards paid once, a period still running refused with nothing paid, a
malformed job refused before anything is read."""

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest
from pydantic import ValidationError
from yamb.results.errors import ResultsError
from yamb_service.common import clock, observability
from yamb_service.common.dynamo import item_model
from yamb_service.results import wiring as results_wiring

from devstack.template import Template
from tests.integration.test_boards_http import (
    ANA,
    BEN,
    REGION,
    Boards,
    create_table,
    delete_table,
    load_event,
    load_quietly,
    sample_result,
    use_table,
)
from tests.integration.test_handlers import CONTEXT

ROOT = Path(__file__).resolve().parents[2]
WEEK = "individual/main/best/2026-W49"
# A job refused before its service runs adds only JobFailed (no metric of a payout).
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


class Prizes(Boards):
    """Boards' set-up (players, recorded games) beside the prizes function."""

    def __init__(self, item: Any, functions: tuple[ModuleType, ModuleType, ModuleType]) -> None:
        super().__init__(item, functions[:2])
        self.prizes = functions[2]
        self.table = item.Meta.table_name
        # The payout waits for gsi1 to follow its close (moto's index follows at once).
        self.settled: list[float] = []
        results_wiring.prize_service().sleep = self.settled.append

    def run(self, event: dict[str, Any]) -> dict[str, Any]:
        return dict(self.prizes.handler(event, CONTEXT))

    def balances(self) -> tuple[int, int]:
        return self.wallets.wallet(ANA).balance, self.wallets.wallet(BEN).balance

    def closed(self, period: str) -> bool:
        key = {"pk": {"S": f"PERIOD#{period}"}, "sk": {"S": "CLOSED"}}
        found = boto3.client("dynamodb", region_name=REGION).get_item(
            TableName=self.table, Key=key, ConsistentRead=True
        )
        return "Item" in found


@pytest.fixture(scope="module")
def functions() -> tuple[ModuleType, ModuleType, ModuleType]:
    return load_quietly("boards"), load_quietly("results"), load_quietly("prizes")


@pytest.fixture
def prizes(
    aws: None,
    functions: tuple[ModuleType, ModuleType, ModuleType],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Prizes]:
    """ana and ben, and the sample game (ana 493, ben 334) of week 2026-W49 recorded."""
    table = create_table()
    use_table(table, monkeypatch)
    prizes = Prizes(item_model(table, REGION), functions)
    prizes.player(ANA)
    prizes.player(BEN)
    prizes.record(sample_result())
    yield prizes
    results_wiring.prize_service.cache_clear()
    delete_table(table)


def test_prizes_job_sample_event_pays_the_weekly_main_board_once(prizes: Prizes) -> None:
    # given the sample job: the week's payout as of Monday 00:10 after the sample game's week
    event = load_event("prize_payout_week.json")

    # when it runs, then runs again
    first = prizes.run(event)
    again = prizes.run(load_event("prize_payout_week.json"))

    # then 2026-W49's main board paid ana 100 (1st) and ben 60 (2nd), once
    assert first == {
        "job": "week",
        "now": "2026-12-07T00:10:00+00:00",
        "period": "2026-W49",
        "paid": [f"{WEEK} {ANA} 100", f"{WEEK} {BEN} 60"],
        "repeated": 0,
        "unpaid": [],
    }
    assert (again["paid"], again["repeated"]) == ([], 2)
    assert prizes.balances() == (100, 60)
    [entry] = prizes.wallets.entries(ANA, 5)
    assert (entry.amount, entry.reason, entry.detail, entry.key) == (
        100,
        "prize",
        WEEK,
        f"prize:{WEEK}:{ANA}:{ANA}",
    )
    # and the period was closed and settled once, and the podium places are medals
    assert prizes.closed("2026-W49") and len(prizes.settled) == 1
    assert prizes.call("GET", "/players/ana/statistics").json["medals"]["gold"] == 1
    assert prizes.call("GET", "/players/ben/statistics").json["medals"]["silver"] == 1


def test_prizes_job_sample_event_is_the_weekly_schedule_as_of_its_now() -> None:
    # given the template's weekly schedule
    schedule = Template(ROOT / "template.yaml").schedule("PrizesFunctionWeekly")

    # when the local stack runs it as of Monday 00:10 (`python -m devstack job ... --now`)
    payload = schedule.payload("2026-12-07T00:10:00Z")

    # then it sends the sample event
    assert payload == load_event("prize_payout_week.json")


def test_prizes_job_scheduled_input_pays_the_week_that_ended_last(
    prizes: Prizes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given the scheduler runs the weekly job (its input has no "now") on Monday 00:10
    monkeypatch.setattr(clock, "clock", lambda: datetime(2026, 12, 7, 0, 10, tzinfo=UTC))
    event = Template(ROOT / "template.yaml").schedule("PrizesFunctionWeekly").payload()

    # when it runs
    payout = prizes.run(event)

    # then it pays the week that ended at midnight
    assert (payout["period"], len(payout["paid"])) == ("2026-W49", 2)
    assert prizes.balances() == (100, 60)


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ({"job": "week", "now": "2026-12-03T09:00:00Z", "period": "2026-W49"}, "period_not_ended"),
        ({"job": "week", "now": "2026-12-06T23:59:59Z", "period": "2026-W49"}, "period_not_ended"),
        ({"job": "month", "now": "2026-12-31T23:00:00Z", "period": "2026-12"}, "period_not_ended"),
        ({"job": "month", "now": "2027-01-01T00:10:00Z", "period": "2026-W49"}, "unknown_period"),
        ({"job": "week", "now": "2026-12-07T00:10:00Z", "period": "2026-W99"}, "unknown_period"),
    ],
)
def test_prizes_job_period_not_ended_or_not_its_kind_is_refused_and_nothing_paid(
    prizes: Prizes, event: dict[str, Any], code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted: list[str] = []
    monkeypatch.setattr(observability.metrics, "add_metric", lambda name, **_: counted.append(name))

    # when an operator runs a payout for a period still running, or not of the job's kind
    with pytest.raises(ResultsError) as refused:
        prizes.run(event)

    # then the function fails with the reason (Lambda's retries, the dead-letter queue and the
    # JobFailed count's alarm), the period stays open and no one is paid
    assert (refused.value.code, refused.value.field) == (code, "period")
    assert counted == ["JobFailed"]
    assert not prizes.closed("2026-W49") and not prizes.closed("2026-12")
    assert prizes.balances() == (0, 0)
    assert prizes.settled == []


@pytest.mark.parametrize(
    "event",
    [
        {"job": "year"},
        {"job": "week", "extra": 1},
        {"job": "week", "now": "2026-12-07T00:10:00"},
        {"job": "week", "now": "next monday"},
        {"job": "week", "period": "W4"},
        {"now": "2026-12-07T00:10:00Z"},
        {},
    ],
)
def test_prizes_job_bad_event_fails_validation_and_nothing_is_paid(
    prizes: Prizes, event: dict[str, Any]
) -> None:
    # when the function gets an unknown job, an extra field, a moment without its offset or
    # that is no moment, a period too short to be one, or no job
    with pytest.raises(ValidationError):
        prizes.run(event)

    # then nothing is closed or paid
    assert not prizes.closed("2026-W49")
    assert prizes.balances() == (0, 0)
