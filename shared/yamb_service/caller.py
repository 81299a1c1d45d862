"""Who sent an event: the player (from the verified token) and their connection."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Caller:
    player_id: str
    connection_id: str
