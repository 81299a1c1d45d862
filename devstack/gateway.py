"""A local API Gateway WebSocket API (and HTTP API): plain Lambda handlers behind one aiohttp port.

SAM local has no WebSocket support, so this module plays API Gateway for `make dev` and the
integration tests. One port serves both sides:

* clients connect to ``ws://host:port/<stage>`` (the query string is passed through, e.g.
  ``?token=...``);
* the handlers call back through ``http://host:port/<stage>`` (`LocalGateway.management_endpoint`),
  which speaks the wire protocol of the ``apigatewaymanagementapi`` service, so
  ``boto3.client("apigatewaymanagementapi", endpoint_url=gateway.management_endpoint)`` works
  unchanged: POST, GET and DELETE on ``/@connections/{connectionId}``.

What is emulated, as on AWS:

* the handshake runs the REQUEST authorizer (a missing identity source answers 401 without calling
  it; ``raise Exception("Unauthorized")`` answers 401; an explicit or implicit deny answers 403; any
  other authorizer failure or a malformed policy answers 500), then the ``$connect`` handler (a
  ``statusCode`` outside 2xx refuses the upgrade with that status). Until both are done the upgrade
  is pending and the management API answers 410 for the new connection id;
* every text frame is its own Lambda invocation, run concurrently in a thread pool (so handlers may
  call the management endpoint, and order between frames is not guaranteed). Connections do not
  wait on each other: one connection runs at most ``connection_concurrency`` (2) invocations at
  once, its further frames waiting their turn in arrival order, so that its flood fills neither
  the pool nor the interpreter and another connection's frame starts at once (on AWS each frame is
  an invocation of its own, up to the account's concurrency);
* the route is chosen by the route selection expression (``$request.body.action``), falling back
  to ``$default``, and to a ``Forbidden`` frame when there is no ``$default`` route. A body that is
  not JSON (NaN and Infinity are not), or has no string at that path, goes to ``$default``; the
  selection never fails and takes no longer than one pass of the C parser over the body: numbers
  are not converted (a 5,000-digit integer is JSON), nesting too deep for the parser counts as not
  JSON;
* frames over 32 KB and messages over 128 KB close the connection with 1009, binary frames with
  1003; idle connections close after 10 minutes and all after 2 hours (1001). Only frames from the
  client count as activity (the stricter reading: messages the backend posts and pings do not);
* ``$disconnect`` runs once per connection whose ``$connect`` succeeded, whichever side closed.

Stopping closes every connection (1001, ``$disconnect`` runs), waits a grace period for what is
under way, and cancels what is still running then.

Not emulated: SigV4 checks, throttling, route responses (a MESSAGE handler's return value is
ignored: ours reply through ``post_to_connection``), API keys, and the fragmentation of outgoing
messages into 32 KB frames.

The same port serves the HTTP API (`http_routes`, `cors`: devstack.http_api, payload format 2.0
with its Lambda authorizers) at its own paths (``http://host:port/accounts``: the ``$default``
stage, no stage in the path), and the local tools under ``/_local``:

* ``GET /_local/mail``: the local mailbox (`mailbox`), an HTML page, newest first, each mail with
  its links; ``GET /_local/mail.json`` the same as JSON (``?to=<address>``, ``?last=N``);
* ``GET /_local/jobs``: the scheduled jobs (`jobs`); ``POST /_local/jobs/<name>?now=<ISO 8601>``
  runs one (`run_job`, no timeout) and answers its JSON result, or 500 with its ``errorType`` and
  ``errorMessage``;
* ``GET /_local/push``: what the push function would have pushed (`push_outbox`,
  devstack.push), newest first, as JSON (``?player=<id>``, ``?last=N``); ``POST /_local/push``
  is where the push function posts it; ``POST /_local/push/gone`` marks an endpoint gone (410);
* ``GET /openapi.yaml``: the HTTP API's OpenAPI document (`openapi`, a file read on each request:
  docs/openapi.yaml), without authorization and to any origin; 404 when the stack has none.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import queue
import re
import threading
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

from aiohttp import WebSocketError, WSCloseCode, WSMsgType, web
from aiohttp.http import WebSocketWriter
from aiohttp.web_request import BaseRequest

from devstack.http_api import HttpApiEmulator, HttpAuthorizer, HttpRoute, Outcome
from devstack.lambda_context import LocalLambdaContext
from devstack.mail import Mail, mailbox_page
from devstack.policy import AuthorizerConfigurationError as _AuthorizerConfigurationError
from devstack.policy import policy_allows as _policy_allows
from devstack.push import PushOutbox
from devstack.template import CorsConfiguration

__all__ = [
    "AUTHORIZER_FUNCTION_NAME",
    "FRAME_LIMIT",
    "MESSAGE_LIMIT",
    "Authorizer",
    "GatewayThread",
    "HttpAuthorizer",
    "HttpRoute",
    "JobList",
    "JobRunner",
    "LambdaHandler",
    "LocalGateway",
    "LocalLambdaContext",
    "Mailbox",
    "iso8601_utc",
    "route_selection_value",
]

logger = logging.getLogger(__name__)

LambdaHandler = Callable[[dict[str, Any], Any], Any]
"""A synchronous Lambda handler, ``handler(event, context)``."""

Authorizer = Callable[[dict[str, Any], Any], dict[str, Any]]
"""A REQUEST Lambda authorizer: returns ``{"principalId", "policyDocument", "context"}``."""

FRAME_LIMIT: Final = 32 * 1024
"""API Gateway's WebSocket frame size quota (bytes)."""

MESSAGE_LIMIT: Final = 128 * 1024
"""API Gateway's WebSocket message payload quota (bytes), in both directions."""

AUTHORIZER_FUNCTION_NAME: Final = "local-authorizer"

Mailbox = Callable[[str | None], Sequence[Mail]]
"""``mailbox(to)``: the mails sent so far (oldest first), those to `to` when given."""

JobList = Callable[[], Sequence[Mapping[str, Any]]]
"""The scheduled jobs, each a JSON object with at least its ``name``."""

JobRunner = Callable[[str, str | None], Any]
"""``run(name, now)``: run the job `name` (blocking) as of `now` (ISO 8601 UTC) or now; its
JSON-serialisable result. Exceptions are its function's failures."""

HTTP_PAYLOAD_LIMIT: Final = 10 * 1024 * 1024
"""API Gateway's HTTP API payload quota (bytes)."""

