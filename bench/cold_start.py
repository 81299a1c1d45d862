"""Each handler's cold start against a bare boto3 baseline, in fresh interpreters.

A handler's run imports its module (with `shared` and the function's directory on sys.path and
the function's environment from template.yaml) and calls the handler once with its sample event
from events/, against a moto server this process runs (AWS_ENDPOINT_URL points at it): the first
invocation's whole work, its AWS requests included. The baseline imports boto3 and creates one
DynamoDB client. Runs alternate, baseline then handler, so that a noisy machine weighs on both.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# handler directory: (logical id, sample event)
HANDLERS = {
    "authorizer": ("AuthorizerFunction", "authorizer.json"),
    "connections": ("ConnectionsFunction", "connect.json"),
    "game": ("GameFunction", "roll.json"),
    "clock": ("ClockFunction", "clock_lane.json"),
}
MARK = "YAMB-BENCH"
BASELINE = f"""
import sys, time
started = time.perf_counter()
import boto3
boto3.client("dynamodb", region_name="us-east-1")
done = time.perf_counter()
print("{MARK}", (done - started) * 1000, 0.0, "ok")
"""
HANDLER = f"""
import sys, time
started = time.perf_counter()
sys.path[:0] = ["shared", "functions/%s"]
import app
imported = time.perf_counter()
import json, types
with open(sys.argv[1], encoding="utf-8") as file:
    event = json.load(file)
context = types.SimpleNamespace(
    function_name=sys.argv[2], memory_limit_in_mb=int(sys.argv[3]),
    invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:" + sys.argv[2],
    aws_request_id="cold-start", get_remaining_time_in_millis=lambda: 10_000,
)
outcome = "ok"
try:
    app.handler(event, context)
except Exception as error:
    outcome = type(error).__name__
