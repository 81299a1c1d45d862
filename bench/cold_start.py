"""Each function's cold start against a bare boto3 baseline, in fresh interpreters.

A function's run imports its module (with `shared` and the function's directory on sys.path and
the function's environment from template.yaml) and calls its handler once with a realistic first
event (FUNCTIONS: a sample from events/, its player the one this bench signs up), against a moto
server this process runs (AWS_ENDPOINT_URL points at it): the first invocation's whole work, its
AWS requests included. The baseline imports boto3 and creates one DynamoDB client. Runs
alternate, baseline then function, so that a noisy machine weighs on both; each function's
figure is the ratio of its median to the median of the baselines run just before it.

    .venv/bin/python bench/cold_start.py [--rounds 7] [--only GameFunction ...] [--imports game]
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_PLAYER = "4f1c2b7a-0e7d-4c55-9a1e-6a2f3d9b8c01"  # the player of the events/ samples
AIM_RATIO = 1.5
FLOOR_NAME = "(stack floor)"


def _http(method: str, path: str) -> Callable[[dict[str, Any]], None]:
    """An HTTP API sample sent to another route."""

    def adjust(event: dict[str, Any]) -> None:
        event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} {path}"
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = method

    return adjust


@dataclass(frozen=True, slots=True)
class Function:
    """A function of template.yaml and its first call: a sample event from events/, changed by
    `adjust` where the sample is another route's."""

    logical_id: str
    event_file: str
    adjust: Callable[[dict[str, Any]], None] | None = None

    @property
    def name(self) -> str:
        return self.logical_id.removesuffix("Function")


# Every function of the template, each with the call it most often starts on.
FUNCTIONS = (
    Function("AuthorizerFunction", "authorizer.json"),  # a WebSocket $connect admitted
    Function("HttpAuthorizerFunction", "http_authorizer.json"),  # an HTTP request admitted
    Function("AccountsFunction", "http_me.json"),  # GET /me
    Function("PaymentsFunction", "http_me.json"),  # a signed Stripe webhook (_Setup)
    Function("EconomyFunction", "http_me.json", _http("GET", "/me/wallet")),
    Function("RewardsFunction", "rewards_stream.json"),  # a game's end paid out
    Function("ResultsFunction", "results_stream.json"),  # a game's end recorded
    Function("BoardsFunction", "board.json"),  # GET /boards
    Function("PrizesFunction", "prize_payout_week.json"),  # the week's prizes
    Function("ProgressionFunction", "tasks.json"),  # GET /me/tasks
    Function("ProgressionJobsFunction", "progression_week.json"),  # the week's tasks
    Function("AccountTriggersFunction", "cognito_post_authentication.json"),  # a sign-in
    Function("AccountJobsFunction", "account_jobs_daily.json"),  # the daily job
    Function("ConnectionsFunction", "connect.json"),  # $connect
    Function("GameFunction", "roll.json"),  # a frame: roll
    Function("ClockFunction", "clock_lane.json"),  # a turn's lane expiring
    # a slow game's turn for a player with no device: pywebpush is not imported (the first push
    # to a device pays its 268 ms more)
    Function("PushFunction", "push.json"),
)
MARK = "YAMB-BENCH"
BASELINE = f"""
import sys, time
started = time.perf_counter()
import boto3
boto3.client("dynamodb", region_name="us-east-1")
done = time.perf_counter()
print("{MARK}", (done - started) * 1000, 0.0, "ok")
"""
# What every function of this stack pays before its own code (decision 102): boto3's client
# (pynamodb's), a pydantic model built and validated, Powertools' logger and metrics, a pynamodb
# model; no request. Timed beside the baseline: the part of each ratio no function can go under.
FLOOR = f"""
import time
started = time.perf_counter()
import boto3
from pydantic import BaseModel
class Model(BaseModel):
    name: str
    count: int
Model(name="floor", count=1)
from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.utilities.typing import LambdaContext
Logger(service="floor"); Metrics(namespace="floor", service="floor")
from pynamodb.attributes import UnicodeAttribute
from pynamodb.models import Model as Item
class Row(Item):
    class Meta:
        table_name = "floor"
        region = "us-east-1"
    pk = UnicodeAttribute(hash_key=True)
Row._get_connection().connection.client
done = time.perf_counter()
print("{MARK}", (done - started) * 1000, 0.0, "ok")
"""
HANDLER = f"""
import sys, time
class Hidden:  # what no layer ships is absent on Lambda
    names = frozenset(sys.argv[4].split(","))
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Hidden())
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
    answer = app.%s(event, context)
    if isinstance(answer, dict) and "statusCode" in answer:
        outcome = str(answer["statusCode"])
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


def _add_profile(aws: Any, token: str) -> str:
    """The authorizer admits only an account with an active profile (yamb_service.edge.identity);
    the HTTP functions' samples name this player. Its id."""
    import jwt
    from yamb.accounts.profile import AccountStatus, Profile
    from yamb_service.accounts.dynamo import DynamoAccountStore
    from yamb_service.common.dynamo import item_model
    from yamb_service.game.dynamo import DynamoGameRepository

    os.environ.update(aws.env())  # this process's own clients, as the handlers' runs get
    player_id = str(jwt.decode(token, options={"verify_signature": False})["sub"])
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
    return player_id


