"""The edge of the functions: API Gateway WebSocket events and client frames in, validated."""

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from yamb.protocol import CLIENT_ACTIONS, ClientAction

from yamb_service.caller import Caller

MAX_ECHOED_REQUEST_ID = 64


class BadFrameError(Exception):
    def __init__(self, message: str, request_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.request_id = request_id


class _AuthorizerContext(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    player_id: str = Field(alias="playerId", min_length=1)


class _RequestContext(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    connection_id: str = Field(alias="connectionId", min_length=1)
    route_key: str = Field(alias="routeKey")
    authorizer: _AuthorizerContext


class WebSocketEvent(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    request_context: _RequestContext = Field(alias="requestContext")
    body: str | None = None

    @property
    def caller(self) -> Caller:
        context = self.request_context
        return Caller(player_id=context.authorizer.player_id, connection_id=context.connection_id)


def parse_event(event: dict[str, Any]) -> WebSocketEvent:
    return WebSocketEvent.model_validate(event)


def _echoable(request_id: object) -> str | None:
    """A bad frame's requestId is echoed so the client can match the error, but only when it
    is a short string: the error frame must stay small whatever the client sent."""
    if isinstance(request_id, str) and len(request_id) <= MAX_ECHOED_REQUEST_ID:
        return request_id
    return None


def parse_action(body: str | None) -> ClientAction:
    """The client frame as one of the protocol's actions, or BadFrameError saying what is wrong."""
    try:
        data = json.loads(body or "")
    except json.JSONDecodeError:
        raise BadFrameError("a frame is a JSON object with an action") from None
    request_id = data.get("requestId") if isinstance(data, dict) else None
    try:
        return CLIENT_ACTIONS.validate_python(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in issue['loc']) or 'frame'}: {issue['msg']}"
            for issue in error.errors()
        )
        raise BadFrameError(problems, _echoable(request_id)) from None
