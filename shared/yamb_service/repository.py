"""Storage behind two small interfaces: games and players. Implementations return domain models
and turn conditional-check failures into domain errors; pynamodb stays inside this module.

Keys (docs/data-model.md): a game is `GAME#<id>` / `GAME` (its result `GAME#<id>` / `RESULT`),
a player `PLAYER#<id>` / `PLAYER`. Open games are listed on the index `gsi1` under
`OPEN#waiting` and `OPEN#running`, newest first.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.connection import Connection
from pynamodb.exceptions import DoesNotExist, PutError, TransactWriteError, UpdateError
from pynamodb.indexes import GlobalSecondaryIndex, IncludeProjection
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite
from yamb.errors import YambError
from yamb.protocol import GameSummary
from yamb.session.model import GameSession
from yamb.session.views import game_summary

RESULT_TTL = timedelta(days=3650)
CLOSED_GAME_TTL = timedelta(days=30)


class _ConditionFailedError(Exception):
    """The write's condition did not hold (inside this module only)."""


class GameNotFoundError(YambError):
    code = "game_not_found"


class StaleGameError(YambError):
    """Someone else changed the game first: reload and try again, or report the conflict."""

    code = "conflict"


@dataclass(slots=True)
class PlayerRecord:
    player_id: str
    connection_id: str | None = None
    game_id: str | None = None
    cooldown_day: str | None = None
    disappearances: int = 0
    blocked_until: datetime | None = None


class GameRepository(Protocol):
    def get(self, game_id: str) -> GameSession: ...
    def create(
        self, session: GameSession, *, player_games: Mapping[str, str | None] | None = None
    ) -> bool: ...
    def save(
        self,
        session: GameSession,
        *,
        player_games: Mapping[str, str | None] | None = None,
        result: dict[str, Any] | None = None,
    ) -> None: ...
    def delete(self, session: GameSession) -> None: ...
    def list_open(self, limit: int) -> list[GameSummary]: ...
    def result(self, game_id: str) -> dict[str, Any] | None: ...


class PlayerRepository(Protocol):
    def get(self, player_id: str) -> PlayerRecord: ...
    def bind_connection(self, player_id: str, connection_id: str) -> str | None: ...
    def unbind_connection(self, player_id: str, connection_id: str) -> bool: ...
    def set_game(self, player_id: str, game_id: str | None) -> None: ...
    def record_disappearance(self, player_id: str, now: datetime) -> PlayerRecord: ...


class _OpenGames(GlobalSecondaryIndex["_Item"]):  # type: ignore[no-untyped-call]
    class Meta:
        index_name = "gsi1"
        projection = IncludeProjection(["summary"])

    gsi1pk = UnicodeAttribute(hash_key=True)
    gsi1sk = UnicodeAttribute(range_key=True)


class _Item(Model):
    """Every item of the single table; which attributes are set depends on the entity."""

    class Meta:
        table_name = "unset"

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    gsi1pk = UnicodeAttribute(null=True)
    gsi1sk = UnicodeAttribute(null=True)
    summary = UnicodeAttribute(null=True)
    body = UnicodeAttribute(null=True)
    version = NumberAttribute(null=True)
    expires_at = NumberAttribute(null=True)
    connection_id = UnicodeAttribute(null=True)
    game_id = UnicodeAttribute(null=True)
    cooldown_day = UnicodeAttribute(null=True)
    disappearances = NumberAttribute(null=True)
    blocked_until = UnicodeAttribute(null=True)
    open_games = _OpenGames()


def item_model(table_name: str, region: str, host: str | None = None) -> type[_Item]:
    """The item class bound to one table (pynamodb binds tables per class)."""
    meta = type("Meta", (), {"table_name": table_name, "region": region, "host": host})
    return type("GameTableItem", (_Item,), {"Meta": meta})


def _is_conditional_failure(error: PutError | UpdateError) -> bool:
    return error.cause_response_code == "ConditionalCheckFailedException"


