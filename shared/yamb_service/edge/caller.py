"""Who sent an event: the player (from the verified token) and their connection."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Caller:
    player_id: str
    connection_id: str
    # When the ID token the connection was opened with expires (Unix time); None: not known.
    expires_at: int | None = None
    # The account's nickname, as the authorizer read it from the profile.
    nickname: str | None = None