def _stripe_webhook(event: dict[str, Any], secret: str) -> None:
    """`event` (an HTTP API sample) made Stripe's delivery of an event the payments function
    verifies and ignores: signed with the local webhook secret, as Stripe's SDK checks it."""
    payload = json.dumps(
        {
            "id": "evt_cold_start",
            "object": "event",
            "type": "customer.created",
            "api_version": "2024-06-20",
            "created": int(time.time()),
            "data": {"object": {"id": "cus_cold_start", "object": "customer"}},
        }
    )
    stamp = int(time.time())
    signed = hmac.new(secret.encode(), f"{stamp}.{payload}".encode(), hashlib.sha256)
    _http("POST", "/webhooks/stripe")(event)
    del event["requestContext"]["authorizer"]
    event["headers"]["stripe-signature"] = f"t={stamp},v1={signed.hexdigest()}"
    event["body"] = payload


class _Setup:
    """The moto server, the first events (the authorizers' with a real ID token, the others'
    player the one signed up here) and each function's environment."""

    def __init__(self, aws: Any, directory: Path) -> None:
        from devstack.aws import local_secret_value

        self.aws = aws
        (directory / "layer").mkdir()
        self.layer = layer_botocore(directory / "layer")
        aws.create_player("cold-start", "Password-123", "cold-start@example.com")
        token = aws.id_token("cold-start", "Password-123")
        player_id = _add_profile(aws, token)
        self.events: dict[str, Path] = {}
        self.environments: dict[str, dict[str, str]] = {}
        self.memory: dict[str, int] = {}
        self.code: dict[str, tuple[str, str]] = {}  # the function's directory, its handler
        self.hidden = ",".join(not_shipped())
        jwks = f"{aws.endpoint_url}/{aws.user_pool_id()}/.well-known/jwks.json"
        overrides = {"CONNECTIONS_ENDPOINT": aws.endpoint_url, "JWKS_URL": jwks}
        for function in FUNCTIONS:
            logical_id = function.logical_id
            spec = aws.template.function(logical_id)
            environment = aws.function_environment(logical_id, overrides)
            text = (ROOT / "events" / function.event_file).read_text(encoding="utf-8")
            event = json.loads(text.replace(SAMPLE_PLAYER, player_id))
            if function.adjust is not None:
                function.adjust(event)
            if logical_id == "AuthorizerFunction":
                event["queryStringParameters"] = {"token": token}
                event["multiValueQueryStringParameters"] = {"token": [token]}
            elif logical_id == "HttpAuthorizerFunction":
                event["identitySource"] = [token]
                event["headers"]["authorization"] = token
            elif logical_id == "PaymentsFunction":
                secret = environment["STRIPE_WEBHOOK_SECRET_PARAMETER"]
                _stripe_webhook(event, local_secret_value(secret))
            path = directory / f"{logical_id}.json"
            path.write_text(json.dumps(event), encoding="utf-8")
            self.events[logical_id] = path
            self.environments[logical_id] = {**os.environ, **aws.env(), **environment}
            self.memory[logical_id] = spec.memory_size or 128
            module, handler = spec.handler.rsplit(".", 1)
            assert module == "app", spec.handler
            self.code[logical_id] = (Path(spec.code_uri).name, handler)

    def run(self, logical_id: str, *, baseline: bool, floor: bool = False) -> Run:
        """One fresh interpreter: the baseline, the stack's floor (FLOOR, in the function's
        environment) or the function's cold start."""
        if baseline:
            command = [sys.executable, "-c", BASELINE]
        elif floor:
            command = [sys.executable, "-c", FLOOR]
        else:
            command = [
                sys.executable,
                "-c",
                HANDLER % self.code[logical_id],
                str(self.events[logical_id]),
                logical_id,
                str(self.memory[logical_id]),
                self.hidden,
            ]
        environment = self.environments[logical_id]
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
        raise RuntimeError(f"{logical_id}: no timing ({result.stderr.strip()[-300:]})")


@contextmanager
def _setup() -> Iterator[_Setup]:
    from devstack.aws import LocalAws
    from devstack.template import Template

    with (
        tempfile.TemporaryDirectory() as directory,
        LocalAws(Template(ROOT / "template.yaml")) as aws,
    ):
        yield _Setup(aws, Path(directory))


