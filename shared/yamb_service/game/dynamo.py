"""The storage ports on one DynamoDB table, with pynamodb; nothing outside this module sees an
item, a key or a pynamodb error.

Keys (docs/data-model.md): a game is `GAME#<id>` / `GAME`, a connection watching it
`GAME#<id>` / `GAME#W#<connection>`, its heartbeat lane's token `GAME#<id>` / `LANE` (written by
the lane's own task), its result `GAME#<id>` / `RESULT`, a player `PLAYER#<id>` / `PLAYER`.
Open games are listed on the index `gsi1` under `OPEN#waiting` and `OPEN#running`, newest
first. A game's body is its session as zlib-compressed JSON.
"""

import json
import zlib
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from pynamodb.connection import Connection
from pynamodb.constants import ALL_NEW, ALL_OLD
from pynamodb.exceptions import (
    DoesNotExist,
    PutError,
    TransactWriteError,
    UpdateError,
)
from pynamodb.expressions.condition import Condition, size
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite
from yamb.chat import ChatLog, ChatRate
from yamb.i18n import Text
from yamb.protocol import GameSummary
from yamb.session.cooldown import Cooldown
from yamb.session.effects import PlayerChange
from yamb.session.model import GameSession
from yamb.session.replays import ReplayHeader
from yamb.session.results import GameResult
from yamb.session.slow import FREE_SLOW_GAMES, PREMIUM_SLOW_GAMES
from yamb.session.views import game_summary

from yamb_service.common.dynamo import (
    LOST_RACE_ERRORS,
    TableItem,
    busy_when_transient,
    player_key,
)
from yamb_service.game.ports import (
    ArchivedRecord,
    DiceChunk,
    GameExistsError,
    GameNotFoundError,
    HandshakeLimit,
    HandshakeLimitError,
    LaneToken,
    LoadedGame,
    PlayerRecord,
    SeatTakenError,
    StaleGameError,
)
from yamb_service.game.result_dynamo import game_result, result_key

RESULT_TTL = timedelta(days=3650)
CLOSED_GAME_TTL = timedelta(days=30)
# A table removed before its start is kept just long enough for a repeated request.
DELETED_GAME_TTL = timedelta(days=1)
_GAME, _LANE, _PLAYER, _ENDED = "GAME", "LANE", "PLAYER", "ENDED"
# The stream keeps a record 24 hours; the item a while longer, to look into.
ENDED_TTL = timedelta(days=30)
# A connection's recent chat messages (its rate limit), under `CONN#<connectionId>`.
_CHAT = "CHAT"
# A game's last chat lines, in the game's partition; before "GAME" in key order, so the query
# that loads a game does not read them. Kept as long as an ended game's item.
_CHAT_LOG = "CHAT#LOG"
# Sorted between the game and its lane: one query reads the three kinds together.
_SPECTATOR = "GAME#W#"
# Before "GAME" in key order: the query that loads a game does not read them.
_DICE = "DICE#"
# As long as the game's result: a leaderboard row links to its replay. (A record that lost a
# chunk all the same is refused as incomplete, never answered as a partial one.)
DICE_RECORD_TTL = RESULT_TTL
# API Gateway closes a connection after two hours: a spectator's item is gone by then too.
SPECTATOR_TTL = timedelta(hours=2)

_CONDITION_FAILED = "ConditionalCheckFailed"
# Another transaction held one of the items: a lost race like any other, tried again.
_TRANSACTION_CONFLICT = "TransactionConflict"


def _game_key(game_id: str) -> str:
    return f"GAME#{game_id}"


def _connection_key(connection_id: str) -> str:
    return f"CONN#{connection_id}"


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


def encode_body(session: GameSession) -> bytes:
    return zlib.compress(session.model_dump_json(exclude_defaults=True).encode(), 9)


def decode_body(body: bytes) -> GameSession:
    return GameSession.model_validate_json(zlib.decompress(body))


