"""Who a token speaks for, for both authorizers ($connect and the HTTP API): a valid Cognito ID
token (yamb_service.edge.auth) of an account that may play, issued in its current sign-out
generation. The profile is read on every handshake and request (no cache), so a signed-out,
locked or banned account's token stops at once."""

from collections.abc import Callable
from dataclasses import replace

from yamb.accounts.errors import AccountError
from yamb.accounts.profile import Profile, refusal

from yamb_service.edge.auth import Identity, TokenVerifier


class TokenRefusedError(Exception):
    """The token opens nothing; `code` says why (for the logs: clients get a 401/403)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def admit(identity: Identity, profile: Profile | None) -> Identity:
    """The identity with the profile's nickname, or TokenRefusedError."""
    problem: AccountError | None = refusal(profile)
    if problem is not None:
        raise TokenRefusedError(problem.code, problem.message)
    assert profile is not None
    if identity.session != profile.session:
        raise TokenRefusedError(
            "signed_out", "the account was signed out since this token was issued"
        )
    return replace(identity, nickname=profile.nickname)


class PlayerTokens:
    def __init__(self, verifier: TokenVerifier, profiles: Callable[[str], Profile | None]) -> None:
        self._verifier = verifier
        self._profiles = profiles

    def admit(self, token: str) -> Identity:
        identity = self._verifier.verify(token)
        return admit(identity, self._profiles(identity.player_id))