def not_shipped() -> list[str]:
    """The top-level modules of the installed libraries that no layer ships (the local stack's,
    the tests', the tools'): hidden from the functions' runs, as Lambda does not have them.
    Some libraries import what they find (Stripe's SDK takes aiohttp when it is there)."""
    import importlib.metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    todo = [
        Requirement(line.split("#")[0].strip())
        for requirements in (ROOT / "layers").glob("*/requirements.txt")
        for line in requirements.read_text(encoding="utf-8").splitlines()
        if line.split("#")[0].strip()
    ]
    shipped: set[str] = set()
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in shipped:
            continue
        shipped.add(name)
        for text in importlib.metadata.requires(name) or []:
            needed = Requirement(text)
            extras = requirement.extras | {""}
            if needed.marker is None or any(needed.marker.evaluate({"extra": e}) for e in extras):
                todo.append(needed)
    return sorted(
        module
        for module, distributions in importlib.metadata.packages_distributions().items()
        if not {canonicalize_name(d) for d in distributions} & shipped
        and module not in ("yamb", "yamb_service", "yamb_client", "yamb_tools", "devstack")
        and not module.startswith("_")
    )


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


def cold_starts(rounds: int = 7, only: tuple[str, ...] = ()) -> list[ColdStart]:
    """`rounds` interleaved runs of each function and the baseline (after one run of each that
    warms the server and the file cache, not counted), with bytecode for every module. `only`:
    these functions (logical ids or their short names), else all of them."""
    chosen = [f for f in FUNCTIONS if not only or f.logical_id in only or f.name in only]
    runs: dict[str, list[Run]] = {f.logical_id: [] for f in chosen}
    baselines: dict[str, list[Run]] = {f.logical_id: [] for f in chosen}
    compile_project()
    floors: list[Run] = []
    floor_baselines: list[Run] = []
    with _setup() as setup:
        for function in chosen:
            setup.run(function.logical_id, baseline=True)
            setup.run(function.logical_id, baseline=False)
        for _ in range(rounds):
            anyone = chosen[0].logical_id
            floor_baselines.append(setup.run(anyone, baseline=True))
            floors.append(setup.run(anyone, baseline=False, floor=True))
            for function in chosen:
                baselines[function.logical_id].append(setup.run(function.logical_id, baseline=True))
                runs[function.logical_id].append(setup.run(function.logical_id, baseline=False))
    return [ColdStart(FLOOR_NAME, floors, floor_baselines)] + [
        ColdStart(f.name, runs[f.logical_id], baselines[f.logical_id]) for f in chosen
    ]


def print_cold_starts(starts: list[ColdStart], rounds: int, indent: str = "  ") -> None:
    print(
        f"{indent}cold start, fresh interpreters, medians of {rounds} interleaved runs: the "
        "function's import + its first call (FUNCTIONS) against a moto server, vs "
        "`import boto3; boto3.client('dynamodb')` run just before each"
    )
    for start in starts:
        verdict = "met" if start.ratio <= AIM_RATIO else "NOT met"
        if start.handler == FLOOR_NAME:
            print(
                f"{indent}  {start.handler:<16}{start.median_ms:6.0f} ms vs baseline "
                f"{start.baseline_ms:4.0f} ms: {start.ratio:4.2f}x (boto3, pydantic, Powertools "
                "and pynamodb loaded, one model each; no request: no function starts faster)"
            )
            continue
        outcome = ", ".join(sorted(start.outcomes))
        print(
            f"{indent}  {start.handler:<16}{start.median_ms:6.0f} ms "
            f"(import {start.median_import_ms:4.0f} + first call {start.median_call_ms:4.0f}, "
            f"{outcome}) vs baseline {start.baseline_ms:4.0f} ms: {start.ratio:4.2f}x "
            f"(aim: within {AIM_RATIO}x): {verdict}"
        )


def import_costs(
    directory: str = "game", top: int = 10, runs: int = 3
) -> list[tuple[str, float, float]]:
    """`python -X importtime` of the function's module (functions/<directory>), the fastest of
    `runs` (the least disturbed): the `top` imports by cumulative time, (module, cumulative ms,
    self ms)."""
    from devstack.template import Template

    template = Template(ROOT / "template.yaml")
    spec = next(f for f in template.functions() if Path(f.code_uri).name == directory)
    environment = {**os.environ, **spec.environment, "AWS_REGION": "us-east-1"}
    fastest: list[tuple[str, float, float]] = []
    for _ in range(runs):
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", IMPORT_ONLY % directory],
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", nargs="*", default=[], help="logical ids or short names")
    parser.add_argument("--imports", nargs="*", default=[], help="functions/ directories")
    arguments = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "shared"))
    for directory in arguments.imports:
        print(f"  {directory}'s biggest imports (cumulative ms / self ms):")
        for name, cumulative, own in import_costs(directory, top=25):
            print(f"    {cumulative:7.1f} {own:6.1f}  {name}")
    if arguments.imports and not arguments.only:
        return
    starts = cold_starts(arguments.rounds, tuple(arguments.only))
    print_cold_starts(starts, arguments.rounds)


if __name__ == "__main__":
    main()
