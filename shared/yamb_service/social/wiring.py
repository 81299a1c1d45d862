"""Builds the social services from the function's settings, once, on first use: no client is
made at import."""

from datetime import datetime
from functools import cache, partial

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock
from yamb_service.common.config import social_settings
from yamb_service.common.dynamo import ItemModel, item_model
from yamb_service.game.result_dynamo import game_result
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.social.blocks.dynamo import DynamoBlocks
from yamb_service.social.players.dynamo import DynamoPlayerIndex, DynamoPresenceReader
from yamb_service.social.players.service import PlayersService


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


@cache
def _item() -> ItemModel:
    settings = social_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


def players_on(item: ItemModel) -> PlayersService:
    return PlayersService(
        index=DynamoPlayerIndex(item),
        presence=DynamoPresenceReader(item),
        profiles=DynamoAccountStore(item, partial(game_result, item)),
        favorites=DynamoResultsStore(item),
        blocks=DynamoBlocks(item),
        now=_now,
    )


@cache
def players_service() -> PlayersService:
    return players_on(_item())
