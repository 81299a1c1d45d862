"""Tournaments on the game table (docs/data-model.md, "Tournaments"): one partition per
tournament, `TOURNAMENT#<id>`, with the tournament (`T`), each entry (`E#<player>`) and each
game (`G#<game id>`), every item a JSON `summary` on a `version`; one query reads the whole of
it. The tournaments are listed in `gsi1` under `TOURNAMENTS` by their start; the ones the job
still has work with (`Tournament.active`) each have a marker item in `TOURNAMENTS#ACTIVE`,
written with the tournament and deleted by the write that ends its work, which the job reads
whole: however many tournaments the listing holds, none is left behind."""

import random
import time
from collections.abc import Callable, Sequence

from pynamodb.exceptions import PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite
from yamb.competition.standings import Entry
from yamb.competition.tournaments import Tournament, TournamentError, TournamentGame
from yamb.i18n import Text

from yamb_service.common.dynamo import DynamoPart, ItemModel, TableItem, busy_or
from yamb_service.common.ports import TransactionPart
from yamb_service.competition.dynamo import refusal
from yamb_service.competition.tournament_ports import TournamentState, Written

_TOURNAMENT, _ENTRY, _GAME = "T", "E#", "G#"
LISTING = "TOURNAMENTS"
ACTIVE = "TOURNAMENTS#ACTIVE"


def _key(tournament_id: str) -> str:
    return f"TOURNAMENT#{tournament_id}"


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

    def _marker(self, tournament_id: str) -> TableItem:
        return self._item(ACTIVE, tournament_id)

    def create(self, tournament: Tournament) -> bool:
        item = self._item
        try:
            with TransactWrite(connection=item._get_connection().connection) as write:
                write.save(self._tournament_item(tournament, 1), condition=item.pk.does_not_exist())
                write.save(self._marker(tournament.tournament_id))
        except TransactWriteError as error:
            refusal(error)  # raises unless it was there already
            return False
        return True

    def active(self) -> list[str]:
        try:
            return [item.sk for item in self._item.query(ACTIVE, consistent_read=True)]
        except PynamoDBException as error:
            raise busy_or(error) from error

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

    def _entered(self, write: TransactWrite, tournament: Tournament, entry: Entry) -> None:
        """The new entry, and the tournament's version moved on: a run that read the tournament
        before the entry (to start, cancel or refund it) loses its write and reads again."""
        item = self._item
        write.save(
            self._entry_item(tournament.tournament_id, entry, 1),
            condition=item.pk.does_not_exist(),
        )
        write.update(
            item(_key(tournament.tournament_id), _TOURNAMENT),
            actions=[item.version.set(tournament.version + 1)],
            condition=item.version == tournament.version,
        )

    def entry_part(self, tournament: Tournament, entry: Entry) -> TransactionPart:
        return DynamoPart(add=lambda write: self._entered(write, tournament, entry))

    def enter(self, tournament: Tournament, entry: Entry) -> Written:
        try:
            with TransactWrite(connection=self._item._get_connection().connection) as write:
                self._entered(write, tournament, entry)
        except TransactWriteError as error:
            return refusal(error)
        return "written"

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
                if before.active and not after.active:
                    write.delete(self._marker(tournament_id))
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
            return refusal(error)
        return "written"

    def pause(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.02 * 2**attempt))
