"""Verifying a Cognito ID token: signature against the pool's key set, issuer, audience, expiry.
PyJWT does the verification; this module only says what a valid player token is."""

from dataclasses import dataclass
from typing import Any, Protocol

import jwt

ALGORITHMS = ["RS256"]
# Seconds of disagreement allowed between Cognito's clock and ours on `exp` and `iat`: a token
# issued a moment "in the future" is not refused, and an expired one is not kept much longer.
LEEWAY_SECONDS = 5


class InvalidTokenError(Exception):
    pass


class SigningKeys(Protocol):
    def get_signing_key_from_jwt(self, token: str) -> Any: ...


@dataclass(frozen=True, slots=True)
class Identity:
    player_id: str
    nickname: str
    # When the token expires (Unix time); the authorizer hands it on as `expiresAt`.
    expires_at: int
    # The account's sign-out generation the token was issued in (Cognito's custom:session).
    session: int = 0
    # When the sign-in the token comes from happened (Unix seconds: Cognito's `auth_time`,
    # which a refreshed token keeps).
    auth_time: int = 0
    # The account's language (its profile's preference, read by the authorizer): what the
    # server's sentences to this player are rendered in (docs/languages.md).
    language: str = "en"


class TokenVerifier:
    def __init__(
        self, *, issuer: str, audience: str, keys: SigningKeys, leeway: float = LEEWAY_SECONDS
    ) -> None:
        self._issuer = issuer
        self._audience = audience
        self._keys = keys
        self._leeway = leeway

    def verify(self, token: str) -> Identity:
        try:
            key = self._keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token,
                key.key if hasattr(key, "key") else key,
                algorithms=ALGORITHMS,
                audience=self._audience,
                issuer=self._issuer,
                leeway=self._leeway,
                options={"require": ["exp", "iat", "sub", "aud", "iss"]},
            )
        except (jwt.PyJWTError, InvalidTokenError) as error:
            raise InvalidTokenError(str(error)) from None
        if claims.get("token_use") != "id":
            raise InvalidTokenError("an ID token is needed")
        try:
            session = int(claims.get("custom:session", 0))
        except (TypeError, ValueError):
            raise InvalidTokenError("the token's session is not a number") from None
        try:
            auth_time = int(claims.get("auth_time", claims["iat"]))
        except (TypeError, ValueError):
            raise InvalidTokenError("the token's auth_time is not a number") from None
        return Identity(
            player_id=claims["sub"],
            nickname=claims.get("cognito:username", claims["sub"]),
            expires_at=int(claims["exp"]),
            session=session,
            auth_time=auth_time,
        )
