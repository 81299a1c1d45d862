"""What tournaments need from storage and from the game service, with domain types."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from yamb.competition.standings import Entry
from yamb.competition.tournaments import Tournament, TournamentGame
from yamb.session.results import GameResult
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
        """The new tournament, active; False when one of its id exists (nothing written)."""

    def state(self, tournament_id: str) -> TournamentState:
        """The tournament, its entries and games (TournamentError unknown_tournament)."""

    def listed(self, limit: int) -> list[Tournament]:
        """Tournaments by start, the latest first."""

    def active(self) -> list[str]:
        """Every tournament the job still has work with (`Tournament.active`), whatever its
        start."""

    def entry_part(self, tournament: Tournament, entry: Entry) -> TransactionPart:
        """The new entry, only if absent and on the tournament's version read (which it moves
        on), for the wallet's transaction that takes its fee."""

    def enter(self, tournament: Tournament, entry: Entry) -> Written:
        """A free entry, as `entry_part`: "moved" when the entry exists or the tournament
        changed since it was read (read again)."""

    def advance(
        self,
        before: Tournament,
        after: Tournament,
        *,
        entries: Sequence[Entry] = (),
        games: Sequence[TournamentGame] = (),
    ) -> Written:
        """The tournament on the version read, with its entries (each on its version) and its
        new or changed games (a new one only if absent), in one transaction; it leaves the
        active ones when `after` is no longer active."""

    def pause(self, attempt: int) -> None: ...


@dataclass(frozen=True, slots=True)
class TableSeat:
    player_id: str
    nickname: str


class TournamentTables(Protocol):
    """The game service's side: tables made for pairings, who is there to play, and how a
    game ended when its end never reached the standings."""

    def present(self, player_ids: Iterable[str], now: datetime) -> set[str]:
        """Those of the players with a live connection who may take a seat now (no other game
        under way, no cooldown)."""

    def busy(self, player_ids: Iterable[str], now: datetime) -> set[str]:
        """Those of the players who may not take a seat now (at another game, cooling down)."""

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

    def outcome(self, game_id: str) -> "GameResult | Literal['playing', 'gone']":
        """The game's end as its table recorded it, "playing" while it is under way, "gone"
        when the table is no more or ended without a result."""
