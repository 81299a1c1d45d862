"""Read a SAM / CloudFormation template the way the local stack needs it.

`load_template` parses YAML (or JSON) with the intrinsic short tags (`!Ref`, `!Sub`, `!GetAtt`...)
into their plain long forms (`{"Ref": ...}`, `{"Fn::Sub": ...}`, `{"Fn::GetAtt": [...]}`), with
no cfn-lint dependency. `resolve` evaluates the intrinsics against a `Context`: parameters (with the
template's defaults), pseudo parameters and the physical ids and attributes of resources. A
resource that nothing has created yet gets a predicted, deterministic id (`<stack>-<LogicalId>` for
named things, a fake hexadecimal id otherwise) so that the template can be read on its own.

`Template` bundles a parsed template with its context and reads what the local stack runs: the
functions (`functions`), the WebSocket routes (`routes`) and the `$connect` authorizer
(`connect_authorizer`). `load_handler` imports a function's handler from its `CodeUri`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import yaml

__all__ = [
    "Authorizer",
    "Context",
    "FunctionSpec",
    "Route",
    "Template",
    "TemplateError",
    "function_arn",
    "load_handler",
    "load_template",
    "parse_template",
    "resolve",
]

DEFAULT_REGION = "us-east-1"
DEFAULT_ACCOUNT_ID = "123456789012"
DEFAULT_STACK_NAME = "yamb-local"

SERVERLESS_FUNCTION = "AWS::Serverless::Function"
LAMBDA_FUNCTION = "AWS::Lambda::Function"
FUNCTION_TYPES = (SERVERLESS_FUNCTION, LAMBDA_FUNCTION)
STATE_MACHINE_TYPES = ("AWS::Serverless::StateMachine", "AWS::StepFunctions::StateMachine")

Handler = Callable[[Any, Any], Any]


class TemplateError(Exception):
    """The template cannot be read or an intrinsic cannot be evaluated."""


# ------------------------------------------------------------------------------------- loading


class _CfnLoader(yaml.SafeLoader):
    """SafeLoader with the CloudFormation short tags; dates stay strings as in CloudFormation."""


_CfnLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_node(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    raise TemplateError(f"unsupported YAML node {node!r}")  # pragma: no cover


def _construct_intrinsic(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    value = _construct_node(loader, node)
    if suffix in ("Ref", "Condition"):
        return {suffix: value}
    if suffix == "GetAtt" and isinstance(value, str):
        resource, _, attribute = value.partition(".")
        if not attribute:
            raise TemplateError(f"!GetAtt {value!r}: expected Resource.Attribute")
        return {"Fn::GetAtt": [resource, attribute]}
    return {f"Fn::{suffix}": value}


_CfnLoader.add_multi_constructor("!", _construct_intrinsic)


def parse_template(text: str) -> dict[str, Any]:
    """Parse template text (YAML with short tags, or JSON) into plain dicts and lists."""
    try:
        body = yaml.load(text, Loader=_CfnLoader)
    except yaml.YAMLError as error:
        raise TemplateError(f"not a YAML template: {error}") from error
    if not isinstance(body, dict):
        raise TemplateError("a template is a mapping at the top level")
    return cast(dict[str, Any], body)


def load_template(path: str | Path) -> dict[str, Any]:
    """Read and parse a template file."""
    return parse_template(Path(path).read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------- context


class _NoValue:
    """`AWS::NoValue`: the property or list item is dropped."""

    def __repr__(self) -> str:
        return "AWS::NoValue"


NO_VALUE = _NoValue()


def _fake_id(logical_id: str, length: int = 10) -> str:
    return hashlib.sha1(logical_id.encode(), usedforsecurity=False).hexdigest()[:length]


def function_arn(context: Context, name: str) -> str:
    """The ARN of a Lambda function called `name` in the context's account and region."""
    return f"arn:{context.partition}:lambda:{context.region}:{context.account_id}:function:{name}"


