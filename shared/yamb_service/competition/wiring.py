"""Builds the ratings' services from the function's settings, once, on first use: no client is
made at import."""

from datetime import datetime
from functools import cache, partial
from typing import TYPE_CHECKING

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.clubs.tags import MainTags
from yamb_service.common import clock
from yamb_service.common.config import results_settings
from yamb_service.common.dynamo import ItemModel, item_model
from yamb_service.competition.dynamo import DynamoRatingStore
from yamb_service.competition.service import RatingsRecorder, RatingsService
from yamb_service.game.result_dynamo import game_result

if TYPE_CHECKING:
    from yamb_service.game.fairness_page import PublicFairness


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


@cache
def _item() -> ItemModel:
    settings = results_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


@cache
def ratings_recorder() -> RatingsRecorder:
    return RatingsRecorder(DynamoRatingStore(_item()), now=_now)


@cache
def ratings_service() -> RatingsService:
    item = _item()
    return RatingsService(
        DynamoRatingStore(item),
        DynamoAccountStore(item, partial(game_result, item)),
        tags=MainTags(DynamoClubStore(item)),
    )


@cache
def public_fairness_reader() -> "PublicFairness":
    """A game's public fairness page (issue 32's trusted dice), read by the boards function.
    Its game model and views load with its first request, off the boards' cold start."""
    from yamb_service.game.dynamo import DynamoGameRepository  # noqa: PLC0415
    from yamb_service.game.fairness_page import PublicFairness  # noqa: PLC0415

    games = DynamoGameRepository(_item())
    return PublicFairness(lambda game_id: games.load(game_id).session)


def forget() -> None:
    """Every service built here made again at its next use (tests point it at another table)."""
    for built in (_item, ratings_recorder, ratings_service, public_fairness_reader):
        built.cache_clear()
