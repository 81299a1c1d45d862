"""A purged player's nickname taken out of their tournament entries (A7, docs/accounts.md).

The layout is tournament_dynamo's: a tournament's partition `TOURNAMENT#<id>` holds each entry
as `E#<player id>`, a JSON `summary` (the nickname the player entered under, for the standings
and the games' names) on a `version`. The tournament's own item and its games (`G#`) name
players by id only; its page takes the names from the entries.

Nothing lists a player's tournaments, so the purge reads the tournaments' list (`gsi1` under
`TOURNAMENTS`: the schedule makes about nine a week), asks for the player's entry in each, a
hundred keys a request, and writes each entry found with the id name, on the version read. A
tournament's run that moved the entry meanwhile makes that write lose: the entry is read again
and renamed again (and the run, whose write was on the old version, reads the new name)."""

from collections.abc import Iterator

from pynamodb.exceptions import DoesNotExist, PutError, PynamoDBException
from yamb.competition.standings import Entry

from yamb_service.common.dynamo import ItemModel, TableItem, busy_or
from yamb_service.common.errors import ServiceBusyError
from yamb_service.competition.tournament_dynamo import LISTING

_PARTITION, _ENTRY = "TOURNAMENT#", "E#"
ATTEMPTS = 5
BATCH = 100  # BatchGetItem's keys a request


class DynamoTournamentEntryNames:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def rename_entries(self, player_id: str, nickname: str) -> int:
        """The player's entry in every tournament listed, renamed `nickname` (the purge's id
        name); how many entries were written (none twice: a renamed one is skipped)."""
        keys = [(pk, f"{_ENTRY}{player_id}") for pk in self._partitions()]
        written = 0
        try:
            for start in range(0, len(keys), BATCH):
                for found in self._item.batch_get(keys[start : start + BATCH]):
                    written += self._rename(found, nickname)
        except PynamoDBException as error:
            raise busy_or(error) from error
        return written

    def _partitions(self) -> Iterator[str]:
        for listed in self._item.gsi1.query(LISTING):
            if listed.pk.startswith(_PARTITION):
                yield listed.pk

    def _rename(self, stored: TableItem, nickname: str) -> int:
        for _ in range(ATTEMPTS):
            entry = Entry.model_validate_json(stored.summary or "{}")
            if entry.nickname == nickname:
                return 0
            version = int(stored.version or 0)
            renamed = self._item(
                stored.pk,
                stored.sk,
                summary=entry.model_copy(update={"nickname": nickname}).model_dump_json(
                    by_alias=True, exclude={"version"}
                ),
                version=version + 1,
            )
            try:
                renamed.save(condition=self._item.version == version)
            except PutError as error:
                if getattr(error, "cause_response_code", None) != "ConditionalCheckFailedException":
                    raise
                try:
                    stored = self._item.get(stored.pk, stored.sk, consistent_read=True)
                except DoesNotExist:
                    return 0
                continue
            return 1
        raise ServiceBusyError()
