"""Builds the clubs' service from the function's settings, once, on first use: no client is
made at import."""

from collections.abc import Callable
from datetime import datetime
from functools import cache, partial

from yamb.protocol import Frame

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs.board import ClubBoardService
from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.clubs.reward import ClubRewardService
from yamb_service.clubs.service import ClubsService
from yamb_service.common import clock
from yamb_service.common.config import clubs_settings
from yamb_service.common.dynamo import ItemModel, botocore_session, item_model
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.edge.notifier import ApiGatewayNotifier
from yamb_service.game.result_dynamo import game_result
from yamb_service.progression.tasks.dynamo import DynamoTasksStore
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.social.blocks.dynamo import DynamoBlocks


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


def board_on(item: ItemModel, now: Callable[[], datetime] = _now) -> ClubBoardService:
    return ClubBoardService(store=DynamoClubStore(item), rows=DynamoResultsStore(item), now=now)


def clubs_on(
    item: ItemModel,
    now: Callable[[], datetime] = _now,
    tell: Callable[[str, Frame], object] = lambda player_id, frame: None,
) -> ClubsService:
    """The clubs' service on a table; `now` is the clock (a job run as of a chosen moment),
    `tell` sends a frame to a player's live connection."""
    return ClubsService(
        store=DynamoClubStore(item),
        wallets=DynamoWalletStore(item),
        profiles=DynamoAccountStore(item, partial(game_result, item)),
        blocks=DynamoBlocks(item),
        now=now,
        rescore=board_on(item, now).recompute,
        tell=tell,
    )


def teller(item: ItemModel, endpoint: str, region: str) -> Callable[[str, Frame], bool]:
    """Sends a frame to a player's live connection through API Gateway's management API (the
    client made at the first frame); False when they have none."""
    store = DynamoClubStore(item)
    notifier = ApiGatewayNotifier(
        lambda: botocore_session(item).create_client(
            "apigatewaymanagementapi", region_name=region, endpoint_url=endpoint
        )
    )

    def tell(player_id: str, frame: Frame) -> bool:
        connection = store.connections([player_id]).get(player_id)
        return connection is not None and notifier.send(connection, frame)

    return tell


def reward_on(item: ItemModel, now: Callable[[], datetime] = _now) -> ClubRewardService:
    return ClubRewardService(
        store=DynamoClubStore(item),
        wallets=DynamoWalletStore(item),
        claimed=DynamoTasksStore(item).claimed_counts,
        now=now,
    )


def clubs_service_at(moment: datetime) -> ClubsService:
    """The clubs' service as of `moment` (the daily job's chosen "now")."""
    return clubs_on(_item(), lambda: moment)


@cache
def _item() -> ItemModel:
    settings = clubs_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


@cache
def clubs_service() -> ClubsService:
    settings = clubs_settings()
    endpoint = settings.connections_endpoint
    if endpoint is None:
        return clubs_on(_item())
    return clubs_on(_item(), tell=teller(_item(), endpoint, settings.aws_region))


@cache
def club_board() -> ClubBoardService:
    return board_on(_item())


def forget() -> None:
    """Every service built here, and the settings, made again at their next use (tests, and
    the local stack, which points the functions at another table)."""
    clubs_settings.cache_clear()
    for built in (_item, clubs_service, club_board):
        built.cache_clear()
