"""Who a token speaks for, for both authorizers ($connect and the HTTP API): a valid Cognito ID
token (yamb_service.edge.auth) of an account that may play, issued in its current sign-out
generation, from its latest sign-in (one device at a time, product A2). The profile is read on
every handshake and request (no cache), so a signed-out, locked or banned account's token, or
one of a device signed in again elsewhere, stops at once."""

from collections.abc import Callable
from dataclasses import replace

from yamb.accounts.errors import AccountError
from yamb.accounts.profile import Profile, refusal
from yamb.i18n import Plural, Text

from yamb_service.edge.auth import Identity, TokenVerifier

# How much earlier than the recorded sign-in (the PostAuthentication trigger's clock) a token's
# `auth_time` (Cognito's, taken before the trigger ran: a cold start, a retry) may be and still
# be of that sign-in. A sign-in less than this after the previous one leaves both valid.
SIGN_IN_SKEW_SECONDS = 5


class TokenRefusedError(Exception):
    """The token opens nothing; `code` says why (for the logs: clients get a 401/403)."""

    def __init__(self, code: str, reason: Text | Plural | str) -> None:
        super().__init__(str(reason))
        self.code = code
        self.reason = reason


def admit(identity: Identity, profile: Profile | None) -> Identity:
    """The identity with the profile's nickname and language, or TokenRefusedError."""
    problem: AccountError | None = refusal(profile)
    if problem is not None:
        raise TokenRefusedError(problem.code, problem.text)
    assert profile is not None
    if identity.session != profile.session:
        raise TokenRefusedError(
            "signed_out", Text("the account was signed out since this token was issued")
        )
    if identity.auth_time + SIGN_IN_SKEW_SECONDS < profile.signed_in_at:
        raise TokenRefusedError(
            "signed_in_elsewhere",
            Text("the player signed in on another device since this token"),
        )
    return replace(identity, nickname=profile.nickname, language=profile.preferences.language)


class PlayerTokens:
    def __init__(self, verifier: TokenVerifier, profiles: Callable[[str], Profile | None]) -> None:
        self._verifier = verifier
        self._profiles = profiles

    def admit(self, token: str) -> Identity:
        identity = self._verifier.verify(token)
        return admit(identity, self._profiles(identity.player_id))