@dataclass
class Context:
    """What intrinsics are evaluated against.

    `physical_ids` (what `Ref` gives) and `attributes` (what `Fn::GetAtt` gives) hold the resources
    created so far; others in `resources` get a predicted value on first use, kept here too.
    """

    parameters: dict[str, Any] = field(default_factory=dict)
    region: str = DEFAULT_REGION
    account_id: str = DEFAULT_ACCOUNT_ID
    stack_name: str = DEFAULT_STACK_NAME
    partition: str = "aws"
    resources: Mapping[str, Any] = field(default_factory=dict)
    conditions: Mapping[str, Any] = field(default_factory=dict)
    mappings: Mapping[str, Any] = field(default_factory=dict)
    physical_ids: dict[str, Any] = field(default_factory=dict)
    attributes: dict[str, dict[str, Any]] = field(default_factory=dict)
    _condition_values: dict[str, bool] = field(default_factory=dict, repr=False)
    _predicting: set[str] = field(default_factory=set, repr=False)

    @classmethod
    def for_template(
        cls,
        template: Mapping[str, Any],
        *,
        parameters: Mapping[str, Any] | None = None,
        stack_name: str = DEFAULT_STACK_NAME,
        region: str = DEFAULT_REGION,
        account_id: str = DEFAULT_ACCOUNT_ID,
    ) -> Context:
        """A context with the template's parameter defaults under `parameters`."""
        values: dict[str, Any] = {}
        declared = cast(Mapping[str, Any], template.get("Parameters") or {})
        for name, spec in declared.items():
            if "Default" in spec:
                values[name] = spec["Default"]
        for name, value in (parameters or {}).items():
            if name not in declared:
                raise TemplateError(f"unknown parameter {name!r}")
            values[name] = value
        for name, spec in declared.items():
            if name not in values:
                raise TemplateError(f"parameter {name!r} has no default and no value")
            kind = str(spec.get("Type", "String"))
            value = values[name]
            if kind == "CommaDelimitedList" or kind.startswith("List<"):
                values[name] = (
                    [item.strip() for item in value.split(",")]
                    if isinstance(value, str)
                    else [str(item) for item in value]
                )
            else:
                values[name] = str(value)
        return cls(
            parameters=values,
            region=region,
            account_id=account_id,
            stack_name=stack_name,
            resources=cast(Mapping[str, Any], template.get("Resources") or {}),
            conditions=cast(Mapping[str, Any], template.get("Conditions") or {}),
            mappings=cast(Mapping[str, Any], template.get("Mappings") or {}),
        )

    # -------------------------------------------------------------- lookups

    def pseudo(self, name: str) -> Any:
        values: dict[str, Any] = {
            "AWS::Region": self.region,
            "AWS::AccountId": self.account_id,
            "AWS::StackName": self.stack_name,
            "AWS::StackId": (
                f"arn:{self.partition}:cloudformation:{self.region}:{self.account_id}:"
                f"stack/{self.stack_name}/{_fake_id(self.stack_name, 8)}"
            ),
            "AWS::Partition": self.partition,
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::NotificationARNs": [],
            "AWS::NoValue": NO_VALUE,
        }
        if name not in values:
            raise TemplateError(f"unknown pseudo parameter {name!r}")
        return values[name]

    def ref(self, name: str) -> Any:
        if name.startswith("AWS::"):
            return self.pseudo(name)
        if name in self.parameters:
            return self.parameters[name]
        if name not in self.physical_ids:
            self._predict(name)
        return self.physical_ids[name]

    def get_att(self, logical_id: str, attribute: str) -> Any:
        known = self.attributes.get(logical_id, {})
        if attribute not in known:
            if logical_id not in self.physical_ids:
                self._predict(logical_id)
            known = self.attributes.get(logical_id, {})
        if attribute not in known:
            raise TemplateError(f"no attribute {attribute!r} for resource {logical_id!r}")
        return known[attribute]

    def condition(self, name: str) -> bool:
        if name not in self._condition_values:
            if name not in self.conditions:
                raise TemplateError(f"unknown condition {name!r}")
            self._condition_values[name] = bool(resolve(self.conditions[name], self))
        return self._condition_values[name]

    def set_resource(self, logical_id: str, physical_id: Any, **attributes: Any) -> None:
        """Record what a resource really got when created (replaces any prediction)."""
        self.physical_ids[logical_id] = physical_id
        self.attributes.setdefault(logical_id, {}).update(attributes)

    # -------------------------------------------------------------- predictions

    def _name(self, properties: Mapping[str, Any], key: str, logical_id: str) -> str:
        if key in properties:
            return str(resolve(properties[key], self))
        return f"{self.stack_name}-{logical_id}"

    def _predict(self, logical_id: str) -> None:
        if logical_id not in self.resources:
            raise TemplateError(f"unknown resource or parameter {logical_id!r}")
        if logical_id in self._predicting:
            raise TemplateError(f"circular reference through {logical_id!r}")
        self._predicting.add(logical_id)
        try:
            resource = self.resources[logical_id]
            kind = str(resource.get("Type", ""))
            properties = cast(Mapping[str, Any], resource.get("Properties") or {})
            physical, attributes = self._prediction(logical_id, kind, properties)
        finally:
            self._predicting.discard(logical_id)
        self.physical_ids.setdefault(logical_id, physical)
        merged = dict(attributes)
        merged.update(self.attributes.get(logical_id, {}))
        self.attributes[logical_id] = merged

    def _prediction(
        self, logical_id: str, kind: str, properties: Mapping[str, Any]
    ) -> tuple[Any, dict[str, Any]]:
        part, region, account = self.partition, self.region, self.account_id
        if kind in FUNCTION_TYPES:
            name = self._name(properties, "FunctionName", logical_id)
            return name, {"Arn": function_arn(self, name)}
        if kind == "AWS::DynamoDB::Table":
            name = self._name(properties, "TableName", logical_id)
            arn = f"arn:{part}:dynamodb:{region}:{account}:table/{name}"
            return name, {"Arn": arn, "StreamArn": f"{arn}/stream/1970-01-01T00:00:00.000"}
        if kind in STATE_MACHINE_TYPES:
            name = self._name(properties, "Name", logical_id)
            arn = f"arn:{part}:states:{region}:{account}:stateMachine:{name}"
            return arn, {"Arn": arn, "Name": name}
        if kind == "AWS::Cognito::UserPool":
            pool_id = f"{region}_{_fake_id(logical_id, 9)}"
            provider = f"cognito-idp.{region}.amazonaws.com/{pool_id}"
            return pool_id, {
                "Arn": f"arn:{part}:cognito-idp:{region}:{account}:userpool/{pool_id}",
                "ProviderName": provider,
                "ProviderURL": f"https://{provider}",
                "UserPoolId": pool_id,
            }
        if kind == "AWS::Cognito::UserPoolClient":
            client_id = _fake_id(logical_id, 26)
            return client_id, {"ClientId": client_id}
        if kind == "AWS::ApiGatewayV2::Api":
            api_id = _fake_id(logical_id)
            protocol = "wss" if properties.get("ProtocolType") == "WEBSOCKET" else "https"
            endpoint = f"{protocol}://{api_id}.execute-api.{region}.amazonaws.com"
            return api_id, {"ApiId": api_id, "ApiEndpoint": endpoint}
        if kind in ("AWS::Serverless::LayerVersion", "AWS::Lambda::LayerVersion"):
            name = self._name(properties, "LayerName", logical_id)
            return f"arn:{part}:lambda:{region}:{account}:layer:{name}:1", {}
        if kind == "AWS::IAM::Role":
            name = self._name(properties, "RoleName", logical_id)
            return name, {"Arn": f"arn:{part}:iam::{account}:role/{name}", "RoleId": name}
        if kind == "AWS::SQS::Queue":
            name = self._name(properties, "QueueName", logical_id)
            url = f"https://sqs.{region}.amazonaws.com/{account}/{name}"
            arn = f"arn:{part}:sqs:{region}:{account}:{name}"
            return url, {"Arn": arn, "QueueName": name, "QueueUrl": url}
        if kind == "AWS::Logs::LogGroup":
            name = self._name(properties, "LogGroupName", logical_id)
            return name, {"Arn": f"arn:{part}:logs:{region}:{account}:log-group:{name}:*"}
        return _fake_id(logical_id), {}


