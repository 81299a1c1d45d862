"""The HTTP API half of the local gateway: API Gateway HTTP API routes (payload format 2.0) in
front of plain Lambda handlers, served on the gateway's aiohttp port beside the WebSocket.

`HttpApiEmulator.handle` answers one request as an HTTP API's ``$default`` stage does:

* the route is the most specific match of the request, as API Gateway chooses: literal path
  segments before ``{param}`` before a greedy ``{proxy+}``, a route of the request's method before
  ``ANY``, ``$default`` last; no match answers 404 ``{"message":"Not Found"}``. Paths are matched
  percent-decoded (HTTP APIs decode ``rawPath`` too);
* the event is payload format 2.0: ``version``, ``routeKey``, ``rawPath``, ``rawQueryString`` (as
  sent), ``cookies`` (the Cookie headers split, taken out of ``headers``), ``headers`` (names
  lower-cased, repeated ones joined with commas), ``queryStringParameters`` (decoded, repeated ones
  joined with commas), ``pathParameters``, ``body`` (base64 with ``isBase64Encoded`` unless the
  content type is text: ``text/*``, JSON, XML, JavaScript; a form post is base64 as on AWS) and
  ``requestContext`` (``domainName`` is the Host header as the client sent it, ``stage``
  ``$default``). Keys without a value (``cookies``, ``queryStringParameters``, ``pathParameters``,
  ``body``) are absent, as on AWS. The headers AWS adds are added (``x-forwarded-for``,
  ``x-forwarded-port``, ``x-amzn-trace-id``), and ``x-forwarded-proto`` is ``http``: locally there
  is no TLS (the functions build no link from either: the mailed links lead to LINK_BASE_URL);
* the route's Lambda authorizer (payload format 2.0) runs first: a missing or empty identity source
  answers 401 ``{"message":"Unauthorized"}`` without calling it; a simple response
  ``{"isAuthorized": false}`` (or a policy that does not allow the route) 403
  ``{"message":"Forbidden"}``; an exception, a timeout or a malformed answer 500
  ``{"message":"Internal Server Error"}``; an allow puts its ``context`` at
  ``requestContext.authorizer.lambda``. With ``reauthorize_every`` > 0 answers are cached per
  identity source values for that many seconds (0: every request is authorized);
* the function's result is read as API Gateway reads a 2.0 response: a dict with ``statusCode``
  gives the status, ``headers``, ``cookies`` (each a ``Set-Cookie``) and ``body`` (decoded when
  ``isBase64Encoded``); its content type is ``application/json`` when it sets none (not checked
  against AWS). ``multiValueHeaders`` is not part of format 2.0 and is ignored (with a warning).
  Any other value is the JSON body of a 200 ``application/json`` response (a string too, quoted).
  The result goes through JSON first, as the Lambda runtime sends it. An exception or a result
  that is not a valid response answers 500 ``{"message":"Internal Server Error"}``, a function
  that outlives the route's timeout (30 s at most) 503 ``{"message":"Service Unavailable"}``;
* with a `CorsConfiguration`, preflight requests (OPTIONS with ``Origin`` and
  ``Access-Control-Request-Method``) are answered 204 by the gateway, whatever the routes, and
  every response to an allowed origin carries ``access-control-allow-origin`` (and the exposed
  headers and credentials flag); CORS headers a function returns are dropped, as AWS ignores them
  when the API has a CORS configuration.

Route functions run one at a time: Powertools keeps the event being resolved on a class
attribute shared by every resolver in a process (``BaseRouter.current_event``), and here every
function lives in one process, so two requests at once would read each other's event (on AWS each
invocation has an execution environment of its own; decision 193).

Every response carries ``apigw-requestid``. Not emulated: JWT and IAM authorization, payload
format 1.0, throttling, parameter mapping, stage variables, custom domains, mutual TLS.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import re
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from aiohttp import web
from multidict import CIMultiDict

from devstack.lambda_context import LocalLambdaContext
from devstack.policy import AuthorizerConfigurationError, policy_allows
from devstack.template import CorsConfiguration

__all__ = [
    "HttpApiEmulator",
    "HttpAuthorizer",
    "HttpRoute",
    "Outcome",
    "is_text_content_type",
    "match_route",
]

logger = logging.getLogger(__name__)

LambdaHandler = Callable[[dict[str, Any], Any], Any]

REGION: Final = "us-east-1"
ACCOUNT_ID: Final = "123456789012"
MAX_INTEGRATION_TIMEOUT: Final = 30.0
HTTP_STAGE: Final = "$default"
_METHODS: Final = frozenset({"ANY", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
_TEXT_TYPES: Final = frozenset(
    {"application/json", "application/javascript", "application/xml", "application/graphql"}
)


# API Gateway's own answers: (status, message of the JSON body).
NOT_FOUND: Final = (404, "Not Found")
UNAUTHORIZED: Final = (401, "Unauthorized")
FORBIDDEN: Final = (403, "Forbidden")
INTERNAL_ERROR: Final = (500, "Internal Server Error")
UNAVAILABLE: Final = (503, "Service Unavailable")
TOO_LARGE: Final = (413, "Request Entity Too Large")


@dataclass(frozen=True)
class Outcome:
    """How one invocation ended: its result, or its error, or a timeout."""

    result: Any = None
    error: BaseException | None = None
    timed_out: bool = False


Invoke = Callable[
    [str, LambdaHandler, dict[str, Any], LocalLambdaContext, float], Awaitable[Outcome]
]
"""``invoke(label, handler, event, context, timeout)``: run a handler in the gateway's pool."""


