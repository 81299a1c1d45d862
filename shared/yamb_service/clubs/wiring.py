"""Builds the clubs' service from the function's settings, once, on first use: no client is
made at import."""

from datetime import datetime
from functools import cache, partial

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.clubs.service import ClubsService
from yamb_service.common import clock
from yamb_service.common.config import clubs_settings
from yamb_service.common.dynamo import ItemModel, item_model
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.result_dynamo import game_result
from yamb_service.social.blocks.dynamo import DynamoBlocks


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


def clubs_on(item: ItemModel) -> ClubsService:
    return ClubsService(
        store=DynamoClubStore(item),
        wallets=DynamoWalletStore(item),
        profiles=DynamoAccountStore(item, partial(game_result, item)),
        blocks=DynamoBlocks(item),
        now=_now,
    )


@cache
def clubs_service() -> ClubsService:
    settings = clubs_settings()
    return clubs_on(item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url))