# ------------------------------------------------------------------------------------- resolve

_SUB_VARIABLE = re.compile(r"\$\{([^}]*)\}")


def _sub(template: str, variables: Mapping[str, Any], context: Context) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        if name.startswith("!"):
            return "${" + name[1:] + "}"
        if name in variables:
            value = variables[name]
        elif "." in name and not name.startswith("AWS::"):
            resource, _, attribute = name.partition(".")
            value = context.get_att(resource, attribute)
        else:
            value = context.ref(name)
        if isinstance(value, (dict, list)):
            raise TemplateError(f"Fn::Sub variable {name!r} is not a string: {value!r}")
        return str(value)

    return _SUB_VARIABLE.sub(replace, template)


def _as_list(value: Any, function: str) -> list[Any]:
    if not isinstance(value, list):
        raise TemplateError(f"{function} expects a list, got {value!r}")
    return value


def _intrinsic(name: str, argument: Any, context: Context) -> Any:
    if name == "Ref":
        return context.ref(str(resolve(argument, context)))
    if name == "Condition":
        return context.condition(str(argument))
    if name == "Fn::GetAtt":
        if isinstance(argument, str):
            resource, _, attribute = argument.partition(".")
        else:
            parts = _as_list(argument, name)
            resource, attribute = str(parts[0]), str(resolve(parts[1], context))
        return context.get_att(resource, attribute)
    if name == "Fn::Sub":
        if isinstance(argument, str):
            return _sub(argument, {}, context)
        text, variables = _as_list(argument, name)
        return _sub(str(text), resolve(variables, context), context)
    if name == "Fn::Join":
        delimiter, items = _as_list(argument, name)
        values = resolve(items, context)
        return str(delimiter).join(str(item) for item in _as_list(values, name))
    if name == "Fn::Select":
        index, items = _as_list(argument, name)
        values = _as_list(resolve(items, context), name)
        return values[int(resolve(index, context))]
    if name == "Fn::Split":
        delimiter, text = _as_list(argument, name)
        return str(resolve(text, context)).split(str(delimiter))
    if name == "Fn::If":
        condition, when_true, when_false = _as_list(argument, name)
        chosen = when_true if context.condition(str(condition)) else when_false
        return resolve(chosen, context)
    if name == "Fn::Equals":
        left, right = _as_list(resolve(argument, context), name)
        return str(left) == str(right)
    if name == "Fn::Not":
        (value,) = _as_list(resolve(argument, context), name)
        return not value
    if name == "Fn::And":
        return all(_as_list(resolve(argument, context), name))
    if name == "Fn::Or":
        return any(_as_list(resolve(argument, context), name))
    if name == "Fn::GetAZs":
        region = str(resolve(argument, context)) or context.region
        return [f"{region}{zone}" for zone in "abc"]
    if name == "Fn::FindInMap":
        mapping, top, second = _as_list(resolve(argument, context), name)
        try:
            return context.mappings[mapping][top][second]
        except KeyError as error:
            raise TemplateError(f"Fn::FindInMap {argument!r}: no {error}") from None
    if name == "Fn::Base64":
        import base64  # noqa: PLC0415 - rarely used

        return base64.b64encode(str(resolve(argument, context)).encode()).decode()
    if name == "Fn::ToJsonString":
        import json  # noqa: PLC0415 - rarely used

        return json.dumps(resolve(argument, context), separators=(",", ":"))
    raise TemplateError(f"{name} is not supported locally (e.g. Fn::ImportValue needs a stack)")


