"""Who sent an event: the player (from the verified token) and their connection."""

from dataclasses import dataclass

from yamb.i18n import DEFAULT_LANGUAGE


@dataclass(frozen=True, slots=True)
class Caller:
    player_id: str
    connection_id: str
    # When the ID token the connection was opened with expires (Unix time); None: not known.
    expires_at: int | None = None
    # The account's nickname, as the authorizer read it from the profile.
    nickname: str | None = None
    # The account's language, as the authorizer read it from the profile: the server's
    # sentences to this connection (refusals, notices) are rendered in it.
    language: str = DEFAULT_LANGUAGE
