"""The whole backend on this machine: embedded AWS (moto) provisioned from template.yaml, our
WebSocket gateway in front of the template's handlers, and the real timer state machines.

    python -m devstack            # what `make dev` runs

Every function's handler is imported from its CodeUri and runs in this process, with the
environment the template gives it (CONNECTIONS_ENDPOINT pointing at the local gateway).
"""

import json
import logging
import os
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Self

import boto3

from devstack.aws import LocalAws
from devstack.gateway import GatewayThread, LocalGateway
from devstack.template import Template, load_handler

PROJECT_ROOT = Path(__file__).resolve().parents[1]
STATE_FILE_VARIABLE = "YAMB_DEVSTACK_STATE"
# Where the running stack says where it is (`python -m devstack token`, `yamb play` read it);
# $YAMB_DEVSTACK_STATE moves it (a test's stack does not clobber the one `make dev` runs).
STATE_FILE = Path(os.environ.get(STATE_FILE_VARIABLE) or PROJECT_ROOT / ".devstack.json")
LOCAL_PASSWORD = "Password-123"
LOG = logging.getLogger(__name__)


class LocalStackNotRunningError(RuntimeError):
    def __init__(self) -> None:
        super().__init__("no local stack is running: start it with `make dev`")


def _forget_warm_state() -> None:
    """One process may run several stacks (tests do): what a warm function keeps from before,
    its settings, its AWS clients and the metrics namespace read at import, is read again."""
    from yamb_service import config, observability, wiring  # noqa: PLC0415

    config.service_settings.cache_clear()
    config.authorizer_settings.cache_clear()
    wiring.game_service.cache_clear()
    observability.metrics.namespace = os.environ["POWERTOOLS_METRICS_NAMESPACE"]


def _use_clock(now: Callable[[], datetime] | None) -> Callable[[], datetime]:
    """The game service's clock becomes `now` (None: real time); the one it replaces."""
    from yamb_service import wiring  # noqa: PLC0415

    previous = wiring.clock
    wiring.clock = now or wiring.utc_now
    return previous


