"""What tournaments need from storage and from the game service, with domain types."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from yamb.competition.standings import Entry
from yamb.competition.tournaments import Tournament, TournamentGame
from yamb.settings import GameSettings

from yamb_service.common.ports import TransactionPart

# A write on versions read: done now, done before (a repeat), or lost to another (read again).
type Written = Literal["written", "before", "moved"]


@dataclass(frozen=True, slots=True)
class TournamentState:
    """A tournament with everything in its partition, as read at once."""

    tournament: Tournament
    entries: dict[str, Entry]
    games: dict[str, TournamentGame]


class TournamentStore(Protocol):
    def create(self, tournament: Tournament) -> bool:
        """The new tournament; False when one of its id exists (nothing written)."""

    def state(self, tournament_id: str) -> TournamentState:
        """The tournament, its entries and games (TournamentError unknown_tournament)."""

    def listed(self, limit: int) -> list[Tournament]:
        """Tournaments by start, the latest first."""

    def entry_part(self, tournament_id: str, entry: Entry) -> TransactionPart:
        """The new entry, only if absent, for the wallet's transaction that takes its fee."""

    def enter(self, tournament_id: str, entry: Entry) -> bool:
        """A free entry, only if absent; False when the player had entered."""

    def advance(
        self,
        before: Tournament,
        after: Tournament,
        *,
        entries: Sequence[Entry] = (),
        games: Sequence[TournamentGame] = (),
    ) -> Written:
        """The tournament on the version read, with its entries (each on its version) and its
        new or changed games (a new one only if absent), in one transaction."""

    def pause(self, attempt: int) -> None: ...


@dataclass(frozen=True, slots=True)
class TableSeat:
    player_id: str
    nickname: str


class TournamentTables(Protocol):
    """The game service's side: tables made for pairings, and who is there to play."""

    def present(self, player_ids: Iterable[str]) -> set[str]:
        """Those of the players with a live connection and no other game under way."""

    def open_table(  # noqa: PLR0917 - a tournament table, spelled out
        self,
        tournament_id: str,
        game_id: str,
        seats: Sequence[TableSeat],
        settings: GameSettings,
        server_seed: str,
        deal: str | None,
        now: datetime,
    ) -> bool:
        """A started table for the pairing, its players told; False when a player could not be
        seated (in another game): the pairing's players are free again."""
