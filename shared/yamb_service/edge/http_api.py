"""The one HTTP edge every HTTP API function uses: its routes, each registered with the resolver
and recorded as an `Operation` (method, path, request and response models, parameters, whether
it is public) from which docs/openapi.yaml is generated (devstack/openapi.py); the caller's
player id from the authorizer's context; the JSON (or form) body parsed into its model; a JSON
reply, never cached unless said otherwise; the error body (`{"error": {"code", "message",
"field"}}`), and the refusals every function maps the same way (a malformed body or parameter, a
busy table, no such route, a failure of ours)."""

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import parse_qs

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ValidationError
from pydantic.alias_generators import to_snake
from yamb.accounts.messages import ErrorDetail, ErrorView

from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import logger

NO_STORE = "no-store"
"""A private answer (a wallet, an account, a link's state are the player's): never cached."""

type Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
type Handler = Callable[..., Response[str]]


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

    @property
    def rule(self) -> str:
        """The resolver's rule: ``{taskId}`` becomes ``<task_id>``, the handler's argument."""
        return re.sub(r"\{(\w+)\}", lambda m: f"<{to_snake(m[1])}>", self.path)


IDEMPOTENCY_KEY = Parameter(
    "Idempotency-Key",
    "The same key repeats a request without applying it twice (a key reused for another "
    "request is refused: key_reused).",
    location="header",
)


@dataclass
class Routes:
    """A function's (or a router's) routes: each decorator registers its handler with the
    resolver and records its `Operation`; `statuses` maps the function's refusal codes to
    their HTTP status (documented too)."""

    resolver: APIGatewayHttpResolver | APIGatewayHttpRouter
    statuses: Mapping[str, int] = field(default_factory=dict)
    operations: list[Operation] = field(default_factory=list)

    def route(self, operation: Operation) -> Callable[[Handler], Handler]:
        register: Callable[[Handler], Handler] = self.resolver.route(
            operation.rule, operation.method
        )

        def record(handler: Handler) -> Handler:
            self.operations.append(replace(operation, name=handler.__name__))
            return register(handler)

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
        """A router's routes served by this resolver too."""
        if not isinstance(self.resolver, APIGatewayHttpResolver) or not isinstance(
            other.resolver, APIGatewayHttpRouter
        ):
            raise TypeError("a resolver includes a router")
        self.resolver.include_router(other.resolver)
        self.operations.extend(other.operations)


# ---------------------------------------------------------------------- requests


class BadRequestError(Exception):
    """A request refused at the edge, before any service sees it: 400 ``bad_request``, naming
    the field when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def player_id(event: APIGatewayProxyEventV2) -> str:
    """The signed-in player, as the HTTP API's authorizer named them in its context."""
    return str(event.request_context.authorizer.get_lambda["playerId"])


def is_form(event: APIGatewayProxyEventV2) -> bool:
    content_type = event.headers.get("content-type") or ""
    return content_type.startswith("application/x-www-form-urlencoded")


def body[M: BaseModel](event: APIGatewayProxyEventV2, model: type[M], *, forms: bool = False) -> M:
    """The request's JSON body (or, with `forms`, a form's fields) as `model`; no body is an
    empty object. Not JSON: `BadRequestError`; fields the model refuses: its ValidationError."""
    raw = event.decoded_body or ""
    if forms and is_form(event):
        data: Any = {name: values[-1] for name, values in parse_qs(raw).items()}
    else:
        try:
            data = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            raise BadRequestError("the body is not JSON") from None
    return model.model_validate(data)


def query_int(event: APIGatewayProxyEventV2, name: str) -> int | None:
    """A whole-number query parameter (at most 9 digits), or None when absent."""
    value = event.get_query_string_value(name)
    if value is None:
        return None
    if not value.isdigit() or len(value) > 9:
        raise BadRequestError(f"{name} is a whole number", field=name)
    return int(value)


# ---------------------------------------------------------------------- replies


def json_reply(status: int, model: BaseModel, cache: str | None = NO_STORE) -> Response[str]:
    """A JSON answer; never cached unless `cache` says otherwise (None: no Cache-Control)."""
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=model.model_dump_json(by_alias=True),
        headers={} if cache is None else {"Cache-Control": cache},
    )


def error_reply(status: int, code: str, message: str, field: str | None = None) -> Response[str]:
    return json_reply(status, ErrorView(error=ErrorDetail(code=code, message=message, field=field)))


def _invalid_request(error: ValidationError) -> Response[str]:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or None
    message = f"{field}: {first['msg']}" if field else first["msg"]
    logger.info("request refused", code="bad_request", field=field)
    return error_reply(400, "bad_request", message, field)


def _bad_request(error: BadRequestError) -> Response[str]:
    logger.info("request refused", code="bad_request", field=error.field)
    return error_reply(400, "bad_request", error.message, error.field)


def _busy(error: ServiceBusyError) -> Response[str]:
    return error_reply(503, "busy", "the server is busy: try again in a moment")


def _not_found(error: Exception) -> Response[str]:
    return error_reply(404, "not_found", "no such route")


def _failed(error: Exception) -> Response[str]:
    logger.exception("request failed")
    return error_reply(500, "internal", "something went wrong on our side: try again later")


def on_error[E: Exception](
    app: APIGatewayHttpResolver, kind: type[E]
) -> Callable[[Callable[[E], Response[str]]], Callable[[E], Response[str]]]:
    """``@on_error(app, EconomyError)``: the function's answer to its own errors (powertools'
    `exception_handler`, typed: its decorator is not)."""

    def register(handler: Callable[[E], Response[str]]) -> Callable[[E], Response[str]]:
        app.exception_handler(kind)(handler)
        return handler

    return register


def add_common_handlers(app: APIGatewayHttpResolver) -> None:
    """The refusals every function answers alike (a function's own errors it maps itself)."""
    app.exception_handler(ValidationError)(_invalid_request)
    app.exception_handler(BadRequestError)(_bad_request)
    app.exception_handler(ServiceBusyError)(_busy)
    app.not_found(_not_found)
    app.exception_handler(Exception)(_failed)


def resolve(app: APIGatewayHttpResolver, event: dict[str, Any], context: LambdaContext) -> Any:
    """The request answered, logged with the player the authorizer named (if any)."""
    player = ((event.get("requestContext") or {}).get("authorizer") or {}).get("lambda") or {}
    if "playerId" in player:
        logger.append_keys(player_id=player["playerId"])
    return app.resolve(event, context)