class LocalStack:
    def __init__(
        self,
        root: Path = PROJECT_ROOT,
        *,
        port: int = 0,
    ) -> None:
        self.root = root
        template = Template(root / "template.yaml")
        self.stage = str(template.context.ref("StageName"))
        self.aws = LocalAws(template)
        specs = template.functions()
        # As Lambda does, a function's code is imported with its environment in place: Powertools
        # reads its service name and metrics namespace at import.
        saved = dict(os.environ)
        try:
            os.environ.update(self._environment([spec.logical_id for spec in specs], {}))
            handlers = {spec.logical_id: load_handler(root, spec) for spec in specs}
        finally:
            os.environ.clear()
            os.environ.update(saved)
        routes = {route.route_key: handlers[route.function] for route in template.routes()}
        authorizer = template.connect_authorizer()
        self.gateway = LocalGateway(
            routes,
            authorizer=handlers[authorizer.function] if authorizer else None,
            stage=self.stage,
            port=port,
            identity_source=authorizer.identity_source if authorizer else None,
        )
        self._thread: GatewayThread | None = None
        self._handlers = handlers
        self._saved_environment: dict[str, str] | None = None
        self._saved_clock: Callable[[], datetime] | None = None

    def start(self) -> Self:
        self._thread = self.gateway.run_in_thread().start()
        overrides = {
            "CONNECTIONS_ENDPOINT": self._thread.management_endpoint,
            # moto serves the key set at its own root, not at the issuer's address.
            "JWKS_URL": f"{self.aws.endpoint_url}/{self.aws.user_pool_id()}/.well-known/jwks.json",
            "POWERTOOLS_METRICS_DISABLED": "true",
            # Scripted clients and tests play far faster than people: the per-connection limit
            # is lifted here (its own tests run in tests/integration).
            "THROTTLE_PER_SECOND": "1000",
            "THROTTLE_BURST": "1000",
        }
        # One process runs every function: their (disjoint or equal) variables are merged,
        # and put back as they were when the stack stops.
        self._saved_environment = dict(os.environ)
        os.environ.update(self._environment(list(self._handlers), overrides))
        _forget_warm_state()
        self._saved_clock = _use_clock(self.aws.clock.now)
        for logical_id, handler in self._handlers.items():
            self.aws.register_function(logical_id, handler)
        return self

    def _environment(self, functions: list[str], overrides: dict[str, str]) -> dict[str, str]:
        """The embedded AWS's variables and every function's (merged) with `overrides`."""
        environment = self.aws.env()
        for logical_id in functions:
            environment.update(self.aws.function_environment(logical_id, overrides))
        return environment

    @property
    def url(self) -> str:
        assert self._thread is not None
        return self._thread.url

    def describe(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "endpoint": self.aws.endpoint_url,
            "userPoolId": self.aws.user_pool_id(),
            "userPoolClientId": self.aws.user_pool_client_id(),
        }

    def player_token(self, name: str, password: str = LOCAL_PASSWORD) -> str:
        """Creates (if new) and logs in a local player; their Cognito ID token."""
        try:
            self.aws.create_player(name, password, f"{name}@example.com")
        except Exception as error:
            if "UsernameExists" not in repr(error):
                raise
        return self.aws.id_token(name, password)

    def stop(self) -> None:
        """Everything stops within about two seconds: the gateway (its sockets close, what is
        under way has a second), the timers, moto; moto and the environment whatever fails."""
        try:
            if self._thread is not None:
                # Closing the sockets runs $disconnect, which may start return countdowns.
                self._thread.stop(grace=1.0)
            self._stop_timers()
        finally:
            self.aws.stop()
            if self._saved_clock is not None:
                _use_clock(self._saved_clock)
                self._saved_clock = None
            if self._saved_environment is not None:
                os.environ.clear()
                os.environ.update(self._saved_environment)
                self._saved_environment = None

    def _stop_timers(self, timeout: float = 1.5, quiet_rounds: int = 2) -> None:
        """No timer outlives its stack: every running execution is stopped, rounds after rounds
        until `quiet_rounds` in a row find none (a closing socket may still start one), for at
        most `timeout` seconds.

        A stop does not interrupt a lane waiting for its heartbeat (moto's wait, on the local
        clock): the clock jumps past every deadline (a week, the lanes' TimeoutSeconds), so
        that the stopped lane sees its wait end and finishes at once. An execution still
        running after `timeout` is left to its daemon thread, which dies with the process."""
        stepfunctions = self.aws.client("stepfunctions")
        machines = [
            m["stateMachineArn"] for m in stepfunctions.list_state_machines()["stateMachines"]
        ]
        deadline = time.monotonic() + timeout
        stopped: set[str] = set()
        quiet = 0
        while quiet < quiet_rounds:
            running = [
                execution["executionArn"]
                for machine in machines
                for page in stepfunctions.get_paginator("list_executions").paginate(
                    stateMachineArn=machine, statusFilter="RUNNING"
                )
                for execution in page["executions"]
            ]
            for execution_arn in running:
                if execution_arn not in stopped:
                    stepfunctions.stop_execution(executionArn=execution_arn)
                    stopped.add(execution_arn)
            if running:
                self.aws.clock.advance(days=8)
            quiet = 0 if running else quiet + 1
            if time.monotonic() >= deadline:
                if running:
                    LOG.warning("%d timer executions still running at stop", len(running))
                return
            time.sleep(0.05)

    def __enter__(self) -> Self:
        try:
            return self.start()
        except BaseException:  # a start that fails half-way stops what it started
            self.stop()
            raise

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def write_state(stack: LocalStack) -> None:
    STATE_FILE.write_text(json.dumps(stack.describe(), indent=2), encoding="utf-8")


def read_state(state_file: Path | None = None) -> dict[str, Any]:
    """What the running stack wrote to its state file (`STATE_FILE` by default)."""
    path = STATE_FILE if state_file is None else state_file
    try:
        state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LocalStackNotRunningError from None
    return state


def local_token(name: str, state_file: Path | None = None) -> str:
    """An ID token for a player of the running local stack, signed up first if new."""
    state = read_state(state_file)
    cognito = boto3.client(
        "cognito-idp",
        endpoint_url=state["endpoint"],
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client_id = state["userPoolClientId"]
    try:
        cognito.sign_up(
            ClientId=client_id,
            Username=name,
            Password=LOCAL_PASSWORD,
            UserAttributes=[{"Name": "email", "Value": f"{name}@example.com"}],
        )
        cognito.admin_confirm_sign_up(UserPoolId=state["userPoolId"], Username=name)
    except cognito.exceptions.UsernameExistsException:
        pass
    answer = cognito.initiate_auth(
        ClientId=client_id,
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": name, "PASSWORD": LOCAL_PASSWORD},
    )
    return str(answer["AuthenticationResult"]["IdToken"])
