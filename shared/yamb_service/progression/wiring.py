"""Builds the progression services (tasks, referral, badges) from the function's settings, once,
on first use: no client is made at import. The accounts' functions build theirs on their own
table (`referrals_on`, `pioneer_enrolment`)."""

from collections.abc import Callable
from datetime import datetime
from functools import cache, partial

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs.wiring import reward_on
from yamb_service.common import clock
from yamb_service.common.config import progression_settings
from yamb_service.common.dynamo import ItemModel, item_model
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
from yamb_service.game.result_dynamo import game_result
from yamb_service.progression.badges.dynamo import DynamoBadgeStore
from yamb_service.progression.badges.service import BadgeService
from yamb_service.progression.referral.dynamo import DynamoReferralStore
from yamb_service.progression.referral.service import ReferralService
from yamb_service.progression.tasks.dynamo import DynamoTasksStore
from yamb_service.progression.tasks.service import TaskService
from yamb_service.results.dynamo import DynamoResultsStore


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


@cache
def _item() -> ItemModel:
    settings = progression_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


def _accounts(item: ItemModel) -> DynamoAccountStore:
    return DynamoAccountStore(item, partial(game_result, item))


def tasks_on(item: ItemModel, now: Callable[[], datetime] = _now) -> TaskService:
    """The tasks with the clubs' part (E6): the club group's counter, the club reward."""
    clubs = reward_on(item, now)
    return TaskService(
        DynamoTasksStore(item),
        DynamoWalletStore(item),
        _accounts(item),
        now=now,
        club_mates=clubs.mates,
        on_claimed=clubs.after_claim,
    )


@cache
def task_service() -> TaskService:
    return tasks_on(_item())


def _badges_on(item: ItemModel, now: Callable[[], datetime] = _now) -> BadgeService:
    return BadgeService(
        DynamoBadgeStore(item),
        DynamoWalletStore(item),
        _accounts(item),
        now=now,
        results=DynamoResultsStore(item),
        wardrobes=DynamoWardrobeStore(item),
    )


@cache
def badge_service() -> BadgeService:
    return _badges_on(_item())


def _referrals_on(
    item: ItemModel, now: Callable[[], datetime], web_base_url: str
) -> ReferralService:
    return ReferralService(
        DynamoReferralStore(item),
        DynamoResultsStore(item),
        _accounts(item),
        DynamoWalletStore(item),
        now=now,
        web_base_url=web_base_url,
    )


@cache
def referral_service() -> ReferralService:
    return _referrals_on(_item(), _now, progression_settings().web_base_url)


def referrals_on(item: ItemModel, now: Callable[[], datetime]) -> ReferralService:
    """The referral as the accounts' functions use it (a code checked and taken at
    registration, the reward of a verification): on their table, no link to make."""
    return _referrals_on(item, now, web_base_url="")


def pioneer_enrolment(item: ItemModel) -> Callable[[str, datetime], object]:
    """What a verification calls (AccountService.on_verified), on the accounts' table."""
    return _badges_on(item).enrol_pioneer


def forget() -> None:
    """Every service built here, and the settings, made again at their next use (tests, and
    the local stack, which points the functions at another table)."""
    progression_settings.cache_clear()
    for built in (_item, task_service, badge_service, referral_service):
        built.cache_clear()
