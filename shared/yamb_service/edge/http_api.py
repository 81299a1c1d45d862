"""What every HTTP API function answers alike: a JSON reply, the error body
(`{"error": {"code", "message", "field"}}`), and the refusals each maps the same way (a body
that fails its model, a busy table, no such route, a failure of ours)."""

from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ValidationError
from yamb.accounts.messages import ErrorDetail, ErrorView

from yamb_service.common.observability import logger
from yamb_service.game.ports import ServiceBusyError


def json_reply(status: int, model: BaseModel) -> Response[str]:
    """A JSON answer; never cached (a wallet, an account, a link's state are the player's)."""
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=model.model_dump_json(by_alias=True),
        headers={"Cache-Control": "no-store"},
    )


def error_reply(status: int, code: str, message: str, field: str | None = None) -> Response[str]:
    return json_reply(status, ErrorView(error=ErrorDetail(code=code, message=message, field=field)))


def _invalid_request(error: ValidationError) -> Response[str]:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or None
    message = f"{field}: {first['msg']}" if field else first["msg"]
    logger.info("request refused", code="bad_request", field=field)
    return error_reply(400, "bad_request", message, field)


def _busy(error: ServiceBusyError) -> Response[str]:
    return error_reply(503, "busy", "the server is busy: try again in a moment")


def _not_found(error: Exception) -> Response[str]:
    return error_reply(404, "not_found", "no such route")


def _failed(error: Exception) -> Response[str]:
    logger.exception("request failed")
    return error_reply(500, "internal", "something went wrong on our side: try again later")


def add_common_handlers(app: APIGatewayHttpResolver) -> None:
    """The refusals every function answers alike (a function's own errors it maps itself)."""
    app.exception_handler(ValidationError)(_invalid_request)
    app.exception_handler(ServiceBusyError)(_busy)
    app.not_found(_not_found)
    app.exception_handler(Exception)(_failed)


def resolve(app: APIGatewayHttpResolver, event: dict[str, Any], context: LambdaContext) -> Any:
    """The request answered, logged with the player the authorizer named (if any)."""
    player = ((event.get("requestContext") or {}).get("authorizer") or {}).get("lambda") or {}
    if "playerId" in player:
        logger.append_keys(player_id=player["playerId"])
    return app.resolve(event, context)