_REGION: Final = "us-east-1"
_ACCOUNT_ID: Final = "123456789012"
_CLIENT_CLOSE_WITHOUT_STATUS: Final = 1005
_ABNORMAL_CLOSURE: Final = 1006
_ROUTE_EXPRESSION_PREFIX: Final = "$request.body."
_IDENTITY_QUERY_PREFIXES: Final = ("route.request.querystring.", "$request.querystring.")
_IDENTITY_HEADER_PREFIXES: Final = ("route.request.header.", "$request.header.")


# ------------------------------------------------------------------------------ Lambda context


def _make_context(function_name: str, timeout: float) -> LocalLambdaContext:
    return LocalLambdaContext(
        function_name=function_name,
        invoked_function_arn=f"arn:aws:lambda:{_REGION}:{_ACCOUNT_ID}:function:{function_name}",
        timeout_seconds=timeout,
    )


# ------------------------------------------------------------------------------ small helpers


def _new_id() -> str:
    """An id shaped like API Gateway's (16 base64 characters ending in ``=``), URL-path safe."""
    return base64.urlsafe_b64encode(os.urandom(11)).decode("ascii")


def _epoch_ms() -> int:
    return time.time_ns() // 1_000_000


def _request_time(epoch_ms: int) -> str:
    """API Gateway's ``requestTime`` format, e.g. ``09/Feb/2019:19:04:28 +0000``."""
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")


def _iso8601(epoch_ms: int) -> str:
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat(timespec="milliseconds")


def iso8601_utc(moment: str | datetime) -> str:
    """`moment` (ISO 8601; without an offset: UTC) as ``2027-01-05T03:15:00Z``; fractions of a
    second are kept. ValueError when it is not a moment."""
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment.strip())
        except ValueError:
            raise ValueError(f"{moment!r} is not an ISO 8601 moment") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    spec = "microseconds" if moment.microsecond else "seconds"
    return moment.replace(tzinfo=None).isoformat(timespec=spec) + "Z"


def _json_error(status: int, error_type: str | None, message: str | None) -> web.Response:
    """An error shaped like API Gateway's, which botocore's rest-json parser reads.

    botocore takes the code from the ``x-amzn-ErrorType`` header (text before any ``:``), else
    from a ``code`` in the body, else from ``__type``, else the status code as a string; the
    message comes from ``message`` (or ``Message``) in the body.
    """
    headers = {"x-amzn-ErrorType": error_type} if error_type else None
    return web.json_response({"message": message}, status=status, headers=headers)


def _gone() -> web.Response:
    return _json_error(
        410, "GoneException", "The connection with the provided id no longer exists."
    )


class _UnauthorizedError(Exception):
    """The authorizer denied the handshake with 401 (no identity source, or "Unauthorized")."""


def _authorizer_context(response: Mapping[str, Any]) -> dict[str, Any]:
    """``requestContext.authorizer`` from an Allow response: its context plus ``principalId``.

    API Gateway accepts only string, number and boolean context values (anything else is an
    AuthorizerConfigurationException) and hands them on as strings.
    """
    context = response.get("context") or {}
    if not isinstance(context, Mapping):
        raise _AuthorizerConfigurationError("context is not an object")
    result: dict[str, Any] = {}
    for key, value in context.items():
        if isinstance(value, bool):
            result[str(key)] = "true" if value else "false"
        elif isinstance(value, str | int | float):
            result[str(key)] = str(value)
        elif value is not None:
            raise _AuthorizerConfigurationError(
                f"context value {key!r} is a {type(value).__name__}: only strings, numbers and "
                "booleans are allowed"
            )
    result["principalId"] = str(response["principalId"])
    return result


# ------------------------------------------------------------------------------ route selection


def _number(_: str) -> None:
    """Numbers are not converted: selecting a route needs none, and an integer over Python's
    4,300-digit conversion limit is still JSON."""


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def route_selection_value(body: str, path: Sequence[str]) -> Any:
    """What ``$request.body.<path>`` selects in `body`: the value at `path` (object keys from the
    top) of the body's JSON, or None when the body is not JSON or `path` leads nowhere.

    Never raises: whatever the body, the C parser either reads it or fails with ValueError
    (not JSON) or RecursionError (nested deeper than it goes, some ten thousand levels), and both
    mean "not JSON". Its time is linear in the body, which the frame and message limits bound.
    """
    try:
        value: Any = json.loads(
            body, parse_int=_number, parse_float=_number, parse_constant=_not_json
        )
    except (ValueError, RecursionError):
        return None
    for part in path:
        value = value.get(part) if isinstance(value, dict) else None
    return value


# ------------------------------------------------------------------------------ frame size guard


class _FrameSizeGuard:
    """Sits between aiohttp's protocol and its WebSocket reader and reads only frame headers.

    aiohttp limits whole messages (``max_msg_size``), never single frames, while API Gateway closes
    the connection with 1009 on a frame over 32 KB even inside a 128 KB message. This wrapper
    follows the frame boundaries of the byte stream (frames are not compressed: no extension is
    negotiated, as on API Gateway) and fails the reader's queue the way the reader itself does on
    an oversized message, so ``receive()`` closes the connection with 1009.
    """

    def __init__(self, inner: Any, queue: Any, limit: int) -> None:
        self._inner = inner
        self._queue = queue
        self._limit = limit
        self._header = bytearray()
        self._skip = 0
        self._tripped = False

    def observe(self, data: bytes) -> bool:
        """Follow the frames in `data`; True as soon as a data frame is over the limit."""
        position, size = 0, len(data)
        while position < size:
            if self._skip:
                step = min(self._skip, size - position)
                self._skip -= step
                position += step
                continue
            needed = self._header_length()
            take = min(needed - len(self._header), size - position)
            self._header += data[position : position + take]
            position += take
            if len(self._header) < self._header_length():
                continue
            opcode = self._header[0] & 0x0F
            length = self._payload_length()
            self._header.clear()
            self._skip = length
            if opcode <= 0x2 and length > self._limit:  # continuation, text or binary
                return True
        return False

    def _header_length(self) -> int:
        if len(self._header) < 2:
            return 2
        flag = self._header[1] & 0x7F
        extended = 2 if flag == 126 else 8 if flag == 127 else 0
        mask = 4 if self._header[1] & 0x80 else 0
        return 2 + extended + mask

    def _payload_length(self) -> int:
        flag = self._header[1] & 0x7F
        if flag == 126:
            return int.from_bytes(self._header[2:4], "big")
        if flag == 127:
            return int.from_bytes(self._header[2:10], "big")
        return flag

    def trip(self) -> None:
        self._tripped = True
        self._queue.set_exception(
            WebSocketError(
                WSCloseCode.MESSAGE_TOO_BIG, f"Frame size exceeds limit {self._limit} bytes"
            )
        )

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        if self._tripped:
            return True, b""
        if self.observe(bytes(data)):
            self.trip()
            return True, b""  # what aiohttp's reader answers on its own errors
        result: tuple[bool, bytes] = self._inner.feed_data(data)
        return result

    def feed_eof(self) -> None:
        self._inner.feed_eof()


