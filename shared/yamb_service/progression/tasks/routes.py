"""The weekly tasks' routes (E6) of progression's HTTP API (functions/progression)."""

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter
from yamb.progression.task_messages import ClaimRequest

from yamb_service.edge.http_api import json_reply
from yamb_service.progression.wiring import task_service

router = APIGatewayHttpRouter()  # type: ignore[no-untyped-call]  # powertools leaves it untyped


def _player_id() -> str:
    return str(router.current_event.request_context.authorizer.get_lambda["playerId"])


@router.get("/me/tasks")
def tasks() -> Response[str]:
    return json_reply(200, task_service().view(_player_id()))


@router.post("/me/tasks/<task_id>/claim")
def claim(task_id: str) -> Response[str]:
    body = router.current_event.decoded_body
    request = ClaimRequest.model_validate_json(body) if body else ClaimRequest()
    return json_reply(200, task_service().claim(_player_id(), task_id, request.week))
