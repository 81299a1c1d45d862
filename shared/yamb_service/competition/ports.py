"""What ratings need from storage (yamb_service.competition.dynamo), with domain types."""

from collections.abc import Iterable
from datetime import datetime
from typing import Literal, Protocol

from yamb.competition.ratings import Rating, RatingPool

# What rating a game did: rated now, or before (a repeat), or not, as a player's rating moved
# since it was read (read them again).
type Rated = Literal["rated", "rated_before", "moved"]


class RatingStore(Protocol):
    def ratings(self, pool: RatingPool, player_ids: Iterable[str]) -> dict[str, Rating]:
        """The players' ratings in a pool (absent: never rated there), consistently read."""

    def player_ratings(self, player_id: str, pools: Iterable[RatingPool]) -> list[Rating]:
        """The player's ratings in these pools (those they have)."""

    def rate_game(
        self, game_id: str, now: datetime, before: dict[str, Rating], after: dict[str, Rating]
    ) -> Rated:
        """The ratings `after`, each on the version read, at once with the game's marker."""

    def top(self, pool: RatingPool, limit: int) -> list[Rating]:
        """The pool's best ratings (by rating less three uncertainties), best first."""

    def pause(self, attempt: int) -> None:
        """A short random wait before another attempt after a lost race."""
