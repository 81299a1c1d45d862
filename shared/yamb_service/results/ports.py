"""What the results need from storage (yamb_service.results.dynamo), with domain types: board
rows and their places, statistics and head-to-heads, favorites, prize awards. Progression
reads statistics, favorites and awards through the same port."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from yamb.results.boards import Board, Entry
from yamb.results.head_to_head import Meeting, Side
from yamb.results.periods import Period
from yamb.results.played import PlayedGame
from yamb.results.prizes import Award
from yamb.results.stats import PlayerStats

from yamb_service.common.ports import TransactionPart

# What a row's write did: written; or not, as the row moved since it was read (read it again),
# or as its period was closed (a payout has read the board: a late result stays out of it).
type Written = Literal["written", "moved", "closed"]
# What counting a game did: counted now, or before (a repeat), or not as a player's statistics
# moved since they were read (read them again).
type Counted = Literal["counted", "counted_before", "moved"]


@dataclass(frozen=True, slots=True)
class HeadToHeadCount:
    wins: int
    losses: int
    ties: int


class ResultsStore(Protocol):
    # -------------------------------------------------------------- boards
    def rows(self, board: Board, entrants: Iterable[str]) -> dict[str, Entry]:
        """The rows of these entrants on a board (absent: not on it), consistently read."""

    def rows_at(self, places: Iterable[tuple[Board, str]]) -> dict[tuple[str, str], Entry]:
        """Rows of several boards at once, by (board key, entrant)."""

    def write_row(self, board: Board, before: Entry | None, after: Entry) -> Written:
        """The row `after` on the board, if it still is `before` and the period is open."""

    def forget_score(self, board: Board, score: int) -> None:
        """Drops a score's count once no row holds it (best effort)."""

    def top(self, board: Board, limit: int) -> list[Entry]:
        """The board's first rows, best first."""

    def place(self, board: Board, score: int) -> int:
        """One plus the rows with a higher score."""

    def close(self, period: Period, now: datetime) -> bool:
        """No row of the period changes after this; True when this call closed it."""

    def pair_row(self, player_id: str, board: Board) -> str | None:
        """The entrant of the player's best pair on a pairs board."""

    def point_to_pair(self, player_id: str, board: Board, entry: Entry) -> None:
        """Keeps the player's best pair of a board (never back to a lower score)."""

    def pause(self, attempt: int) -> None:
        """A short random wait before another attempt after a lost race."""

    # -------------------------------------------------------------- statistics
    def statistics(self, player_ids: Iterable[str]) -> dict[str, PlayerStats]: ...
    def count_game(
        self,
        game_id: str,
        now: datetime,
        before: dict[str, PlayerStats],
        after: dict[str, PlayerStats],
        sides: list[Side],
        *,
        played: dict[str, PlayedGame],
    ) -> Counted:
        """A game's statistics, head-to-heads and each person's entry among their past games,
        at once with the game's marker: each player's statistics on the version read."""

    def played(self, player_id: str, limit: int, before: str | None = None) -> list[PlayedGame]:
        """The player's past games, newest first; `before` pages on from an entry's key."""

    def head_to_head(self, player_id: str, opponent: str) -> HeadToHeadCount: ...
    def meetings(
        self, player_id: str, opponent: str, limit: int, before: str | None = None
    ) -> list[Meeting]:
        """The meetings of two players, newest first; `before` pages on from a meeting's key."""

    # -------------------------------------------------------------- favorites
    def favorites(self, player_id: str) -> list[str]: ...
    def set_favorite(self, player_id: str, favorite: str, on: bool) -> None: ...

    # -------------------------------------------------------------- prizes
    def awards(self, player_id: str) -> list[dict[str, Any]]:
        """The prize awards the player was paid (each as its record)."""

    def standing(self, board: Board) -> list[Award] | None:
        """The awards a payout worked out for a board of a closed period (None: not yet)."""

    def keep_standing(self, board: Board, awards: list[Award]) -> list[Award]:
        """The awards of a board kept once: those kept first win."""

    def award_part(
        self, player_id: str, board: Board, entrant: str, award: dict[str, Any]
    ) -> TransactionPart:
        """The award's record, in the wallet change that pays it."""
