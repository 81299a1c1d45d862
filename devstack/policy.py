"""IAM policy documents evaluated locally: as API Gateway evaluates a Lambda authorizer's answer
(the local gateway's WebSocket `$connect` authorizer and its HTTP API authorizers that answer with
a policy), and as IAM evaluates a function's DynamoDB call against its role's statements (their
actions, resources and `dynamodb:LeadingKeys` conditions: `dynamodb_refusals`)."""

import logging
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "AuthorizerConfigurationError",
    "DynamoDbGuard",
    "UnsupportedPolicyError",
    "dynamodb_refusals",
    "dynamodb_requests",
    "guard_dynamodb",
    "policy_allows",
]


class AuthorizerConfigurationError(Exception):
    """The authorizer failed or returned something API Gateway does not accept (500)."""


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _glob_match(pattern: str, value: str) -> bool:
    """IAM-style matching: ``*`` any run of characters, ``?`` one character."""
    regex = "".join(
        ".*" if char == "*" else "." if char == "?" else re.escape(char) for char in pattern
    )
    return re.fullmatch(regex, value, flags=re.DOTALL) is not None


def policy_allows(policy: Any, method_arn: str) -> bool:
    """Evaluate an authorizer's policy document for `method_arn`: an explicit Deny wins."""
    if not isinstance(policy, Mapping):
        raise AuthorizerConfigurationError("policyDocument is not an object")
    statements = policy.get("Statement")
    if isinstance(statements, Mapping):
        statements = [statements]
    if not isinstance(statements, list):
        raise AuthorizerConfigurationError("policyDocument.Statement is missing")
    allowed = False
    for statement in statements:
        if not isinstance(statement, Mapping):
            raise AuthorizerConfigurationError("a policy statement is not an object")
        effect = str(statement.get("Effect", "")).lower()
        if effect not in {"allow", "deny"}:
            raise AuthorizerConfigurationError(f"bad policy Effect {statement.get('Effect')!r}")
        actions = [str(action) for action in _as_list(statement.get("Action"))]
        resources = [str(resource) for resource in _as_list(statement.get("Resource"))]
        if not any(_glob_match(action, "execute-api:Invoke") for action in actions):
            continue
        if not any(_glob_match(resource, method_arn) for resource in resources):
            continue
        if effect == "deny":
            return False
        allowed = True
    return allowed


# ----------------------------------------------------------------------------- DynamoDB grants
# moto checks no IAM policy: the local stack and the tests evaluate each DynamoDB call a function
# makes against the statements its template gives it, as IAM does for the actions, resources
# and the `dynamodb:LeadingKeys` condition (the partition key values a request names; for a
# query of an index, the index's partition key).

# Each index's partition key; the table's is "pk".
PARTITION_KEYS = {"": "pk", "gsi1": "gsi1pk"}
_TRANSACT_PARTS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
    "Get": "GetItem",
}
_BATCH_WRITES = {"PutRequest": "Item", "DeleteRequest": "Key"}


class UnsupportedPolicyError(Exception):
    """A statement uses what this evaluator does not model: refused rather than guessed."""


def _string(value: Any) -> str:
    if not isinstance(value, Mapping) or "S" not in value:
        raise UnsupportedPolicyError(f"a partition key that is not a string: {value!r}")
    return str(value["S"])


def _query_partition(params: Mapping[str, Any]) -> str:
    """The partition key value of a query (KeyConditionExpression or the legacy KeyConditions)."""
    key = PARTITION_KEYS.get(str(params.get("IndexName", "")))
    if key is None:
        raise UnsupportedPolicyError(f"unknown index {params.get('IndexName')!r}")
    if "KeyConditions" in params:
        return _string(params["KeyConditions"][key]["AttributeValueList"][0])
    names = {**{key: key}, **dict(params.get("ExpressionAttributeNames") or {})}
    values = dict(params.get("ExpressionAttributeValues") or {})
    for name, value in re.findall(r"([#\w]+)\s*=\s*(:\w+)", str(params["KeyConditionExpression"])):
        if names.get(name, name) == key:
            return _string(values[value])
    raise UnsupportedPolicyError(f"no equality on {key} in {params['KeyConditionExpression']!r}")


def dynamodb_requests(
    operation: str, params: Mapping[str, Any]
) -> list[tuple[str, str, list[str]]]:
    """What IAM authorizes for one DynamoDB call: (action, "table" or "index/<name>", the
    partition key values), a transaction's or batch's items each under their own action."""
    if operation in {"TransactWriteItems", "TransactGetItems"}:
        found = []
        for part in params["TransactItems"]:
            for kind, body in part.items():
                found.append((f"dynamodb:{_TRANSACT_PARTS[kind]}", "table", [_key_of(body)]))
        return found
    if operation == "BatchGetItem":
        return [
            ("dynamodb:BatchGetItem", "table", [_string(key["pk"]) for key in spec["Keys"]])
            for spec in params["RequestItems"].values()
        ]
    if operation == "BatchWriteItem":
        found = []
        for requests in params["RequestItems"].values():
            for request in requests:
                for kind, field in _BATCH_WRITES.items():
                    if kind in request:
                        found.append(
                            (
                                "dynamodb:BatchWriteItem",
                                "table",
                                [_string(request[kind][field]["pk"])],
                            )
                        )
        return found
    if operation == "Query":
        resource = f"index/{params['IndexName']}" if "IndexName" in params else "table"
        return [("dynamodb:Query", resource, [_query_partition(params)])]
    if operation in {"GetItem", "PutItem", "UpdateItem", "DeleteItem"}:
        return [(f"dynamodb:{operation}", "table", [_key_of(params)])]
    resource = f"index/{params['IndexName']}" if "IndexName" in params else "table"
    return [(f"dynamodb:{operation}", resource, [])]  # Scan and the rest: no leading keys


