"""The authorizers: a WebSocket handshake needs a valid Cognito ID token in `?token=`, an HTTP
API request one in `Authorization` (with or without `Bearer `); the token must belong to an
account that may play, in its current sign-out generation (yamb_service.edge.identity). The
player id comes from the verified token only."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from functools import cache
from typing import Any

import jwt
from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb_service.accounts.dynamo import load_profile
from yamb_service.common.config import authorizer_settings
from yamb_service.common.dynamo import item_model
from yamb_service.common.observability import logger
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.edge.auth import Identity, InvalidTokenError, TokenVerifier
from yamb_service.edge.identity import PlayerTokens, TokenRefusedError

# The key set is fetched on the first handshake and kept an hour; a fetch that hangs fails the
# handshake in seconds (the client tries again) instead of holding it for the function's timeout.
JWKS_TIMEOUT_SECONDS = 2
JWKS_LIFESPAN_SECONDS = 3600


@cache
def verifier() -> TokenVerifier:
    settings = authorizer_settings()
    jwks_url = settings.jwks_url or f"{settings.issuer}/.well-known/jwks.json"
    return TokenVerifier(
        issuer=settings.issuer,
        audience=settings.user_pool_client_id,
        keys=jwt.PyJWKClient(
            jwks_url, cache_keys=True, lifespan=JWKS_LIFESPAN_SECONDS, timeout=JWKS_TIMEOUT_SECONDS
        ),
    )


@cache
def player_tokens() -> PlayerTokens:
    settings = authorizer_settings()
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    return PlayerTokens(verifier(), lambda player_id: load_profile(item, player_id))


def _admit(token: str) -> Identity | None:
    try:
        return player_tokens().admit(token)
    except InvalidTokenError as error:
        logger.info("token refused", reason=str(error))
    except TokenRefusedError as error:
        logger.info("token refused", code=error.code, reason=str(error.reason))
    return None


def _policy(principal: str, effect: str, resource: str, context: dict[str, str]) -> dict[str, Any]:
    return {
        "principalId": principal,
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [{"Action": "execute-api:Invoke", "Effect": effect, "Resource": resource}],
        },
        "context": context,
    }


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    token = (event.get("queryStringParameters") or {}).get("token")
    if not token:
        raise Exception("Unauthorized")  # API Gateway answers 401
    identity = _admit(token)
    if identity is None:
        raise Exception("Unauthorized")
    logger.info("handshake allowed", player_id=identity.player_id)
    return _policy(
        identity.player_id,
        "Allow",
        event["methodArn"],
        # Context values reach the routes as strings: the expiry is Unix seconds as text.
        {
            "playerId": identity.player_id,
            "nickname": identity.nickname,
            "expiresAt": str(identity.expires_at),
            "language": identity.language,
        },
    )


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
def http_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The HTTP API's authorizer (payload 2.0, simple responses): not authorized is a 403."""
    header = (event.get("headers") or {}).get("authorization") or ""
    token = header.removeprefix("Bearer ").strip()
    identity = _admit(token) if token else None
    if identity is None:
        return {"isAuthorized": False}
    logger.info("request allowed", player_id=identity.player_id)
    return {
        "isAuthorized": True,
        "context": {
            "playerId": identity.player_id,
            "nickname": identity.nickname,
            "expiresAt": identity.expires_at,
            "language": identity.language,
        },
    }
