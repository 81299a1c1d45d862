"""Ratings (issue 32), fed by the game's end and read over HTTP.

`RatingsRecorder` takes each finished game from the results function (after its statistics and
boards): the rated players' ratings read in one request, updated by the domain's
`rate`, written in one transaction with the game's marker on the versions read; a lost race
reads them again, a repeat finds the marker and changes nothing. `RatingsService` answers a
rating board and a player's ratings."""

from collections.abc import Callable, Mapping
from datetime import datetime

from aws_lambda_powertools.metrics import MetricUnit
from yamb.clubs.tag import TagView
from yamb.competition.messages import RatingBoardView, RatingRowView, RatingView
from yamb.competition.ratings import (
    FAMILIES,
    RATING_FORMATS,
    RatingPool,
    rate,
    rated_game,
)
from yamb.session.results import GameResult

from yamb_service.accounts.ports import Profiles
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import logger, metrics
from yamb_service.competition.ports import RatingStore

ATTEMPTS = 8
TOP = 100
ALL_POOLS = tuple(
    RatingPool(format, family)
    for format in RATING_FORMATS
    for family in FAMILIES
    if format == "individual" or family.startswith("yamb-")
)


class RatingsRecorder:
    def __init__(self, store: RatingStore, now: Callable[[], datetime]) -> None:
        self.store = store
        self.now = now

    def record(self, result: GameResult) -> bool:
        """The game's ratings, once; True when this call rated it."""
        game = rated_game(result)
        if game is None:
            return False
        for attempt in range(ATTEMPTS):
            before = self.store.ratings(game.pool, game.players)
            after = rate(game, before)
            outcome = self.store.rate_game(game.game_id, self.now(), before, after)
            if outcome == "rated":
                metrics.add_metric(name="GameRated", unit=MetricUnit.Count, value=1)
                logger.info("game rated", pool=game.pool.key, players=len(after))
                return True
            if outcome == "rated_before":
                return False
            self.store.pause(attempt)
        raise ServiceBusyError()


class RatingsService:
    def __init__(
        self,
        store: RatingStore,
        accounts: Profiles,
        *,
        tags: Callable[[list[str]], Mapping[str, TagView]] = lambda players: {},
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.tags = tags

    def board(self, viewer: str, pool: RatingPool) -> RatingBoardView:
        top = self.store.top(pool, TOP)
        players = [r.player_id for r in top]
        profiles = self.accounts.profiles(players)
        tags = self.tags(players)
        rows = [
            RatingRowView(
                **RatingView.of(rating).model_dump(),
                place=place,
                name=profiles[rating.player_id].nickname
                if rating.player_id in profiles
                else rating.player_id,
                tag=tags.get(rating.player_id),
                me=rating.player_id == viewer,
            )
            for place, rating in enumerate(top, start=1)
        ]
        mine = None
        if viewer not in players:
            own = self.store.ratings(pool, [viewer]).get(viewer)
            mine = None if own is None else RatingView.of(own)
        return RatingBoardView(
            pool=pool.key, rows=rows, mine=mine, families=[p.key for p in ALL_POOLS]
        )

    def of_player(self, player_id: str) -> list[RatingView]:
        """The player's ratings in every pool they were rated in."""
        return [RatingView.of(r) for r in self.store.player_ratings(player_id, ALL_POOLS)]
