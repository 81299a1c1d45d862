"""The open game database: a game staged for its month as it ends (`OpenDbStager`, run by the
results function from the table's stream), each month exported once it is over
(`OpenDbExporter`, the monthly job), the months listed and their files linked
(`OpenDbReader`, the boards function's public routes)."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from yamb.accounts.nicknames import purged_nickname
from yamb.i18n import Text
from yamb.opendb import files as opendb_files
from yamb.opendb.errors import OpenDbError
from yamb.opendb.lines import export_line, people, staged_of
from yamb.opendb.months import month_of, parse_month, previous_month, require_over
from yamb.opendb.views import (
    LICENCE_FILE,
    LICENCE_TEXT,
    MANIFEST_FILE,
    README_FILE,
    README_TEXT,
    DatabaseFile,
    DatabaseMonth,
    DatabaseView,
    Licence,
    is_file_name,
    month_file_name,
)
from yamb.session.results import GameResult

from yamb_service.opendb.ports import EndedGames, FileStore, Nicknames, OpenDbStore

# Where the HTTP API serves the files (GET, no sign-in): a link answers with the file's place.
FILES_PATH = "/database/"


class OpenDbStager:
    def __init__(self, games: EndedGames, store: OpenDbStore) -> None:
        self._games = games
        self._store = store

    def stage(self, ended: GameResult) -> bool:
        """Stages a finished game for its month's export when it is public; whether it was.
        Idempotent: a redelivered game's end stages the same game again."""
        settings = ended.settings
        if settings.solo or settings.physical_dice or ended.outcome == "cancelled":
            return False  # not public: not even read
        loaded = self._games.ended(ended.game_id)
        if loaded is None:
            return False
        staged = staged_of(*loaded)
        if staged is None:
            return False
        self._store.stage(staged, month_of(staged.ended_at))
        return True


@dataclass(frozen=True, slots=True)
class Export:
    """What an export run did: the month, its games, and whether this run wrote the month
    (False: it had been exported before, and nothing was written)."""

    month: str
    games: int
    files: list[str]
    sha256: list[str]
    written: bool


class OpenDbExporter:
    def __init__(self, store: OpenDbStore, files: FileStore, nicknames: Nicknames) -> None:
        self._store = store
        self._files = files
        self._nicknames = nicknames

    def export(self, now: datetime, month: str | None = None) -> Export:
        """Exports `month` (default: the month that ended last as of `now`): its file, then the
        manifest, then the month's record, which makes a second run write nothing. A month not
        yet over is refused, with nothing written."""
        month = previous_month(now) if month is None else parse_month(month)
        require_over(month, now)
        done = self._store.exported(month)
        if done is not None:
            return _export(done, written=False)
        staged = [game for game in self._store.staged(month) if month_of(game.ended_at) == month]
        ids = {player for game in staged for player in people(game)}
        found = self._nicknames.nicknames(ids)
        names = {player: found.get(player) or purged_nickname(player) for player in ids}
        lines = [export_line(game, names) for game in staged]
        data = opendb_files.month_file(lines)
        name = month_file_name(month)
        exported = DatabaseMonth(
            month=month,
            exported_at=now,
            files=[
                DatabaseFile(
                    name=name,
                    url=FILES_PATH + name,
                    bytes=len(data),
                    sha256=opendb_files.sha256(data),
                    games=len(lines),
                )
            ],
        )
        self._files.put(name, data, "application/gzip")
        self._files.put(LICENCE_FILE, LICENCE_TEXT.encode(), "text/plain; charset=utf-8")
        self._files.put(README_FILE, README_TEXT.encode(), "text/markdown; charset=utf-8")
        months = sorted(
            [exported, *(m for m in self._store.months() if m.month != month)],
            key=lambda m: m.month,
            reverse=True,
        )
        self._files.put(MANIFEST_FILE, _manifest(months), "application/json")
        if not self._store.record_export(exported):  # another run recorded it first
            return _export(self._store.exported(month) or exported, written=False)
        return _export(exported, written=True)


def _export(month: DatabaseMonth, *, written: bool) -> Export:
    return Export(
        month=month.month,
        games=sum(file.games for file in month.files),
        files=[file.name for file in month.files],
        sha256=[file.sha256 for file in month.files],
        written=written,
    )


def _manifest(months: list[DatabaseMonth]) -> bytes:
    return database_view(months).model_dump_json(by_alias=True, indent=2).encode() + b"\n"


def database_view(months: list[DatabaseMonth]) -> DatabaseView:
    return DatabaseView(
        licence=Licence(file=FILES_PATH + LICENCE_FILE),
        readme=FILES_PATH + README_FILE,
        months=months,
    )


class OpenDbReader:
    def __init__(self, store: OpenDbStore, files: Callable[[], FileStore]) -> None:
        self._store = store
        # The file store is made at the first link: the listing needs none.
        self._files = files

    def view(self) -> DatabaseView:
        return database_view(self._store.months())

    def link(self, name: str) -> str:
        """Where to download a file of the database; OpenDbError `unknown_file` for a name it
        does not serve or a month not exported."""
        unknown = OpenDbError(
            Text("no file {name} in the game database", name=name[:80]),
            code="unknown_file",
            field="file",
        )
        if not is_file_name(name):
            raise unknown
        month = name.removeprefix("yamb_games_").removesuffix(".jsonl.gz")
        if month != name and self._store.exported(month) is None:
            raise unknown
        if month == name and not self._store.months():
            raise unknown  # nothing exported yet: no manifest, licence or README either
        return self._files().link(name)
