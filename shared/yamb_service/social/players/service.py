"""The players list (S1) and blocks (S2): a page of players by nickname, each with its flag and
presence and whether the reader follows or blocked them; the reader's favourites and blocks
with the same rows; a block set or lifted by nickname."""

import base64
import binascii
import json
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime

from yamb.clubs.tag import TagView
from yamb.i18n import Plural, Text
from yamb.social import players
from yamb.social.errors import SocialError
from yamb.social.players import ListedPlayer, PlayerRow, PlayersPage

from yamb_service.accounts.ports import Profiles
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.social.blocks.ports import Block, Blocks
from yamb_service.social.players.ports import Favorites, PlayerIndex, Position, PresenceReader

BAD_CURSOR = Text("this cursor is not one a page of the list gave")


class PlayersService:
    def __init__(
        self,
        *,
        index: PlayerIndex,
        presence: PresenceReader,
        profiles: Profiles,
        favorites: Favorites,
        blocks: Blocks,
        now: Callable[[], datetime],
        tags: Callable[[list[str]], Mapping[str, TagView]] = lambda players: {},
    ) -> None:
        self.index = index
        self.presence = presence
        self.profiles = profiles
        self.favorite_store = favorites
        self.blocks = blocks
        self.now = now
        # Each player's main club's tag (yamb_service.clubs.tags): one batch read of the rows.
        self.tags = tags

    # ------------------------------------------------------------------ the list

    def page(self, reader: str, prefix: str = "", cursor: str | None = None) -> PlayersPage:
        """A page of every listed player in nickname order, or of those whose nickname starts
        with `prefix` (compared as nicknames are)."""
        if len(prefix) > players.MAX_PREFIX_CHARS:
            raise SocialError(
                Plural(
                    "a nickname has at most {count} character",
                    "a nickname has at most {count} characters",
                    players.MAX_PREFIX_CHARS,
                ),
                field="prefix",
            )
        key = players.search_key(prefix)
        shards = (players.shard(key),) if key else players.SHARDS
        position = _read_cursor(cursor, shards)
        found: list[tuple[str, str, ListedPlayer]] = []
        for shard in shards[shards.index(position.shard) :]:
            after = position.after if shard == position.shard else ""
            wanted = players.PAGE_SIZE + 1 - len(found)
            found += [
                (shard, sort_key, entry)
                for sort_key, entry in self.index.page(shard, after=after, prefix=key, limit=wanted)
            ]
            if len(found) > players.PAGE_SIZE:
                break
        shown = found[: players.PAGE_SIZE]
        next_cursor = None
        if len(found) > players.PAGE_SIZE and shown:
            last_shard, last_key, _ = shown[-1]
            next_cursor = _write_cursor(Position(last_shard, last_key))
        rows = self._rows(reader, [entry for _, _, entry in shown])
        return PlayersPage(kind="all", players=rows, cursor=next_cursor)

    def favorites(self, reader: str) -> PlayersPage:
        """The players the reader follows, with their presence: online ones first."""
        followed = self._listed(self.favorite_store.favorites(reader))
        rows = self._rows(reader, followed)
        order = {"in_game": 0, "free": 0, "offline": 1}
        rows.sort(key=lambda row: (order[row.presence], row.nickname.casefold()))
        return PlayersPage(kind="favorites", players=rows)

    def blocked(self, reader: str) -> PlayersPage:
        """The players the reader blocked, most recent first."""
        held = [block.other for block in reversed(self.blocks.of(reader))]
        return PlayersPage(kind="blocked", players=self._rows(reader, self._listed(held)))

    def _listed(self, player_ids: Iterable[str]) -> list[ListedPlayer]:
        """The players still there (an account deleted or purged since is left out)."""
        wanted = list(dict.fromkeys(player_ids))
        found = self.profiles.profiles(wanted)
        return [
            ListedPlayer(
                player_id=player,
                nickname=found[player].nickname,
                country=found[player].preferences.country,
            )
            for player in wanted
            if player in found and found[player].status == "active"
        ]

    def _rows(self, reader: str, listed: list[ListedPlayer]) -> list[PlayerRow]:
        ids = [entry.player_id for entry in listed]
        seen = self.presence.seen(ids)
        followed = set(self.favorite_store.favorites(reader)) if listed else set()
        blocked = {block.other for block in self.blocks.of(reader)} if listed else set()
        tags = self.tags(ids) if listed else {}
        rows = []
        for entry in listed:
            record = seen.get(entry.player_id)
            presence = players.presence(
                connected=record is not None and record.connected,
                seated_in=record.seated_in if record else None,
            )
            rows.append(
                PlayerRow(
                    nickname=entry.nickname,
                    country=entry.country,
                    presence=presence,
                    game_id=record.seated_in if record and presence == "in_game" else None,
                    favorite=entry.player_id in followed,
                    blocked=entry.player_id in blocked,
                    club=tags.get(entry.player_id),
                )
            )
        return rows

    # ------------------------------------------------------------------ blocks

    def player_named(self, nickname: str) -> str:
        """The id of the player holding `nickname`, or unknown_player."""
        owner = self.profiles.nickname_owner(nickname)
        profile = self.profiles.get(owner) if owner else None
        if owner is None or profile is None or profile.status != "active":
            raise SocialError(
                Text("no player is called {nickname}", nickname=nickname),
                code="unknown_player",
                field="nickname",
            )
        return owner

    def block(self, reader: str, nickname: str) -> PlayersPage:
        other = self.player_named(nickname)
        if other == reader:
            raise SocialError(Text("you cannot block yourself"), code="block_self")
        held = self.blocks.of(reader)
        if all(block.other != other for block in held):
            if len(held) >= players.MAX_BLOCKS:
                raise SocialError(
                    Plural(
                        "you can block at most {count} player: unblock one first",
                        "you can block at most {count} players: unblock one first",
                        players.MAX_BLOCKS,
                    ),
                    code="too_many_blocks",
                )
            if self.blocks.add(Block(owner=reader, other=other, since=self.now())):
                metrics.add_metric(name="PlayerBlocked", unit=MetricUnit.Count, value=1)
                logger.info("player blocked", blocked=other)
        return self.blocked(reader)

    def unblock(self, reader: str, nickname: str) -> PlayersPage:
        other = self.player_named(nickname)
        if self.blocks.remove(reader, other):
            metrics.add_metric(name="PlayerUnblocked", unit=MetricUnit.Count, value=1)
        return self.blocked(reader)


def _write_cursor(position: Position) -> str:
    raw = json.dumps([position.shard, position.after], ensure_ascii=False)
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _read_cursor(cursor: str | None, shards: tuple[str, ...]) -> Position:
    if not cursor:
        return Position(shards[0], "")
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        shard, after = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (binascii.Error, ValueError, TypeError, UnicodeDecodeError):
        raise SocialError(BAD_CURSOR, field="cursor") from None
    if not isinstance(shard, str) or not isinstance(after, str) or shard not in shards:
        raise SocialError(BAD_CURSOR, field="cursor")
    return Position(shard, after)