def _is_intrinsic(value: Mapping[str, Any]) -> bool:
    if len(value) != 1:
        return False
    (key,) = value
    return key in ("Ref", "Condition") or key.startswith("Fn::")


def resolve(value: Any, context: Context) -> Any:
    """Evaluate the intrinsic functions in `value` (any depth) against `context`."""
    if isinstance(value, dict):
        if _is_intrinsic(value):
            ((key, argument),) = value.items()
            return _intrinsic(key, argument, context)
        resolved = {key: resolve(item, context) for key, item in value.items()}
        return {key: item for key, item in resolved.items() if item is not NO_VALUE}
    if isinstance(value, list):
        items = [resolve(item, context) for item in value]
        return [item for item in items if item is not NO_VALUE]
    return value


# ------------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class FunctionSpec:
    """A function of the template. `environment` is resolved, Globals merged under it."""

    logical_id: str
    code_uri: str
    handler: str
    runtime: str | None
    timeout: int | None
    memory_size: int | None
    environment: dict[str, str]
    properties: Mapping[str, Any] = field(repr=False, compare=False)


@dataclass(frozen=True)
class Route:
    """A WebSocket route: its key and the function its integration invokes."""

    logical_id: str
    route_key: str
    function: str
    api: str | None
    operation_name: str | None = None
    authorization_type: str = "NONE"
    authorizer: str | None = None