class DynamoGameRepository:
    def __init__(self, item: type[TableItem]) -> None:
        self._item = item

    def _to_item(self, session: GameSession) -> TableItem:
        listed = session.in_play
        expires = None
        if not listed and session.ended_at is not None:
            kept = DELETED_GAME_TTL if session.status == "deleted" else CLOSED_GAME_TTL
            expires = _epoch(session.ended_at + kept)
        return self._item(
            _game_key(session.game_id),
            _GAME,
            body=encode_body(session),
            version=session.version,
            gsi1pk=f"OPEN#{session.status}" if listed else None,
            gsi1sk=f"{session.created_at.isoformat()}#{session.game_id}" if listed else None,
            summary=game_summary(session).model_dump_json(by_alias=True) if listed else None,
            expires_at=expires,
        )

    @busy_when_transient
    def load(self, game_id: str) -> LoadedGame:
        """The game, its spectators and its lane's token, in one consistent query of the
        game's partition."""
        session, lane, spectators, watchers, links = None, None, [], 0, None
        follows: dict[str, str] = {}
        for item in self._item.query(
            _game_key(game_id), self._item.sk.between(_GAME, _LANE), consistent_read=True
        ):
            if item.sk == _GAME and item.body is not None:
                session = decode_body(item.body)
                watchers = int(item.watchers or 0)
                links = item.seat_links
                for player_id, connection_id in json.loads(links or "{}").items():
                    seat = session.seat_of(player_id)
                    if seat is not None:
                        session.seats[seat].connection_id = connection_id
            elif item.sk.startswith(_SPECTATOR) and item.connection_id is not None:
                spectators.append(item.connection_id)
                if item.follows is not None:
                    follows[item.connection_id] = item.follows
            elif item.sk == _LANE and item.token is not None and item.lane is not None:
                lane = LaneToken(lane=int(item.lane), token=item.token)
        if session is None:
            raise GameNotFoundError(Text("no game {game_id}", game_id=game_id))
        return LoadedGame(session, lane, spectators, follows, watchers, links)

    @busy_when_transient
    def relink(self, loaded: LoadedGame, player_id: str, connection_id: str) -> bool:
        """One UpdateItem of `seat_links`, on the version and the links as loaded: no new
        version, so no write loaded before it is refused for it but one that would carry the
        old connection in its body (conditioned on the links: it loads again)."""
        session = loaded.session
        links = {**json.loads(loaded.links or "{}"), player_id: connection_id}
        item = self._item
        condition = item.version == session.version
        condition &= (
            item.seat_links == loaded.links
            if loaded.links is not None
            else item.seat_links.does_not_exist()
        )
        try:
            item(_game_key(session.game_id), _GAME).update(
                actions=[item.seat_links.set(json.dumps(links, sort_keys=True))],
                condition=condition,
            )
        except UpdateError as error:
            if error.cause_response_code == "ConditionalCheckFailedException":
                return False
            raise
        return True

    @busy_when_transient
    def watch(
        self, game_id: str, connection_id: str, now: datetime, follows: str | None = None
    ) -> None:
        """The connection watches the game (following `follows`' own turn): an item of its
        own, then the game's count of watchers, so that a write loaded before this spectator
        came loses its race and broadcasts to them when it tries again."""
        self._item(
            _game_key(game_id),
            f"{_SPECTATOR}{connection_id}",
            connection_id=connection_id,
            follows=follows,
            expires_at=_epoch(now + SPECTATOR_TTL),
        ).save(add_version_condition=False)
        try:
            self._item(_game_key(game_id), _GAME).update(
                actions=[self._item.watchers.add(1)], condition=self._item.version.exists()
            )
        except UpdateError as error:
            if error.cause_response_code not in LOST_RACE_ERRORS:
                raise
            # The game is gone: the caller's next read says so.

    @busy_when_transient
    def chat_rate(self, connection_id: str) -> tuple[ChatRate, int]:
        """A connection's recent chat messages, and the version to write them back on."""
        try:
            item = self._item.get(_connection_key(connection_id), _CHAT, consistent_read=True)
        except DoesNotExist:
            return ChatRate(), 0
        return ChatRate.model_validate_json(item.body or b"{}"), int(item.version or 0)

    @busy_when_transient
    def save_chat_rate(
        self, connection_id: str, rate: ChatRate, version: int, now: datetime
    ) -> bool:
        """Writes the connection's chat messages back if nobody did since `version` was read;
        False when another message of the same connection came first."""
        condition = (
            self._item.version.does_not_exist() if version == 0 else self._item.version == version
        )
        item = self._item(
            _connection_key(connection_id),
            _CHAT,
            body=rate.model_dump_json().encode(),
            version=version + 1,
            expires_at=_epoch(now + SPECTATOR_TTL),
        )
        try:
            self._put(item, condition)
        except _ConditionFailedError:
            return False
        return True

    @busy_when_transient
    def chat_log(self, game_id: str) -> tuple[ChatLog, int]:
        """The game's last chat lines, and the version to write them back on."""
        try:
            item = self._item.get(_game_key(game_id), _CHAT_LOG, consistent_read=True)
        except DoesNotExist:
            return ChatLog(), 0
        return ChatLog.model_validate_json(item.body or b"{}"), int(item.version or 0)

    @busy_when_transient
    def save_chat_log(self, game_id: str, log: ChatLog, version: int, now: datetime) -> bool:
        """Writes the game's chat lines back if nobody did since `version` was read; False
        when another line came first (the caller reads again and adds its line)."""
        condition = (
            self._item.version.does_not_exist() if version == 0 else self._item.version == version
        )
        item = self._item(
            _game_key(game_id),
            _CHAT_LOG,
            body=log.model_dump_json().encode(),
            version=version + 1,
            expires_at=_epoch(now + CLOSED_GAME_TTL),
        )
        try:
            self._put(item, condition)
        except _ConditionFailedError:
            return False
        return True

    @busy_when_transient
    def forget_spectators(self, game_id: str, connection_ids: list[str]) -> None:
        for connection_id in connection_ids:
            self._item(_game_key(game_id), f"{_SPECTATOR}{connection_id}").delete(
                add_version_condition=False
            )

    @busy_when_transient
    def create(
        self, session: GameSession, *, players: Mapping[str, PlayerChange], now: datetime
    ) -> None:
        """Stores a new game with its players' records, in one transaction. GameExistsError
        when a game with this id exists; SeatTakenError when a player may not sit."""
        session.version = 1
        try:
            self._transact(
                self._to_item(session),
                self._item.pk.does_not_exist(),
                players,
                {},
                [],
                now,
                slow=_is_slow(session),
            )
        except _ConditionFailedError as failure:
            session.version = 0
            if failure.game:
                raise GameExistsError(session.game_id) from None
            raise SeatTakenError(failure.players[0]) from None

    @busy_when_transient
    def save(
        self,
        session: GameSession,
        *,
        players: Mapping[str, PlayerChange] | None = None,
        cooldowns: Mapping[str, Cooldown] | None = None,
        result: GameResult | None = None,
        ended: GameResult | None = None,
        dice_chunk: DiceChunk | None = None,
        watchers: int = 0,
        links: str | None = None,
        now: datetime,
    ) -> None:
        """Writes the session if nobody wrote since it was read: one conditional write on the
        version, or one transaction with the players' records (their seats, the cooldowns of
        those who disappeared), the final result, the game's end (`ended`: what the table's
        stream hands to the rewards) and a chunk of the dice record when those change too.
        StaleGameError for the loser of a race, SeatTakenError for a player who may not sit."""
        expected = session.version
        session.version = expected + 1
        item = self._to_item(session)
        item.watchers = watchers or None
        condition = self._item.version == expected
        # Nor did a spectator come: the broadcast after this write reaches every spectator.
        condition &= (
            self._item.watchers == watchers if watchers else self._item.watchers.does_not_exist()
        )
        # Nor was a seat relinked: the body written holds the connections as loaded (and the
        # relinked ones, folded in; the item written has no seat_links).
        condition &= (
            self._item.seat_links == links if links else self._item.seat_links.does_not_exist()
        )
        extra = [self._result_item(result)] if result is not None else []
        if ended is not None:
            extra.append(self._ended_item(ended))
        if dice_chunk is not None:
            extra.append(self._dice_item(session.game_id, dice_chunk, now))
        try:
            if not players and not cooldowns and not extra:
                self._put(item, condition)
            else:
                self._transact(
                    item,
                    condition,
                    players or {},
                    cooldowns or {},
                    extra,
                    now,
                    slow=_is_slow(session),
                )
        except _ConditionFailedError as failure:
            session.version = expected
            if failure.game:
                raise StaleGameError(Text("the game changed meanwhile; try again")) from None
            raise SeatTakenError(failure.players[0]) from None
        except BaseException:
            session.version = expected
            raise

    def _put(self, item: TableItem, condition: Condition) -> None:
        try:
            item.save(condition=condition, add_version_condition=False)
        except PutError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                raise _ConditionFailedError(game=True) from None
            raise

    def _player_action(
        self,
        player_id: str,
        change: PlayerChange,
        game_id: str,
        now: datetime | None,
        *,
        slow: bool = False,
    ) -> tuple[TableItem, list[Action], Condition | None]:
        item = self._item
        key = item(player_key(player_id), _PLAYER)
        if slow:
            return key, *self._slow_seat_action(change, game_id, now)
        if change == "seat":
            assert now is not None, "taking a seat checks the cooldown against now"
            free = item.seated_in.does_not_exist() & (
                item.blocked_until.does_not_exist() | (item.blocked_until <= now.timestamp())
            )
            return key, [item.game_id.set(game_id), item.seated_in.set(game_id)], free
        if change == "release":
            return key, [item.seated_in.remove()], None
        return key, [item.game_id.remove(), item.seated_in.remove()], None

    def _slow_seat_action(
        self, change: PlayerChange, game_id: str, now: datetime | None
    ) -> tuple[list[Action], Condition | None]:
        """A slow game's seat is one of the player's slow seats, beside the regular one: at most
        FREE_SLOW_GAMES of them, PREMIUM_SLOW_GAMES with premium (rules.md 7)."""
        item = self._item
        if change != "seat":
            return [item.slow_games.delete({game_id})], None
        assert now is not None, "taking a seat checks the cooldown against now"
        room = (
            item.slow_games.does_not_exist()
            | (size(item.slow_games) < FREE_SLOW_GAMES)  # type: ignore[no-untyped-call]
            | (
                (item.premium_until > int(now.timestamp()))
                & (size(item.slow_games) < PREMIUM_SLOW_GAMES)  # type: ignore[no-untyped-call]
            )
        )
        not_blocked = item.blocked_until.does_not_exist() | (item.blocked_until <= now.timestamp())
        return [item.slow_games.add({game_id})], room & not_blocked

    def _transact(  # noqa: PLR0917 - the parts of one transaction
        self,
        item: TableItem,
        condition: Condition,
        players: Mapping[str, PlayerChange],
        cooldowns: Mapping[str, Cooldown],
        extra: list[TableItem],
        now: datetime,
        *,
        slow: bool = False,
    ) -> None:
        game_id = item.pk.removeprefix("GAME#")
        updates: list[tuple[str, TableItem, list[Action], Condition | None]] = [
            (player_id, *self._player_action(player_id, change, game_id, now, slow=slow))
            for player_id, change in players.items()
        ]
        for player_id, cooldown in cooldowns.items():
            # One update an item in a transaction: the cooldown joins the player's seat change.
            actions: list[Action] = [
                self._item.cooldown_day.set(cooldown.day),
                self._item.disappearances.set(cooldown.disappearances),
                self._item.blocked_until.set(cooldown.blocked_until.timestamp()),
            ]
            for index, (updated, player_item, changes, player_condition) in enumerate(updates):
                if updated == player_id:
                    updates[index] = (updated, player_item, [*changes, *actions], player_condition)
                    break
            else:
                updates.append(
                    (player_id, self._item(player_key(player_id), _PLAYER), actions, None)
                )
        try:
            with TransactWrite(connection=self._connection()) as transaction:
                transaction.save(item, condition=condition)
                for put in extra:
                    transaction.save(put)
                for _, player_item, actions, player_condition in updates:
                    transaction.update(player_item, actions, condition=player_condition)
        except TransactWriteError as error:
            # pynamodb sends puts before updates: the game, the result, then each player.
            reasons = list(error.cancellation_reasons or [])
            if error.cause_response_code == "TransactionConflictException" or any(
                r is not None and r.code == _TRANSACTION_CONFLICT for r in reasons
            ):
                raise _ConditionFailedError(game=True) from None
            failed = [
                i for i, r in enumerate(reasons) if r is not None and r.code == _CONDITION_FAILED
            ]
            if not failed:
                raise
            puts = 1 + len(extra)
            raise _ConditionFailedError(
                game=0 in failed,
                players=[updates[i - puts][0] for i in failed if i >= puts],
            ) from None

    def _connection(self) -> Connection:
        # The model's own connection: a new one would build a botocore client per transaction.
        return self._item._get_connection().connection

    def _dice_item(self, game_id: str, chunk: DiceChunk, now: datetime) -> TableItem:
        return self._item(
            _game_key(game_id),
            f"{_DICE}{chunk.index:05d}",
            summary="\n".join(chunk.turns),
            body=None if chunk.header is None else chunk.header.model_dump_json().encode(),
            expires_at=_epoch(now + DICE_RECORD_TTL),
        )

    @busy_when_transient
    def archived_record(self, game_id: str) -> ArchivedRecord:
        turns: list[str] = []
        header = None
        for item in self._item.query(
            _game_key(game_id), self._item.sk.startswith(_DICE), consistent_read=True
        ):
            turns.extend((item.summary or "").splitlines())
            if item.body:
                header = ReplayHeader.model_validate_json(item.body)
        return ArchivedRecord(turns, header)

    def _result_item(self, result: GameResult) -> TableItem:
        return self._item(
            *result_key(result.game_id),
            body=result.model_dump_json(by_alias=True).encode(),
            expires_at=_epoch(result.ended_at + RESULT_TTL),
        )

    def _ended_item(self, ended: GameResult) -> TableItem:
        """Written once, with the write that ends the game: an insert on the table's stream
        (filtered on this sort key) that the rewards function turns into payments."""
        return self._item(
            _game_key(ended.game_id),
            _ENDED,
            body=ended.model_dump_json(by_alias=True).encode(),
            expires_at=_epoch(ended.ended_at + ENDED_TTL),
        )

    def result(self, game_id: str) -> GameResult | None:
        return game_result(self._item, game_id)

    @busy_when_transient
    def list_open(self, limit: int) -> list[GameSummary]:
        """Waiting games first, then running ones, newest first in each; each game once.

        A table that starts between the two queries is in both answers (waiting, then running):
        it is listed once, as the running game it has become."""
        summaries: dict[str, GameSummary] = {}
        for status in ("waiting", "running"):
            if len(summaries) >= limit:
                break
            for item in self._item.gsi1.query(
                f"OPEN#{status}", scan_index_forward=False, limit=limit - len(summaries)
            ):
                summary = GameSummary.model_validate_json(item.summary or "{}")
                summaries.pop(summary.game_id, None)
                summaries[summary.game_id] = summary
        return list(summaries.values())


