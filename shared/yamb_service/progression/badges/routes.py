"""The badge routes (E8) of progression's HTTP API (functions/progression): the player's own
badges (paying what is due, as a login does) and another player's levels."""

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

from yamb_service.edge.http_api import json_reply
from yamb_service.progression.wiring import badge_service

router = APIGatewayHttpRouter()  # type: ignore[no-untyped-call]  # powertools leaves it untyped


def _player_id() -> str:
    return str(router.current_event.request_context.authorizer.get_lambda["playerId"])


@router.get("/me/badges")
def my_badges() -> Response[str]:
    return json_reply(200, badge_service().mine(_player_id()))


@router.get("/players/<nickname>/badges")
def player_badges(nickname: str) -> Response[str]:
    return json_reply(200, badge_service().of_player(nickname))
