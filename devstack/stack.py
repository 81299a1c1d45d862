"""The whole backend on this machine: embedded AWS (moto) provisioned from template.yaml, our
gateway in front of the template's handlers (the WebSocket API, and on the same port the HTTP API
with its Lambda authorizers, the local mailbox and the scheduled jobs), and the real timer state
machines.

    python -m devstack            # what `make dev` runs

Every function's handler is imported from its CodeUri and runs in this process, with the
environment the template gives it (CONNECTIONS_ENDPOINT pointing at the local gateway). The
Cognito triggers and the state machines' Lambda tasks call the same handlers (`LocalAws`). A
scheduled job (a function's ScheduleV2 / Schedule event) runs only when asked: `run_job`, the
gateway's ``POST /_local/jobs/<name>``, ``python -m devstack job <name>``.

The web client (``client/web``) is served on a port of its own (`LocalStack.web_url`, devstack.web)
with a generated ``/config.json`` that tells the page where the stack is, and
``POST /_local/token`` to sign a local player in from the page.
"""

import dataclasses
import functools
import hashlib
import json
import logging
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Self

import boto3
import jwt

from devstack import srp
from devstack.aws import LocalAws
from devstack.gateway import GatewayThread, HttpAuthorizer, HttpRoute, LocalGateway, iso8601_utc
from devstack.policy import DynamoDbGuard, guard_dynamodb
from devstack.push import local_vapid_public_key
from devstack.streams import StreamPoller
from devstack.template import Schedule, Template, TemplateError, load_handler
from devstack.web import LocalWebServer

PROJECT_ROOT = Path(__file__).resolve().parents[1]
STATE_FILE_VARIABLE = "YAMB_DEVSTACK_STATE"
# Where the running stack says where it is (`python -m devstack token`, `yamb play` read it);
# $YAMB_DEVSTACK_STATE moves it (a test's stack does not clobber the one `make dev` runs).
STATE_FILE = Path(os.environ.get(STATE_FILE_VARIABLE) or PROJECT_ROOT / ".devstack.json")
LOCAL_PASSWORD = "Password-123"
# Port 9 (discard) on the loopback: nothing listens, the connection is refused at once.
LOCAL_STRIPE_API_BASE = "http://127.0.0.1:9"
# The accounts' HTTP API as `player_token` uses it: a player registers, then follows the link.
REGISTER_ROUTE = "POST /accounts"
VERIFY_PATH = "/accounts/verify"
LOG = logging.getLogger(__name__)
# Installed at import: code that wraps botocore's call later (a test's recorder) wraps the guard.
guard_dynamodb()


class LocalStackNotRunningError(RuntimeError):
    def __init__(self) -> None:
        super().__init__("no local stack is running: start it with `make dev`")


def web_port_for(port: int, web_port: int | None = None) -> int:
    """The web client's port: `web_port` when given, else a free one (0) beside a gateway on a
    free port, else the one after the gateway's (8765: 8766)."""
    if web_port is not None:
        return web_port
    return 0 if port == 0 else port + 1


def _forget_warm_state() -> None:
    """One process may run several stacks (tests do): what a warm function keeps from before,
    its settings, its AWS clients and the metrics namespace read at import, is read again."""
    from yamb_service.common import observability  # noqa: PLC0415

    # Every cached function of the service's modules (settings, wired services and clients:
    # config, wiring, account_wiring...), whatever they are called.
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "yamb_service" or name.startswith("yamb_service.")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
    observability.metrics.namespace = os.environ["POWERTOOLS_METRICS_NAMESPACE"]


def _use_clock(now: Callable[[], datetime] | None) -> Callable[[], datetime]:
    """The game service's clock becomes `now` (None: real time); the one it replaces."""
    from yamb_service.common import clock  # noqa: PLC0415

    previous = clock.clock
    clock.clock = now or clock.utc_now
    return previous


