"""IAM policy documents as API Gateway evaluates a Lambda authorizer's answer, for the local
gateway's WebSocket `$connect` authorizer and its HTTP API authorizers that answer with a policy."""

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["AuthorizerConfigurationError", "policy_allows"]


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
