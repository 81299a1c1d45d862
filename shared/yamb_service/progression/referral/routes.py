"""The referral routes of progression's HTTP API (functions/progression): the player's code,
link, referrer and invitees; taking a referrer; choosing an invitee's scheme."""

import json
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter
from pydantic import BaseModel
from yamb.progression.errors import ProgressionError
from yamb.progression.referral_messages import ReferrerRequest, SchemeRequest

from yamb_service.edge.http_api import json_reply
from yamb_service.progression.wiring import referral_service

router = APIGatewayHttpRouter()  # type: ignore[no-untyped-call]  # powertools leaves it untyped


def _player_id() -> str:
    return str(router.current_event.request_context.authorizer.get_lambda["playerId"])


def _body[M: BaseModel](model: type[M]) -> M:
    raw = router.current_event.decoded_body or ""
    try:
        data: Any = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        raise ProgressionError("the body is not JSON", code="bad_request") from None
    return model.model_validate(data)


@router.get("/me/referral")
def referral() -> Response[str]:
    return json_reply(200, referral_service().referral(_player_id()))


@router.put("/me/referrer")
def take_referrer() -> Response[str]:
    code = _body(ReferrerRequest).code
    return json_reply(200, referral_service().take_referrer(_player_id(), code))


@router.put("/me/referral/invitees/<nickname>/scheme")
def choose_scheme(nickname: str) -> Response[str]:
    scheme = _body(SchemeRequest).scheme
    service = referral_service()
    return json_reply(200, service.choose_scheme(_player_id(), nickname, scheme, service.now()))