class LocalStack:
    """The whole backend of `root`'s template (see the module). `port` is the gateway's (0: a
    free one); `web_port` the web client's (None: a free one when `port` is 0, else
    ``port + 1``), which serves `web_root` (``<root>/client/web`` by default)."""

    def __init__(
        self,
        root: Path = PROJECT_ROOT,
        *,
        port: int = 0,
        web_port: int | None = None,
        web_root: Path | None = None,
    ) -> None:
        self.root = root
        self.template = Template(root / "template.yaml")
        self.stage = str(self.template.context.ref("StageName"))
        self._thread: GatewayThread | None = None
        self._saved_environment: dict[str, str] | None = None
        self._saved_clock: Callable[[], datetime] | None = None
        self._stopped = False
        self.streams: list[StreamPoller] = []
        self.aws = LocalAws(self.template)
        # Each function's DynamoDB calls pass its own statements, as on AWS (devstack.policy).
        self._guard = DynamoDbGuard(
            table_arn=lambda: str(self.template.context.get_att("GameTable", "Arn")),
            statements=functools.cache(self._dynamodb_statements),
        )
        guard_dynamodb()
        try:
            self._handlers = self._load_handlers()
            self.gateway = self._gateway(port)
        except BaseException:  # a handler that cannot be imported: moto does not linger
            self.aws.stop()
            raise
        self.web = LocalWebServer(
            root / "client" / "web" if web_root is None else web_root,
            config=self.web_config,
            token=self.player_token,
            pay=self.simulate_payment,
            port=web_port_for(port, web_port),
        )

    def _dynamodb_statements(self, logical_id: str) -> list[Mapping[str, Any]]:
        """The function's inline policy statements, resolved (SAM policy templates are not
        read: the template's functions use none)."""
        found: list[Mapping[str, Any]] = []
        for policy in self.template.properties(logical_id).get("Policies") or []:
            if isinstance(policy, dict) and "Statement" in policy:
                found.extend(self.template.resolve(policy["Statement"]))
        return found

    def _load_handlers(self) -> dict[str, Callable[[Any, Any], Any]]:
        specs = self.template.functions()
        # As Lambda does, a function's code is imported with its environment in place: Powertools
        # reads its service name and metrics namespace at import.
        saved = dict(os.environ)
        try:
            os.environ.update(self._environment([spec.logical_id for spec in specs], {}))
            return {
                spec.logical_id: self._guard.as_function(
                    spec.logical_id, load_handler(self.root, spec)
                )
                for spec in specs
            }
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def _gateway(self, port: int) -> LocalGateway:
        template, handlers = self.template, self._handlers
        websocket_routes = template.routes()
        routes = {route.route_key: handlers[route.function] for route in websocket_routes}
        authorizer = template.connect_authorizer()
        http_api = self._http_api()
        return LocalGateway(
            routes,
            authorizer=handlers[authorizer.function] if authorizer else None,
            stage=self.stage,
            port=port,
            identity_source=authorizer.identity_source if authorizer else None,
            function_names={
                route.route_key: self._function_name(route.function) for route in websocket_routes
            },
            authorizer_function_name=(
                self._function_name(authorizer.function) if authorizer else "local-authorizer"
            ),
            http_routes=self._http_routes(http_api, handlers),
            cors=None if http_api is None else template.http_cors(http_api),
            http_api_id=(
                "local-http-api" if http_api is None else str(template.context.ref(http_api))
            ),
            mailbox=self.aws.mails,
            jobs=self.jobs,
            run_job=self.run_job,
            openapi=self.root / "docs" / "openapi.yaml",
            clock=self.aws.clock.now,
        )

    # -------------------------------------------------------------- wiring

    def _function_name(self, logical_id: str) -> str:
        return str(self.template.context.ref(logical_id))

    def _http_api(self) -> str | None:
        apis = self.template.http_apis()
        if len(apis) > 1:
            raise TemplateError(f"the local gateway serves one HTTP API, the template has {apis}")
        return apis[0] if apis else None

    def _http_routes(
        self, api: str | None, handlers: dict[str, Callable[[Any, Any], Any]]
    ) -> list[HttpRoute]:
        """The HTTP API's routes, each with its handler and its authorizer's."""
        if api is None:
            return []
        aws = self.aws

        def context_of(logical_id: str) -> Callable[[], Any]:
            return lambda: aws.lambda_context(logical_id)

        authorizers = {
            name: HttpAuthorizer(
                handler=handlers[spec.function],
                identity_source=spec.identity_source,
                enable_simple_responses=spec.enable_simple_responses,
                payload_format_version=spec.payload_format_version,
                reauthorize_every=spec.reauthorize_every,
                name=name,
                function_name=self._function_name(spec.function),
                context=context_of(spec.function),
            )
            for name, spec in self.template.http_authorizers(api).items()
        }
        routes = self.template.http_routes(api)
        for route in routes:
            if route.payload_format_version != "2.0":
                raise TemplateError(
                    f"{route.function}.{route.event}: payload format "
                    f"{route.payload_format_version} is not emulated locally (2.0 is)"
                )
        return [
            HttpRoute(
                route_key=route.route_key,
                handler=handlers[route.function],
                authorizer=None if route.authorizer is None else authorizers[route.authorizer],
                function_name=self._function_name(route.function),
                timeout=30.0 if route.timeout_ms is None else route.timeout_ms / 1000,
                context=context_of(route.function),
            )
            for route in routes
        ]

    # -------------------------------------------------------------- scheduled jobs

    def schedules(self) -> list[Schedule]:
        """The template's scheduled jobs (functions' ScheduleV2 and Schedule events)."""
        return self.template.schedules()

    def jobs(self) -> list[dict[str, Any]]:
        """The scheduled jobs as the gateway lists them (`GET /_local/jobs`)."""
        return [
            {
                "name": schedule.name,
                "function": schedule.function,
                "type": schedule.kind,
                "expression": schedule.expression,
                "timezone": schedule.timezone,
                "input": schedule.input,
                "enabled": schedule.enabled,
            }
            for schedule in self.schedules()
        ]

    def run_job(self, schedule_or_function: str, now: datetime | str | None = None) -> Any:
        """Invoke a schedule's function (the schedule's name, `<Function><Event>`, or a function
        with a single schedule) as its schedule would: with its Input, plus ``"now"`` (ISO 8601
        UTC, ``2027-01-05T03:15:00Z``) when `now` is given. Its result; its exception."""
        schedule = self.template.schedule(schedule_or_function)
        stamp = None if now is None else iso8601_utc(now)
        LOG.info("running %s (%s) now=%s", schedule.name, schedule.function, stamp)
        return self.aws.invoke_function(schedule.function, schedule.payload(stamp))

    # -------------------------------------------------------------- life cycle

    def start(self) -> Self:
        self._thread = self.gateway.run_in_thread().start()
        overrides = {
            "CONNECTIONS_ENDPOINT": self._thread.management_endpoint,
            # The mailed links lead to this HTTP API (on AWS: the API's address, from the
            # template), never to the Host a request names.
            "LINK_BASE_URL": self.gateway.http_url,
            # moto serves the key set at its own root, not at the issuer's address.
            "JWKS_URL": f"{self.aws.endpoint_url}/{self.aws.user_pool_id()}/.well-known/jwks.json",
            "POWERTOOLS_METRICS_DISABLED": "true",
            # Scripted clients and tests play far faster than people: the per-connection limit
            # is lifted here (its own tests run in tests/integration).
            "THROTTLE_PER_SECOND": "1000",
            "THROTTLE_BURST": "1000",
            # Stripe cannot be reached from here: its SDK is pointed at a closed local port, so
            # a checkout answers payment_provider_unavailable at once (docs/economy.md).
            "STRIPE_API_BASE": LOCAL_STRIPE_API_BASE,
            # Web Push: nothing leaves this machine; the push function posts each notification
            # to the stack's outbox (GET /_local/push shows it). The page subscribes with a key
            # pair made now (devstack.push).
            "LOCAL_PUSH_OUTBOX_URL": self.gateway.push_url,
            "PUSH_VAPID_PUBLIC_KEY": local_vapid_public_key(),
        }
        # One process runs every function: their (disjoint or equal) variables are merged,
        # and put back as they were when the stack stops.
        self._saved_environment = dict(os.environ)
        os.environ.update(self._environment(list(self._handlers), overrides))
        _forget_warm_state()
        self._saved_clock = _use_clock(self.aws.clock.now)
        for logical_id, handler in self._handlers.items():
            self.aws.register_function(logical_id, handler)
        # On the gateway's event loop: one thread serves both ports.
        self._thread.call(self.web.start(), timeout=10.0)
        # A referral link leads to this web client (its port is known once it listens).
        os.environ["WEB_BASE_URL"] = self.web_url.rstrip("/")
        # The HTTP API allows the web client's origin (the template's WebUrl when deployed):
        # here, this web client's, by either name of the loopback.
        http = self.gateway.http
        if http.cors is not None:
            http.cors = dataclasses.replace(http.cors, allow_origins=self.web_origins)
        self._start_streams()
        return self

    def _start_streams(self) -> None:
        """A poller per DynamoDB event of a function (devstack.streams), from the stream's
        start: what the stack writes from now on reaches the function."""
        dynamodb, streams = self.aws.client("dynamodb"), self.aws.client("dynamodbstreams")
        for mapping in self.template.stream_mappings():
            table = self.aws.physical_ids[mapping.table]
            arn = dynamodb.describe_table(TableName=table)["Table"]["LatestStreamArn"]
            self.streams.append(
                StreamPoller(mapping, arn, streams, self.aws.invoke_function).start()
            )

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

    @property
    def web_url(self) -> str:
        """The web client's page, ``http://127.0.0.1:<port>/``."""
        return self.web.url

    @property
    def web_origins(self) -> tuple[str, ...]:
        """The origins the web client's pages have: its address, and `localhost`'s."""
        origin = self.web_url.rstrip("/")
        port = urllib.parse.urlsplit(origin).port
        return (origin, f"http://localhost:{port}")

    def web_config(self) -> dict[str, Any]:
        """What the web client reads at ``/config.json``: the WebSocket and HTTP APIs, and the
        embedded AWS that answers Cognito's JSON API (moto allows any origin)."""
        return {
            "webSocketUrl": self.url,
            "httpApiUrl": self.gateway.http_url,
            "cognito": {
                "endpoint": self.aws.endpoint_url,
                "region": self.aws.region,
                "userPoolId": self.aws.user_pool_id(),
                "clientId": self.aws.user_pool_client_id(),
            },
            "local": True,
        }

    def describe(self) -> dict[str, Any]:
        """Where the running stack is (what `write_state` writes): the WebSocket URL, the
        embedded AWS, the user pool, the HTTP API, the mailbox, the jobs endpoint and the web
        client."""
        return {
            "url": self.url,
            "endpoint": self.aws.endpoint_url,
            "userPoolId": self.aws.user_pool_id(),
            "userPoolClientId": self.aws.user_pool_client_id(),
            "httpApiUrl": self.gateway.http_url,
            "mailboxUrl": self.gateway.mailbox_url,
            "mailJsonUrl": f"{self.gateway.mailbox_url}.json",
            "jobsUrl": self.gateway.jobs_url,
            "pushUrl": self.gateway.push_url,
            "openApiUrl": self.gateway.openapi_url,
            "webUrl": self.web_url,
            "tableName": self.aws.physical_ids.get("GameTable"),
        }

    def player_token(
        self, name: str, password: str = LOCAL_PASSWORD, *, language: str | None = None
    ) -> str:
        """Creates (if new) and logs in a local player (``<name>@example.com``, nickname
        `local_nickname(name)`); their Cognito ID token. With the accounts' HTTP API (a
        ``POST /accounts`` route) the player registers there and follows the verification link
        of the mail, as a person does (`language`: the sign-up's Accept-Language, so the new
        account's language); otherwise the player signs up with Cognito directly."""
        email = f"{name}@example.com"
        if not any(route.route_key == REGISTER_ROUTE for route in self.gateway.http.routes):
            try:
                self.aws.create_player(name, password, email)
            except Exception as error:
                if "UsernameExists" not in repr(error):
                    raise
            return self.aws.id_token(name, password)
        try:
            return self.aws.id_token(email, password)
        except Exception as error:  # not registered, or not verified yet
            LOG.debug("%s cannot sign in yet: %s", name, error)
        register_over_http(self.gateway.http_url, name, email, password, language=language)
        return self.aws.id_token(email, password)

    def simulate_payment(
        self, token: str, offer_id: str, gift_to: str | None, key: str
    ) -> Mapping[str, Any]:
        """What Stripe sends once the checkout of `offer_id` (for `gift_to`, a nickname, if any)
        is paid, signed with the local webhook secret and delivered to the stack's webhook; its
        answer (devstack.payments). The buyer is whom `token` signs in (``GET /me``); the same
        `key` is the same session, credited once."""
        # Loaded with the stack, as wiring.
        from yamb_service.accounts.dynamo import nickname_owner  # noqa: PLC0415
        from yamb_service.common.dynamo import item_model  # noqa: PLC0415

        from devstack.payments import (  # noqa: PLC0415
            PaymentRefusedError,
            SimulatedPayment,
            checkout_completed,
            deliver,
        )

        me = urllib.request.Request(f"{self.gateway.http_url}/me", headers={"Authorization": token})
        try:
            with urllib.request.urlopen(me, timeout=30) as account:
                buyer = str(json.loads(account.read())["playerId"])
        except urllib.error.HTTPError as error:
            raise PaymentRefusedError(
                401, "your sign-in was not accepted: sign in again"
            ) from error
        recipient = buyer
        if gift_to is not None:
            table = item_model(
                self.aws.physical_ids["GameTable"], self.aws.region, self.aws.endpoint_url
            )
            found = nickname_owner(table, gift_to)
            if found is None:
                raise PaymentRefusedError(404, f"no player is called {gift_to}")
            recipient = found
        names = [n for n in self.aws.secure_parameter_names() if n.endswith("webhook-secret")]
        if not names:
            raise PaymentRefusedError(503, "this stack has no payments function")
        secret = self.aws.client("ssm").get_parameter(Name=names[0], WithDecryption=True)
        body = checkout_completed(
            SimulatedPayment(buyer, recipient, offer_id, key), self.aws.clock.now()
        )
        return deliver(self.gateway.http_url, body, str(secret["Parameter"]["Value"]))

    def grant_premium(self, name: str, days: int = 360) -> datetime:
        """Premium for the local player `name` (created if new) for `days` from the stack's
        clock, as an operator grants it (players buy it with tokens: docs/economy.md); its
        end. A local player is otherwise a free account (presets 1 and 2, rules.md 5)."""
        # Loaded with the stack, as wiring.
        from yamb_service.common.dynamo import item_model  # noqa: PLC0415
        from yamb_service.game.dynamo import DynamoPlayerRepository  # noqa: PLC0415

        # Not a sign-in when the player exists: a new sign-in would end their live session (A2).
        try:
            user = self.aws.client("cognito-idp").admin_get_user(
                UserPoolId=self.aws.user_pool_id(), Username=f"{name}@example.com"
            )
            subject = next(a["Value"] for a in user["UserAttributes"] if a["Name"] == "sub")
        except Exception:  # not created yet: a sign-in creates them
            token = self.player_token(name)
            subject = jwt.decode(token, options={"verify_signature": False})["sub"]
        until = self.aws.clock.now() + timedelta(days=days)
        table = item_model(
            self.aws.physical_ids["GameTable"], self.aws.region, self.aws.endpoint_url
        )
        DynamoPlayerRepository(table).grant_premium(str(subject), until)
        return until

    def stop(self) -> None:
        """Everything stops within about two seconds: the gateway (its sockets close, what is
        under way has a second), the timers, moto; moto and the environment whatever fails.
        Once stopped, a stack stays stopped: a second stop does nothing."""
        if self._stopped:
            return
        self._stopped = True
        try:
            if self._thread is not None:
                self._stop_web()
                # Closing the sockets runs $disconnect, which may start return countdowns.
                self._thread.stop(grace=1.0)
            self._stop_timers()
        finally:
            for poller in self.streams:
                poller.stop()
            self.aws.stop()
            if self._saved_clock is not None:
                _use_clock(self._saved_clock)
                self._saved_clock = None
            if self._saved_environment is not None:
                os.environ.clear()
                os.environ.update(self._saved_environment)
                self._saved_environment = None

    def _stop_web(self) -> None:
        assert self._thread is not None
        if not self.web.running:
            return
        try:
            self._thread.call(self.web.stop(), timeout=3.0)
        except Exception:  # the gateway's loop is gone, or slow: the port goes with the thread
            LOG.warning("the web client did not stop cleanly", exc_info=True)

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