@dataclass(frozen=True)
class Authorizer:
    """A Lambda REQUEST authorizer of a WebSocket API."""

    logical_id: str
    function: str
    identity_source: tuple[str, ...]
    authorizer_type: str
    name: str | None = None


def _stringify(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Template:
    """A parsed template with the context its intrinsics are resolved in."""

    def __init__(
        self,
        path: str | Path,
        *,
        stack_name: str = DEFAULT_STACK_NAME,
        parameters: Mapping[str, Any] | None = None,
        region: str = DEFAULT_REGION,
        account_id: str = DEFAULT_ACCOUNT_ID,
    ) -> None:
        self.path = Path(path).resolve()
        self.root = self.path.parent
        self.body = load_template(self.path)
        self.context = Context.for_template(
            self.body,
            parameters=parameters,
            stack_name=stack_name,
            region=region,
            account_id=account_id,
        )

    @property
    def resources(self) -> dict[str, Any]:
        return cast(dict[str, Any], self.body.get("Resources") or {})

    def resources_of_type(self, *types: str) -> dict[str, dict[str, Any]]:
        """Logical id → resource, for the resources of the given types, in template order."""
        return {
            logical_id: resource
            for logical_id, resource in self.resources.items()
            if resource.get("Type") in types and self._enabled(resource)
        }

    def properties(self, logical_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], self.resources[logical_id].get("Properties") or {})

    def resolve(self, value: Any) -> Any:
        return resolve(value, self.context)

    def _enabled(self, resource: Mapping[str, Any]) -> bool:
        condition = resource.get("Condition")
        return condition is None or self.context.condition(str(condition))

    # -------------------------------------------------------------- functions

    def function_globals(self) -> dict[str, Any]:
        globals_ = cast(dict[str, Any], self.body.get("Globals") or {})
        return cast(dict[str, Any], globals_.get("Function") or {})

    def function(self, logical_id: str) -> FunctionSpec:
        if logical_id not in self.resources_of_type(*FUNCTION_TYPES):
            raise TemplateError(f"{logical_id!r} is not a function of the template")
        globals_ = self.function_globals()
        properties = self.properties(logical_id)
        variables: dict[str, Any] = {}
        for source in (globals_, properties):
            environment = source.get("Environment") or {}
            variables.update(environment.get("Variables") or {})
        environment = {name: _stringify(value) for name, value in self.resolve(variables).items()}
        code = properties.get("CodeUri", globals_.get("CodeUri"))
        if not isinstance(code, str):
            raise TemplateError(f"{logical_id}: only a local CodeUri path is supported")
        timeout = properties.get("Timeout", globals_.get("Timeout"))
        memory = properties.get("MemorySize", globals_.get("MemorySize"))
        return FunctionSpec(
            logical_id=logical_id,
            code_uri=code,
            handler=str(properties.get("Handler", globals_.get("Handler"))),
            runtime=properties.get("Runtime", globals_.get("Runtime")),
            timeout=None if timeout is None else int(self.resolve(timeout)),
            memory_size=None if memory is None else int(self.resolve(memory)),
            environment=environment,
            properties=properties,
        )

    def functions(self) -> list[FunctionSpec]:
        """Every function (`AWS::Serverless::Function` / `AWS::Lambda::Function`)."""
        return [self.function(logical_id) for logical_id in self.resources_of_type(*FUNCTION_TYPES)]

    def function_for_uri(self, uri: Any) -> str:
        """The logical id of the function an integration or authorizer URI (or ARN) invokes."""
        text = str(self.resolve(uri))
        for logical_id in self.resources_of_type(*FUNCTION_TYPES):
            arn = self.context.get_att(logical_id, "Arn")
            if re.search(re.escape(arn) + r"(?![\w-])", text):
                return logical_id
        raise TemplateError(f"no function of the template is invoked by {text!r}")

    # -------------------------------------------------------------- WebSocket API

    def _physical_to_logical(self, types: tuple[str, ...]) -> dict[str, str]:
        return {
            str(self.context.ref(logical_id)): logical_id
            for logical_id in self.resources_of_type(*types)
        }

    def routes(self, api: str | None = None) -> list[Route]:
        """The `AWS::ApiGatewayV2::Route`s (of `api` if given), with the function each invokes."""
        integrations = self._physical_to_logical(("AWS::ApiGatewayV2::Integration",))
        authorizers = self._physical_to_logical(("AWS::ApiGatewayV2::Authorizer",))
        apis = self._physical_to_logical(("AWS::ApiGatewayV2::Api",))
        routes: list[Route] = []
        for logical_id in self.resources_of_type("AWS::ApiGatewayV2::Route"):
            properties = self.properties(logical_id)
            api_id = apis.get(str(self.resolve(properties.get("ApiId"))))
            if api is not None and api_id != api:
                continue
            target = str(self.resolve(properties.get("Target", "")))
            prefix, _, integration_id = target.partition("/")
            if prefix != "integrations" or integration_id not in integrations:
                raise TemplateError(f"{logical_id}: Target {target!r} names no integration")
            integration = self.properties(integrations[integration_id])
            authorizer_id = properties.get("AuthorizerId")
            routes.append(
                Route(
                    logical_id=logical_id,
                    route_key=str(self.resolve(properties["RouteKey"])),
                    function=self.function_for_uri(integration.get("IntegrationUri", "")),
                    api=api_id,
                    operation_name=properties.get("OperationName"),
                    authorization_type=str(properties.get("AuthorizationType", "NONE")),
                    authorizer=(
                        None
                        if authorizer_id is None
                        else authorizers.get(str(self.resolve(authorizer_id)))
                    ),
                )
            )
        return routes

    def authorizer(self, logical_id: str) -> Authorizer:
        properties = self.properties(logical_id)
        identity = self.resolve(properties.get("IdentitySource") or [])
        return Authorizer(
            logical_id=logical_id,
            function=self.function_for_uri(properties.get("AuthorizerUri", "")),
            identity_source=tuple([identity] if isinstance(identity, str) else identity),
            authorizer_type=str(properties.get("AuthorizerType", "REQUEST")),
            name=properties.get("Name"),
        )

    def connect_authorizer(self, api: str | None = None) -> Authorizer | None:
        """The authorizer of the `$connect` route, or None when `$connect` has none."""
        for route in self.routes(api):
            if route.route_key == "$connect":
                return None if route.authorizer is None else self.authorizer(route.authorizer)
        return None


