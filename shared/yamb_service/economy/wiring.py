"""Builds the economy service from the function's settings, once per execution environment, on
first use: no client is made at import."""

from datetime import datetime
from functools import cache, partial

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock
from yamb_service.common.config import economy_settings
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Accounts
from yamb_service.economy.service import EconomyService
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
from yamb_service.game.result_dynamo import game_result
from yamb_service.progression.badges.dynamo import DynamoBadgeStore


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


@cache
def economy_service() -> EconomyService:
    settings = economy_settings()
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    accounts = DynamoAccountStore(item, partial(game_result, item))
    return EconomyService(
        DynamoWalletStore(item),
        Accounts(profile=accounts.get, nickname_owner=accounts.nickname_owner),
        now=_now,
        wardrobes=DynamoWardrobeStore(item),
        counts=DynamoBadgeStore(item),
    )
