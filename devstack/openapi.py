"""Generates docs/openapi.yaml (OpenAPI 3.1) for the HTTP API from its functions' route tables.

    python -m devstack.openapi > docs/openapi.yaml      (or: make openapi)

Every HTTP API function registers its routes through `yamb_service.edge.http_api.Routes`, which
records each one as an `Operation`: method, path, request and response models, parameters and
whether it is public. The functions are those with ``HttpApi`` events in template.yaml and the
local templates it nests (`template_routes`); their request and response bodies are the pydantic
models' JSON schemas. tests/unit/test_openapi.py fails when the committed document disagrees with
the models, with the official OpenAPI 3.1 schema, or with the template's routes.
"""

import gc
import importlib.util
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel
from pydantic.alias_generators import to_camel
from pydantic.json_schema import JsonSchemaMode, models_json_schema
from yamb.accounts.messages import ErrorView
from yamb_service.edge.http_api import Operation, Routes

from devstack.template import Template, load_template

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "template.yaml"
DOCUMENT = ROOT / "docs" / "openapi.yaml"
_NESTED = ("AWS::Serverless::Application", "AWS::CloudFormation::Stack")


@dataclass(frozen=True)
class TemplateRoute:
    """An ``HttpApi`` event of a function: its route, whether it is public (``Authorizer:
    NONE``), the function's logical id, its code's directory and the template it is in."""

    method: str
    path: str
    public: bool
    function: str
    code: Path
    template: Path

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def _local_location(value: Any, base: Path) -> Path | None:
    """A nested application's template when it is a local file (not S3, not the SAR)."""
    if not isinstance(value, str) or re.match(r"^(https?|s3)://", value):
        return None
    return (base / value).resolve()


def template_routes(path: Path = TEMPLATE) -> Iterator[TemplateRoute]:
    """Every HTTP API route of `path` and, recursively, of the local templates its nested
    applications (``Location``) and stacks (``TemplateURL``) name: the functions' HttpApi route
    events, and the `AWS::ApiGatewayV2::Route`s of HTTP APIs (read as the local stack reads the
    whole template, devstack.template.Template)."""
    yield from _event_routes(path)
    template = Template(path)
    for route in template.api_gateway_http_routes():
        if route.path is None:
            continue
        function = template.function(route.function)
        yield TemplateRoute(
            method=route.method,
            path=route.path,
            public=route.authorizer is None,
            function=route.function,
            code=(template.root / function.code_uri).resolve(),
            template=path,
        )


def _event_routes(path: Path) -> Iterator[TemplateRoute]:
    """The HttpApi route events of the functions of `path` and its local nested templates."""
    body = load_template(path)
    base = path.parent
    for logical_id, resource in (body.get("Resources") or {}).items():
        kind = resource.get("Type")
        properties = resource.get("Properties") or {}
        if kind in _NESTED:
            location = properties.get("Location", properties.get("TemplateURL"))
            nested = _local_location(location, base)
            if nested is not None:
                yield from _event_routes(nested)
            continue
        if kind != "AWS::Serverless::Function":
            continue
        for event in (properties.get("Events") or {}).values():
            if event.get("Type") != "HttpApi":
                continue
            route = event.get("Properties") or {}
            authorizer = (route.get("Auth") or {}).get("Authorizer")
            yield TemplateRoute(
                method=str(route["Method"]).upper(),
                path=str(route["Path"]),
                public=authorizer == "NONE",
                function=logical_id,
                code=(base / str(properties["CodeUri"])).resolve(),
                template=path,
            )


def load_routes(code: Path) -> Routes:
    """The `routes` of a function's app.py, imported under a module name of its own (every
    function's module is an app.py). Importing switches the collector off until a first call
    (yamb_service.common.warmup): it is switched back on here."""
    name = f"yamb_openapi_{code.name}"
    spec = importlib.util.spec_from_file_location(name, code / "app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    gc.enable()
    routes = getattr(module, "routes", None)
    if not isinstance(routes, Routes):
        raise TypeError(f"{code / 'app.py'} has no `routes` (yamb_service.edge.http_api.Routes)")
    return routes


def functions(template: Path = TEMPLATE) -> dict[str, Routes]:
    """The HTTP API functions' route tables, by their code directory's name."""
    codes = sorted({route.code for route in template_routes(template)})
    return {code.name: load_routes(code) for code in codes}


def _parameters(operation: Operation) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in re.findall(r"\{(\w+)\}", operation.path)
    ]
    for parameter in operation.parameters:
        schema: dict[str, Any] = {"type": parameter.type}
        if parameter.enum:
            schema["enum"] = list(parameter.enum)
        listed.append(
            {
                "name": parameter.name,
                "in": parameter.location,
                "description": parameter.description,
                "required": False,
                "schema": schema,
            }
        )
    return listed


_HTML = {"text/html": {"schema": {"type": "string"}}}


type _Refs = Mapping[tuple[Any, JsonSchemaMode], Any]  # a model and its mode: its $ref