done = time.perf_counter()
print("{MARK}", (imported - started) * 1000, (done - imported) * 1000, outcome)
"""
IMPORT_ONLY = 'import sys; sys.path[:0] = ["shared", "functions/%s"]; import app'


@dataclass(frozen=True, slots=True)
class Run:
    import_ms: float
    call_ms: float
    outcome: str

    @property
    def ms(self) -> float:
        return self.import_ms + self.call_ms


@dataclass(frozen=True, slots=True)
class ColdStart:
    handler: str
    runs: list[Run]
    baselines: list[Run]  # the baseline run just before each of this handler's runs

    @property
    def median_ms(self) -> float:
        return statistics.median(run.ms for run in self.runs)

    @property
    def median_import_ms(self) -> float:
        return statistics.median(run.import_ms for run in self.runs)

    @property
    def median_call_ms(self) -> float:
        return statistics.median(run.call_ms for run in self.runs)

    @property
    def baseline_ms(self) -> float:
        return statistics.median(run.ms for run in self.baselines)

    @property
    def ratio(self) -> float:
        return self.median_ms / self.baseline_ms

    @property
    def outcomes(self) -> set[str]:
        return {run.outcome for run in self.runs}


def _add_profile(aws: Any, token: str) -> None:
    """The authorizer admits only an account with an active profile (yamb_service.edge.identity)."""
    import jwt
    from yamb.accounts.profile import AccountStatus, Profile
    from yamb_service.accounts.dynamo import DynamoAccountStore
    from yamb_service.common.dynamo import item_model
    from yamb_service.game.dynamo import DynamoGameRepository

    os.environ.update(aws.env())  # this process's own clients, as the handlers' runs get
    player_id = jwt.decode(token, options={"verify_signature": False})["sub"]
    table = (aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    store = DynamoAccountStore(item_model(*table), DynamoGameRepository(item_model(*table)).result)
    store.create(
        Profile(
            player_id=player_id,
            nickname="cold-start",
            email="cold-start@example.com",
            status=AccountStatus.ACTIVE,
            created_at=aws.clock.now(),
        )
    )


class _Setup:
    """The moto server, the sample events (the authorizer's with a real ID token) and each
    function's environment."""

    def __init__(self, aws: Any, directory: Path) -> None:
        self.aws = aws
        (directory / "layer").mkdir()
        self.layer = layer_botocore(directory / "layer")
        aws.create_player("cold-start", "Password-123", "cold-start@example.com")
        token = aws.id_token("cold-start", "Password-123")
        _add_profile(aws, token)
        self.events: dict[str, Path] = {}
        self.environments: dict[str, dict[str, str]] = {}
        self.memory: dict[str, int] = {}
        jwks = f"{aws.endpoint_url}/{aws.user_pool_id()}/.well-known/jwks.json"
        overrides = {"CONNECTIONS_ENDPOINT": aws.endpoint_url, "JWKS_URL": jwks}
        for handler, (logical_id, event_file) in HANDLERS.items():
            event = json.loads((ROOT / "events" / event_file).read_text(encoding="utf-8"))
            if handler == "authorizer":
                event["queryStringParameters"] = {"token": token}
                event["multiValueQueryStringParameters"] = {"token": [token]}
            path = directory / event_file
            path.write_text(json.dumps(event), encoding="utf-8")
            self.events[handler] = path
            self.environments[handler] = {
                **os.environ,
                **aws.env(),
                **aws.function_environment(logical_id, overrides),
            }
            self.memory[handler] = aws.template.function(logical_id).memory_size or 128

    def run(self, handler: str, *, baseline: bool) -> Run:
        if baseline:
            command = [sys.executable, "-c", BASELINE]
        else:
            logical_id, _ = HANDLERS[handler]
            command = [
                sys.executable,
                "-c",
                HANDLER % handler,
                str(self.events[handler]),
                logical_id,
                str(self.memory[handler]),
            ]
        environment = self.environments[handler]
        if not baseline:  # the handler with the layer's botocore first on its path
            environment = {**environment, "PYTHONPATH": str(self.layer)}
        result = subprocess.run(
            command,
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        for line in reversed(result.stdout.splitlines()):
            if line.startswith(MARK):
                _, import_ms, call_ms, outcome = line.split()
                return Run(float(import_ms), float(call_ms), outcome)
        raise RuntimeError(f"{handler}: no timing ({result.stderr.strip()[-300:]})")


@contextmanager
def _setup() -> Iterator[_Setup]:
    from devstack.aws import LocalAws
    from devstack.template import Template

    with (
        tempfile.TemporaryDirectory() as directory,
        LocalAws(Template(ROOT / "template.yaml")) as aws,
    ):
        yield _Setup(aws, Path(directory))


def layer_botocore(directory: Path) -> Path:
    """botocore as the dependencies layer ships it (layers/dependencies/trim_botocore.py): its
    data kept for the services the functions call. The handlers run with it first on their
    path; the baseline keeps the full package."""
    import botocore

    sys.path.insert(0, str(ROOT / "layers" / "dependencies"))
    from trim_botocore import trim

    shutil.copytree(Path(botocore.__file__).parent, directory / "botocore")
    trim(directory / "botocore")
    return directory


def compile_project() -> None:
    """Bytecode for the project's own modules, as the layers ship it (shared/Makefile): with
    PYTHONDONTWRITEBYTECODE set (this machine sets it), every run would compile them again,
    which a deployed function does not do."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "shared", "functions"], cwd=ROOT, check=True
    )


def cold_starts(rounds: int = 7) -> list[ColdStart]:
    """`rounds` interleaved runs of each handler and the baseline (after one run of each that
    warms the server and the file cache, not counted), with bytecode for every module."""
    runs: dict[str, list[Run]] = {handler: [] for handler in HANDLERS}
    baselines: dict[str, list[Run]] = {handler: [] for handler in HANDLERS}
    compile_project()
    with _setup() as setup:
        for handler in HANDLERS:
            setup.run(handler, baseline=True)
            setup.run(handler, baseline=False)
        for _ in range(rounds):
            for handler in HANDLERS:
                baselines[handler].append(setup.run(handler, baseline=True))
                runs[handler].append(setup.run(handler, baseline=False))
    return [ColdStart(handler, runs[handler], baselines[handler]) for handler in HANDLERS]


def import_costs(
    handler: str = "game", top: int = 10, runs: int = 3
) -> list[tuple[str, float, float]]:
    """`python -X importtime` of the handler's module, the fastest of `runs` (the least
    disturbed): the `top` imports by cumulative time, (module, cumulative ms, self ms)."""
    logical_id, _ = HANDLERS[handler]
    from devstack.template import Template

    environment = {
        **os.environ,
        **Template(ROOT / "template.yaml").function(logical_id).environment,
        "AWS_REGION": "us-east-1",
    }
    fastest: list[tuple[str, float, float]] = []
    for _ in range(runs):
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", IMPORT_ONLY % handler],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        costs: list[tuple[str, float, float]] = []
        for line in result.stderr.splitlines():
            if not line.startswith("import time:") or "cumulative" in line:
                continue
            own, cumulative, name = line.removeprefix("import time:").split("|")
            costs.append((name.rstrip(), int(cumulative) / 1000, int(own) / 1000))
        costs.sort(key=lambda cost: cost[1], reverse=True)
        if costs and (not fastest or costs[0][1] < fastest[0][1]):
            fastest = costs
    return fastest[:top]