def _default_context(function_name: str, timeout: float) -> LocalLambdaContext:
    return LocalLambdaContext(
        function_name=function_name,
        invoked_function_arn=f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{function_name}",
        timeout_seconds=timeout,
    )


@dataclass(frozen=True)
class HttpAuthorizer:
    """A Lambda authorizer of the HTTP API (payload format 2.0).

    `identity_source` lists API Gateway expressions: ``$request.header.Authorization``,
    ``$request.querystring.token``, ``$context.<path>``, ``$stageVariables.<name>`` (no stage
    variables here: always missing). `context` makes the Lambda context of an invocation.
    """

    handler: LambdaHandler
    identity_source: tuple[str, ...] = ("$request.header.Authorization",)
    enable_simple_responses: bool = True
    payload_format_version: str = "2.0"
    reauthorize_every: int = 0
    name: str = "authorizer"
    function_name: str = "local-http-authorizer"
    timeout: float = 10.0
    context: Callable[[], LocalLambdaContext] | None = None

    def __post_init__(self) -> None:
        if self.payload_format_version != "2.0":
            raise ValueError(
                f"authorizer {self.name}: only payload format 2.0 is emulated, not "
                f"{self.payload_format_version}"
            )

    def new_context(self) -> LocalLambdaContext:
        if self.context is not None:
            return self.context()
        return _default_context(self.function_name, self.timeout)


@dataclass(frozen=True)
class HttpRoute:
    """A route: its key (``POST /accounts``, ``GET /games/{id}``, ``ANY /{proxy+}``,
    ``$default``), the handler its integration invokes and the authorizer that applies."""

    route_key: str
    handler: LambdaHandler
    authorizer: HttpAuthorizer | None = None
    function_name: str | None = None
    timeout: float = MAX_INTEGRATION_TIMEOUT
    context: Callable[[], LocalLambdaContext] | None = None

    def __post_init__(self) -> None:
        _pattern(self.route_key)  # raises ValueError on a malformed key

    @property
    def method(self) -> str | None:
        return None if self.route_key == "$default" else self.route_key.split(" ", 1)[0]

    def new_context(self) -> LocalLambdaContext:
        if self.context is not None:
            return self.context()
        name = self.function_name or "local-" + re.sub(r"[^A-Za-z0-9]+", "-", self.route_key)
        return _default_context(name.strip("-"), self.timeout)


# ------------------------------------------------------------------------------ route matching


@dataclass(frozen=True)
class _Pattern:
    method: str | None  # None: $default
    segments: tuple[str, ...]

    def match(self, method: str, segments: Sequence[str]) -> dict[str, str] | None:
        if self.method is None:
            return {}
        if self.method not in ("ANY", method):
            return None
        parameters: dict[str, str] = {}
        for index, part in enumerate(self.segments):
            if part.startswith("{") and part.endswith("+}"):
                rest = segments[index:]
                if not rest or not any(rest):
                    return None
                parameters[part[1:-2]] = "/".join(rest)
                return parameters
            if index >= len(segments):
                return None
            if part.startswith("{") and part.endswith("}"):
                if not segments[index]:
                    return None
                parameters[part[1:-1]] = segments[index]
            elif part != segments[index]:
                return None
        return parameters if len(segments) == len(self.segments) else None

    def specificity(self) -> tuple[int, tuple[int, ...], int]:
        """Sorts the most specific first: $default last; literal < {param} < {proxy+} segment
        by segment; a method before ANY."""
        if self.method is None:
            return (1, (), 0)
        kinds = tuple(
            2 if part.endswith("+}") else 1 if part.startswith("{") else 0 for part in self.segments
        )
        return (0, kinds, 1 if self.method == "ANY" else 0)