def _operation(operation: Operation, tag: str, refs: _Refs) -> dict[str, Any]:
    response = refs[(operation.response, "serialization")]
    content: dict[str, Any] = {"application/json": {"schema": response}}
    if operation.page:
        content |= _HTML
    answered = {
        str(status): {"description": operation.summary, "content": content}
        for status in sorted({operation.status, *operation.statuses})
    }
    if not operation.public:
        answered["401"] = {"$ref": "#/components/responses/Unauthorized"}
        answered["403"] = {"$ref": "#/components/responses/Forbidden"}
    answered["4XX"] = {"$ref": "#/components/responses/Refused"}
    answered["5XX"] = {"$ref": "#/components/responses/Failed"}
    described: dict[str, Any] = {
        "operationId": to_camel(operation.name),
        "summary": operation.summary,
        "tags": [tag],
    }
    if parameters := _parameters(operation):
        described["parameters"] = parameters
    if operation.request is not None:
        schema = refs[(operation.request, "validation")]
        media: dict[str, Any] = {"application/json": {"schema": schema}}
        if operation.form:
            media["application/x-www-form-urlencoded"] = {"schema": schema}
        described["requestBody"] = {"required": operation.request_required, "content": media}
    if operation.public:
        described["security"] = []
    described["responses"] = answered
    return described


_COMMON_REFUSALS = {"bad_request": 400, "not_found": 404, "busy": 503, "internal": 500}
"""What every function answers alike (yamb_service.edge.http_api.add_common_handlers)."""


def _refusals(routes: Routes) -> str:
    statuses = _COMMON_REFUSALS | dict(routes.statuses)
    codes = ", ".join(f"{code} ({status})" for code, status in sorted(statuses.items()))
    return f"Refusals (`error.code`): {codes}."


def document(template: Path = TEMPLATE) -> dict[str, Any]:
    tables = functions(template)
    keyed: list[tuple[type[BaseModel], JsonSchemaMode]] = [(ErrorView, "serialization")]
    for routes in tables.values():
        for operation in routes.operations:
            keyed.append((operation.response, "serialization"))
            if operation.request is not None:
                keyed.append((operation.request, "validation"))
    unique = list(dict.fromkeys(keyed))
    refs, schemas = models_json_schema(
        unique, by_alias=True, ref_template="#/components/schemas/{model}"
    )
    paths: dict[str, dict[str, Any]] = {}
    for tag, routes in tables.items():
        for operation in routes.operations:
            item = paths.setdefault(operation.path, {})
            item[operation.method.lower()] = _operation(operation, tag, refs)
    order = ("get", "put", "post", "patch", "delete")
    ordered = {
        path: {method: paths[path][method] for method in order if method in paths[path]}
        for path in sorted(paths)
    }
    error = {"content": {"application/json": {"schema": refs[(ErrorView, "serialization")]}}}
    gateway = {
        "type": "object",
        "properties": {"message": {"type": "string"}},
        "required": ["message"],
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Yamb HTTP API",
            "version": "1.0.0",
            "description": (
                "Accounts, the wallet and cosmetics, payments, leaderboards and statistics, "
                "weekly tasks, referrals and badges (docs/accounts.md, docs/economy.md, "
                "docs/results.md, docs/progression.md); the game itself is played over the "
                "WebSocket API (docs/asyncapi.yaml). Routes that need a player take the Cognito "
                "ID token in `Authorization` (with or without `Bearer `), checked by the HTTP "
                "API's Lambda authorizer: a missing token is answered 401 and a refused one 403 "
                "by API Gateway, with `{message}`. Every other refusal is the function's: "
                "`{error: {code, message, field}}` with a stable `code` and, for a malformed "
                "request, the field at fault; its `message` is in the reader's language (the "
                "signed-in account's, else the request's `Accept-Language`; English when none "
                "fits: docs/languages.md), the `code` the same in every language. A sign-up's "
                "account takes its first language from `Accept-Language`. JSON answers are not "
                "cached (`Cache-Control: "
                "no-store`) unless a route says otherwise. Generated from the functions' route "
                "tables and pydantic models: `make openapi`."
            ),
        },
        "servers": [
            {
                "url": "https://{apiId}.execute-api.{region}.amazonaws.com",
                "description": "The HTTP API's $default stage",
                "variables": {"apiId": {"default": "api-id"}, "region": {"default": "us-east-1"}},
            },
            {"url": "http://127.0.0.1:8765", "description": "The local stack (make dev)"},
        ],
        "security": [{"playerToken": []}],
        "tags": [
            {"name": tag, "description": f"functions/{tag}. {_refusals(routes)}"}
            for tag, routes in tables.items()
        ],
        "paths": ordered,
        "components": {
            "securitySchemes": {
                "playerToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "bearerFormat": "JWT",
                    "description": (
                        "A Cognito ID token of a verified account that may play, issued since "
                        "its last sign-out everywhere (the HTTP API's Lambda authorizer)."
                    ),
                }
            },
            "responses": {
                "Refused": {"description": "Refused: the code says why", **error},
                "Failed": {"description": "busy (503) or internal (500)", **error},
                "Unauthorized": {
                    "description": "No token (API Gateway's answer)",
                    "content": {"application/json": {"schema": gateway}},
                },
                "Forbidden": {
                    "description": "A token the authorizer refused (API Gateway's answer)",
                    "content": {"application/json": {"schema": gateway}},
                },
            },
            "schemas": schemas.get("$defs", {}),
        },
    }


class _Dumper(yaml.SafeDumper):
    """Every schema written out where it is used: no YAML anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def render(template: Path = TEMPLATE) -> str:
    return yaml.dump(
        document(template), Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True
    )


if __name__ == "__main__":
    sys.stdout.write(render())