def _is_slow(session: GameSession) -> bool:
    return session.settings.turn_type == "slow"


class _ConditionFailedError(Exception):
    """A write's condition did not hold: on the game item, or on these players' records."""

    def __init__(self, *, game: bool, players: Iterable[str] = ()) -> None:
        super().__init__()
        self.game = game
        self.players = list(players)


def _player_record(player_id: str, attributes: Mapping[str, Any]) -> PlayerRecord:
    """A player record from low-level DynamoDB attributes (what UpdateItem returns)."""

    def text(name: str) -> str | None:
        value = attributes.get(name)
        return None if value is None else str(value["S"])

    def number(name: str) -> float | None:
        value = attributes.get(name)
        return None if value is None else float(value["N"])

    blocked = number("blocked_until")
    slow_games = attributes.get("slow_games")
    premium_until = number("premium_until")
    heard_at = number("heard_at")
    return PlayerRecord(
        player_id=player_id,
        connection_id=text("connection_id"),
        game_id=text("game_id"),
        seated_in=text("seated_in"),
        cooldown_day=text("cooldown_day"),
        disappearances=int(number("disappearances") or 0),
        blocked_until=None if blocked is None else datetime.fromtimestamp(blocked, UTC),
        slow_games=frozenset(slow_games["SS"]) if slow_games else frozenset(),
        premium_until=None if premium_until is None else datetime.fromtimestamp(premium_until, UTC),
        heard_at=None if heard_at is None else datetime.fromtimestamp(heard_at, UTC),
    )


