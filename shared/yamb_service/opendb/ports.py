"""What the open database needs from storage, with domain types: the staged games of a month
and the months exported (yamb_service.opendb.dynamo), the files (yamb_service.opendb.s3), the
players' nicknames and the games as they ended."""

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from yamb.opendb.lines import StagedGame
from yamb.opendb.views import DatabaseMonth
from yamb.session.model import GameSession


class OpenDbStore(Protocol):
    def stage(self, game: StagedGame, month: str) -> None:
        """Keeps a finished game for its month's export; staging it again changes nothing."""

    def staged(self, month: str) -> Iterator[StagedGame]:
        """The games staged for a month (any order)."""

    def exported(self, month: str) -> DatabaseMonth | None:
        """The month as its export recorded it, or None when it was not exported."""

    def record_export(self, exported: DatabaseMonth) -> bool:
        """Records a month's export once: False when another run recorded it first."""

    def months(self) -> list[DatabaseMonth]:
        """Every month exported, newest first."""


class FileStore(Protocol):
    def put(self, name: str, data: bytes, content_type: str) -> None:
        """Writes a file (the same name again replaces it)."""

    def get(self, name: str) -> bytes | None:
        """A file's bytes, or None when there is none of that name."""

    def link(self, name: str) -> str:
        """A URL anyone may download the file from for a while (no sign-in)."""


class Nicknames(Protocol):
    def nicknames(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The accounts' nicknames now (a purged account's is its id name); an id with no
        account is absent."""


class EndedGames(Protocol):
    def ended(self, game_id: str) -> tuple[GameSession, Sequence[str]] | None:
        """A game as it ended and its record's turns stored apart, or None when it is gone."""
