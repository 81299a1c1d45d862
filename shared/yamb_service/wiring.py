"""Builds the game service from the function's settings, once per execution environment,
on first use (no AWS client is created at import)."""

from datetime import UTC, datetime
from functools import cache

import boto3
from yamb.dice import SecureDice

from yamb_service.config import service_settings
from yamb_service.deadlines import StepFunctionsScheduler
from yamb_service.notifier import ApiGatewayNotifier
from yamb_service.repository import DynamoGameRepository, DynamoPlayerRepository, item_model
from yamb_service.service import GameService


def utc_now() -> datetime:
    return datetime.now(UTC)


@cache
def game_service() -> GameService:
    settings = service_settings()
    session = boto3.session.Session(region_name=settings.aws_region)
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    return GameService(
        games=DynamoGameRepository(item),
        players=DynamoPlayerRepository(item),
        notifier=ApiGatewayNotifier(
            session.client("apigatewaymanagementapi", endpoint_url=settings.connections_endpoint)
        ),
        deadlines=StepFunctionsScheduler(
            session.client("stepfunctions", endpoint_url=settings.aws_endpoint_url),
            settings.deadline_state_machine_arn,
        ),
        dice=SecureDice(),
        now=utc_now,
    )
