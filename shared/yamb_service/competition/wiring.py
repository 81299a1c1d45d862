"""Builds the ratings' services from the function's settings, once, on first use: no client is
made at import."""

import json
from collections.abc import Callable
from datetime import datetime
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs.dynamo import DynamoClubStore
from yamb_service.clubs.tags import MainTags
from yamb_service.common import clock
from yamb_service.common.config import results_settings
from yamb_service.common.dynamo import ItemModel, botocore_session, item_model
from yamb_service.common.observability import logger
from yamb_service.competition.dynamo import DynamoRatingStore
from yamb_service.competition.service import RatingsRecorder, RatingsService
from yamb_service.game.result_dynamo import game_result

if TYPE_CHECKING:
    from yamb_service.competition.announcements import TournamentAnnouncer
    from yamb_service.competition.seasons import SeasonService
    from yamb_service.competition.tournament_ports import TournamentTables
    from yamb_service.competition.tournaments import TournamentService
    from yamb_service.game.fairness_page import PublicFairness


def _now() -> datetime:
    return clock.now()  # the local stack replaces the clock: looked up at each call


@cache
def table_item() -> ItemModel:
    settings = results_settings()
    return item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)


@cache
def ratings_recorder() -> RatingsRecorder:
    return RatingsRecorder(DynamoRatingStore(table_item()), now=_now)


@cache
def ratings_service() -> RatingsService:
    item = table_item()
    return RatingsService(
        DynamoRatingStore(item),
        DynamoAccountStore(item, partial(game_result, item)),
        tags=MainTags(DynamoClubStore(item)),
    )


@cache
def public_fairness_reader() -> "PublicFairness":
    """A game's public fairness page (issue 32's trusted dice), read by the boards function.
    Its game model and views load with its first request, off the boards' cold start."""
    from yamb_service.game.deal_dynamo import DynamoTournamentsOver  # noqa: PLC0415
    from yamb_service.game.dynamo import DynamoGameRepository  # noqa: PLC0415
    from yamb_service.game.fairness_page import PublicFairness  # noqa: PLC0415

    games = DynamoGameRepository(table_item())
    return PublicFairness(
        lambda game_id: games.load(game_id).session, DynamoTournamentsOver(table_item())
    )


def _no_tables() -> "TournamentTables":
    raise RuntimeError("only the tournaments job makes tables (competition.jobs_wiring)")


@cache
def tournament_service() -> "TournamentService":
    from yamb_service.competition.tournament_dynamo import DynamoTournamentStore  # noqa: PLC0415
    from yamb_service.competition.tournaments import TournamentService  # noqa: PLC0415
    from yamb_service.economy.wallet_dynamo import DynamoWalletStore  # noqa: PLC0415

    item = table_item()
    return TournamentService(
        DynamoTournamentStore(item), DynamoWalletStore(item), _no_tables, nudge=_nudge(item)
    )


def _nudge(item: ItemModel) -> "Callable[[str], None]":
    """A run of one tournament asked of the tournaments' job, asynchronously (the results
    function, as a tournament's game ends); nothing where no job is named."""
    settings = results_settings()
    function = settings.tournaments_jobs_function_name
    if not function:
        return lambda tournament_id: None
    client: list[Any] = []

    def nudge(tournament_id: str) -> None:
        try:
            if not client:
                client.append(
                    botocore_session(item).create_client(
                        "lambda", region_name=settings.aws_region,
                        endpoint_url=settings.aws_endpoint_url,
                    )
                )  # fmt: skip
            payload = json.dumps({"job": "run", "tournament": tournament_id}).encode()
            client[0].invoke(FunctionName=function, InvocationType="Event", Payload=payload)
        except Exception:
            # The minute's run pairs them a little later.
            logger.exception("tournament run not asked", tournament_id=tournament_id)

    return nudge


class Operators:
    def __init__(self, profiles: DynamoAccountStore) -> None:
        self._profiles = profiles

    def is_operator(self, player_id: str) -> bool:
        profile = self._profiles.get(player_id)
        return profile is not None and profile.operator


@cache
def operators() -> Operators:
    item = table_item()
    return Operators(DynamoAccountStore(item, partial(game_result, item)))


@cache
def tournament_announcer() -> "TournamentAnnouncer":
    """The planning job's mail (its function has the game service's settings: SES, the web
    client's address)."""
    from yamb_service.accounts.mailer import SesMailer  # noqa: PLC0415
    from yamb_service.common.config import service_settings  # noqa: PLC0415
    from yamb_service.common.dynamo import botocore_session  # noqa: PLC0415
    from yamb_service.competition.announcements import TournamentAnnouncer  # noqa: PLC0415

    settings = service_settings()
    item = table_item()
    profiles = DynamoAccountStore(item, partial(game_result, item))
    mailer = SesMailer(
        lambda: botocore_session(item).create_client(
            "ses", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url
        ),
        sender=settings.mail_from or "",
    )
    return TournamentAnnouncer(
        DynamoRatingStore(item),
        lambda: profiles,
        lambda: mailer,
        settings.web_base_url,
    )


@cache
def season_service() -> "SeasonService":
    from yamb_service.competition.season_dynamo import DynamoSeasonStore  # noqa: PLC0415
    from yamb_service.competition.seasons import SeasonService  # noqa: PLC0415

    item = table_item()
    profiles = DynamoAccountStore(item, partial(game_result, item))
    return SeasonService(DynamoSeasonStore(item), DynamoRatingStore(item), lambda: profiles, _now)


def forget() -> None:
    """Every service built here made again at its next use (tests point it at another table)."""
    for built in (table_item, ratings_recorder, ratings_service, public_fairness_reader,
                  tournament_service, operators, tournament_announcer, season_service):  # fmt: skip
        built.cache_clear()
