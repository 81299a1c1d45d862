"""What the badges need from storage (yamb_service.progression.badges.dynamo), with domain
types; the wallet, the wardrobe, the results' awards and the accounts come through their own
domains' ports."""

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Literal, Protocol

from yamb_service.common.ports import TransactionPart

# A day's marker outlives any game of that day that can come late (Veteran's distinct days).
PLAYED_TTL = timedelta(days=31)

# What recording a game for a player did: written now, or before (a repeat), or not as a
# marker was put by another game since it was read (read them again).
type Recorded = Literal["recorded", "recorded_before", "moved"]


def played_marker(day: str) -> str:
    """The marker of a day the player played (Veteran counts them)."""
    return f"PLAYED#{day}"


def opponent_marker(player_id: str) -> str:
    """The marker of an opponent the player met (Sociable counts them)."""
    return f"OPPONENT#{player_id}"


class BadgeStore(Protocol):
    def counts(self, player_id: str) -> dict[str, int]:
        """Every count of the player, by counter (absent: 0)."""

    def held(self, player_id: str) -> tuple[dict[str, int], int | None]:
        """The highest level paid per badge, and the player's Pioneer number (None: none)."""

    def present(self, player_id: str, markers: Iterable[str]) -> set[str]:
        """Which of these markers of the player exist (consistently read)."""

    def record(
        self,
        game_id: str,
        player_id: str,
        adds: Mapping[str, int],
        markers: Sequence[tuple[str, datetime | None]],
        now: datetime,
    ) -> Recorded:
        """A game's counts for one player, at once with the game's marker for the player and
        the new markers (each `(marker, expires at)`), all put only if absent."""

    def pause(self, attempt: int) -> None:
        """A short random wait before another attempt after a lost race."""

    def paid_part(self, player_id: str, badge: str, level: int) -> TransactionPart:
        """The badge's level paid, in the wallet change that pays it."""

    def count_part(self, player_id: str, counter: str, amount: int) -> TransactionPart:
        """Adds `amount` to the player's count, in the transaction of what it counts."""

    def enrol_pioneer(self, player_id: str, places: int) -> int | None:
        """The player's Pioneer number, if one of the first `places` is free and they have
        none yet (None: all taken, or the player holds one already)."""