def _game_key(game_id: str) -> str:
    return f"GAME#{game_id}"


def _player_key(player_id: str) -> str:
    return f"PLAYER#{player_id}"


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


class DynamoGameRepository:
    def __init__(self, item: type[_Item]) -> None:
        self._item = item

    def _to_item(self, session: GameSession) -> _Item:
        listed = session.status in ("waiting", "running")
        expires = None
        if not listed and session.ended_at is not None:
            expires = _epoch(session.ended_at + CLOSED_GAME_TTL)
        return self._item(
            _game_key(session.game_id),
            "GAME",
            body=session.model_dump_json(),
            version=session.version,
            gsi1pk=f"OPEN#{session.status}" if listed else None,
            gsi1sk=f"{session.created_at.isoformat()}#{session.game_id}" if listed else None,
            summary=game_summary(session).model_dump_json(by_alias=True) if listed else None,
            expires_at=expires,
        )

    def get(self, game_id: str) -> GameSession:
        try:
            item = self._item.get(_game_key(game_id), "GAME", consistent_read=True)
        except DoesNotExist:
            raise GameNotFoundError(f"no game {game_id}") from None
        assert item.body is not None
        return GameSession.model_validate_json(item.body)

    def create(
        self, session: GameSession, *, player_games: Mapping[str, str | None] | None = None
    ) -> bool:
        """Stores a new game (with its players' records, in one transaction); False when a game
        with this id exists already."""
        session.version = 1
        try:
            self._write(
                self._to_item(session), self._item.pk.does_not_exist(), player_games, None, session
            )
        except _ConditionFailedError:
            return False
        return True

    def save(
        self,
        session: GameSession,
        *,
        player_games: Mapping[str, str | None] | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Writes the session if nobody wrote since it was read: one conditional write on the
        version, or one transaction with the players' records and the final result when those
        change too. StaleGameError for the loser of a race."""
        expected = session.version
        session.version = expected + 1
        try:
            self._write(
                self._to_item(session),
                self._item.version == expected,
                player_games,
                result,
                session,
            )
        except _ConditionFailedError:
            session.version = expected
            raise StaleGameError("the game changed meanwhile; try again") from None
        except BaseException:
            session.version = expected
            raise

    def _write(
        self,
        item: _Item,
        condition: Any,
        player_games: Mapping[str, str | None] | None,
        result: dict[str, Any] | None,
        session: GameSession,
    ) -> None:
        if not player_games and result is None:
            try:
                item.save(condition=condition)
            except PutError as error:
                if _is_conditional_failure(error):
                    raise _ConditionFailedError from None
                raise
            return
        try:
            with TransactWrite(connection=self._connection()) as transaction:
                transaction.save(item, condition=condition)
                for player_id, game_id in (player_games or {}).items():
                    attribute = self._item.game_id
                    action = attribute.set(game_id) if game_id is not None else attribute.remove()
                    transaction.update(self._item(_player_key(player_id), "PLAYER"), [action])
                if result is not None:
                    transaction.save(self._result_item(session, result))
        except TransactWriteError as error:
            reasons = error.cancellation_reasons or []
            if any(r is not None and r.code == "ConditionalCheckFailed" for r in reasons):
                raise _ConditionFailedError from None
            raise

    def _connection(self) -> Connection:
        # The model's own connection: a new one would build a botocore client per transaction.
        return self._item._get_connection().connection

    def _result_item(self, session: GameSession, result: dict[str, Any]) -> _Item:
        assert session.ended_at is not None
        return self._item(
            _game_key(session.game_id),
            "RESULT",
            body=json.dumps(result),
            expires_at=_epoch(session.ended_at + RESULT_TTL),
        )

    def result(self, game_id: str) -> dict[str, Any] | None:
        try:
            item = self._item.get(_game_key(game_id), "RESULT")
        except DoesNotExist:
            return None
        return json.loads(item.body or "{}")  # type: ignore[no-any-return]

    def delete(self, session: GameSession) -> None:
        try:
            self._item(_game_key(session.game_id), "GAME").delete(
                condition=self._item.version == session.version
            )
        except Exception as error:
            if getattr(error, "cause_response_code", None) == "ConditionalCheckFailedException":
                raise StaleGameError("the game changed meanwhile; try again") from None
            raise

    def list_open(self, limit: int) -> list[GameSummary]:
        """Waiting games first, then running ones, newest first in each."""
        summaries: list[GameSummary] = []
        for status in ("waiting", "running"):
            if len(summaries) >= limit:
                break
            for item in self._item.open_games.query(
                f"OPEN#{status}", scan_index_forward=False, limit=limit - len(summaries)
            ):
                summaries.append(GameSummary.model_validate_json(item.summary or "{}"))
        return summaries


class DynamoPlayerRepository:
    def __init__(self, item: type[_Item]) -> None:
        self._item = item

    def get(self, player_id: str) -> PlayerRecord:
        try:
            item = self._item.get(_player_key(player_id), "PLAYER", consistent_read=True)
        except DoesNotExist:
            return PlayerRecord(player_id=player_id)
        return PlayerRecord(
            player_id=player_id,
            connection_id=item.connection_id,
            game_id=item.game_id,
            cooldown_day=item.cooldown_day,
            disappearances=int(item.disappearances or 0),
            blocked_until=datetime.fromisoformat(item.blocked_until)
            if item.blocked_until
            else None,
        )

    def bind_connection(self, player_id: str, connection_id: str) -> str | None:
        """Makes this the player's one live connection; returns the one it replaces. The swap
        is conditional on the connection read, so two racing handshakes cannot both win."""
        for _ in range(3):
            previous = self.get(player_id).connection_id
            condition = (
                self._item.connection_id.does_not_exist()
                if previous is None
                else self._item.connection_id == previous
            )
            try:
                self._item(_player_key(player_id), "PLAYER").update(
                    actions=[self._item.connection_id.set(connection_id)], condition=condition
                )
            except UpdateError as error:
                if _is_conditional_failure(error):
                    continue
                raise
            return previous if previous != connection_id else None
        raise StaleGameError("the connection changed meanwhile; reconnect")

    def unbind_connection(self, player_id: str, connection_id: str) -> bool:
        """Forgets the connection if it is still the player's; False when a newer one took over."""
        try:
            self._item(_player_key(player_id), "PLAYER").update(
                actions=[self._item.connection_id.remove()],
                condition=self._item.connection_id == connection_id,
            )
        except UpdateError as error:
            if _is_conditional_failure(error):
                return False
            raise
        return True

    def set_game(self, player_id: str, game_id: str | None) -> None:
        item = self._item(_player_key(player_id), "PLAYER")
        action = (
            self._item.game_id.set(game_id) if game_id is not None else self._item.game_id.remove()
        )
        item.update(actions=[action])

    def record_disappearance(self, player_id: str, now: datetime) -> PlayerRecord:
        """Counts a disappearance this UTC day and blocks joining for 5, 15, 30, then 60 min."""
        record = self.get(player_id)
        day = now.astimezone(UTC).date().isoformat()
        count = record.disappearances + 1 if record.cooldown_day == day else 1
        record.cooldown_day, record.disappearances = day, count
        record.blocked_until = now + cooldown_for(count)
        self._item(_player_key(player_id), "PLAYER").update(
            actions=[
                self._item.cooldown_day.set(day),
                self._item.disappearances.set(count),
                self._item.blocked_until.set(record.blocked_until.isoformat()),
            ]
        )
        return record


COOLDOWN_MINUTES = (5, 15, 30, 60)


def cooldown_for(disappearances_today: int) -> timedelta:
    index = min(disappearances_today, len(COOLDOWN_MINUTES)) - 1
    return timedelta(minutes=COOLDOWN_MINUTES[index])
