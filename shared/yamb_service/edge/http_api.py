"""The one HTTP edge every HTTP API function uses: its routes, each recorded as an `Operation`
(method, path, request and response models, parameters, whether it is public) from which
docs/openapi.yaml is generated (devstack/openapi.py) and served by its route key (`HttpApi`); the
caller's player id from the authorizer's context; the JSON (or form) body parsed into its model;
a JSON reply, never cached unless said otherwise; the error body (`{"error": {"code", "message",
"field"}}`), and the refusals every function maps the same way (a malformed body or parameter, a
busy table, no such route, a failure of ours)."""

import base64
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal
from urllib.parse import parse_qs

from aws_lambda_powertools.utilities.data_classes.api_gateway_proxy_event import (
    APIGatewayProxyEventV2,
)
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ValidationError
from pydantic.alias_generators import to_snake
from yamb.accounts.messages import ErrorDetail, ErrorView
from yamb.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, Plural, Text, negotiate, render
from yamb.i18n.validation import located, location, problem

from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import logger

NO_SUCH_ROUTE = Text("no such route")

NO_STORE = "no-store"
"""A private answer (a wallet, an account, a link's state are the player's): never cached."""

APPLICATION_JSON = "application/json"

type Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]


class Response[B: (str, bytes)]:
    """An answer: its status, body (bytes go out base64-encoded) and headers; `content_type` is
    the Content-Type header unless `headers` names one."""

    def __init__(
        self,
        status_code: int,
        content_type: str | None = None,
        body: B | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.status_code = status_code
        self.body: B | None = body
        self.headers = dict(headers) if headers else {}
        if content_type:
            self.headers.setdefault("Content-Type", content_type)

    def payload(self) -> dict[str, Any]:
        """The answer in the HTTP API's payload format 2.0."""
        body: str | bytes | None = self.body
        encoded = isinstance(body, bytes)
        if isinstance(body, bytes):
            body = base64.b64encode(body).decode()
        return {
            "statusCode": self.status_code,
            "body": body,
            "isBase64Encoded": encoded,
            "headers": dict(self.headers),
            "cookies": [],
        }


type Handler = Callable[..., Response[str]]
type ErrorHandler = Callable[[Any], Response[str]]

_NOT_FOUND = "not found"  # the not-found handler's key among the error handlers
# What a path parameter may hold: the characters Powertools' resolver took in a path segment
# (RFC 3986's unreserved and sub-delimiters, ":", "@", "%", those API Gateway decodes, word
# characters). Any other (a decoded "#", "?", "/", a quote) answers as an unknown route, as it
# did; its pattern ended with "$", so a path's last parameter may end with one newline, left out.
_SEGMENT = re.compile(r"[-._~()'!*:@,;=+&$%<> \[\]{}|^\w]+")


def _argument(value: str, last: bool) -> str | None:
    if _SEGMENT.fullmatch(value):
        return value
    if last and value.endswith("\n") and _SEGMENT.fullmatch(value[:-1]):
        return value[:-1]
    return None


class HttpApi:
    """A function's HTTP API: each request goes to the handler registered for its route key
    (``GET /me/wallet``), which API Gateway has matched already, with its path parameters as
    the handler's arguments (``{taskId}`` as ``task_id``); an error raised goes to the handler
    registered for its class (or the nearest base class); a route key no handler has, to the
    not-found handler. `current_event` is the request being answered (one at a time)."""

    current_event: ClassVar[APIGatewayProxyEventV2]

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}
        self.last_parameter: dict[str, str] = {}  # a route key's path parameter ending its path
        self.error_handlers: dict[type[Exception] | str, ErrorHandler] = {}

    def add(self, operation: "Operation", handler: Handler) -> None:
        key = f"{operation.method} {operation.path}"
        if key in self.handlers:
            raise ValueError(f"{key} has a handler already")
        self.handlers[key] = handler
        if last := re.search(r"\{(\w+)\}$", operation.path):
            self.last_parameter[key] = last[1]

    def include(self, other: "HttpApi") -> None:
        for key, handler in other.handlers.items():
            if key in self.handlers:
                raise ValueError(f"{key} has a handler already")
            self.handlers[key] = handler
        self.last_parameter.update(other.last_parameter)

    def exception_handler(self, kind: type[Exception]) -> Callable[[ErrorHandler], ErrorHandler]:
        def register(handler: ErrorHandler) -> ErrorHandler:
            self.error_handlers[kind] = handler
            return handler

        return register

    def not_found(self, handler: Callable[[Exception], Response[str]]) -> ErrorHandler:
        self.error_handlers[_NOT_FOUND] = handler
        return handler

    def resolve(self, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        HttpApi.current_event = APIGatewayProxyEventV2(event)
        key = event.get("routeKey") or ""
        handler = self.handlers.get(key)
        last = self.last_parameter.get(key)
        arguments = {
            to_snake(name): _argument(value, name == last)
            for name, value in (event.get("pathParameters") or {}).items()
        }
        try:
            if handler is None or None in arguments.values():
                return self._not_found().payload()
            return handler(**arguments).payload()
        except Exception as error:
            for kind in type(error).__mro__:
                if kind in self.error_handlers:
                    return self.error_handlers[kind](error).payload()
            raise

    def _not_found(self) -> Response[str]:
        handler = self.error_handlers.get(_NOT_FOUND)
        if handler is None:
            return Response(404, APPLICATION_JSON, '{"statusCode":404,"message":"Not found"}')
        return handler(LookupError("no such route"))


# ---------------------------------------------------------------------- routes


@dataclass(frozen=True)
class Parameter:
    """A query parameter or request header a route reads."""

    name: str
    description: str
    location: Literal["query", "header"] = "query"
    type: Literal["string", "integer"] = "string"
    enum: tuple[str, ...] = ()


@dataclass(frozen=True)
class Operation:
    """One route as docs/openapi.yaml describes it. `path` is written as the template writes it
    (``/players/{nickname}/statistics``); `page`: a browser asking for HTML gets a page instead;
    `form`: the body may be a form post too; `statuses`: other successes than `status`; `name`:
    the handler's (its operationId)."""

    method: Method
    path: str
    summary: str
    response: type[BaseModel]
    status: int = 200
    request: type[BaseModel] | None = None
    request_required: bool = True
    public: bool = False
    parameters: tuple[Parameter, ...] = ()
    page: bool = False
    form: bool = False
    statuses: tuple[int, ...] = ()
    name: str = ""


IDEMPOTENCY_KEY = Parameter(
    "Idempotency-Key",
    "The same key repeats a request without applying it twice (a key reused for another "
    "request is refused: key_reused).",
    location="header",
)


@dataclass
class Routes:
    """A function's (or a part's) routes: each decorator registers its handler with the
    function's `HttpApi` under its route key and records its `Operation`; `statuses` maps the
    function's refusal codes to their HTTP status (documented too)."""

    resolver: HttpApi
    statuses: Mapping[str, int] = field(default_factory=dict)
    operations: list[Operation] = field(default_factory=list)

    def route(self, operation: Operation) -> Callable[[Handler], Handler]:
        def record(handler: Handler) -> Handler:
            self.operations.append(replace(operation, name=handler.__name__))
            self.resolver.add(operation, handler)
            return handler

        return record

    def get(
        self, path: str, summary: str, response: type[BaseModel], **more: Any
    ) -> Callable[[Handler], Handler]:
        return self.route(Operation("GET", path, summary, response, **more))

    def post(
        self, path: str, summary: str, response: type[BaseModel], **more: Any
    ) -> Callable[[Handler], Handler]:
        return self.route(Operation("POST", path, summary, response, **more))

    def put(
        self, path: str, summary: str, response: type[BaseModel], **more: Any
    ) -> Callable[[Handler], Handler]:
        return self.route(Operation("PUT", path, summary, response, **more))

    def patch(
        self, path: str, summary: str, response: type[BaseModel], **more: Any
    ) -> Callable[[Handler], Handler]:
        return self.route(Operation("PATCH", path, summary, response, **more))

    def delete(
        self, path: str, summary: str, response: type[BaseModel], **more: Any
    ) -> Callable[[Handler], Handler]:
        return self.route(Operation("DELETE", path, summary, response, **more))

    def include(self, other: "Routes") -> None:
        """A part's routes served by this function too."""
        self.resolver.include(other.resolver)
        self.operations.extend(other.operations)


# ---------------------------------------------------------------------- requests


class BadRequestError(Exception):
    """A request refused at the edge, before any service sees it: 400 ``bad_request``, naming
    the field when there is one."""

    def __init__(self, message: Text | Plural | str, field: str | None = None) -> None:
        super().__init__(str(message))
        self.text = message
        self.message = str(message)
        self.field = field


def reader_language(event: APIGatewayProxyEventV2 | None = None) -> Language:
    """The language the request's reader reads (docs/languages.md): the signed-in account's
    setting, as the authorizer put it in its context, else the browser's `Accept-Language`
    (negotiated among ours; English when none fits). `event`: the request being answered."""
    if event is None:
        event = getattr(HttpApi, "current_event", None)
        if event is None:
            return DEFAULT_LANGUAGE
    context = (event.raw_event.get("requestContext") or {}).get("authorizer") or {}
    chosen = (context.get("lambda") or {}).get("language")
    for language in LANGUAGES:
        if chosen == language:
            return language
    return negotiate(event.headers.get("accept-language"))


def player_id(event: APIGatewayProxyEventV2) -> str:
    """The signed-in player, as the HTTP API's authorizer named them in its context."""
    return str(event.request_context.authorizer.get_lambda["playerId"])


def is_form(event: APIGatewayProxyEventV2) -> bool:
    content_type = event.headers.get("content-type") or ""
    return content_type.startswith("application/x-www-form-urlencoded")


def body[M: BaseModel](event: APIGatewayProxyEventV2, model: type[M], *, forms: bool = False) -> M:
    """The request's JSON body (or, with `forms`, a form's fields) as `model`; no body is an
    empty object. Not JSON, or JSON beyond what the parser takes (nesting thousands deep,
    integers over Python's 4,300 digits): `BadRequestError`, as the WebSocket edge refuses
    such frames; fields the model refuses: its ValidationError."""
    raw = event.decoded_body or ""
    if forms and is_form(event):
        data: Any = {name: values[-1] for name, values in parse_qs(raw).items()}
    else:
        try:
            data = json.loads(raw) if raw else {}
        except RecursionError:
            raise BadRequestError(Text("the body is nested too deeply")) from None
        except ValueError:  # JSONDecodeError, and integers beyond the 4,300-digit limit
            raise BadRequestError(Text("the body is not JSON")) from None
    try:
        return model.model_validate(data)
    except RecursionError:
        raise BadRequestError(Text("the body is nested too deeply")) from None


def query_int(event: APIGatewayProxyEventV2, name: str) -> int | None:
    """A whole-number query parameter (at most 9 digits), or None when absent."""
    value = event.get_query_string_value(name)
    if value is None:
        return None
    if not value.isdigit() or len(value) > 9:
        raise BadRequestError(Text("{name} is a whole number", name=name), field=name)
    return int(value)


# ---------------------------------------------------------------------- replies


def json_reply(status: int, model: BaseModel, cache: str | None = NO_STORE) -> Response[str]:
    """A JSON answer; never cached unless `cache` says otherwise (None: no Cache-Control)."""
    return Response(
        status_code=status,
        content_type=APPLICATION_JSON,
        body=model.model_dump_json(by_alias=True),
        headers={} if cache is None else {"Cache-Control": cache},
    )


def error_reply(
    status: int, code: str, message: Text | Plural | str, field: str | None = None
) -> Response[str]:
    """A refusal's JSON body, its sentence rendered in the reader's language (the one place an
    HTTP refusal becomes words: `reader_language`)."""
    said = render(message, reader_language())
    return json_reply(status, ErrorView(error=ErrorDetail(code=code, message=said, field=field)))


def _invalid_request(error: ValidationError) -> Response[str]:
    first = error.errors()[0]
    field = location(first) or None
    message = located(field, first) if field else problem(first)
    logger.info("request refused", code="bad_request", field=field)
    return error_reply(400, "bad_request", message, field)


def _bad_request(error: BadRequestError) -> Response[str]:
    logger.info("request refused", code="bad_request", field=error.field)
    return error_reply(400, "bad_request", error.text, error.field)


def _busy(error: ServiceBusyError) -> Response[str]:
    return error_reply(503, "busy", Text("the server is busy: try again in a moment"))


def _not_found(error: Exception) -> Response[str]:
    return error_reply(404, "not_found", NO_SUCH_ROUTE)


def _failed(error: Exception) -> Response[str]:
    logger.exception("request failed")
    return error_reply(500, "internal", Text("something went wrong on our side: try again later"))


def on_error[E: Exception](
    app: HttpApi, kind: type[E]
) -> Callable[[Callable[[E], Response[str]]], Callable[[E], Response[str]]]:
    """``@on_error(app, EconomyError)``: the function's answer to its own errors (typed)."""

    def register(handler: Callable[[E], Response[str]]) -> Callable[[E], Response[str]]:
        app.exception_handler(kind)(handler)
        return handler

    return register


def add_common_handlers(app: HttpApi) -> None:
    """The refusals every function answers alike (a function's own errors it maps itself)."""
    app.exception_handler(ValidationError)(_invalid_request)
    app.exception_handler(BadRequestError)(_bad_request)
    app.exception_handler(ServiceBusyError)(_busy)
    app.not_found(_not_found)
    app.exception_handler(Exception)(_failed)


def resolve(app: HttpApi, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The request answered, logged with the player the authorizer named (if any)."""
    player = ((event.get("requestContext") or {}).get("authorizer") or {}).get("lambda") or {}
    if "playerId" in player:
        logger.append_keys(player_id=player["playerId"])
    return app.resolve(event, context)
