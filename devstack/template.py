"""Read a SAM / CloudFormation template the way the local stack needs it.

`load_template` parses YAML (or JSON) with the intrinsic short tags (`!Ref`, `!Sub`, `!GetAtt`...)
into their plain long forms (`{"Ref": ...}`, `{"Fn::Sub": ...}`, `{"Fn::GetAtt": [...]}`), with
no cfn-lint dependency. `resolve` evaluates the intrinsics against a `Context`: parameters (with the
template's defaults, and `LOCAL_PARAMETERS` for those a deployment must set), pseudo parameters
and the physical ids and attributes of resources. A resource that nothing has created yet gets a
predicted, deterministic id (`<stack>-<LogicalId>` for named things, a fake hexadecimal id
otherwise) so that the template can be read on its own.

`Template` bundles a parsed template with its context and reads what the local stack runs: the
functions (`functions`), the WebSocket routes (`routes`) and the `$connect` authorizer
(`connect_authorizer`), the HTTP API routes of the functions' `HttpApi` events (`http_routes`)
with their Lambda authorizers (`http_authorizers`) and CORS configuration (`http_cors`), and the
functions' `ScheduleV2` / `Schedule` events (`schedules`). `load_handler` imports a function's
handler from its `CodeUri`.

How SAM reads an `HttpApi` event, and so how it is read here: `ApiId` names an
`AWS::Serverless::HttpApi` (without it, the implicit `ServerlessHttpApi`, configured by
`Globals.HttpApi`); `Method` defaults to ANY (`any` is upper-cased), `Path` with `Method` make the
route key (`POST /accounts`), neither gives the `$default` route; the authorizer is the event's
`Auth.Authorizer` (`NONE`: none), else the API's `Auth.DefaultAuthorizer`. A Lambda authorizer
takes its function from `FunctionArn` (`!GetAtt Fn.Arn`), its identity sources from `Identity`
(`Headers`, `QueryStrings`, `Context`, `StageVariables`: `$request.header.X`...). A schedule is
named as SAM names the resource it generates, `<FunctionLogicalId><EventName>`.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import json
import os
import re
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, cast

import yaml

__all__ = [
    "LOCAL_PARAMETERS",
    "Authorizer",
    "Context",
    "CorsConfiguration",
    "FunctionSpec",
    "HttpApiAuthorizer",
    "HttpApiRoute",
    "Route",
    "Schedule",
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
# The local values of the root parameters a deployment must set (no default in the template):
# nothing is mailed locally, but the template reads as it deploys.
LOCAL_PARAMETERS = {"AlertEmail": "alerts@yamb.localhost"}

SERVERLESS_FUNCTION = "AWS::Serverless::Function"
SERVERLESS_HTTP_API = "AWS::Serverless::HttpApi"
IMPLICIT_HTTP_API = "ServerlessHttpApi"
SCHEDULE_EVENT_TYPES = ("ScheduleV2", "Schedule")
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
            elif name in LOCAL_PARAMETERS:
                values[name] = LOCAL_PARAMETERS[name]
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
        if kind == "AWS::S3::Bucket":
            # S3's names are lower case; CloudFormation makes one from the stack's when unnamed.
            name = self._name(properties, "BucketName", logical_id).lower()
            return name, {
                "Arn": f"arn:{part}:s3:::{name}",
                "DomainName": f"{name}.s3.amazonaws.com",
            }
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


# ------------------------------------------------------------------------------------- nesting

NESTED_APPLICATION = "AWS::Serverless::Application"
NESTED_STACK = "AWS::CloudFormation::Stack"
_PATH_PROPERTIES = ("CodeUri", "ContentUri", "DefinitionUri")
_FOREACH = "Fn::ForEach::"


def local_location(resource: Mapping[str, Any], base: Path) -> Path | None:
    """The local template file a nested application (`Location`) or stack (`TemplateURL`)
    names, relative to `base`; None for anything else (the SAR, S3)."""
    if resource.get("Type") not in (NESTED_APPLICATION, NESTED_STACK):
        return None
    properties = resource.get("Properties") or {}
    location = properties.get("Location", properties.get("TemplateURL"))
    if not isinstance(location, str) or "://" in location:
        return None
    return (base / location).resolve()


def template_files(path: str | Path) -> list[Path]:
    """The template at `path` and, depth first, the local templates its nested applications name."""
    path = Path(path).resolve()
    found = [path]
    for resource in (load_template(path).get("Resources") or {}).values():
        if isinstance(resource, Mapping):
            nested = local_location(resource, path.parent)
            if nested is not None:
                found.extend(template_files(nested))
    return found


def _replace_identifier(value: Any, identifier: str, item: str) -> Any:
    if isinstance(value, str):
        stripped = re.sub(r"[^A-Za-z0-9]", "", item)
        return value.replace("${" + identifier + "}", item).replace(
            "&{" + identifier + "}", stripped
        )
    if isinstance(value, list):
        return [_replace_identifier(entry, identifier, item) for entry in value]
    if isinstance(value, dict):
        if value == {"Ref": identifier}:
            return item
        return {
            _replace_identifier(key, identifier, item): _replace_identifier(entry, identifier, item)
            for key, entry in value.items()
        }
    return value


def _expand_section(section: Mapping[str, Any], parameters: Mapping[str, Any]) -> dict[str, Any]:
    expanded: dict[str, Any] = {}
    for key, value in section.items():
        if not key.startswith(_FOREACH):
            expanded[key] = value
            continue
        identifier, collection, fragment = _as_list(value, key)
        if isinstance(collection, dict) and set(collection) == {"Ref"}:
            spec = parameters.get(collection["Ref"]) or {}
            if "Default" not in spec:
                raise TemplateError(f"{key}: the collection {collection!r} has no value locally")
            collection = [item.strip() for item in str(spec["Default"]).split(",")]
        for item in _as_list(collection, key):
            output = _replace_identifier(fragment, str(identifier), str(item))
            for name, entry in _expand_section(output, parameters).items():
                if name in expanded:
                    raise TemplateError(f"{key} makes {name!r} twice")
                expanded[name] = entry
    return expanded


def expand_language_extensions(body: Mapping[str, Any]) -> dict[str, Any]:
    """`Fn::ForEach` loops (the AWS::LanguageExtensions transform) in Resources, Outputs and
    Conditions expanded, as CloudFormation does: `${Id}` and `&{Id}` (non-alphanumerics dropped)
    in keys and strings and `{"Ref": Id}` become each item of a literal list (or of a
    CommaDelimitedList parameter's default)."""
    result = dict(body)
    parameters = cast(Mapping[str, Any], body.get("Parameters") or {})
    for section in ("Resources", "Outputs", "Conditions"):
        if isinstance(body.get(section), Mapping):
            result[section] = _expand_section(body[section], parameters)
    return result


def _substitute(value: Any, refs: Mapping[str, Any], attributes: Mapping[str, Any]) -> Any:
    """`value` with `Ref`s of `refs`' names and `Fn::GetAtt`s of `attributes`' ("Res.Attr")
    replaced by their expressions, in `Fn::Sub` strings too (as the Sub's variables)."""
    if isinstance(value, list):
        return [_substitute(entry, refs, attributes) for entry in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((key, argument),) = value.items()
        if key == "Ref" and isinstance(argument, str) and argument in refs:
            return copy.deepcopy(refs[argument])
        if key == "Fn::GetAtt":
            parts = argument.split(".", 1) if isinstance(argument, str) else argument
            if (
                isinstance(parts, list)
                and len(parts) == 2
                and all(isinstance(p, str) for p in parts)
            ):
                name = f"{parts[0]}.{parts[1]}"
                if name in attributes:
                    return copy.deepcopy(attributes[name])
        if key == "Fn::Sub":
            text, variables = (argument, {}) if isinstance(argument, str) else argument
            variables = _substitute(variables, refs, attributes)
            for match in _SUB_VARIABLE.finditer(str(text)):
                name = match.group(1).strip()
                if name in variables:
                    continue
                if name in refs:
                    variables[name] = copy.deepcopy(refs[name])
                elif name in attributes:
                    variables[name] = copy.deepcopy(attributes[name])
            return {"Fn::Sub": [text, variables] if variables else text}
    return {key: _substitute(entry, refs, attributes) for key, entry in value.items()}


def _rebase(properties: dict[str, Any], directory: Path, root: Path) -> None:
    for key in _PATH_PROPERTIES:
        value = properties.get(key)
        if isinstance(value, str) and "://" not in value:
            rebased = os.path.relpath(os.path.normpath(directory / value), root)
            properties[key] = rebased + ("/" if value.endswith("/") else "")


@dataclass
class _Flat:
    resources: dict[str, Any] = field(default_factory=dict)
    conditions: dict[str, Any] = field(default_factory=dict)
    mappings: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    globals_of: dict[str, dict[str, Any]] = field(default_factory=dict)  # resource -> Globals
    stack_of: dict[str, str] = field(default_factory=dict)  # resource -> nested app ("" root)


def _merge(into: dict[str, Any], more: Mapping[str, Any], what: str, where: str) -> None:
    for name, value in more.items():
        if name in into:
            raise TemplateError(f"{where}: {what} {name!r} is declared twice (ids must be unique)")
        into[name] = value


def _flatten(body: Mapping[str, Any], directory: Path, root: Path, stack: str) -> _Flat:
    """One template and its local nested applications as one: the nested resources keep their
    logical ids (unique across the templates), their parameters become what the parent passes,
    and `!GetAtt App.Outputs.X` becomes the nested output's value."""
    body = expand_language_extensions(body)
    flat = _Flat(
        conditions=dict(body.get("Conditions") or {}),
        mappings=dict(body.get("Mappings") or {}),
        outputs=dict(body.get("Outputs") or {}),
    )
    globals_ = cast(dict[str, Any], body.get("Globals") or {})
    outputs: dict[str, Any] = {}
    for logical_id, resource in (body.get("Resources") or {}).items():
        location = local_location(resource, directory)
        flat.resources[logical_id] = resource
        flat.stack_of[logical_id] = stack
        flat.globals_of[logical_id] = globals_
        if location is None:
            continue
        child_body = load_template(location)
        child = _flatten(child_body, location.parent, root, logical_id)
        declared = cast(Mapping[str, Any], child_body.get("Parameters") or {})
        passed = cast(Mapping[str, Any], (resource.get("Properties") or {}).get("Parameters") or {})
        unknown = set(passed) - set(declared)
        if unknown:
            raise TemplateError(f"{logical_id}: {location.name} declares no {sorted(unknown)}")
        refs: dict[str, Any] = {"AWS::StackName": {"Fn::Sub": "${AWS::StackName}-" + logical_id}}
        for name, spec in declared.items():
            if name in passed:
                value = passed[name]
            elif "Default" in spec:
                value = str(spec["Default"])
            else:
                raise TemplateError(f"{logical_id}: parameter {name!r} has no value and no default")
            kind = str(spec.get("Type", "String"))
            if kind == "CommaDelimitedList" or kind.startswith("List<"):
                value = {"Fn::Split": [",", value]} if not isinstance(value, list) else value
            refs[name] = value
        rewrite = partial(_substitute, refs=refs, attributes={})
        for name, nested in child.resources.items():
            rewritten = rewrite(nested)
            if child.stack_of[name] == logical_id:
                _rebase(rewritten.setdefault("Properties", {}), location.parent, root)
            child.resources[name] = rewritten
        _merge(flat.resources, child.resources, "resource", location.name)
        _merge(flat.conditions, rewrite(child.conditions), "condition", location.name)
        _merge(flat.mappings, child.mappings, "mapping", location.name)
        flat.stack_of.update(child.stack_of)
        flat.globals_of.update({k: rewrite(v) for k, v in child.globals_of.items()})
        for name, output in child.outputs.items():
            outputs[f"{logical_id}.Outputs.{name}"] = rewrite(output["Value"])
    # Outputs of one nested application passed to another: resolve until none is left.
    for _ in range(len(outputs) + 1):
        before = (flat.resources, flat.conditions, flat.outputs, flat.globals_of, outputs)
        flat.resources = _substitute(flat.resources, {}, outputs)
        flat.conditions = _substitute(flat.conditions, {}, outputs)
        flat.outputs = _substitute(flat.outputs, {}, outputs)
        flat.globals_of = _substitute(flat.globals_of, {}, outputs)
        outputs = _substitute(outputs, {}, outputs)
        if (flat.resources, flat.conditions, flat.outputs, flat.globals_of, outputs) == before:
            break
    else:  # pragma: no cover - a cycle CloudFormation refuses too
        raise TemplateError("nested applications' outputs refer to each other in a cycle")
    return flat


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


@dataclass(frozen=True)
class HttpApiAuthorizer:
    """A Lambda authorizer of an HTTP API (`Auth.Authorizers.<name>` of the HttpApi)."""

    name: str
    api: str
    function: str
    identity_source: tuple[str, ...]
    payload_format_version: str = "2.0"
    enable_simple_responses: bool = False
    reauthorize_every: int = 300


@dataclass(frozen=True)
class HttpApiRoute:
    """A route of an HTTP API: a function's `HttpApi` event."""

    api: str
    method: str
    path: str | None
    function: str
    event: str
    authorizer: str | None = None
    payload_format_version: str = "2.0"
    timeout_ms: int | None = None

    @property
    def route_key(self) -> str:
        """``POST /accounts``, ``ANY /{proxy+}``, or ``$default``."""
        return "$default" if self.path is None else f"{self.method} {self.path}"


@dataclass(frozen=True)
class CorsConfiguration:
    """An HTTP API's `CorsConfiguration`."""

    allow_origins: tuple[str, ...] = ()
    allow_methods: tuple[str, ...] = ()
    allow_headers: tuple[str, ...] = ()
    expose_headers: tuple[str, ...] = ()
    allow_credentials: bool = False
    max_age: int | None = None


@dataclass(frozen=True)
class Schedule:
    """A `ScheduleV2` (EventBridge Scheduler) or `Schedule` (EventBridge rule) event."""

    name: str
    function: str
    event: str
    kind: str
    expression: str
    input: Any = None
    has_input: bool = False
    timezone: str | None = None
    enabled: bool = True

    def payload(self, now: str | None = None) -> Any:
        """What the target function receives: the Input (parsed JSON), with ``"now"`` added when
        given. Without an Input, a rule (`Schedule`) sends its Scheduled Event and Scheduler
        (`ScheduleV2`) an empty object."""
        if self.has_input:
            payload = copy.deepcopy(self.input)
        elif self.kind == "Schedule":
            payload = {
                "version": "0",
                "id": str(uuid.uuid4()),
                "detail-type": "Scheduled Event",
                "source": "aws.events",
                "time": now or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "resources": [],
                "detail": {},
            }
        else:
            payload = {}
        if now is not None:
            if not isinstance(payload, dict):
                raise TemplateError(f"{self.name}: an Input that is not an object takes no now")
            payload["now"] = now
        return payload


@dataclass(frozen=True, slots=True)
class StreamMapping:
    """A function's `DynamoDB` event: its table's stream, filtered, in batches."""

    function: str
    event: str
    table: str  # the table's logical id
    starting_position: str
    batch_size: int
    filters: tuple[Mapping[str, Any], ...]
    maximum_retry_attempts: int


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(item) for item in value)


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
        raw = load_template(self.path)
        flat = _flatten(raw, self.root, self.root, "")
        # The root and its local nested applications read as one template (see _flatten).
        self.body = {
            **raw,
            "Resources": flat.resources,
            "Conditions": flat.conditions,
            "Mappings": flat.mappings,
            "Outputs": flat.outputs,
        }
        self._globals_of = flat.globals_of
        self.stack_of = flat.stack_of
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

    def function_globals(self, logical_id: str | None = None) -> dict[str, Any]:
        """`Globals.Function` of the root template, or of the template `logical_id` is in."""
        if logical_id is None:
            globals_ = cast(dict[str, Any], self.body.get("Globals") or {})
        else:
            globals_ = self._globals_of.get(logical_id) or {}
        return cast(dict[str, Any], globals_.get("Function") or {})

    def function(self, logical_id: str) -> FunctionSpec:
        if logical_id not in self.resources_of_type(*FUNCTION_TYPES):
            raise TemplateError(f"{logical_id!r} is not a function of the template")
        globals_ = self.function_globals(logical_id)
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

    def _v2_routes(self) -> Iterator[tuple[str, dict[str, Any], str | None, dict[str, Any]]]:
        """Every `AWS::ApiGatewayV2::Route`: its logical id, its properties, its API's logical id
        and the properties of the integration its `Target` names."""
        integrations = self._physical_to_logical(("AWS::ApiGatewayV2::Integration",))
        apis = self._physical_to_logical(("AWS::ApiGatewayV2::Api",))
        for logical_id in self.resources_of_type("AWS::ApiGatewayV2::Route"):
            properties = self.properties(logical_id)
            target = str(self.resolve(properties.get("Target", "")))
            prefix, _, integration_id = target.partition("/")
            if prefix != "integrations" or integration_id not in integrations:
                raise TemplateError(f"{logical_id}: Target {target!r} names no integration")
            api_id = apis.get(str(self.resolve(properties.get("ApiId"))))
            yield logical_id, properties, api_id, self.properties(integrations[integration_id])

    def routes(self, api: str | None = None) -> list[Route]:
        """The `AWS::ApiGatewayV2::Route`s (of `api` if given), with the function each invokes."""
        authorizers = self._physical_to_logical(("AWS::ApiGatewayV2::Authorizer",))
        http = set(self._v2_http_apis().values())
        routes: list[Route] = []
        for logical_id, properties, api_id, integration in self._v2_routes():
            if api_id in http or (api is not None and api_id != api):
                continue
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

    # -------------------------------------------------------------- HTTP API

    def _function_events(self) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
        """(function, event name, event type, properties) of every function event."""
        for logical_id in self.resources_of_type(SERVERLESS_FUNCTION):
            events = self.properties(logical_id).get("Events") or {}
            for name, event in events.items():
                yield (
                    logical_id,
                    str(name),
                    str(event.get("Type", "")),
                    cast(dict[str, Any], event.get("Properties") or {}),
                )

    def http_api_properties(self, api: str) -> dict[str, Any]:
        """The HttpApi's properties over `Globals.HttpApi` (SAM's merge, one level deep); the
        implicit `ServerlessHttpApi` has the Globals alone."""
        globals_ = cast(dict[str, Any], (self.body.get("Globals") or {}).get("HttpApi") or {})
        if api == IMPLICIT_HTTP_API and api not in self.resources:
            return dict(globals_)
        if api in self._v2_http_apis().values():
            return dict(self.properties(api))
        if api not in self.resources_of_type(SERVERLESS_HTTP_API):
            raise TemplateError(f"{api!r} is not an {SERVERLESS_HTTP_API} of the template")
        merged = dict(globals_)
        for key, value in self.properties(api).items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
        return merged

    def _http_api_of(self, properties: Mapping[str, Any]) -> str:
        api_ref = properties.get("ApiId")
        if api_ref is None:
            return IMPLICIT_HTTP_API
        if isinstance(api_ref, dict) and set(api_ref) == {"Ref"}:
            return str(api_ref["Ref"])
        apis = self._physical_to_logical((SERVERLESS_HTTP_API,))
        resolved = str(self.resolve(api_ref))
        if resolved not in apis:
            raise TemplateError(f"ApiId {api_ref!r} names no {SERVERLESS_HTTP_API}")
        return apis[resolved]

    def _v2_http_apis(self) -> dict[str, str]:
        """Physical id -> logical id of the `AWS::ApiGatewayV2::Api`s of protocol HTTP."""
        return {
            str(self.context.ref(logical_id)): logical_id
            for logical_id, resource in self.resources_of_type("AWS::ApiGatewayV2::Api").items()
            if (resource.get("Properties") or {}).get("ProtocolType") == "HTTP"
        }

    def _v2_http_authorizers(self, api: str) -> dict[str, tuple[str, dict[str, Any]]]:
        """Physical id -> (name, properties) of the `AWS::ApiGatewayV2::Authorizer`s of `api`."""
        api_id = str(self.context.ref(api))
        return {
            str(self.context.ref(logical_id)): (
                str(self.resolve(self.properties(logical_id).get("Name", logical_id))),
                self.properties(logical_id),
            )
            for logical_id in self.resources_of_type("AWS::ApiGatewayV2::Authorizer")
            if str(self.resolve(self.properties(logical_id).get("ApiId"))) == api_id
        }

    def api_gateway_http_routes(self, api: str | None = None) -> list[HttpApiRoute]:
        """The `AWS::ApiGatewayV2::Route`s of HTTP APIs (`RouteKey`, `Target` an integration of
        the function, `AuthorizationType: CUSTOM` with its `AuthorizerId`)."""
        http = set(self._v2_http_apis().values())
        routes: list[HttpApiRoute] = []
        for logical_id, properties, route_api, integration in self._v2_routes():
            if route_api is None or route_api not in http or (api is not None and route_api != api):
                continue
            authorizer: str | None = None
            if str(self.resolve(properties.get("AuthorizationType", "NONE"))) == "CUSTOM":
                known = self._v2_http_authorizers(route_api)
                chosen = str(self.resolve(properties.get("AuthorizerId")))
                if chosen not in known:
                    raise TemplateError(f"{logical_id}: AuthorizerId names none of {route_api}'s")
                authorizer = known[chosen][0]
            key = str(self.resolve(properties["RouteKey"]))
            method, _, path = key.partition(" ")
            timeout = integration.get("TimeoutInMillis")
            routes.append(
                HttpApiRoute(
                    api=route_api,
                    method="ANY" if key == "$default" else method.upper(),
                    path=None if key == "$default" else path,
                    function=self.function_for_uri(integration.get("IntegrationUri", "")),
                    event=logical_id,
                    authorizer=authorizer,
                    payload_format_version=str(integration.get("PayloadFormatVersion", "2.0")),
                    timeout_ms=None if timeout is None else int(self.resolve(timeout)),
                )
            )
        return routes

    def http_apis(self) -> list[str]:
        """The HTTP APIs that have routes: `AWS::Serverless::HttpApi` and HTTP
        `AWS::ApiGatewayV2::Api` logical ids (and `ServerlessHttpApi` for events without an
        ApiId), in template order."""
        declared = [
            api
            for api in self.resources
            if api in self.resources_of_type(SERVERLESS_HTTP_API)
            or api in self._v2_http_apis().values()
        ]
        used = dict.fromkeys(route.api for route in self.http_routes())
        return [api for api in declared if api in used] + [
            api for api in used if api not in declared
        ]

    def http_authorizers(self, api: str) -> dict[str, HttpApiAuthorizer]:
        """The API's Lambda authorizers by name. A JWT authorizer is not emulated (refused)."""
        result: dict[str, HttpApiAuthorizer] = {}
        if api in self._v2_http_apis().values():
            for name, spec in self._v2_http_authorizers(api).values():
                sources = self.resolve(spec.get("IdentitySource") or [])
                simple = self.resolve(spec.get("EnableSimpleResponses", False))
                result[name] = HttpApiAuthorizer(
                    name=name,
                    api=api,
                    function=self.function_for_uri(spec.get("AuthorizerUri", "")),
                    identity_source=tuple([sources] if isinstance(sources, str) else sources),
                    payload_format_version=str(
                        self.resolve(spec.get("AuthorizerPayloadFormatVersion", "2.0"))
                    ),
                    enable_simple_responses=simple is True or str(simple).lower() == "true",
                    reauthorize_every=int(
                        self.resolve(spec.get("AuthorizerResultTtlInSeconds", 300))
                    ),
                )
            return result
        auth = self.http_api_properties(api).get("Auth") or {}
        for name, spec in (auth.get("Authorizers") or {}).items():
            if "FunctionArn" not in spec:
                raise TemplateError(
                    f"{api}: authorizer {name!r} is not a Lambda authorizer (only those are "
                    "emulated locally)"
                )
            identity = spec.get("Identity") or {}
            sources = (
                *(f"$request.header.{h}" for h in _strings(identity.get("Headers"))),
                *(f"$request.querystring.{q}" for q in _strings(identity.get("QueryStrings"))),
                *(f"$context.{c}" for c in _strings(identity.get("Context"))),
                *(f"$stageVariables.{v}" for v in _strings(identity.get("StageVariables"))),
            )
            version = str(self.resolve(spec.get("AuthorizerPayloadFormatVersion", "2.0")))
            simple = self.resolve(spec.get("EnableSimpleResponses", False))
            reauthorize = self.resolve(identity.get("ReauthorizeEvery", 300))
            result[str(name)] = HttpApiAuthorizer(
                name=str(name),
                api=api,
                function=self.function_for_uri(spec["FunctionArn"]),
                identity_source=sources,
                payload_format_version=version,
                enable_simple_responses=simple is True or str(simple).lower() == "true",
                reauthorize_every=int(reauthorize),
            )
        return result

    def http_routes(self, api: str | None = None) -> list[HttpApiRoute]:
        """The routes of the functions' `HttpApi` events (of `api` if given), each with the
        authorizer that applies: the event's `Auth.Authorizer` (`NONE`: none), else the API's
        `DefaultAuthorizer`."""
        routes: list[HttpApiRoute] = self.api_gateway_http_routes(api)
        for function, name, kind, properties in self._function_events():
            if kind != "HttpApi":
                continue
            route_api = self._http_api_of(properties)
            if api is not None and route_api != api:
                continue
            auth = self.http_api_properties(route_api).get("Auth") or {}
            authorizer: str | None = auth.get("DefaultAuthorizer")
            chosen = (properties.get("Auth") or {}).get("Authorizer")
            if chosen is not None:
                authorizer = None if chosen == "NONE" else str(chosen)
            if authorizer is not None and authorizer not in (auth.get("Authorizers") or {}):
                raise TemplateError(
                    f"{function}.{name}: authorizer {authorizer!r} is not one of {route_api}'s"
                )
            path = properties.get("Path")
            method = properties.get("Method")
            timeout = properties.get("TimeoutInMillis")
            routes.append(
                HttpApiRoute(
                    api=route_api,
                    method="ANY" if method is None else str(method).upper(),
                    path=None if path is None and method is None else str(path or "/"),
                    function=function,
                    event=name,
                    authorizer=authorizer,
                    payload_format_version=str(properties.get("PayloadFormatVersion", "2.0")),
                    timeout_ms=None if timeout is None else int(self.resolve(timeout)),
                )
            )
        return routes

    def http_cors(self, api: str) -> CorsConfiguration | None:
        """The API's `CorsConfiguration` (`true` allows every origin), None without one."""
        cors = self.resolve(self.http_api_properties(api).get("CorsConfiguration"))
        if cors is None or cors is False:
            return None
        if cors is True or (isinstance(cors, str) and cors.lower() == "true"):
            return CorsConfiguration(allow_origins=("*",), allow_methods=("*",))
        if isinstance(cors, str):
            return CorsConfiguration(allow_origins=(cors.strip("'\""),), allow_methods=("*",))
        max_age = cors.get("MaxAge")
        credentials = cors.get("AllowCredentials", False)
        return CorsConfiguration(
            allow_origins=_strings(cors.get("AllowOrigins")),
            allow_methods=_strings(cors.get("AllowMethods")),
            allow_headers=_strings(cors.get("AllowHeaders")),
            expose_headers=_strings(cors.get("ExposeHeaders")),
            allow_credentials=credentials is True or str(credentials).lower() == "true",
            max_age=None if max_age is None else int(max_age),
        )

    # -------------------------------------------------------------- schedules

    def schedules(self) -> list[Schedule]:
        """The functions' `ScheduleV2` and `Schedule` events, named `<Function><Event>`."""
        result: list[Schedule] = []
        for function, name, kind, properties in self._function_events():
            if kind not in SCHEDULE_EVENT_TYPES:
                continue
            raw_input = self.resolve(properties.get("Input"))
            parsed: Any = None
            if raw_input is not None:
                try:
                    parsed = json.loads(str(raw_input))
                except json.JSONDecodeError as error:
                    raise TemplateError(f"{function}.{name}: Input is not JSON: {error}") from None
            state = self.resolve(properties.get("State", "ENABLED"))
            enabled = str(state).upper() != "DISABLED"
            if kind == "Schedule":  # an EventBridge rule: `Schedule`, `Enabled` (or `State`)
                expression = properties.get("Schedule")
                flag = self.resolve(properties.get("Enabled", True))
                enabled = enabled and (flag is True or str(flag).lower() == "true")
            else:
                expression = properties.get("ScheduleExpression")
            result.append(
                Schedule(
                    name=f"{function}{name}",
                    function=function,
                    event=name,
                    kind=kind,
                    expression=str(self.resolve(expression or "")),
                    input=parsed,
                    has_input=raw_input is not None,
                    timezone=properties.get("ScheduleExpressionTimezone"),
                    enabled=enabled,
                )
            )
        return result

    def stream_mappings(self) -> list[StreamMapping]:
        """The functions' `DynamoDB` events: a table's stream to a function."""
        result: list[StreamMapping] = []
        for function, name, kind, properties in self._function_events():
            if kind != "DynamoDB":
                continue
            stream = properties.get("Stream")
            target = stream.get("Fn::GetAtt") if isinstance(stream, Mapping) else None
            if isinstance(target, str):
                target = target.split(".", 1)
            if not (isinstance(target, list) and len(target) == 2 and target[1] == "StreamArn"):
                raise TemplateError(f"{function}.{name}: Stream is not a table's !GetAtt StreamArn")
            filters = (properties.get("FilterCriteria") or {}).get("Filters") or []
            result.append(
                StreamMapping(
                    function=function,
                    event=name,
                    table=str(target[0]),
                    starting_position=str(properties.get("StartingPosition", "LATEST")),
                    batch_size=int(properties.get("BatchSize", 100)),
                    filters=tuple(json.loads(str(f["Pattern"])) for f in filters),
                    maximum_retry_attempts=int(properties.get("MaximumRetryAttempts", 3)),
                )
            )
        return result

    def schedule(self, name: str) -> Schedule:
        """The schedule called `name`, or the only schedule of the function `name`."""
        schedules = self.schedules()
        for schedule in schedules:
            if schedule.name == name:
                return schedule
        of_function = [schedule for schedule in schedules if schedule.function == name]
        if len(of_function) == 1:
            return of_function[0]
        if of_function:
            names = ", ".join(schedule.name for schedule in of_function)
            raise TemplateError(f"{name} has several schedules: name one of {names}")
        known = ", ".join(schedule.name for schedule in schedules) or "none"
        raise TemplateError(f"no schedule {name!r} (the template's: {known})")


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
