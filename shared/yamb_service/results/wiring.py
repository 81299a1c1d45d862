"""Builds the results services from the function's settings, once, on first use: no client is
made at import."""

from datetime import datetime
from functools import cache, partial
from typing import Any

from botocore.config import Config

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.clubs.tags import ClubMates, MainTags
from yamb_service.common import clock
from yamb_service.common.config import PrizeSettings, prize_settings, results_settings
from yamb_service.common.dynamo import ItemModel, botocore_session, item_model
from yamb_service.competition.wiring import ratings_service
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.result_dynamo import game_result
from yamb_service.push.invoke import pusher
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.results.service import PrizeService, ResultsRecorder, ResultsService


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


@cache
def _item() -> ItemModel:
    settings = results_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


def _accounts() -> DynamoAccountStore:
    return DynamoAccountStore(_item(), partial(game_result, _item()))


@cache
def results_recorder() -> ResultsRecorder:
    return ResultsRecorder(DynamoResultsStore(_item()), _accounts(), now=_now)


@cache
def results_service() -> ResultsService:
    item = _item()
    clubs = DynamoClubStore(item)
    return ResultsService(
        DynamoResultsStore(item),
        _accounts(),
        now=_now,
        tags=MainTags(clubs),
        club_mates=ClubMates(clubs),
        ratings=lambda player: ratings_service().of_player(player),
    )


def _lambda_client(settings: PrizeSettings) -> Any:
    return botocore_session(_item()).create_client(
        "lambda",
        region_name=settings.aws_region,
        endpoint_url=settings.aws_endpoint_url,
        config=Config(retries={"mode": "standard", "max_attempts": 4}, read_timeout=5),
    )


@cache
def prize_service() -> PrizeService:
    settings = prize_settings()
    return PrizeService(
        DynamoResultsStore(_item()),
        DynamoWalletStore(_item()),
        _accounts(),
        now=_now,
        pusher=pusher(settings.push_function_name, partial(_lambda_client, settings)),
    )