class _GatewayWebSocketResponse(web.WebSocketResponse):
    """A WebSocketResponse whose reader is wrapped in a `_FrameSizeGuard` (see there).

    `on_accept` runs once the handshake is accepted, before the 101 response is written: a client
    that sees the upgrade completed must find its connection open on the management API.
    """

    def __init__(
        self,
        *,
        frame_limit: int,
        on_accept: Callable[[], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._frame_limit = frame_limit
        self._on_accept = on_accept

    def _pre_start(self, request: BaseRequest) -> tuple[str | None, WebSocketWriter]:
        result = super()._pre_start(request)
        if self._on_accept is not None:
            self._on_accept()
        return result

    def _post_start(
        self, request: BaseRequest, protocol: str | None, writer: WebSocketWriter
    ) -> None:
        handler = request.protocol
        # Bytes that arrived before the reader existed are fed to it by `super()._post_start`:
        # the guard must see them too, or it would lose track of the frame boundaries.
        early = bytes(getattr(handler, "_message_tail", b"") or b"")
        super()._post_start(request, protocol, writer)
        inner = getattr(self, "_parser", None)
        queue = getattr(self, "_reader", None)
        if inner is None or queue is None or getattr(handler, "_payload_parser", None) is not inner:
            logger.warning("aiohttp internals changed: the 32 KB frame limit is not enforced")
            return
        guard = _FrameSizeGuard(inner, queue, self._frame_limit)
        handler._payload_parser = guard  # no public hook for frame sizes
        if early and guard.observe(early):
            guard.trip()


# ------------------------------------------------------------------------------ connections


class _State(Enum):
    PENDING = "pending"  # authorizer / $connect running: the upgrade has not completed
    OPEN = "open"
    CLOSING = "closing"
    CLOSED = "closed"


@dataclass(eq=False)
class _Connection:
    connection_id: str
    connected_at: int  # epoch ms
    source_ip: str
    user_agent: str
    opened: float = field(default_factory=time.monotonic)
    last_active: float = field(default_factory=time.monotonic)
    last_active_at: int = field(default_factory=_epoch_ms)  # epoch ms
    state: _State = _State.PENDING
    authorizer: dict[str, Any] | None = None
    ws: web.WebSocketResponse | None = None
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    close_code: int | None = None  # set when the gateway closes the connection
    close_reason: str = ""
    close_task: asyncio.Task[Any] | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # set once `prepare` is over
    disconnected: bool = False
    # Held by each of its running invocations: at most `connection_concurrency` at once.
    invocations: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(2))

    def touch(self) -> None:
        self.last_active = time.monotonic()
        self.last_active_at = _epoch_ms()


_Outcome = Outcome


def _call_handler(
    handler: Callable[[dict[str, Any], Any], Any],
    event: dict[str, Any],
    context: LocalLambdaContext,
    route: str,
    connection_id: str,
) -> tuple[Any, BaseException | None]:
    """Run one invocation in a worker thread; never raises (errors are logged and returned)."""
    try:
        return handler(event, context), None
    except Exception as exc:
        if not (route == "authorizer" and str(exc) == "Unauthorized"):
            logger.exception("%s handler failed (connection %s)", route, connection_id)
        return None, exc


class _InvocationPool(Executor):
    """The threads the handlers run in: at most `max_workers`, started as work comes, reused.

    Unlike ThreadPoolExecutor's, they are daemon threads that the interpreter does not wait for
    at exit: an invocation still running when the stack stops (its AWS already gone, botocore
    retrying) does not keep `make dev` from ending, as a Lambda cut off by a deployment would
    not keep API Gateway waiting.
    """

    def __init__(self, max_workers: int, name: str) -> None:
        self._max_workers = max_workers
        self._name = name
        self._work: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = (
            queue.SimpleQueue()
        )
        self._threads: list[threading.Thread] = []
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._shut = False

    def submit[**P, T](self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new invocations after shutdown")
            future: Future[T] = Future()
            self._work.put((future, lambda: fn(*args, **kwargs)))
            if not self._idle.acquire(blocking=False) and len(self._threads) < self._max_workers:
                thread = threading.Thread(
                    target=self._run, name=f"{self._name}_{len(self._threads)}", daemon=True
                )
                thread.start()
                self._threads.append(thread)
            return future

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            future, call = item
            if future.set_running_or_notify_cancel():
                try:
                    result = call()
                except BaseException as error:
                    future.set_exception(error)
                else:
                    future.set_result(result)
            del item, future, call
            self._idle.release()
        self._work.put(None)  # the next thread ends too

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shut = True
            if cancel_futures:
                while True:
                    try:
                        item = self._work.get_nowait()
                    except queue.Empty:
                        break
                    if item is not None:
                        item[0].cancel()
            self._work.put(None)
        if wait:
            for thread in self._threads:
                thread.join()


# ------------------------------------------------------------------------------ the gateway


class LocalGateway:
    """An API Gateway WebSocket API stage in front of synchronous Lambda handlers.

    `handlers` maps route keys (``$connect``, ``$disconnect``, ``$default`` and custom keys such
    as ``roll``) to ``handler(event, context)``; `authorizer` is the REQUEST authorizer of
    ``$connect``. `identity_source` names what must be present for the authorizer to be called: a
    query parameter name (``"token"``) or API Gateway expressions
    (``"route.request.querystring.token"``, ``"route.request.header.Auth"``); None checks
    nothing. `route_selection_key` is the body property that selects the route (``"action"``, a
    dotted path, or the whole ``"$request.body.action"`` expression). `max_concurrency` sizes the
    thread pool the handlers run in; `connection_concurrency` is how many of them one connection's
    frames may hold at once.

    Run it with ``await start()`` / ``await stop()`` on a running loop, or in a background thread
    with `GatewayThread` (``with gateway.run_in_thread() as running: ...``).
    """

    def __init__(
        self,
        handlers: Mapping[str, LambdaHandler],
        authorizer: Authorizer | None = None,
        *,
        stage: str = "local",
        host: str = "127.0.0.1",
        port: int = 0,
        route_selection_key: str = "action",
        identity_source: str | Sequence[str] | None = "token",
        idle_timeout: float = 600.0,
        max_lifetime: float = 7200.0,
        function_timeout: float = 29.0,
        function_names: Mapping[str, str] | None = None,
        authorizer_function_name: str = AUTHORIZER_FUNCTION_NAME,
        api_id: str = "local-api",
        max_concurrency: int = 64,
        connection_concurrency: int = 2,
        frame_limit: int = FRAME_LIMIT,
        message_limit: int = MESSAGE_LIMIT,
        http_routes: Sequence[HttpRoute] = (),
        cors: CorsConfiguration | None = None,
        http_api_id: str = "local-http-api",
        mailbox: Mailbox | None = None,
        jobs: JobList | None = None,
        run_job: JobRunner | None = None,
        openapi: Path | None = None,
        push_outbox: PushOutbox | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        if not re.fullmatch(r"[A-Za-z0-9_\-]+", stage):
            raise ValueError(f"stage {stage!r}: letters, digits, - and _ only")
        self.http = HttpApiEmulator(
            http_routes,
            cors=cors,
            api_id=http_api_id,
            invoke=self._invoke_http,
            payload_limit=HTTP_PAYLOAD_LIMIT,
        )
        self.mailbox = mailbox
        self.jobs = jobs
        self.run_job = run_job
        self.openapi = openapi
        self.push_outbox = push_outbox or PushOutbox()
        self.clock = clock or (lambda: datetime.now(UTC))
        self.handlers: dict[str, LambdaHandler] = dict(handlers)
        self.authorizer = authorizer
        self.stage = stage
        self.host = host
        self.requested_port = port
        self.idle_timeout = idle_timeout
        self.max_lifetime = max_lifetime
        self.function_timeout = function_timeout
        self.function_names = dict(function_names or {})
        self.authorizer_function_name = authorizer_function_name
        self.api_id = api_id
        self.frame_limit = frame_limit
        self.message_limit = message_limit
        self.max_concurrency = max_concurrency
        if connection_concurrency < 1:
            raise ValueError("connection_concurrency must be at least 1")
        self.connection_concurrency = connection_concurrency
        key = route_selection_key.removeprefix(_ROUTE_EXPRESSION_PREFIX)
        self._route_path: tuple[str, ...] = tuple(key.split("."))
        sources = [identity_source] if isinstance(identity_source, str) else identity_source
        self._identity_sources: tuple[str, ...] = tuple(sources or ())
        self._connections: dict[str, _Connection] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._handshakes: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self._executor: _InvocationPool | None = None
        self._port: int | None = None
        self._stopping = False

    # ---------------------------------------------------------------------------- properties

    @property
    def port(self) -> int:
        """The bound port (after `start`)."""
        if self._port is None:
            raise RuntimeError("the gateway is not started")
        return self._port

    @property
    def domain_name(self) -> str:
        """``host:port``: what ``requestContext.domainName`` carries locally."""
        return f"{self.host}:{self.port}"

    @property
    def url(self) -> str:
        """The client URL, ``ws://host:port/<stage>``."""
        return f"ws://{self.domain_name}/{self.stage}"

    @property
    def management_endpoint(self) -> str:
        """The ``endpoint_url`` for boto3's ``apigatewaymanagementapi`` client."""
        return f"http://{self.domain_name}/{self.stage}"

    @property
    def http_url(self) -> str:
        """The HTTP API's base URL (its ``$default`` stage), ``http://host:port``."""
        return f"http://{self.domain_name}"

    @property
    def mailbox_url(self) -> str:
        """The local mailbox page (``.json`` appended: the same as JSON)."""
        return f"{self.http_url}/_local/mail"

    @property
    def push_url(self) -> str:
        """``GET``: what would have been pushed; the push function ``POST``s there."""
        return f"{self.http_url}/_local/push"

    @property
    def jobs_url(self) -> str:
        """``GET`` lists the scheduled jobs, ``POST <jobs_url>/<name>?now=...`` runs one."""
        return f"{self.http_url}/_local/jobs"

    @property
    def openapi_url(self) -> str:
        """The HTTP API's OpenAPI document (``GET``, no authorization)."""
        return f"{self.http_url}/openapi.yaml"

    def connection_ids(self) -> list[str]:
        """Ids of the open connections (upgrade completed, not closing)."""
        # list() copies in one step, so this is safe from another thread.
        connections = list(self._connections.items())
        return [cid for cid, conn in connections if conn.state is _State.OPEN]

    def run_in_thread(self) -> GatewayThread:
        """A `GatewayThread` for this gateway; use it as a context manager."""
        return GatewayThread(self)

    # ---------------------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Bind the port and serve; returns once listening."""
        if self._runner is not None:
            raise RuntimeError("the gateway is already started")
        self._stopping = False
        self._executor = _InvocationPool(self.max_concurrency, "lambda")
        app = web.Application(client_max_size=max(4 * self.message_limit, HTTP_PAYLOAD_LIMIT))
        stage = self.stage
        for prefix in (f"/{stage}", ""):
            path = f"{prefix}/@connections/{{connection_id}}"
            app.router.add_post(path, self._post_to_connection)
            app.router.add_get(path, self._get_connection)
            app.router.add_delete(path, self._delete_connection)
        app.router.add_get(f"/{stage}", self._handle_websocket)
        app.router.add_get(f"/{stage}/", self._handle_websocket)
        app.router.add_get("/_local/mail", self._mail_page)
        app.router.add_get("/_local/mail.json", self._mail_json)
        app.router.add_get("/_local/jobs", self._list_jobs)
        app.router.add_post("/_local/jobs/{name}", self._run_job)
        app.router.add_get("/_local/push", self._push_list)
        app.router.add_post("/_local/push", self._push_receive)
        app.router.add_post("/_local/push/gone", self._push_gone)
        app.router.add_get("/openapi.yaml", self._openapi_document)
        # Everything else is the HTTP API's (its own 404 for what no route matches).
        app.router.add_route("*", "/{path:.*}", self.http.handle)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=5.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.requested_port, reuse_address=True)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            self._executor.shutdown(wait=False)
            raise
        self._runner = runner
        address = runner.addresses[0]
        self._port = int(address[1])
        logger.info("local WebSocket API at %s (management %s)", self.url, self.management_endpoint)
        if self.http.routes:
            logger.info("local HTTP API at %s (%d routes)", self.http_url, len(self.http.routes))

    async def stop(self, timeout: float = 10.0) -> None:
        """Close every connection (1001, ``$disconnect`` runs), wait at most `timeout` seconds for
        the invocations and closing handshakes under way, cancel what is left, unbind.

        Frames that had not started when the stop began are not invoked."""
        if self._runner is None:
            return
        self._stopping = True
        for conn in list(self._connections.values()):
            if conn.state is _State.OPEN:
                self._close(conn, WSCloseCode.GOING_AWAY, "Going away")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while pending := {task for task in self._tasks | self._handshakes if not task.done()}:
            remaining = deadline - loop.time()
            if remaining <= 0:
                logger.warning("%d invocations or handshakes cancelled at shutdown", len(pending))
                for task in pending:
                    task.cancel()
                await asyncio.wait(pending, timeout=0.5)
                break
            await asyncio.wait(pending, timeout=remaining)
        await self._runner.cleanup()
        self._runner = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._port = None
        logger.info("local WebSocket API stopped")

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            logger.error("gateway task failed", exc_info=error)

    # ---------------------------------------------------------------------------- invocation

    def _function_name(self, route: str) -> str:
        return self.function_names.get(route) or f"local-{route.lstrip('$')}"

    async def _invoke(
        self,
        route: str,
        handler: Callable[[dict[str, Any], Any], Any],
        event: dict[str, Any],
        connection_id: str,
        function_name: str,
        *,
        context: LocalLambdaContext | None = None,
        timeout: float | None = None,
    ) -> _Outcome:
        """Invoke `handler` in the thread pool, log it, and wait at most `timeout` seconds
        (`function_timeout` by default)."""
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        limit = self.function_timeout if timeout is None else timeout
        if context is None:
            context = _make_context(function_name, limit)
        started = time.perf_counter()
        future = loop.run_in_executor(
            self._executor, _call_handler, handler, event, context, route, connection_id
        )
        try:
            result, error = await asyncio.wait_for(asyncio.shield(future), timeout=limit)
        except TimeoutError:
            logger.error(
                "%s connection=%s timed out after %.0f s (the thread runs on)",
                route,
                connection_id,
                limit,
            )
            return _Outcome(timed_out=True)
        elapsed = (time.perf_counter() - started) * 1000
        logger.info(
            "%s connection=%s %s %.1f ms",
            route,
            connection_id,
            "error" if error else "ok",
            elapsed,
        )
        return _Outcome(result=result, error=error)

    async def _invoke_http(
        self,
        label: str,
        handler: LambdaHandler,
        event: dict[str, Any],
        context: LocalLambdaContext,
        timeout: float,
    ) -> Outcome:
        return await self._invoke(
            label, handler, event, "http", context.function_name, context=context, timeout=timeout
        )

    # ---------------------------------------------------------------------------- /_local

    async def _openapi_document(self, request: web.Request) -> web.StreamResponse:
        """The HTTP API's OpenAPI document, for any origin (an API explorer in a browser)."""
        if self.openapi is None or not self.openapi.is_file():
            return _json_error(404, None, "No OpenAPI document: the stack has none")
        text = await self._blocking(self.openapi.read_text, "utf-8")
        return web.Response(
            text=text,
            content_type="application/yaml",
            headers={"Access-Control-Allow-Origin": "*", "Cache-Control": "no-store"},
        )

    async def _mail_page(self, request: web.Request) -> web.StreamResponse:
        if self.mailbox is None:
            return _json_error(404, None, "No mailbox: the stack has no SES")
        to = request.query.get("to") or None
        mails = await self._blocking(self.mailbox, to)
        return web.Response(text=mailbox_page(mails, to=to), content_type="text/html")

    async def _mail_json(self, request: web.Request) -> web.StreamResponse:
        """The mails, newest first: ``?to=<address>`` those to it, ``?last=N`` the N newest."""
        if self.mailbox is None:
            return _json_error(404, None, "No mailbox: the stack has no SES")
        to = request.query.get("to") or None
        last = request.query.get("last")
        if last is not None and not last.isdigit():
            return _json_error(400, None, "last: a number of mails")
        mails = list(reversed(await self._blocking(self.mailbox, to)))
        if last is not None:
            mails = mails[: int(last)]
        return web.json_response([mail.to_json() for mail in mails])

    async def _push_list(self, request: web.Request) -> web.StreamResponse:
        """What would have been pushed, newest first: ``?player=<id>``, ``?last=N``."""
        last = request.query.get("last")
        if last is not None and not last.isdigit():
            return _json_error(400, None, "last: a number of pushes")
        player = request.query.get("player") or None
        found = self.push_outbox.listed(player, None if last is None else int(last))
        return web.json_response(found, headers={"Cache-Control": "no-store"})

    async def _push_receive(self, request: web.Request) -> web.StreamResponse:
        try:
            record = await request.json()
        except ValueError:
            return _json_error(400, None, "a JSON push record")
        if not isinstance(record, dict):
            return _json_error(400, None, "a JSON push record")
        status = self.push_outbox.receive(record, self.clock())
        return web.json_response({"status": status}, status=status)

    async def _push_gone(self, request: web.Request) -> web.StreamResponse:
        try:
            endpoint = (await request.json())["endpoint"]
        except (ValueError, KeyError, TypeError):
            return _json_error(400, None, '{"endpoint": ...}: the endpoint to answer 410 for')
        self.push_outbox.mark_gone(str(endpoint))
        return web.json_response({"gone": endpoint})

    async def _list_jobs(self, request: web.Request) -> web.StreamResponse:
        jobs = [] if self.jobs is None else await self._blocking(self.jobs)
        return web.json_response(list(jobs))

    async def _run_job(self, request: web.Request) -> web.StreamResponse:
        """Runs a scheduled job now, ``?now=<ISO 8601>`` as of that moment: its JSON result, or
        500 with its function's ``errorType`` and ``errorMessage``."""
        name = request.match_info["name"]
        known = (
            [] if self.jobs is None else [job["name"] for job in await self._blocking(self.jobs)]
        )
        if self.run_job is None or name not in known:
            listed = ", ".join(known) or "none"
            return _json_error(404, None, f"No scheduled job {name!r} (the stack's: {listed})")
        now = request.query.get("now") or None
        if now is not None:
            try:
                now = iso8601_utc(now)
            except ValueError as error:
                return _json_error(400, None, f"now: {error}")
        started = time.perf_counter()
        try:
            result = await self._blocking(self.run_job, name, now)
        except Exception as error:
            logger.exception("job %s failed", name)
            return web.json_response(
                {"errorType": type(error).__name__, "errorMessage": str(error)}, status=500
            )
        logger.info("job %s (now %s) %.1f ms", name, now, (time.perf_counter() - started) * 1000)
        try:
            return web.json_response(result)
        except (TypeError, ValueError) as error:
            return web.json_response(
                {"errorType": "Runtime.MarshalError", "errorMessage": str(error)}, status=500
            )

    async def _blocking[**P, T](
        self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """Run a blocking call in the invocation pool (a job may take minutes: no timeout)."""
        assert self._executor is not None
        future = self._executor.submit(function, *args, **kwargs)
        return await asyncio.wrap_future(future)

    def _request_context(
        self, conn: _Connection, route_key: str, event_type: str, **extra: Any
    ) -> dict[str, Any]:
        now = _epoch_ms()
        context: dict[str, Any] = {
            "routeKey": route_key,
            "eventType": event_type,
            "extendedRequestId": _new_id(),
            "requestTime": _request_time(now),
            "messageDirection": "IN",
            "stage": self.stage,
            "connectedAt": conn.connected_at,
            "requestTimeEpoch": now,
            "identity": {"sourceIp": conn.source_ip, "userAgent": conn.user_agent},
            "requestId": _new_id(),
            "domainName": self.domain_name,
            "connectionId": conn.connection_id,
            "apiId": self.api_id,
        }
        context.update(extra)
        if conn.authorizer is not None:
            context["authorizer"] = dict(conn.authorizer)
        return context

    # ---------------------------------------------------------------------------- handshake

    def _handshake_parts(self, request: web.Request) -> dict[str, Any]:
        """Headers and query string of the upgrade request, in the proxy event's shapes."""
        multi_headers: dict[str, list[str]] = {}
        for name, value in request.headers.items():
            multi_headers.setdefault(name, []).append(value)
        multi_headers.setdefault("X-Forwarded-For", [request.remote or "127.0.0.1"])
        multi_headers.setdefault("X-Forwarded-Port", [str(self.port)])
        multi_headers.setdefault("X-Forwarded-Proto", ["http"])
        multi_query: dict[str, list[str]] = {}
        for name, value in request.query.items():
            multi_query.setdefault(name, []).append(value)
        return {
            "headers": {name: values[-1] for name, values in multi_headers.items()},
            "multiValueHeaders": multi_headers,
            "queryStringParameters": {name: values[-1] for name, values in multi_query.items()},
            "multiValueQueryStringParameters": multi_query,
        }

    def _identity_present(self, request: web.Request) -> bool:
        """Whether every identity source has a non-empty value (else 401, authorizer not run)."""
        for source in self._identity_sources:
            value: str | None = None
            for prefix in _IDENTITY_HEADER_PREFIXES:
                if source.startswith(prefix):
                    value = request.headers.get(source.removeprefix(prefix))
                    break
            else:
                name = source
                for prefix in _IDENTITY_QUERY_PREFIXES:
                    name = name.removeprefix(prefix)
                value = request.query.get(name)
            if not value:
                return False
        return True

    async def _authorize(
        self, request: web.Request, conn: _Connection, parts: dict[str, Any]
    ) -> web.Response | None:
        """Run the authorizer: None to go on, else the refusal to answer the handshake with."""
        if self.authorizer is None:
            return None
        if not self._identity_present(request):
            logger.info("$connect refused 401: identity source missing %s", self._identity_sources)
            return _json_error(401, "UnauthorizedException", "Unauthorized")
        method_arn = (
            f"arn:aws:execute-api:{_REGION}:{_ACCOUNT_ID}:{self.api_id}/{self.stage}/$connect"
        )
        event = {
            "type": "REQUEST",
            "methodArn": method_arn,
            **parts,
            "stageVariables": {},
            "requestContext": self._request_context(conn, "$connect", "CONNECT"),
        }
        started = time.perf_counter()
        outcome = await self._invoke(
            "authorizer", self.authorizer, event, conn.connection_id, self.authorizer_function_name
        )
        latency = int((time.perf_counter() - started) * 1000)
        try:
            if outcome.timed_out:
                raise _AuthorizerConfigurationError("the authorizer timed out")
            if outcome.error is not None:
                if str(outcome.error) == "Unauthorized":
                    raise _UnauthorizedError
                raise _AuthorizerConfigurationError(f"the authorizer raised {outcome.error!r}")
            response = outcome.result
            if not isinstance(response, Mapping) or "principalId" not in response:
                raise _AuthorizerConfigurationError("no principalId in the authorizer's response")
            if not _policy_allows(response.get("policyDocument"), method_arn):
                logger.info("$connect refused 403: the policy does not allow %s", method_arn)
                return _json_error(403, "AccessDeniedException", "Forbidden")
            context = _authorizer_context(response)
        except _UnauthorizedError:
            logger.info("$connect refused 401: the authorizer raised Unauthorized")
            return _json_error(401, "UnauthorizedException", "Unauthorized")
        except _AuthorizerConfigurationError as exc:
            logger.error("$connect refused 500 (AuthorizerConfigurationException): %s", exc)
            return _json_error(500, "AuthorizerConfigurationException", None)
        context["integrationLatency"] = latency
        conn.authorizer = context
        return None

    async def _connect(
        self, conn: _Connection, parts: dict[str, Any]
    ) -> tuple[web.Response | None, str | None]:
        """Run ``$connect``: (refusal or None, the subprotocol its response selects)."""
        handler = self.handlers.get("$connect")
        if handler is None:
            return None, None
        event: dict[str, Any] = {
            "headers": parts["headers"],
            "multiValueHeaders": parts["multiValueHeaders"],
            "requestContext": self._request_context(conn, "$connect", "CONNECT"),
            "isBase64Encoded": False,
        }
        if parts["queryStringParameters"]:  # absent, as on AWS, without a query string
            event["queryStringParameters"] = parts["queryStringParameters"]
            event["multiValueQueryStringParameters"] = parts["multiValueQueryStringParameters"]
        outcome = await self._invoke(
            "$connect", handler, event, conn.connection_id, self._function_name("$connect")
        )
        if outcome.timed_out:
            return _json_error(504, None, "Endpoint request timed out"), None
        if outcome.error is not None:
            return _json_error(500, None, "Internal server error"), None
        result = outcome.result
        status = 200
        protocol: str | None = None
        if isinstance(result, Mapping):
            try:
                status = int(result.get("statusCode", 200))
            except (TypeError, ValueError):
                logger.error("$connect returned a bad statusCode %r", result.get("statusCode"))
                return _json_error(502, None, "Internal server error"), None
            headers = result.get("headers") or {}
            if isinstance(headers, Mapping):
                for name, value in headers.items():
                    if str(name).lower() == "sec-websocket-protocol":
                        protocol = str(value)
        if not 200 <= status < 300:
            logger.info("$connect refused %d by the $connect handler", status)
            body = result.get("body") if isinstance(result, Mapping) else None
            return web.Response(status=status, text=body if isinstance(body, str) else None), None
        return None, protocol

    async def _handle_websocket(self, request: web.Request) -> web.StreamResponse:
        options: dict[str, Any] = {
            "frame_limit": self.frame_limit,
            "max_msg_size": self.message_limit + 1,  # aiohttp refuses sizes >= max_msg_size
            "compress": False,  # API Gateway negotiates no permessage-deflate
            "autoping": True,
            "timeout": 3.0,  # seconds to wait for the client's close frame
        }
        if not _GatewayWebSocketResponse(**options).can_prepare(request).ok:
            return _json_error(426, None, "Upgrade Required")
        if self._stopping:
            return _json_error(503, None, "Service Unavailable")
        conn = _Connection(
            connection_id=_new_id(),
            connected_at=_epoch_ms(),
            source_ip=request.remote or "127.0.0.1",
            user_agent=request.headers.get("User-Agent", ""),
            invocations=asyncio.Semaphore(self.connection_concurrency),
        )
        # Registered while pending so that the management API can answer 410 for it (as AWS
        # does while the upgrade has not completed).
        self._connections[conn.connection_id] = conn
        current = asyncio.current_task()
        if current is not None:
            self._handshakes.add(current)
        try:
            return await self._serve_connection(request, conn, options)
        finally:
            self._connections.pop(conn.connection_id, None)
            if current is not None:
                self._handshakes.discard(current)

    async def _serve_connection(
        self, request: web.Request, conn: _Connection, options: dict[str, Any]
    ) -> web.StreamResponse:
        parts = self._handshake_parts(request)
        protocol: str | None = None
        refusal = await self._authorize(request, conn, parts)
        if refusal is None:
            refusal, protocol = await self._connect(conn, parts)
        if refusal is not None:
            return refusal
        # $connect succeeded: from here on, whatever happens, $disconnect runs once.

        def accept() -> None:
            conn.state = _State.OPEN
            conn.touch()

        ws = _GatewayWebSocketResponse(
            **options,
            on_accept=accept,
            protocols=(protocol,) if protocol else (),
            receive_timeout=None,
        )
        conn.ws = ws
        try:
            if self._stopping:
                conn.close_code, conn.close_reason = WSCloseCode.GOING_AWAY, "Going away"
                return _json_error(503, None, "Service Unavailable")
            try:
                await ws.prepare(request)
            finally:
                conn.ready.set()
            logger.info("connected %s from %s", conn.connection_id, conn.source_ip)
            await self._receive_loop(conn, ws)
        except Exception:
            logger.exception("connection %s failed", conn.connection_id)
            if conn.close_code is None:
                conn.close_code, conn.close_reason = _ABNORMAL_CLOSURE, "Internal error"
        finally:
            conn.state = _State.CLOSED
            if conn.close_task is not None:
                with contextlib.suppress(Exception):
                    await conn.close_task
            await self._disconnect(conn, ws)
        return ws

    # ---------------------------------------------------------------------------- messages

    def _deadline(self, conn: _Connection) -> float:
        return min(conn.last_active + self.idle_timeout, conn.opened + self.max_lifetime)

    async def _receive_loop(self, conn: _Connection, ws: web.WebSocketResponse) -> None:
        while True:
            remaining = self._deadline(conn) - time.monotonic()
            if remaining <= 0:
                idle = conn.last_active + self.idle_timeout <= time.monotonic()
                logger.info(
                    "closing %s: %s", conn.connection_id, "idle" if idle else "maximum lifetime"
                )
                await self._close_now(conn, WSCloseCode.GOING_AWAY, "Going away")
                return
            try:
                message = await ws.receive(timeout=remaining)
            except TimeoutError:
                continue
            if message.type is WSMsgType.TEXT:
                conn.touch()
                self._spawn(self._on_message(conn, message.data))
            elif message.type is WSMsgType.BINARY:
                await self._close_now(
                    conn, WSCloseCode.UNSUPPORTED_DATA, "Binary frames are not supported"
                )
                return
            elif message.type is WSMsgType.CLOSE:
                if conn.close_code is None:
                    conn.close_code = int(message.data) or _CLIENT_CLOSE_WITHOUT_STATUS
                    conn.close_reason = message.extra or (
                        "Client-side close frame status not set"
                        if conn.close_code == _CLIENT_CLOSE_WITHOUT_STATUS
                        else ""
                    )
                return
            elif message.type is WSMsgType.ERROR:
                error = message.data
                if conn.close_code is None:
                    if isinstance(error, WebSocketError):
                        conn.close_code = error.code
                        conn.close_reason = (
                            "Message too big"
                            if error.code == WSCloseCode.MESSAGE_TOO_BIG
                            else str(error)
                        )
                    else:
                        conn.close_code, conn.close_reason = _ABNORMAL_CLOSURE, str(error)
                logger.info("closing %s: %s", conn.connection_id, error)
                return
            else:  # CLOSING (closed from another task), CLOSED
                if conn.close_code is None:
                    conn.close_code, conn.close_reason = _ABNORMAL_CLOSURE, "Connection lost"
                return

    def _select_route(self, body: str) -> str | None:
        """The route for a message body, else ``$default``, else None (no route matches)."""
        value = None
        if len(body) <= self.message_limit:  # longer ones cannot come in: never parsed
            value = route_selection_value(body, self._route_path)
        if isinstance(value, str) and not value.startswith("$") and value in self.handlers:
            return value
        return "$default" if "$default" in self.handlers else None

    async def _on_message(self, conn: _Connection, body: str) -> None:
        route = self._select_route(body)
        request_context = self._request_context(
            conn, route or "$default", "MESSAGE", messageId=_new_id()
        )
        request_id = request_context["requestId"]
        if route is None:
            logger.info("no route for a message on %s: Forbidden", conn.connection_id)
            await self._reply_error(conn, "Forbidden", request_id)
            return
        event = {"requestContext": request_context, "body": body, "isBase64Encoded": False}
        async with conn.invocations:  # the connection's earlier frames first, a few at a time
            if self._stopping:
                logger.info("a frame on %s dropped: the gateway stops", conn.connection_id)
                return
            outcome = await self._invoke(
                route, self.handlers[route], event, conn.connection_id, self._function_name(route)
            )
        if outcome.timed_out:
            await self._reply_error(conn, "Endpoint request timed out", request_id)
        elif outcome.error is not None:
            await self._reply_error(conn, "Internal server error", request_id)

    async def _reply_error(self, conn: _Connection, message: str, request_id: str) -> None:
        """The error frame API Gateway sends the client when a route cannot be served."""
        payload = {"message": message, "connectionId": conn.connection_id, "requestId": request_id}
        await self._send(conn, json.dumps(payload))

    async def _send(self, conn: _Connection, data: bytes | str) -> bool:
        await conn.ready.wait()  # OPEN comes a moment before the 101 is written
        if conn.state is not _State.OPEN or conn.ws is None or conn.ws.closed:
            return False
        async with conn.send_lock:
            try:
                if isinstance(data, str):
                    await conn.ws.send_str(data)
                else:
                    try:
                        await conn.ws.send_str(data.decode("utf-8"))
                    except UnicodeDecodeError:
                        await conn.ws.send_bytes(data)
            except (ConnectionError, RuntimeError) as exc:
                logger.info("send to %s failed: %s", conn.connection_id, exc)
                return False
        return True

    # ---------------------------------------------------------------------------- closing

    def _close(self, conn: _Connection, code: int, reason: str) -> None:
        """Start closing `conn` from another task; its receive loop ends and runs $disconnect."""
        if conn.state is not _State.OPEN or conn.ws is None:
            return
        conn.state = _State.CLOSING
        if conn.close_code is None:
            conn.close_code, conn.close_reason = code, reason
        conn.close_task = self._spawn(self._close_when_ready(conn, code, reason))

    async def _close_when_ready(self, conn: _Connection, code: int, reason: str) -> None:
        await conn.ready.wait()  # the connection is OPEN from just before its 101 is written
        if conn.ws is not None and conn.ws.prepared:
            await conn.ws.close(code=code, message=reason.encode())

    async def _close_now(self, conn: _Connection, code: int, reason: str) -> None:
        """Close `conn` from its own receive loop."""
        conn.state = _State.CLOSING
        if conn.close_code is None:
            conn.close_code, conn.close_reason = code, reason
        if conn.ws is not None:
            await conn.ws.close(code=code, message=reason.encode())

    async def _disconnect(self, conn: _Connection, ws: web.WebSocketResponse) -> None:
        if conn.disconnected:
            return
        conn.disconnected = True
        code = conn.close_code
        if code is None:
            code = ws.close_code if ws.close_code is not None else _ABNORMAL_CLOSURE
        logger.info("disconnected %s (%d %s)", conn.connection_id, code, conn.close_reason)
        handler = self.handlers.get("$disconnect")
        if handler is None:
            return
        event = {
            "headers": {
                "Host": self.domain_name,
                "x-api-key": "",
                "X-Forwarded-For": "",
                "x-restapi": "",
            },
            "multiValueHeaders": {
                "Host": [self.domain_name],
                "x-api-key": [""],
                "X-Forwarded-For": [""],
                "x-restapi": [""],
            },
            "requestContext": self._request_context(
                conn,
                "$disconnect",
                "DISCONNECT",
                disconnectStatusCode=code,
                disconnectReason=conn.close_reason,
            ),
            "isBase64Encoded": False,
        }
        await self._invoke(
            "$disconnect", handler, event, conn.connection_id, self._function_name("$disconnect")
        )

    # ---------------------------------------------------------------------------- management API

    def _live(self, request: web.Request) -> _Connection | None:
        # A connection whose upgrade is pending (authorizer or $connect still running) is not
        # live yet: AWS answers 410 Gone to a $connect handler posting to its own connection.
        conn = self._connections.get(request.match_info["connection_id"])
        return conn if conn is not None and conn.state is _State.OPEN else None

    async def _post_to_connection(self, request: web.Request) -> web.StreamResponse:
        data = await request.read()
        if len(data) > self.message_limit:
            return _json_error(413, "PayloadTooLargeException", "Message too long")
        conn = self._live(request)
        if conn is None or not await self._send(conn, data):
            return _gone()
        return web.Response(status=200)

    async def _get_connection(self, request: web.Request) -> web.StreamResponse:
        conn = self._live(request)
        if conn is None:
            return _gone()
        return web.json_response(
            {
                "connectedAt": _iso8601(conn.connected_at),
                "identity": {"sourceIp": conn.source_ip, "userAgent": conn.user_agent},
                "lastActiveAt": _iso8601(conn.last_active_at),
            }
        )

    async def _delete_connection(self, request: web.Request) -> web.StreamResponse:
        conn = self._live(request)
        if conn is None:
            return _gone()
        self._close(conn, WSCloseCode.OK, "")
        return web.Response(status=204)


# ------------------------------------------------------------------------------ thread runner


class GatewayThread:
    """Runs a `LocalGateway` on its own event loop in a daemon thread, for synchronous callers.

    >>> with LocalGateway(handlers).run_in_thread() as running:  # doctest: +SKIP
    ...     websockets.sync.client.connect(running.url + "?token=t")
    """

    def __init__(self, gateway: LocalGateway, *, start_timeout: float = 10.0) -> None:
        self.gateway = gateway
        self.start_timeout = start_timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        return self.gateway.url

    @property
    def management_endpoint(self) -> str:
        return self.gateway.management_endpoint

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("the gateway thread is not running")
        return self._loop

    def start(self) -> Self:
        """Start the thread and return once the gateway listens (or raise its start error)."""
        if self._thread is not None:
            raise RuntimeError("the gateway thread is already started")
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="local-gateway", daemon=True)
        self._thread.start()
        if not self._ready.wait(self.start_timeout):
            raise TimeoutError("the local gateway did not start")
        if self._error is not None:
            self._thread.join()
            self._thread = None
            raise self._error
        return self

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self.gateway.start())
        except BaseException as exc:
            self._error = exc
            loop.close()
            self._ready.set()
            return
        self._loop = loop
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.run_until_complete(loop.shutdown_default_executor())
            loop.close()
            self._loop = None

    def call(self, coroutine: Any, timeout: float | None = None) -> Any:
        """Run a coroutine on the gateway's loop from another thread and return its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self, timeout: float = 15.0, *, grace: float = 10.0) -> None:
        """Stop the gateway (connections close, ``$disconnect`` runs, what is under way has
        `grace` seconds to end) and join the thread (`timeout` seconds at most)."""
        thread, loop = self._thread, self._loop
        if thread is None:
            return
        try:
            if loop is not None and loop.is_running():
                stopping = self.gateway.stop(timeout=grace)
                asyncio.run_coroutine_threadsafe(stopping, loop).result(timeout)
        finally:
            if loop is not None and loop.is_running():
                loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
