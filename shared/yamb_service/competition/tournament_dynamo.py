"""Tournaments on the game table (docs/data-model.md, "Tournaments"): one partition per
tournament, `TOURNAMENT#<id>`, with the tournament (`T`), each entry (`E#<player>`) and each
game (`G#<game id>`), every item a JSON `summary` on a `version`; one query reads the whole of
it. The tournaments are listed in `gsi1` under `TOURNAMENTS` by their start."""

import random
import time
from collections.abc import Callable, Sequence

from pynamodb.exceptions import PutError, PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite
from yamb.competition.standings import Entry
from yamb.competition.tournaments import Tournament, TournamentError, TournamentGame
from yamb.i18n import Text

from yamb_service.common.dynamo import DynamoPart, ItemModel, TableItem, busy_or
from yamb_service.common.ports import TransactionPart
from yamb_service.competition.tournament_ports import TournamentState, Written

_TOURNAMENT, _ENTRY, _GAME = "T", "E#", "G#"
LISTING = "TOURNAMENTS"


def _key(tournament_id: str) -> str:
    return f"TOURNAMENT#{tournament_id}"


def _conditional(error: PynamoDBException) -> bool:
    cause = getattr(error, "cause_response_code", None)
    return cause == "ConditionalCheckFailedException"


class DynamoTournamentStore:
    def __init__(self, item: ItemModel, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._item = item
        self._sleep = sleep

    def _tournament_item(self, tournament: Tournament, version: int) -> TableItem:
        plan = tournament.plan
        return self._item(
            _key(tournament.tournament_id),
            _TOURNAMENT,
            summary=tournament.model_dump_json(by_alias=True, exclude={"version"}),
            version=version,
            gsi1pk=LISTING,
            gsi1sk=f"{plan.starts_at:%Y%m%dT%H%M%S}#{tournament.tournament_id}",
        )

    def create(self, tournament: Tournament) -> bool:
        try:
            self._tournament_item(tournament, 1).save(condition=self._item.pk.does_not_exist())
        except PutError as error:
            if _conditional(error):
                return False
            raise busy_or(error) from error
        return True

    def state(self, tournament_id: str) -> TournamentState:
        tournament: Tournament | None = None
        entries: dict[str, Entry] = {}
        games: dict[str, TournamentGame] = {}
        try:
            for item in self._item.query(_key(tournament_id), consistent_read=True):
                version = int(item.version or 0)
                text = item.summary or "{}"
                if item.sk == _TOURNAMENT:
                    tournament = Tournament.model_validate_json(text).model_copy(
                        update={"version": version}
                    )
                elif item.sk.startswith(_ENTRY):
                    entry = Entry.model_validate_json(text).model_copy(update={"version": version})
                    entries[entry.player_id] = entry
                elif item.sk.startswith(_GAME):
                    game = TournamentGame.model_validate_json(text).model_copy(
                        update={"version": version}
                    )
                    games[game.game_id] = game
        except PynamoDBException as error:
            raise busy_or(error) from error
        if tournament is None:
            raise TournamentError(
                Text("there is no such tournament"), code="unknown_tournament", status=404
            )
        return TournamentState(tournament, entries, games)

    def listed(self, limit: int) -> list[Tournament]:
        try:
            return [
                Tournament.model_validate_json(item.summary or "{}").model_copy(
                    update={"version": int(item.version or 0)}
                )
                for item in self._item.gsi1.query(LISTING, scan_index_forward=False, limit=limit)
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def _entry_item(self, tournament_id: str, entry: Entry, version: int) -> TableItem:
        return self._item(
            _key(tournament_id),
            f"{_ENTRY}{entry.player_id}",
            summary=entry.model_dump_json(by_alias=True, exclude={"version"}),
            version=version,
        )

    def entry_part(self, tournament_id: str, entry: Entry) -> TransactionPart:
        item = self._entry_item(tournament_id, entry, 1)
        condition = self._item.pk.does_not_exist()
        return DynamoPart(add=lambda write: write.save(item, condition=condition))

    def enter(self, tournament_id: str, entry: Entry) -> bool:
        try:
            self._entry_item(tournament_id, entry, 1).save(condition=self._item.pk.does_not_exist())
        except PutError as error:
            if _conditional(error):
                return False
            raise busy_or(error) from error
        return True

    def advance(
        self,
        before: Tournament,
        after: Tournament,
        *,
        entries: Sequence[Entry] = (),
        games: Sequence[TournamentGame] = (),
    ) -> Written:
        item = self._item
        tournament_id = after.tournament_id
        try:
            with TransactWrite(connection=item._get_connection().connection) as write:
                write.save(
                    self._tournament_item(after, before.version + 1),
                    condition=item.version == before.version,
                )
                for entry in entries:
                    write.save(
                        self._entry_item(tournament_id, entry, entry.version + 1),
                        condition=item.version == entry.version,
                    )
                for game in games:
                    write.save(
                        item(
                            _key(tournament_id),
                            f"{_GAME}{game.game_id}",
                            summary=game.model_dump_json(by_alias=True, exclude={"version"}),
                            version=game.version + 1,
                        ),
                        condition=item.pk.does_not_exist()
                        if game.version == 0
                        else item.version == game.version,
                    )
        except TransactWriteError as error:
            reasons = [None if r is None else r.code for r in (error.cancellation_reasons or [])]
            if "ConditionalCheckFailed" in reasons or "TransactionConflict" in reasons:
                return "moved"
            raise busy_or(error) from error
        return "written"

    def pause(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.02 * 2**attempt))
