"""Builds the social services from the function's settings, once, on first use: no client is
made at import."""

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import cache, partial
from typing import Any

from botocore.config import Config
from yamb.accounts.mail import MailKind
from yamb.accounts.mail_text import compose
from yamb.accounts.profile import Profile

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.accounts.mailer import SesMailer, send_gated
from yamb_service.accounts.ports import Mailer
from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.clubs.tags import MainTags
from yamb_service.clubs.wiring import clubs_on
from yamb_service.common import clock
from yamb_service.common.config import social_settings
from yamb_service.common.dynamo import ItemModel, botocore_session, item_model
from yamb_service.game.result_dynamo import game_result
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.social.blocks.dynamo import DynamoBlocks
from yamb_service.social.chats.dynamo import DynamoChatStore
from yamb_service.social.fairplay.dynamo import DynamoFairplayStore
from yamb_service.social.players.dynamo import DynamoPlayerIndex, DynamoPresenceReader
from yamb_service.social.players.service import PlayersService
from yamb_service.social.reports.dynamo import DynamoReportStore
from yamb_service.social.reports.service import ModerationService


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
        tags=MainTags(DynamoClubStore(item)),
    )


@cache
def fairplay_store() -> DynamoFairplayStore:
    return DynamoFairplayStore(_item())


@cache
def players_service() -> PlayersService:
    return players_on(_item())


def _client(service: str) -> Any:
    settings = social_settings()
    return botocore_session(_item()).create_client(
        service,
        region_name=settings.aws_region,
        endpoint_url=settings.aws_endpoint_url,
        config=Config(retries={"mode": "standard", "max_attempts": 4}, read_timeout=5),
    )


def moderation_on(
    item: ItemModel,
    *,
    mailer: Mailer,
    author_email: str,
    ban: Callable[[str, str], None],
) -> ModerationService:
    accounts = DynamoAccountStore(item, partial(game_result, item))

    def contact(profile: Profile, subject: str, text: str) -> None:
        mail = compose(
            MailKind.CONTACT,
            {"nickname": "Yamb", "subject": subject, "sender": profile.nickname, "message": text},
            "en",
        )
        mailer.send(author_email, replace(mail, reply_to=profile.email))

    return ModerationService(
        reports=DynamoReportStore(item),
        accounts=accounts,
        chats=DynamoChatStore(item),
        now=_now,
        ban=ban,
        mail=lambda profile, to, kind, values: send_gated(mailer, profile, kind, values, to=to),
        contact=contact,
        clubs=clubs_on(item),
    )


@cache
def moderation_service() -> ModerationService:
    settings = social_settings()
    function = settings.account_jobs_function_name

    def ban(player_id: str, reason: str) -> None:
        if not function:
            raise RuntimeError("no accounts' jobs function to hand a ban to")
        payload = json.dumps({"task": "ban", "playerId": player_id, "reason": reason})
        _client("lambda").invoke(FunctionName=function, InvocationType="Event", Payload=payload)

    return moderation_on(
        _item(),
        mailer=SesMailer(lambda: _client("ses"), sender=settings.mail_from),
        author_email=settings.author_email,
        ban=ban,
    )
