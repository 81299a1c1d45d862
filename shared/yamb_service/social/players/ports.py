"""What the players list needs from storage (yamb_service.social.players.dynamo); profiles,
favourites and blocks come through their own domains' ports."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from yamb.social.players import ListedPlayer


@dataclass(frozen=True, slots=True)
class Seen:
    """What presence is made of, as the connection handlers keep it on the player's record."""

    connected: bool
    seated_in: str | None


@dataclass(frozen=True, slots=True)
class Position:
    """Where a page of the list stopped: the shard, and the last key read in it."""

    shard: str
    after: str


class PlayerIndex(Protocol):
    def page(
        self, shard: str, *, after: str, prefix: str, limit: int
    ) -> list[tuple[str, ListedPlayer]]:
        """Up to `limit` entries of the shard with keys past `after` that start with `prefix`,
        in key order, each with its key."""


class PresenceReader(Protocol):
    def seen(self, player_ids: Iterable[str]) -> dict[str, Seen]:
        """Each player's presence record (a player never connected is absent)."""


class Favorites(Protocol):
    def favorites(self, player_id: str) -> list[str]:
        """The players `player_id` follows."""
