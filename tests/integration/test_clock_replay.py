"""The clock function's second caller: the timer retry queue (template.yaml's TimerRetryQueue),
whose records replay the events of timers that could not get through to it. The handler runs
in-process on moto, fed events/clock_sqs.json with its bodies adjusted; the games are set up
through the service with the recording fakes (conftest), and the handler wakes them with its
own wiring: the table, and the timer machines created in moto (stored, not run)."""

import copy
import importlib.util
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest
from yamb_service.common import clock as service_clock
from yamb_service.common import config
from yamb_service.game import wiring
from yamb_service.game.timers import CLOCK_EVENTS

from testkit.service import Clock
from testkit.table import REGION
from tests.integration.conftest import ANA, BEN, Harness, load_event

ROOT = Path(__file__).resolve().parents[2]
ENDPOINT = "https://example.execute-api.us-east-1.amazonaws.com/live"
MACHINES = itertools.count(1)
# A handler call that adds no metric is fine.
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

type ClockHandler = Callable[[dict[str, Any], Any], Any]


@dataclass
class LambdaContext:
    function_name: str = "yamb-test-clock"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = f"arn:aws:lambda:{REGION}:123456789012:function:yamb-test-clock"
    aws_request_id: str = "00000000-0000-0000-0000-000000000000"


CONTEXT = LambdaContext()


@pytest.fixture(scope="module")
def clock_handler() -> ClockHandler:
    """functions/clock/app.py under a module name of its own (every function has an app.py)."""
    path = ROOT / "functions" / "clock" / "app.py"
    spec = importlib.util.spec_from_file_location("yamb_function_clock_replay", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.handler  # type: ignore[no-any-return]


@pytest.fixture
def wired(table: str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The clock function's environment as template.yaml sets it (its timer machines are made
    for each test), on the service's clock."""
    stepfunctions = boto3.client("stepfunctions", region_name=REGION)
    number = next(MACHINES)
    arns = {}
    for kind in ("lane", "wake"):
        definition = (ROOT / "statemachines" / f"{kind}.asl.json").read_text(encoding="utf-8")
        for name, value in {
            "ClockFunctionArn": CONTEXT.invoked_function_arn,
            "TableName": table,
            "TimerRetryQueueUrl": "https://sqs.us-east-1.amazonaws.com/123456789012/retry",
        }.items():
            definition = definition.replace("${" + name + "}", value)
        created = stepfunctions.create_state_machine(
            name=f"yamb-replay-{kind}-{number}",
            definition=definition,
            roleArn=f"arn:aws:iam::123456789012:role/yamb-replay-{kind}",
        )
        arns[kind] = str(created["stateMachineArn"])
    for name, value in {
        "TABLE_NAME": table,
        "CONNECTIONS_ENDPOINT": ENDPOINT,
        "LANE_STATE_MACHINE_ARN": arns["lane"],
        "WAKE_STATE_MACHINE_ARN": arns["wake"],
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(service_clock, "clock", clock)
    config.service_settings.cache_clear()
    wiring.game_service.cache_clear()
    yield
    config.service_settings.cache_clear()
    wiring.game_service.cache_clear()


def replay_event(*bodies: dict[str, Any] | str) -> dict[str, Any]:
    """events/clock_sqs.json with one record per body (a dict is sent as JSON), each with a
    message id of its own."""
    sample = load_event("clock_sqs.json")
    records = []
    for number, body in enumerate(bodies):
        record = copy.deepcopy(sample["Records"][0])
        record["messageId"] = f"message-{number}"
        record["body"] = body if isinstance(body, str) else json.dumps(body)
        records.append(record)
    return {"Records": records}


def test_events_clock_sqs_sample_bodies_are_clock_events() -> None:
    # given the sample batch of the retry queue / when each body is read as a clock event
    records = load_event("clock_sqs.json")["Records"]
    sources = [CLOCK_EVENTS.validate_json(record["body"]).source for record in records]

    # then they are the two events the timers replay, from an SQS queue
    assert sources == ["wake", "lane_lost"]
    assert {record["eventSource"] for record in records} == {"aws:sqs"}


@pytest.mark.usefixtures("wired")
def test_clock_handler_sqs_batch_applies_good_record_and_reports_bad_one(
    harness: Harness, clock_handler: ClockHandler
) -> None:
    # given ana's turn, whose 60 s have passed (its timer's calls failed, so the queue has it)
    game_id = harness.running_game(ANA, BEN)
    harness.clock.advance(seconds=61)

    # when the queue delivers that wake together with a body that is no clock event
    answer = clock_handler(replay_event({"source": "wake", "gameId": game_id}, "not json"), CONTEXT)

    # then the deadline applies (the auto-move is written, ben's turn starts), and only the bad
    # record is reported, to come back later and end in the dead-letter queue
    assert answer == {"batchItemFailures": [{"itemIdentifier": "message-1"}]}
    session = harness.session(game_id)
    assert session.turn == 2
    assert sum(bin(mask).count("1") for mask in session.game().sheets[0].filled) == 1


@pytest.mark.usefixtures("wired")
def test_clock_handler_sqs_replayed_wake_twice_applies_once(
    harness: Harness, clock_handler: ClockHandler
) -> None:
    # given ana's turn, whose 60 s have passed
    game_id = harness.running_game(ANA, BEN)
    harness.clock.advance(seconds=61)
    wake = {"source": "wake", "gameId": game_id}

    # when the queue delivers the wake twice (SQS delivers at least once)
    first = clock_handler(replay_event(wake), CONTEXT)
    second = clock_handler(replay_event(wake), CONTEXT)

    # then the deadline applied once: one auto-move, and neither batch reports a failure
    assert first == second == {"batchItemFailures": []}
    assert harness.session(game_id).turn == 2


@pytest.mark.usefixtures("wired")
@pytest.mark.parametrize("source", ["lane_lost", "lane"])
def test_clock_handler_sqs_lane_replay_stops_counting_on_the_lane(
    harness: Harness, clock_handler: ClockHandler, source: str
) -> None:
    # given ana's turn, counted by the game's heartbeat lane
    game_id = harness.running_game(ANA, BEN)
    timers = harness.session(game_id).timers
    lane = timers.lane
    assert timers.lane_running

    # when the queue replays that lane's event (its execution has ended: nothing awaits an
    # answer, so a plain lane event means the same as a lost lane)
    answer = clock_handler(
        replay_event({"source": source, "gameId": game_id, "lane": lane}), CONTEXT
    )

    # then the game no longer counts on that lane (a new one serves the turn, which is still
    # ana's), and the record is done with
    assert answer == {"batchItemFailures": []}
    session = harness.session(game_id)
    assert session.timers.lane != lane
    assert session.turn == 1


@pytest.mark.usefixtures("wired")
def test_clock_handler_sqs_replay_for_a_deleted_game_is_no_failure(
    clock_handler: ClockHandler,
) -> None:
    # when the queue replays a wake of a game that no longer exists
    answer = clock_handler(replay_event({"source": "wake", "gameId": "gone"}), CONTEXT)

    # then the record is done with: nothing to retry
    assert answer == {"batchItemFailures": []}


def test_clock_handler_step_functions_path_does_not_import_the_batch_utility() -> None:
    # given a fresh interpreter with the function's code and the domain layer on its path
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared")])}
    probe = (
        "import sys; sys.path.insert(0, 'functions/clock'); import app; "
        "print('aws_lambda_powertools.utilities.batch' in sys.modules)"
    )

    # when the clock function's module is imported (its cold start)
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )

    # then the SQS path's batch utility is not loaded yet
    assert result.stdout.strip() == "False"
