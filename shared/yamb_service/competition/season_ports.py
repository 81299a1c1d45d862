"""What seasons need from storage (yamb_service.competition.season_dynamo), with domain types."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

from yamb.competition.seasons import League, LeagueEnd, Member

from yamb_service.competition.ports import Rated


class SeasonStore(Protocol):
    def leagues_of(self, player_ids: Iterable[str]) -> dict[str, League]:
        """Each player's league as the last season's end left it (absent: none yet)."""

    def members(self, season_id: str, player_ids: Iterable[str]) -> dict[str, Member]:
        """The players' season so far (absent: no game yet), read consistently."""

    def record_game(
        self, game_id: str, season_id: str, now: datetime, before: dict[str, Member],
        after: Sequence[Member],
    ) -> Rated:  # fmt: skip
        """The members `after`, each on the version read, with the game's season marker."""

    def league(self, season_id: str, league: League, limit: int | None = None) -> list[Member]:
        """A league's members, best first (all of them when `limit` is None)."""

    def close(self, season_id: str, end: LeagueEnd, now: datetime) -> bool:
        """The member's badge and next league, once (False: written before)."""

    def badges(self, player_id: str) -> list[LeagueEnd]:
        """The player's season badges, the latest first."""

    def pause(self, attempt: int) -> None: ...
