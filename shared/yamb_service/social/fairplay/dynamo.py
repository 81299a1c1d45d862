"""A player's fair-play record: `PLAYER#<playerId>` / `FAIRPLAY` (`entry`: the FairplayRecord as
JSON, `version`: its writes). Every write is conditional on the version read."""

from collections.abc import Callable

from pynamodb.exceptions import DoesNotExist, PutError, PynamoDBException
from yamb.social.fairplay import FairplayRecord

from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, busy_or, player_key

_FAIRPLAY = "FAIRPLAY"
ATTEMPTS = 4


class FairplayRaceError(RuntimeError):
    """The record kept changing under every attempt."""


class DynamoFairplayStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def _read(self, player_id: str) -> tuple[FairplayRecord, int | None]:
        try:
            stored = self._item.get(player_key(player_id), _FAIRPLAY, consistent_read=True)
        except DoesNotExist:
            return FairplayRecord(), None
        except PynamoDBException as error:
            raise busy_or(error) from error
        record = FairplayRecord.model_validate_json(stored.entry or "{}")
        return record, int(stored.version or 0)

    def get(self, player_id: str) -> FairplayRecord:
        return self._read(player_id)[0]

    def update(
        self, player_id: str, change: Callable[[FairplayRecord], FairplayRecord]
    ) -> tuple[FairplayRecord, FairplayRecord]:
        item = self._item
        for _ in range(ATTEMPTS):
            before, version = self._read(player_id)
            after = change(before)
            if after == before:
                return before, after
            stored = item(
                player_key(player_id),
                _FAIRPLAY,
                entry=after.model_dump_json(),
                version=(version or 0) + 1,
            )
            condition = item.sk.does_not_exist() if version is None else item.version == version
            try:
                stored.save(condition=condition, add_version_condition=False)
            except PutError as error:
                if error.cause_response_code in LOST_RACE_ERRORS:
                    continue
                raise busy_or(error) from error
            return before, after
        raise FairplayRaceError(player_id)
