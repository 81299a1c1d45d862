"""Builds the game service from the function's settings, once per execution environment, on
first use: no AWS client is made at import, each is made when a request first needs it, and all
come from one botocore session (boto3 itself is not imported: its import alone costs about a
third of a cold start)."""

import json
from collections.abc import Callable, Iterable
from functools import cache, partial
from typing import Any

from botocore.config import Config
from yamb.dice import SecureDice

from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.common import clock
from yamb_service.common.config import service_settings
from yamb_service.common.dynamo import botocore_session, item_model
from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
from yamb_service.edge.notifier import ApiGatewayNotifier
from yamb_service.game.deal_dynamo import DynamoTournamentsOver
from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
from yamb_service.game.service import GameService
from yamb_service.game.throttle import ConnectionThrottle
from yamb_service.game.timers import StepFunctionsTimers
from yamb_service.push.invoke import pusher
from yamb_service.social.blocks.dynamo import DynamoBlocks
from yamb_service.social.chats.dynamo import DynamoChatStore
from yamb_service.social.fairplay.dynamo import DynamoFairplayStore
from yamb_service.social.invitations.dynamo import DynamoInvitationStore
from yamb_service.social.stores import SocialStores


@cache
def game_service() -> GameService:
    settings = service_settings()
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)

    def client(service: str, endpoint_url: str | None) -> Callable[[], Any]:
        # Botocore's standard retries (throttling, 5xx, with backoff), and short timeouts: a
        # frame or a timer request that cannot go out fails the invocation's step, not the
        # invocation's whole time budget.
        config = Config(
            retries={"mode": "standard", "max_attempts": 4}, connect_timeout=2, read_timeout=5
        )
        return lambda: botocore_session(item).create_client(
            service, region_name=settings.aws_region, endpoint_url=endpoint_url, config=config
        )

    return GameService(
        games=DynamoGameRepository(item),
        players=DynamoPlayerRepository(item),
        notifier=ApiGatewayNotifier(
            client("apigatewaymanagementapi", settings.connections_endpoint)
        ),
        timers=StepFunctionsTimers(
            client("stepfunctions", settings.aws_endpoint_url),
            lane_machine_arn=settings.lane_state_machine_arn,
            wake_machine_arn=settings.wake_state_machine_arn,
        ),
        dice=SecureDice(),
        now=clock.now,  # the local stack sets its own clock: yamb_service.common.clock
        throttle=ConnectionThrottle(
            burst=settings.throttle_burst, per_second=settings.throttle_per_second
        ),
        wardrobes=DynamoWardrobeStore(item),
        reminders=_reminders(item, client) if settings.mail_from else None,
        pusher=pusher(settings.push_function_name, client("lambda", settings.aws_endpoint_url)),
        social=_social(item, client("lambda", settings.aws_endpoint_url)),
        ratings=_SeatRatings(item),
        tournaments=DynamoTournamentsOver(item),
    )


class _SeatRatings:
    """The ratings' store, its module imported with the lobby's first list, not at the game
    function's start."""

    def __init__(self, item: Any) -> None:
        self._item = item
        self._store: Any = None

    def seat_ratings(self, wanted: Iterable[tuple[str, str]]) -> Any:
        if self._store is None:
            from yamb_service.competition.dynamo import DynamoRatingStore  # noqa: PLC0415

            self._store = DynamoRatingStore(self._item)
        return self._store.seat_ratings(wanted)


def _social(item: Any, lambdas: Callable[[], Any]) -> SocialStores:
    from yamb_service.accounts.dynamo import DynamoAccountStore  # noqa: PLC0415
    from yamb_service.game.result_dynamo import game_result  # noqa: PLC0415

    return SocialStores(
        chats=DynamoChatStore(item),
        invitations=DynamoInvitationStore(item),
        blocks=DynamoBlocks(item),
        profiles=DynamoAccountStore(item, partial(game_result, item)),
        fairplay=DynamoFairplayStore(item),
        ban=_ban(lambdas),
        clubs=DynamoClubStore(item),
    )


def _ban(lambdas: Callable[[], Any]) -> Callable[[str, str], None] | None:
    """Fair play's ban (the third yellow card), handed to the accounts' jobs function, which
    alone may disable an account and sign it out everywhere."""
    function = service_settings().account_jobs_function_name
    if not function:
        return None

    def ban(player_id: str, reason: str) -> None:
        payload = json.dumps({"task": "ban", "playerId": player_id, "reason": reason})
        lambdas().invoke(FunctionName=function, InvocationType="Event", Payload=payload)

    return ban


def _reminders(item: Any, client: Callable[[str, str | None], Callable[[], Any]]) -> Any:
    """The clock function's return reminders (A8): the accounts' store and SES, both made (and
    their modules imported) on the first reminder, not at the function's start."""
    settings = service_settings()

    @cache
    def profiles() -> Any:
        from yamb_service.accounts.dynamo import DynamoAccountStore  # noqa: PLC0415
        from yamb_service.game.result_dynamo import game_result  # noqa: PLC0415

        return DynamoAccountStore(item, partial(game_result, item))

    @cache
    def mailer() -> Any:
        from yamb_service.accounts.mailer import SesMailer  # noqa: PLC0415

        return SesMailer(
            client("ses", settings.aws_endpoint_url),
            sender=settings.mail_from or "",
        )

    from yamb_service.game.reminders import MailedReminders  # noqa: PLC0415 - the clock only

    return MailedReminders(profiles, mailer, settings.web_base_url)