# ------------------------------------------------------------------------------------- handlers


@contextmanager
def _on_path(*directories: Path) -> Iterator[None]:
    added = [str(directory) for directory in directories if str(directory) not in sys.path]
    sys.path[:0] = added
    try:
        yield
    finally:
        for entry in added:
            if entry in sys.path:
                sys.path.remove(entry)


def load_handler(project_root: str | Path, function: FunctionSpec) -> Handler:
    """Import `<CodeUri>/<module>.py` of `function` by file path and return its handler.

    The module gets a name unique to the function (`devstack_functions.<LogicalId>.<module>`), as
    every function has an `app.py`. The project's `shared/` directory stays importable (the domain
    layer); the CodeUri directory is on `sys.path` only while the module is executed, so sibling
    modules it imports at load time are found (but share `sys.modules` with other functions').
    """
    root = Path(project_root).resolve()
    code_dir = (root / function.code_uri).resolve()
    module_path, _, attribute = function.handler.rpartition(".")
    if not module_path or not attribute:
        raise TemplateError(f"{function.logical_id}: Handler {function.handler!r} is not mod.func")
    file = code_dir.joinpath(*module_path.split(".")).with_suffix(".py")
    if not file.is_file():
        raise TemplateError(f"{function.logical_id}: no handler module {file}")
    shared = root / "shared"
    if shared.is_dir() and str(shared) not in sys.path:
        sys.path.append(str(shared))
    module_name = f"devstack_functions.{function.logical_id}.{module_path}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has a loader
        raise TemplateError(f"cannot import {file}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        with _on_path(code_dir):
            spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    handler = getattr(module, attribute, None)
    if not callable(handler):
        raise TemplateError(f"{function.logical_id}: {file} has no callable {attribute!r}")
    return cast(Handler, handler)
