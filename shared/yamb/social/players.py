"""The players list (S1): each row a nickname, a flag and a presence, found by a prefix of the
nickname whatever its letter case and look-alike letters (`search_key`).

The list is an index of the active accounts' profiles by `search_key`, sharded by the key's
first character (`shard`), in key order inside each shard: a prefix search reads one shard
from the prefix on; the whole list walks the shards in order. Presence is not in the index:
it is read from the players' records for the rows of a page (docs/social.md)."""

import string
import unicodedata
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.clubs.tag import TagView
from yamb.confusables import skeleton

type Presence = Literal["offline", "free", "in_game"]

PAGE_SIZE = 30
MAX_BLOCKS = 500
MAX_PREFIX_CHARS = 16
# A listed key's first character is one of these shards; any other lands in OTHER_SHARD.
_SHARDS = tuple(string.digits + string.ascii_lowercase)
OTHER_SHARD = "~"
SHARDS: tuple[str, ...] = (*_SHARDS, OTHER_SHARD)


def shard(key: str) -> str:
    """The shard a nickname key (or a prefix's) is listed in."""
    first = key[:1]
    return first if first in _SHARDS else OTHER_SHARD


def search_key(text: str) -> str:
    """A nickname, or the first letters of one, as the list compares them: casefolded, then UTS
    39's skeleton ("ANA", "ana", and "ana" with a Cyrillic a are one). Casefolded first, unlike
    the uniqueness key (`yamb.accounts.nicknames.nickname_key`, where a capital I reads as the l
    it looks like): a player searching types "FIND" or "find" for "finds" alike."""
    return skeleton(unicodedata.normalize("NFKC", text.strip()).casefold())


def presence(*, connected: bool, seated_in: str | None) -> Presence:
    """Offline without a live connection; in a game while a seat is held at a table (waiting or
    playing: the player is busy there); else free."""
    if not connected:
        return "offline"
    return "in_game" if seated_in else "free"


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class ListedPlayer(_View):
    """An entry of the index: what a row shows besides presence."""

    player_id: str
    nickname: str
    country: str | None = None


class PlayerRow(_View):
    nickname: str
    # ISO 3166-1 alpha-2; None is the Yamb world flag.
    country: str | None
    presence: Presence
    # The table the player sits at, while in a game (to watch it).
    game_id: str | None = None
    favorite: bool = False
    blocked: bool = False
    # The player's main club's tag (C1): the first live club of their list.
    club: TagView | None = None


class PlayersPage(_View):
    kind: Literal["all", "favorites", "blocked"]
    players: list[PlayerRow]
    # Pass back as `cursor` for the next page (None: the last page).
    cursor: str | None = None


class BlockedView(_View):
    nickname: str
    since: datetime


class BlocksView(_View):
    blocks: list[BlockedView] = Field(default_factory=list)
