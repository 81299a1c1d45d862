"""Builds the reward service from the function's settings, once, on first use."""

from datetime import datetime
from functools import cache

from yamb_service.common import clock
from yamb_service.common.config import economy_settings
from yamb_service.common.dynamo import item_model
from yamb_service.economy.rewards.service import RewardService
from yamb_service.economy.wallet_dynamo import DynamoWalletStore


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


@cache
def reward_service() -> RewardService:
    settings = economy_settings()
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    return RewardService(DynamoWalletStore(item), now=_now)