def _split(path: str) -> tuple[str, ...]:
    return tuple(path.split("/")[1:]) if path not in ("", "/") else ()


def _pattern(route_key: str) -> _Pattern:
    if route_key == "$default":
        return _Pattern(None, ())
    method, _, path = route_key.partition(" ")
    if method not in _METHODS or not path.startswith("/"):
        raise ValueError(f"route key {route_key!r}: expected 'METHOD /path' or '$default'")
    segments = _split(path)
    for index, part in enumerate(segments):
        if part.endswith("+}") and index != len(segments) - 1:
            raise ValueError(f"route key {route_key!r}: a greedy variable must come last")
    return _Pattern(method, segments)


def match_route(
    routes: Sequence[HttpRoute], method: str, path: str
) -> tuple[HttpRoute, dict[str, str]] | None:
    """The route API Gateway chooses for `method` `path` (decoded), with its path parameters."""
    segments = _split(path)
    candidates = []
    for route in routes:
        pattern = _pattern(route.route_key)
        parameters = pattern.match(method, segments)
        if parameters is not None:
            candidates.append((pattern.specificity(), route, parameters))
    if not candidates:
        return None
    candidates.sort(key=lambda candidate: candidate[0])
    _, route, parameters = candidates[0]
    return route, parameters


# ------------------------------------------------------------------------------ helpers


def is_text_content_type(content_type: str | None) -> bool:
    """Whether API Gateway passes a body of this type as text (else base64)."""
    if not content_type:
        return False
    media = content_type.split(";", 1)[0].strip().lower()
    return media.startswith("text/") or media in _TEXT_TYPES or media.endswith(("+json", "+xml"))


def _new_id() -> str:
    return base64.b64encode(os.urandom(12)).decode("ascii")[:15] + "="


def _trace_id() -> str:
    return f"Root=1-{int(time.time()):08x}-{os.urandom(12).hex()}"


def _error(status_message: tuple[int, str], request_id: str) -> web.Response:
    status, message = status_message
    return web.json_response(
        {"message": message}, status=status, headers={"apigw-requestid": request_id}
    )


def _header_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    raise ValueError(f"header value {value!r} is not a string")


class _BadResponseError(Exception):
    """The function's result is not a response API Gateway accepts (500)."""


def response_from_result(result: Any) -> tuple[int, CIMultiDict[str], bytes]:
    """(status, headers, body) from a handler's result, read as a payload 2.0 response."""
    try:
        result = json.loads(json.dumps(result))
    except (TypeError, ValueError) as error:
        raise _BadResponseError(f"the result is not JSON: {error}") from None
    if not (isinstance(result, dict) and "statusCode" in result):
        inferred = json.dumps(result).encode()
        return 200, CIMultiDict({"Content-Type": "application/json"}), inferred
    status = result["statusCode"]
    if isinstance(status, str) and status.isdigit():
        status = int(status)
    if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
        raise _BadResponseError(f"statusCode {result['statusCode']!r} is not a status")
    headers: CIMultiDict[str] = CIMultiDict()
    raw_headers = result.get("headers") or {}
    if not isinstance(raw_headers, dict):
        raise _BadResponseError("headers is not an object")
    try:
        for name, value in raw_headers.items():
            if value is not None:
                headers.add(str(name), _header_value(value))
    except ValueError as error:
        raise _BadResponseError(str(error)) from None
    if result.get("multiValueHeaders"):
        logger.warning("multiValueHeaders is ignored in payload format 2.0 (as on AWS)")
    cookies = result.get("cookies") or []
    if not isinstance(cookies, list) or not all(isinstance(c, str) for c in cookies):
        raise _BadResponseError("cookies is not a list of strings")
    for cookie in cookies:
        headers.add("Set-Cookie", cookie)
    body = result.get("body")
    if body is None:
        data = b""
    elif not isinstance(body, str):
        raise _BadResponseError("body is not a string")
    elif result.get("isBase64Encoded") is True:
        try:
            data = base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            raise _BadResponseError("body is not base64 though isBase64Encoded") from None
    else:
        data = body.encode()
    if data and "Content-Type" not in headers:
        headers["Content-Type"] = "application/json"
    return status, headers, data


