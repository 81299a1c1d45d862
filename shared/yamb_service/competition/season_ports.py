"""What seasons need from storage (yamb_service.competition.season_dynamo), with domain types."""

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Literal, Protocol

from yamb.competition.seasons import League, LeagueEnd, Member

from yamb_service.competition.ports import Rated

# A member's season end: written now, written before (a rerun), or lost to a game recorded at
# the same moment (read again).
type Closed = Literal["closed", "closed_before", "moved"]


class SeasonStore(Protocol):
    def leagues_of(self, player_ids: Iterable[str]) -> dict[str, League]:
        """Each player's league as the last season's end left it (absent: none yet)."""

    def members(self, season_id: str, player_ids: Iterable[str]) -> dict[str, Member]:
        """The players' season so far (absent: no game yet), read consistently."""

    def record_game(
        self, game_id: str, season_id: str, now: datetime, before: dict[str, Member],
        after: Sequence[Member], *, newcomer_leagues: Mapping[str, League | None],
    ) -> Rated:  # fmt: skip
        """The members `after`, each on the version read, with the game's season marker; a
        newcomer (absent from `before`) only if in no other league and their league is still
        the one read (`newcomer_leagues`, None: none yet)."""

    def league(self, season_id: str, league: League, limit: int | None = None) -> list[Member]:
        """A league's members, best first (all of them when `limit` is None)."""

    def close(
        self, season_id: str, end: LeagueEnd, now: datetime, next_id: str, early: Member | None
    ) -> Closed:
        """The member's badge and next league, once; with `early` (the member's season
        `next_id`, begun in their old league before this close ran), that season moved to the
        next league in the same transaction; "moved" when a first game of it came since."""

    def badges(self, player_id: str) -> list[LeagueEnd]:
        """The player's season badges, the latest first."""

    def pause(self, attempt: int) -> None: ...