def register_over_http(
    http_url: str, name: str, email: str, password: str, *, language: str | None = None
) -> bool:
    """Register a player through the accounts' HTTP API (``POST /accounts``) and use the
    verification link of the newest mail to `email` in the local mailbox (its token posted, as
    its page's button does). False when the API has
    no such route (404 Not Found). A sign-up answers 202 whether the address is new or an
    account's (an unverified account's owner then gets a new link, which is verified here)."""
    nickname = local_nickname(name)
    body = json.dumps({"email": email, "password": password, "nickname": nickname}).encode()
    request = urllib.request.Request(
        f"{http_url}/accounts",
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json",
            # The page's language, as a browser signing up sends it: the account's first.
            **({"Accept-Language": language} if language else {}),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
    except urllib.error.HTTPError as error:
        detail = error.read()
        if error.code == 404 and b"Not Found" in detail:
            return False
        raise LocalCallError(error.code, _json_or_text(detail)) from None
    query = urllib.parse.urlencode({"to": email})
    for mail in _call(f"{http_url}/_local/mail.json?{query}"):
        links = [
            link
            for link in mail.get("links") or []
            if link.startswith(http_url) and VERIFY_PATH in link
        ]
        if links:
            # The link's page posts its token (following it changes nothing): post it too.
            token = urllib.parse.parse_qs(urllib.parse.urlparse(links[0]).query)["token"][0]
            verify = urllib.request.Request(
                f"{http_url}{VERIFY_PATH}",
                data=json.dumps({"token": token}).encode(),
                method="POST",
                headers={"Content-Type": "application/json", "Accept": "application/json"},
            )
            try:
                with urllib.request.urlopen(verify, timeout=30) as response:
                    response.read()
            except urllib.error.HTTPError as error:  # used already: the sign-in will tell
                LOG.debug("verification link of %s: %s", email, error.code)
            break
    return True


def local_nickname(name: str, limit: int = 16) -> str:
    """The nickname a local player `name` registers with: the name itself when it fits the
    accounts' limit, else its start and a short hash of the whole (distinct names stay
    distinct)."""
    if len(name) <= limit:
        return name
    digest = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:4]
    return f"{name[: limit - 5].rstrip('-_.')}-{digest}"