# ------------------------------------------------------------------------------ the emulator


@dataclass
class _Parts:
    """What the event and the authorizer's event share."""

    route: HttpRoute
    route_key: str
    raw_path: str
    raw_query: str
    headers: dict[str, str]
    cookies: list[str]
    query: dict[str, str]
    path_parameters: dict[str, str]
    request_context: dict[str, Any]


class HttpApiEmulator:
    """Answers the HTTP API requests of the local gateway (see the module docstring)."""

    def __init__(
        self,
        routes: Sequence[HttpRoute],
        *,
        cors: CorsConfiguration | None = None,
        api_id: str = "local-http-api",
        invoke: Invoke,
        payload_limit: int = 10 * 1024 * 1024,
    ) -> None:
        self.routes = list(routes)
        keys = [route.route_key for route in self.routes]
        duplicates = sorted({key for key in keys if keys.count(key) > 1})
        if duplicates:
            raise ValueError(f"routes declared twice: {', '.join(duplicates)}")
        self.cors = cors
        self.api_id = api_id
        self.payload_limit = payload_limit
        self._invoke = invoke
        self._one_route_at_a_time = threading.Lock()
        self._cache: dict[tuple[str, tuple[str, ...]], tuple[float, Any]] = {}

    # ---------------------------------------------------------------------------- request

    async def handle(self, request: web.Request) -> web.StreamResponse:
        started = time.perf_counter()
        request_id = _new_id()
        response = await self._answer(request, request_id)
        self._add_cors(request, response)
        logger.info(
            "HTTP %s %s -> %d (%.1f ms)",
            request.method,
            request.path,
            response.status,
            (time.perf_counter() - started) * 1000,
        )
        return response

    async def _answer(self, request: web.Request, request_id: str) -> web.Response:
        if self._is_preflight(request):
            return self._preflight(request, request_id)
        found = match_route(self.routes, request.method, request.path)
        if found is None:
            return _error(NOT_FOUND, request_id)
        route, path_parameters = found
        if request.content_length is not None and request.content_length > self.payload_limit:
            return _error(TOO_LARGE, request_id)
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _error(TOO_LARGE, request_id)
        parts = self._parts(request, route, path_parameters, request_id)
        authorizer_context: Any = None
        if route.authorizer is not None:
            refusal, authorizer_context = await self._authorize(route.authorizer, parts)
            if refusal is not None:
                return _error(refusal, request_id)
            parts.request_context["authorizer"] = {"lambda": authorizer_context}
        event = self._event(parts, body, request.headers.get("Content-Type"))
        outcome = await self._invoke(
            route.route_key,
            self._alone(route.handler),
            event,
            route.new_context(),
            self._timeout(route),
        )
        if outcome.timed_out:
            return _error(UNAVAILABLE, request_id)
        if outcome.error is not None:
            return _error(INTERNAL_ERROR, request_id)
        try:
            status, headers, data = response_from_result(outcome.result)
        except _BadResponseError as error:
            logger.error("%s: malformed response: %s", route.route_key, error)
            return _error(INTERNAL_ERROR, request_id)
        headers["apigw-requestid"] = request_id
        return web.Response(status=status, headers=headers, body=data)

    @staticmethod
    def _timeout(route: HttpRoute) -> float:
        return min(route.timeout, MAX_INTEGRATION_TIMEOUT)

    def _parts(
        self,
        request: web.Request,
        route: HttpRoute,
        path_parameters: dict[str, str],
        request_id: str,
    ) -> _Parts:
        headers: dict[str, str] = {}
        cookies: list[str] = []
        for name, value in request.headers.items():
            lower = name.lower()
            if lower == "cookie":
                cookies.extend(c.strip() for c in value.split(";") if c.strip())
                continue
            headers[lower] = f"{headers[lower]},{value}" if lower in headers else value
        source_ip = request.remote or "127.0.0.1"
        headers.setdefault("x-forwarded-for", source_ip)
        headers.setdefault("x-forwarded-port", str(request.url.port or ""))
        headers["x-forwarded-proto"] = "http"
        headers.setdefault("x-amzn-trace-id", _trace_id())
        query: dict[str, str] = {}
        for name, value in request.query.items():
            query[name] = f"{query[name]},{value}" if name in query else value
        domain = request.headers.get("Host") or request.host
        now = time.time_ns() // 1_000_000
        route_key = route.route_key
        request_context: dict[str, Any] = {
            "accountId": ACCOUNT_ID,
            "apiId": self.api_id,
            "domainName": domain,
            "domainPrefix": domain.split(":", 1)[0].split(".", 1)[0],
            "http": {
                "method": request.method,
                "path": request.path,
                "protocol": f"HTTP/{request.version.major}.{request.version.minor}",
                "sourceIp": source_ip,
                "userAgent": request.headers.get("User-Agent", ""),
            },
            "requestId": request_id,
            "routeKey": route_key,
            "stage": HTTP_STAGE,
            "time": datetime.fromtimestamp(now / 1000, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "timeEpoch": now,
        }
        return _Parts(
            route=route,
            route_key=route_key,
            raw_path=request.path,
            raw_query=request.rel_url.raw_query_string,
            headers=headers,
            cookies=cookies,
            query=query,
            path_parameters=path_parameters,
            request_context=request_context,
        )

    @staticmethod
    def _common(parts: _Parts) -> dict[str, Any]:
        event: dict[str, Any] = {
            "version": "2.0",
            "routeKey": parts.route_key,
            "rawPath": parts.raw_path,
            "rawQueryString": parts.raw_query,
        }
        if parts.cookies:
            event["cookies"] = list(parts.cookies)
        event["headers"] = dict(parts.headers)
        if parts.query:
            event["queryStringParameters"] = dict(parts.query)
        return event

    def _event(self, parts: _Parts, body: bytes, content_type: str | None) -> dict[str, Any]:
        event = self._common(parts)
        event["requestContext"] = parts.request_context
        if body:
            text: str | None = None
            if is_text_content_type(content_type):
                try:
                    text = body.decode("utf-8")
                except UnicodeDecodeError:
                    text = None
            event["body"] = text if text is not None else base64.b64encode(body).decode("ascii")
            event["isBase64Encoded"] = text is None
        else:
            event["isBase64Encoded"] = False
        if parts.path_parameters:
            event["pathParameters"] = dict(parts.path_parameters)
        return event

    def _alone(self, handler: LambdaHandler) -> LambdaHandler:
        """`handler` run while no other route function runs (see the module docstring)."""

        def alone(event: dict[str, Any], context: Any) -> Any:
            with self._one_route_at_a_time:
                return handler(event, context)

        return alone

    # ---------------------------------------------------------------------------- authorizer

    @staticmethod
    def _identity(authorizer: HttpAuthorizer, parts: _Parts) -> list[str] | None:
        """The identity source values in order, or None when one is missing or empty."""
        values: list[str] = []
        for source in authorizer.identity_source:
            value: Any = None
            if source.startswith("$request.header."):
                value = parts.headers.get(source.removeprefix("$request.header.").lower())
            elif source.startswith("$request.querystring."):
                value = parts.query.get(source.removeprefix("$request.querystring."))
            elif source.startswith("$context."):
                value = parts.request_context
                for key in source.removeprefix("$context.").split("."):
                    value = value.get(key) if isinstance(value, dict) else None
            if value is None or value == "":
                return None
            values.append(str(value))
        return values

    def _route_arn(self, parts: _Parts) -> str:
        method = parts.request_context["http"]["method"]
        return (
            f"arn:aws:execute-api:{REGION}:{ACCOUNT_ID}:{self.api_id}/{HTTP_STAGE}/"
            f"{method}{parts.raw_path}"
        )

    async def _authorize(
        self, authorizer: HttpAuthorizer, parts: _Parts
    ) -> tuple[tuple[int, str] | None, Any]:
        """(refusal or None, the context to hand on)."""
        identity = self._identity(authorizer, parts)
        if identity is None:
            logger.info("%s refused 401: identity source missing", parts.route_key)
            return UNAUTHORIZED, None
        cache_key = (authorizer.name, tuple(identity))
        cached = self._cache.get(cache_key)
        if cached is not None and cached[0] > time.monotonic():
            return None, cached[1]
        route_arn = self._route_arn(parts)
        event = self._common(parts)
        event = {
            "version": "2.0",
            "type": "REQUEST",
            "routeArn": route_arn,
            "identitySource": identity,
            **event,
            "requestContext": dict(parts.request_context),
        }
        if parts.path_parameters:
            event["pathParameters"] = dict(parts.path_parameters)
        outcome = await self._invoke(
            f"authorizer {authorizer.name}",
            authorizer.handler,
            event,
            authorizer.new_context(),
            authorizer.timeout,
        )
        try:
            if outcome.timed_out:
                raise AuthorizerConfigurationError("the authorizer timed out")
            if outcome.error is not None:
                raise AuthorizerConfigurationError(f"the authorizer raised {outcome.error!r}")
            allowed, context = self._read_answer(authorizer, outcome.result, route_arn)
        except AuthorizerConfigurationError as error:
            logger.error("%s refused 500: %s", parts.route_key, error)
            return INTERNAL_ERROR, None
        if not allowed:
            logger.info("%s refused 403 by the authorizer", parts.route_key)
            return FORBIDDEN, None
        if authorizer.reauthorize_every > 0:
            self._cache[cache_key] = (time.monotonic() + authorizer.reauthorize_every, context)
        return None, context

    @staticmethod
    def _read_answer(authorizer: HttpAuthorizer, answer: Any, route_arn: str) -> tuple[bool, Any]:
        try:
            answer = json.loads(json.dumps(answer))
        except (TypeError, ValueError) as error:
            raise AuthorizerConfigurationError(f"the answer is not JSON: {error}") from None
        if not isinstance(answer, Mapping):
            raise AuthorizerConfigurationError("the answer is not an object")
        if authorizer.enable_simple_responses:
            allowed = answer.get("isAuthorized")
            if not isinstance(allowed, bool):
                raise AuthorizerConfigurationError("isAuthorized is not a boolean")
        else:
            allowed = policy_allows(answer.get("policyDocument"), route_arn)
        context = answer.get("context")
        if context is not None and not isinstance(context, Mapping):
            raise AuthorizerConfigurationError("context is not an object")
        return allowed, context

    # ---------------------------------------------------------------------------- CORS

    def _is_preflight(self, request: web.Request) -> bool:
        return (
            self.cors is not None
            and request.method == "OPTIONS"
            and "Origin" in request.headers
            and "Access-Control-Request-Method" in request.headers
        )

    def _allowed_origin(self, origin: str | None) -> str | None:
        """The access-control-allow-origin value for `origin`, or None if it is not allowed."""
        if self.cors is None or not origin:
            return None
        if "*" in self.cors.allow_origins:
            return origin if self.cors.allow_credentials else "*"
        lowered = origin.lower()
        if any(allowed.lower() == lowered for allowed in self.cors.allow_origins):
            return origin
        return None

    def _preflight(self, request: web.Request, request_id: str) -> web.Response:
        assert self.cors is not None
        headers: dict[str, str] = {"apigw-requestid": request_id}
        origin = self._allowed_origin(request.headers.get("Origin"))
        if origin is not None:
            headers["access-control-allow-origin"] = origin
            if self.cors.allow_methods:
                headers["access-control-allow-methods"] = ",".join(self.cors.allow_methods)
            if self.cors.allow_headers:
                headers["access-control-allow-headers"] = ",".join(self.cors.allow_headers)
            if self.cors.max_age is not None:
                headers["access-control-max-age"] = str(self.cors.max_age)
            if self.cors.allow_credentials:
                headers["access-control-allow-credentials"] = "true"
        return web.Response(status=204, headers=headers)

    def _add_cors(self, request: web.Request, response: web.StreamResponse) -> None:
        if self.cors is None or self._is_preflight(request):
            return
        for name in {n for n in response.headers if n.lower().startswith("access-control-")}:
            response.headers.popall(name, None)
        origin = self._allowed_origin(request.headers.get("Origin"))
        if origin is None:
            return
        response.headers["access-control-allow-origin"] = origin
        if self.cors.expose_headers:
            response.headers["access-control-expose-headers"] = ",".join(self.cors.expose_headers)
        if self.cors.allow_credentials:
            response.headers["access-control-allow-credentials"] = "true"