def _key_of(body: Mapping[str, Any]) -> str:
    return _string((body.get("Key") or body["Item"])["pk"])


def _condition_holds(condition: Any, context: Mapping[str, list[str]]) -> bool:
    """IAM's condition block: every operator and key must hold (AND); a key's patterns OR."""
    if condition is None:
        return True
    if not isinstance(condition, Mapping):
        raise UnsupportedPolicyError(f"a Condition that is not an object: {condition!r}")
    for operator, keys in condition.items():
        for key, patterns in dict(keys).items():
            wanted = [str(pattern) for pattern in _as_list(patterns)]
            values = context.get(str(key))
            match operator:
                case "ForAllValues:StringLike":
                    # true for an empty or missing key, as in IAM
                    ok = all(any(_glob_match(p, v) for p in wanted) for v in values or [])
                case "ForAllValues:StringEquals":
                    ok = all(v in wanted for v in values or [])
                case "StringLike" | "StringEquals" if values is not None and len(values) == 1:
                    match_ = _glob_match if operator == "StringLike" else str.__eq__
                    ok = any(match_(p, values[0]) for p in wanted)
                case _:
                    raise UnsupportedPolicyError(f"condition {operator} on {key} not modelled")
            if not ok:
                return False
    return True


def dynamodb_refusals(
    statements: list[Mapping[str, Any]],
    table_arn: str,
    operation: str,
    params: Mapping[str, Any],
) -> list[str]:
    """The parts of one DynamoDB call the statements do not allow (empty: allowed). An explicit
    Deny wins; a part is allowed by a statement whose action, resource and condition match."""
    refused = []
    for action, resource, keys in dynamodb_requests(operation, params):
        arn = table_arn if resource == "table" else f"{table_arn}/{resource}"
        context = {"dynamodb:LeadingKeys": keys} if keys else {}
        allowed = False
        for statement in statements:
            actions = [str(each) for each in _as_list(statement.get("Action"))]
            resources = [str(each) for each in _as_list(statement.get("Resource"))]
            if not any(_glob_match(pattern, action) for pattern in actions):
                continue
            if not any(_glob_match(pattern, arn) for pattern in resources):
                continue
            if not _condition_holds(statement.get("Condition"), context):
                continue
            if str(statement.get("Effect")) == "Deny":
                allowed = False
                break
            allowed = True
        if not allowed:
            refused.append(f"{action} on {resource} with leading keys {keys}")
    return refused


# ----------------------------------------------------------------------------- the local stack
# The local stack runs every function in one process, on one set of credentials moto never
# checks. `guard_dynamodb` makes each function's DynamoDB calls pass its own role's statements, as
# on AWS: a call its statements refuse fails with AccessDeniedException (and is logged), so a
# wrong partition prefix fails locally, in the e2e and browser tests too.

_CURRENT = threading.local()
_GUARD_LOCK = threading.Lock()
_INSTALLED: list[bool] = []
LOG = logging.getLogger("devstack.policy")


@dataclass(frozen=True)
class DynamoDbGuard:
    """Judges a function's DynamoDB calls by its statements (`statements(logical_id)`: resolved,
    when the first call is judged, once the stack's resources exist) and the table's ARN."""

    table_arn: Callable[[], str]
    statements: Callable[[str], list[Mapping[str, Any]]]

    def as_function(self, logical_id: str, handler: Callable[[Any, Any], Any]) -> Any:
        """`handler`, whose DynamoDB calls (in its thread) are judged as `logical_id`'s."""

        def run(event: Any, context: Any) -> Any:
            previous = getattr(_CURRENT, "running", None)
            _CURRENT.running = (self, logical_id)
            try:
                return handler(event, context)
            finally:
                _CURRENT.running = previous

        return run

    def check(self, function: str, operation: str, params: Mapping[str, Any]) -> None:
        refused = dynamodb_refusals(self.statements(function), self.table_arn(), operation, params)
        if refused:
            from botocore.exceptions import ClientError  # noqa: PLC0415

            message = f"{function} is not authorized: {'; '.join(refused)}"
            LOG.error("IAM refused a DynamoDB call: %s", message)
            raise ClientError(
                {"Error": {"Code": "AccessDeniedException", "Message": message}}, operation
            )


def guard_dynamodb() -> None:
    """Judge every DynamoDB call made while a guarded handler runs (installed once, for good:
    a call outside one passes as before)."""
    from botocore.client import BaseClient  # noqa: PLC0415

    with _GUARD_LOCK:
        if _INSTALLED:
            return
        make_api_call = BaseClient._make_api_call

        def judged(client: Any, operation: str, params: Any) -> Any:
            running = getattr(_CURRENT, "running", None)
            if running is not None and client.meta.service_model.service_name == "dynamodb":
                guard, function = running
                guard.check(function, operation, params)
            return make_api_call(client, operation, params)

        BaseClient._make_api_call = judged
        _INSTALLED.append(True)
