"""Builds the progression services (tasks, referral, badges) from the function's settings, once,
on first use: no client is made at import."""

from datetime import datetime
from functools import cache

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common.config import progression_settings
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game import wiring
from yamb_service.game.dynamo import DynamoGameRepository, ItemModel, item_model
from yamb_service.progression.badges.dynamo import DynamoBadgeStore
from yamb_service.progression.badges.service import BadgeService
from yamb_service.progression.referral.dynamo import DynamoReferralStore
from yamb_service.progression.referral.service import ReferralService
from yamb_service.progression.tasks.dynamo import DynamoTasksStore
from yamb_service.progression.tasks.service import TaskService
from yamb_service.results.dynamo import DynamoResultsStore


def _now() -> datetime:
    return wiring.clock()  # the local stack replaces the clock: looked up at each call


@cache
def _item() -> ItemModel:
    settings = progression_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


def _accounts() -> DynamoAccountStore:
    return DynamoAccountStore(_item(), DynamoGameRepository(_item()).result)


@cache
def task_service() -> TaskService:
    return TaskService(DynamoTasksStore(_item()), DynamoWalletStore(_item()), _accounts(), now=_now)


@cache
def badge_service() -> BadgeService:
    item = _item()
    return BadgeService(DynamoBadgeStore(item), DynamoWalletStore(item), _accounts(), now=_now)


@cache
def referral_service() -> ReferralService:
    item = _item()
    return ReferralService(
        DynamoReferralStore(item),
        DynamoResultsStore(item),
        _accounts(),
        DynamoWalletStore(item),
        now=_now,
        web_base_url=progression_settings().web_base_url,
    )


def forget() -> None:
    """Every service built here, and the settings, made again at their next use (tests, and
    the local stack, which points the functions at another table)."""
    progression_settings.cache_clear()
    for built in (_item, task_service, badge_service, referral_service):
        built.cache_clear()
