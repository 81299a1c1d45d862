"""A token verifier's key set given as data (yamb_service.edge.auth.TokenVerifier's `keys`), in
place of the JWKS client that fetches Cognito's."""

from typing import Any

import jwt
from yamb_service.edge.auth import InvalidTokenError


class StaticKeys:
    """A key set given as data."""

    def __init__(self, jwks: dict[str, Any]) -> None:
        self._keys = jwt.PyJWKSet.from_dict(jwks)

    def get_signing_key_from_jwt(self, token: str) -> Any:
        kid = jwt.get_unverified_header(token).get("kid")
        for key in self._keys.keys:
            if key.key_id == kid:
                return key
        raise InvalidTokenError("the token was signed by an unknown key")
