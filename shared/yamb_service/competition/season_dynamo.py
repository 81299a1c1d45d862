"""Seasons on the game table (docs/data-model.md, "Seasons"): a league's members in
`SEASON#<season>#<league>` / `P#<player>` (a `Member` as JSON on its version, listed in `gsi1`
by points, best first), each player's league in `PLAYER#<id>` / `LEAGUE`, each season badge in
`PLAYER#<id>` / `SEASONBADGE#<season>`, and a game's `GAME#<id>` / `SEASON` marker written with its
points, so a redelivered game counts once."""

import json
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from pynamodb.exceptions import PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite
from yamb.competition.seasons import LEAGUES, League, LeagueEnd, Member

from yamb_service.common.dynamo import ItemModel, TableItem, busy_or, player_key
from yamb_service.competition.dynamo import marked_write_lost, refusal
from yamb_service.competition.ports import Rated
from yamb_service.competition.season_ports import Closed

_PLAYER, _LEAGUE, _BADGE, _MARKER = "P#", "LEAGUE", "SEASONBADGE#", "SEASON"
MARKER_TTL = timedelta(days=30)
_BATCH = 100
_ORDER_CEILING = 99_999_999


def _league_key(season_id: str, league: str) -> str:
    return f"SEASON#{season_id}#{league}"


def _league_text(league: str) -> str:
    """How a player's `LEAGUE` item names their league (json.dumps' spacing)."""
    return json.dumps({"league": league})[1:-1]


class DynamoSeasonStore:
    def __init__(self, item: ItemModel, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._item = item
        self._sleep = sleep

    def _batch(self, keys: list[tuple[str, str]]) -> list[object]:
        found: list[object] = []
        try:
            for start in range(0, len(keys), _BATCH):
                found.extend(
                    self._item.batch_get(keys[start : start + _BATCH], consistent_read=True)
                )
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    def leagues_of(self, player_ids: Iterable[str]) -> dict[str, League]:
        keys = [(player_key(p), _LEAGUE) for p in dict.fromkeys(player_ids)]
        found: dict[str, League] = {}
        for item in self._batch(keys):
            stored = json.loads(item.summary or "{}")  # type: ignore[attr-defined]
            if stored.get("league") in LEAGUES:
                found[stored["player_id"]] = stored["league"]
        return found

    def members(self, season_id: str, player_ids: Iterable[str]) -> dict[str, Member]:
        keys = [
            (_league_key(season_id, league), f"{_PLAYER}{p}")
            for p in dict.fromkeys(player_ids)
            for league in LEAGUES
        ]
        found: dict[str, Member] = {}
        for item in self._batch(keys):
            member = Member.model_validate_json(item.summary or "{}")  # type: ignore[attr-defined]
            found[member.player_id] = member.model_copy(update={"version": int(item.version or 0)})  # type: ignore[attr-defined]
        return found

    def record_game(
        self,
        game_id: str,
        season_id: str,
        now: datetime,
        before: dict[str, Member],
        after: Sequence[Member],
        *,
        newcomer_leagues: Mapping[str, League | None],
    ) -> Rated:
        item = self._item
        # The newcomers' checks go first in what pynamodb sends, the marker's put after them.
        checks = len(LEAGUES) * sum(1 for m in after if m.player_id not in before)
        try:
            with TransactWrite(connection=item._get_connection().connection) as write:
                write.save(
                    item(f"GAME#{game_id}", _MARKER,
                         expires_at=int((now + MARKER_TTL).timestamp())),
                    condition=item.pk.does_not_exist(),
                )  # fmt: skip
                for member in after:
                    old = before.get(member.player_id)
                    version = 0 if old is None else old.version
                    write.save(
                        self._member_item(season_id, member, version + 1),
                        condition=item.pk.does_not_exist()
                        if old is None
                        else item.version == old.version,
                    )
                    if old is None:
                        self._newcomer_checks(
                            write, season_id, member, newcomer_leagues.get(member.player_id)
                        )
        except TransactWriteError as error:
            return marked_write_lost(error, marker_at=checks)
        return "rated"

    def _newcomer_checks(
        self, write: TransactWrite, season_id: str, member: Member, read: League | None
    ) -> None:
        """A newcomer is in one league a season: in no other league's table (two first games
        recorded at once must not make two), and their league as read (a season's close that
        moved them since makes this game read it again)."""
        item = self._item
        for league in LEAGUES:
            if league != member.league:
                write.condition_check(
                    item,
                    _league_key(season_id, league),
                    f"{_PLAYER}{member.player_id}",
                    condition=item.pk.does_not_exist(),
                )
        write.condition_check(
            item,
            player_key(member.player_id),
            _LEAGUE,
            condition=item.pk.does_not_exist()
            if read is None
            else item.summary.contains(_league_text(read)),
        )

    def _member_item(self, season_id: str, member: Member, version: int) -> TableItem:
        key = _league_key(season_id, member.league)
        return self._item(
            key,
            f"{_PLAYER}{member.player_id}",
            summary=member.model_dump_json(by_alias=True, exclude={"version"}),
            version=version,
            gsi1pk=key,
            gsi1sk=f"{_ORDER_CEILING - member.points:08d}#{member.player_id}",
        )

    def league(self, season_id: str, league: League, limit: int | None = None) -> list[Member]:
        try:
            return [
                Member.model_validate_json(item.summary or "{}")
                for item in self._item.gsi1.query(_league_key(season_id, league), limit=limit)
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def close(
        self, season_id: str, end: LeagueEnd, now: datetime, next_id: str, early: Member | None
    ) -> Closed:
        item = self._item
        try:
            with TransactWrite(connection=item._get_connection().connection) as write:
                write.save(
                    item(player_key(end.player_id), f"{_BADGE}{season_id}",
                         summary=end.model_dump_json(by_alias=True)),
                    condition=item.pk.does_not_exist(),
                )  # fmt: skip
                write.save(
                    item(
                        player_key(end.player_id),
                        _LEAGUE,
                        summary=json.dumps(
                            {
                                "player_id": end.player_id,
                                "league": end.next_league,
                                "since": season_id,
                            }
                        ),
                    )
                )
                if early is None and end.move != "stay":
                    # A first game of the next season recorded since it was read for `early`
                    # (in the old league) makes this close read it again and move it too.
                    write.condition_check(
                        item,
                        _league_key(next_id, end.league),
                        f"{_PLAYER}{end.player_id}",
                        condition=item.pk.does_not_exist(),
                    )
                if early is not None:
                    member = early
                    write.delete(
                        item(_league_key(next_id, member.league), f"{_PLAYER}{member.player_id}"),
                        condition=item.version == member.version,
                    )
                    moved = member.model_copy(update={"league": end.next_league})
                    write.save(
                        self._member_item(next_id, moved, member.version + 1),
                        condition=item.pk.does_not_exist(),
                    )
        except TransactWriteError as error:
            # The badge comes after the check or the delete, as pynamodb sends them.
            badge_at = 1 if early is not None or end.move != "stay" else 0
            return "closed_before" if refusal(error, badge_at) == "before" else "moved"
        return "closed"

    def badges(self, player_id: str) -> list[LeagueEnd]:
        try:
            return [
                LeagueEnd.model_validate_json(item.summary or "{}")
                for item in self._item.query(
                    player_key(player_id),
                    self._item.sk.startswith(_BADGE),
                    scan_index_forward=False,
                )
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def pause(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.02 * 2**attempt))