def _json_or_text(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return {"message": data.decode(errors="replace")}


def local_token(name: str, state_file: Path | None = None) -> str:
    """An ID token for a player of the running local stack, registered first if new (through
    the accounts' HTTP API when the stack has one, else signed up with Cognito, as
    ``<name>@example.com`` in a pool whose usernames are e-mails)."""
    state = read_state(state_file)
    http_url = state.get("httpApiUrl")
    cognito = boto3.client(
        "cognito-idp",
        endpoint_url=state["endpoint"],
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client_id = state["userPoolClientId"]
    pool = cognito.describe_user_pool(UserPoolId=state["userPoolId"])["UserPool"]
    email = f"{name}@example.com"
    username = email if "email" in (pool.get("UsernameAttributes") or []) else name

    def sign_in() -> str:
        # By SRP, as the web client signs in (the app client takes no plain password).
        return srp.id_token(cognito, state["userPoolId"], client_id, username, LOCAL_PASSWORD)

    try:
        return sign_in()
    except cognito.exceptions.ClientError as error:  # not registered, or not verified yet
        LOG.debug("%s cannot sign in yet: %s", name, error)
    if http_url and register_over_http(http_url, name, email, LOCAL_PASSWORD):
        return sign_in()
    try:
        cognito.sign_up(
            ClientId=client_id,
            Username=username,
            Password=LOCAL_PASSWORD,
            UserAttributes=[{"Name": "email", "Value": email}],
        )
        cognito.admin_confirm_sign_up(UserPoolId=state["userPoolId"], Username=username)
    except cognito.exceptions.UsernameExistsException:
        pass
    return sign_in()


def _call(url: str, *, method: str = "GET", timeout: float = 30.0) -> Any:
    """JSON from the running stack's gateway (an HTTP error's JSON body raises LocalCallError)."""
    request = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        body = error.read()
        try:
            detail = json.loads(body)
        except ValueError:
            detail = {"message": body.decode(errors="replace")}
        raise LocalCallError(error.code, detail) from None
    except urllib.error.URLError as error:
        raise LocalStackNotRunningError from error


class LocalCallError(RuntimeError):
    """The running stack answered an error: its status and JSON body."""

    def __init__(self, status: int, detail: Any) -> None:
        self.status = status
        self.detail = detail
        message = detail.get("message") if isinstance(detail, dict) else None
        super().__init__(f"{status}: {message or json.dumps(detail)}")


def local_mails(
    to: str | None = None, last: int | None = None, state_file: Path | None = None
) -> list[dict[str, Any]]:
    """The running stack's mails (`GET /_local/mail.json`), newest first."""
    state = read_state(state_file)
    query = {key: str(value) for key, value in (("to", to), ("last", last)) if value is not None}
    url = state["mailJsonUrl"] + (f"?{urllib.parse.urlencode(query)}" if query else "")
    return list(_call(url))


def local_jobs(state_file: Path | None = None) -> list[dict[str, Any]]:
    """The running stack's scheduled jobs (`GET /_local/jobs`)."""
    return list(_call(read_state(state_file)["jobsUrl"]))


def local_run_job(name: str, now: str | None = None, state_file: Path | None = None) -> Any:
    """Run a job of the running stack (`POST /_local/jobs/<name>?now=...`): its result."""
    url = f"{read_state(state_file)['jobsUrl']}/{urllib.parse.quote(name, safe='')}"
    if now is not None:
        url += "?" + urllib.parse.urlencode({"now": now})
    # A job's function may take minutes (AccountJobsFunction: 300 s).
    return _call(url, method="POST", timeout=960.0)
