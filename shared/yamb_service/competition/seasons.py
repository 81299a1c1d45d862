"""Seasons and leagues (issue 32, docs/competition.md): each rated game's season points from
the results function (once per game, on the versions read), the season's end from a weekly job
(each player's badge and next league written once, so a rerun moves nobody twice), and the
current season, a league's table and a player's badges over HTTP."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from aws_lambda_powertools.metrics import MetricUnit
from yamb.competition.ratings import rated_game
from yamb.competition.seasons import (
    LEAGUES,
    League,
    LeagueEnd,
    Member,
    first_league,
    parse_season,
    season_end,
    season_of,
    season_points,
    standings,
)
from yamb.competition.tournaments import TournamentError
from yamb.i18n import Text
from yamb.session.results import GameResult

from yamb_service.accounts.ports import Profiles
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import logger, metrics
from yamb_service.competition.ports import RatingStore
from yamb_service.competition.season_ports import Closed, SeasonStore

ATTEMPTS = 8
TABLE_ROWS = 100


@dataclass
class SeasonClosed:
    season_id: str
    moved: list[str] = field(default_factory=list)  # "<player> <league> -> <league>"
    badges: int = 0
    repeated: int = 0


class SeasonService:
    def __init__(
        self,
        store: SeasonStore,
        ratings: RatingStore,
        profiles: Callable[[], Profiles],
        now: Callable[[], datetime],
    ) -> None:
        self.store = store
        self.ratings = ratings
        self._profiles = profiles
        self.now = now

    def record(self, result: GameResult) -> bool:
        """A rated game's season points, once (True: counted now)."""
        game = rated_game(result)
        if game is None:
            return False
        season = season_of(result.ended_at)
        points = season_points(game)
        for attempt in range(ATTEMPTS):
            before = self.store.members(season.season_id, points)
            newcomers = [p for p in points if p not in before]
            leagues = self.store.leagues_of(newcomers)
            rated = self.ratings.ratings(game.pool, newcomers) if newcomers else {}
            after = []
            for player, gained in points.items():
                member = before.get(player)
                if member is None:
                    rating = rated.get(player)
                    league = leagues.get(player) or first_league(
                        None if rating is None else rating.shown,
                        rating is None or rating.provisional,
                    )
                    member = Member(player_id=player, league=league)
                after.append(
                    member.model_copy(
                        update={"points": member.points + gained, "games": member.games + 1}
                    )
                )
            outcome = self.store.record_game(
                game.game_id, season.season_id, self.now(), before, after,
                newcomer_leagues={p: leagues.get(p) for p in newcomers},
            )  # fmt: skip
            if outcome == "rated":
                metrics.add_metric(name="SeasonGameCounted", unit=MetricUnit.Count, value=1)
                return True
            if outcome == "rated_before":
                return False
            self.store.pause(attempt)
        raise ServiceBusyError()

    def close(self, now: datetime, season_id: str | None = None) -> SeasonClosed:
        """The last ended season (or `season_id`, ended): each league's moves and badges."""
        season = season_of(now).previous() if season_id is None else parse_season(season_id)
        if season is None:
            raise TournamentError(
                Text("there is no season '{season}'", season=season_id or ""),
                code="unknown_season",
                status=400,
            )
        if not season.has_ended(now):
            raise TournamentError(
                Text("this season has not ended: its leagues move after it"),
                code="season_not_ended",
            )
        closed = SeasonClosed(season.season_id)
        next_id = season_of(season.ends_at).season_id
        for league in LEAGUES:
            for end in season_end(season.season_id, self.store.league(season.season_id, league)):
                outcome = self._close(season.season_id, next_id, end, now)
                if outcome == "closed":
                    closed.badges += 1
                    if end.move != "stay":
                        closed.moved.append(f"{end.player_id} {end.league} -> {end.next_league}")
                else:
                    closed.repeated += 1
        logger.info("season closed", season=season.season_id, badges=closed.badges,
                    moved=len(closed.moved))  # fmt: skip
        metrics.add_metric(name="SeasonClosed", unit=MetricUnit.Count, value=1)
        return closed

    def _close(self, season_id: str, next_id: str, end: LeagueEnd, now: datetime) -> Closed:
        """One member's end; a player who moves and has already played in the next season
        (between its start and this close) has that season moved to their new league too."""
        for attempt in range(ATTEMPTS):
            early = None
            if end.move != "stay":
                member = self.store.members(next_id, [end.player_id]).get(end.player_id)
                if member is not None and member.league != end.next_league:
                    early = member
            outcome = self.store.close(season_id, end, now, next_id, early)
            if outcome != "moved":
                return outcome
            self.store.pause(attempt)
        raise ServiceBusyError()

    # ------------------------------------------------------------------ reading

    def table(self, season_id: str, league: League) -> list[tuple[int, Member]]:
        return standings(self.store.league(season_id, league, TABLE_ROWS))

    def viewer(self, player_id: str, season_id: str) -> tuple[League, Member | None]:
        member = self.store.members(season_id, [player_id]).get(player_id)
        if member is not None:
            return member.league, member
        return self.store.leagues_of([player_id]).get(player_id, "bronze"), None

    def badges(self, player_id: str) -> list[LeagueEnd]:
        return self.store.badges(player_id)

    def names(self, player_ids: list[str]) -> Mapping[str, str]:
        profiles = self._profiles().profiles(player_ids)
        return {p: profile.nickname for p, profile in profiles.items()}
