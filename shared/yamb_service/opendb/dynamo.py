"""The open database's items in the table (docs/data-model.md):

- a staged game: `GAME#<gameId>` / `OPENDB`, `summary` the game as its export needs it (player
  ids, no nickname), listed in gsi1 under `OPENDB#<month>` by its end, kept 120 days;
- a month exported: `OPENDB` / `MONTH#<month>`, `summary` its files (name, size, SHA-256,
  games), put once."""

from collections.abc import Iterator
from datetime import datetime, timedelta

from pynamodb.exceptions import DoesNotExist, PutError, PynamoDBException
from yamb.opendb.lines import StagedGame
from yamb.opendb.views import DatabaseMonth

from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, busy_or, busy_when_transient

_STAGED = "OPENDB"
_MONTHS = "OPENDB"
_MONTH = "MONTH#"
# A month is exported the day after it ends; its games are kept long enough for a late run.
STAGED_TTL = timedelta(days=120)


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


class DynamoOpenDbStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    @busy_when_transient
    def stage(self, game: StagedGame, month: str) -> None:
        self._item(
            f"GAME#{game.game_id}",
            _STAGED,
            summary=game.model_dump_json(by_alias=True),
            gsi1pk=f"{_STAGED}#{month}",
            gsi1sk=f"{game.ended_at.isoformat()}#{game.game_id}",
            expires_at=_epoch(game.ended_at + STAGED_TTL),
        ).save()

    def staged(self, month: str) -> Iterator[StagedGame]:
        try:
            for item in self._item.gsi1.query(f"{_STAGED}#{month}"):
                yield StagedGame.model_validate_json(item.summary or "{}")
        except PynamoDBException as error:
            raise busy_or(error) from error

    @busy_when_transient
    def exported(self, month: str) -> DatabaseMonth | None:
        try:
            item = self._item.get(_MONTHS, _MONTH + month, consistent_read=True)
        except DoesNotExist:
            return None
        return DatabaseMonth.model_validate_json(item.summary or "{}")

    def record_export(self, exported: DatabaseMonth) -> bool:
        item = self._item(
            _MONTHS, _MONTH + exported.month, summary=exported.model_dump_json(by_alias=True)
        )
        try:
            item.save(condition=self._item.pk.does_not_exist())
        except PutError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    @busy_when_transient
    def months(self) -> list[DatabaseMonth]:
        return [
            DatabaseMonth.model_validate_json(item.summary or "{}")
            for item in self._item.query(
                _MONTHS, self._item.sk.startswith(_MONTH), scan_index_forward=False
            )
        ]