class DynamoPlayerRepository:
    def __init__(self, item: type[TableItem]) -> None:
        self._item = item

    @busy_when_transient
    def get(self, player_id: str) -> PlayerRecord:
        try:
            item = self._item.get(player_key(player_id), _PLAYER, consistent_read=True)
        except DoesNotExist:
            return PlayerRecord(player_id=player_id)
        return _player_record(player_id, item.serialize())

    def _update_returning_old(
        self, player_id: str, actions: list[Action], condition: Condition | None = None
    ) -> PlayerRecord:
        connection = self._item._get_connection()
        answer = connection.update_item(
            player_key(player_id),
            range_key=_PLAYER,
            actions=actions,
            condition=condition,
            return_values=ALL_OLD,
        )
        return _player_record(player_id, answer.get("Attributes") or {})

    @busy_when_transient
    def bind_connection(
        self,
        player_id: str,
        connection_id: str,
        now: datetime,
        *,
        limit: HandshakeLimit | None = None,
    ) -> PlayerRecord:
        """Makes this the player's one live connection, in one write with no read; the record
        as it was before (with the connection this one replaces). With `limit`, the write also
        counts the handshake in its window, on the condition that the window is the current one
        and not full; the first handshake of a window starts it (a second write, on the
        condition that the stored window is an older one); when neither condition holds, the
        window is full: HandshakeLimitError, and nothing is written."""
        item = self._item
        # A new connection is not heard until it pings (heard_at is about connection_id).
        bind: list[Action] = [
            item.connection_id.set(connection_id),
            item.connected_at.set(now.timestamp()),
            item.heard_at.remove(),
        ]
        if limit is None:
            return self._update_returning_old(player_id, bind)
        window = limit.window(now)
        counted: tuple[list[Action], Condition] = (
            [*bind, item.handshakes.add(1)],
            (item.handshake_window == window) & (item.handshakes < limit.handshakes),
        )
        started: tuple[list[Action], Condition] = (
            [*bind, item.handshake_window.set(window), item.handshakes.set(1)],
            item.handshake_window.does_not_exist() | (item.handshake_window < window),
        )
        # Counted in the current window; else its first; else counted in the window another
        # handshake started meanwhile; else the window is full.
        for actions, condition in (counted, started, counted):
            try:
                return self._update_returning_old(player_id, actions, condition)
            except UpdateError as error:
                if error.cause_response_code != "ConditionalCheckFailedException":
                    raise
        raise HandshakeLimitError(limit.handshakes, limit.window_seconds)

    @busy_when_transient
    def unbind_connection(
        self, player_id: str, connection_id: str, *, bound_before: datetime | None = None
    ) -> PlayerRecord | None:
        """Forgets the connection if it is still the player's (and, with `bound_before`, was
        bound before it: a record without the moment counts as bound long ago); the record as
        it was, or None when it is not forgotten."""
        item = self._item
        condition = item.connection_id == connection_id
        if bound_before is not None:
            condition &= item.connected_at.does_not_exist() | (
                item.connected_at < bound_before.timestamp()
            )
        try:
            return self._update_returning_old(
                player_id,
                [item.connection_id.remove(), item.connected_at.remove(), item.heard_at.remove()],
                condition,
            )
        except UpdateError as error:
            if error.cause_response_code == "ConditionalCheckFailedException":
                return None
            raise

    @busy_when_transient
    def heard(self, player_id: str, connection_id: str, now: datetime) -> PlayerRecord | None:
        """One conditional write, no read: the heartbeat's moment on the player's connection;
        the record as it now is, or None when the connection is not theirs any more."""
        item = self._item
        try:
            answer = item._get_connection().update_item(
                player_key(player_id),
                range_key=_PLAYER,
                actions=[item.heard_at.set(now.timestamp())],
                condition=item.connection_id == connection_id,
                return_values=ALL_NEW,
            )
        except UpdateError as error:
            if error.cause_response_code == "ConditionalCheckFailedException":
                return None
            raise
        return _player_record(player_id, answer.get("Attributes") or {})

    @busy_when_transient
    def grant_premium(self, player_id: str, until: datetime) -> None:
        """Premium until `until`, given by an operator (bought premium goes through the
        wallet: yamb_service.economy.wallet_dynamo)."""
        self._item(player_key(player_id), _PLAYER).update(
            actions=[self._item.premium_until.set(int(until.timestamp()))]
        )

    @busy_when_transient
    def release_seat(self, player_id: str, game_id: str) -> bool:
        """Frees a seat still held for `game_id`; False when it is not (any more)."""
        try:
            self._item(player_key(player_id), _PLAYER).update(
                actions=[self._item.seated_in.remove()],
                condition=self._item.seated_in == game_id,
            )
        except UpdateError as error:
            if error.cause_response_code == "ConditionalCheckFailedException":
                return False
            raise
        return True
