"""The wallet's HTTP API (docs/economy.md): the balance and the ledger, premium for tokens (for
oneself or as a gift), token gifts and cosmetics (E5). Each route parses its request into a
model, calls one method of the economy service and maps the answer or the error to a reply. A
change needs an `Idempotency-Key` header: the same key repeats a request without applying it
twice."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

import json
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ValidationError
from yamb.accounts.messages import ErrorDetail, ErrorView
from yamb.economy.errors import EconomyError
from yamb.economy.messages import (
    BuyCosmeticRequest,
    CatalogueView,
    CosmeticBoughtView,
    EntryView,
    EquipRequest,
    GiftRequest,
    GiftView,
    LedgerView,
    PremiumBoughtView,
    PremiumOffersView,
    PremiumOfferView,
    PremiumRequest,
    WalletView,
    WardrobeView,
)
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.economy.wiring import economy_service
from yamb_service.game.ports import ServiceBusyError

app = APIGatewayHttpResolver()

_STATUS = {
    "bad_request": 400,
    "bad_amount": 400,
    "not_enough_tokens": 402,
    "unknown_offer": 404,
    "unknown_player": 404,
    "gift_to_self": 400,
    "key_reused": 409,
    "busy": 503,
    "unknown_item": 404,
    "free_item": 400,
    "already_owned": 409,
    "not_owned": 409,
    "item_expired": 410,
    "wrong_kind": 400,
}


def _json(status: int, model: BaseModel) -> Response[str]:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=model.model_dump_json(by_alias=True),
    )


def _error(status: int, code: str, message: str, field: str | None = None) -> Response[str]:
    return _json(status, ErrorView(error=ErrorDetail(code=code, message=message, field=field)))


def _player_id() -> str:
    return str(app.current_event.request_context.authorizer.get_lambda["playerId"])


def _key() -> str:
    return app.current_event.headers.get("idempotency-key") or ""


def _body[M: BaseModel](model: type[M]) -> M:
    raw = app.current_event.decoded_body or ""
    try:
        data = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        raise EconomyError("the body is not JSON") from None
    return model.model_validate(data)


def _query_int(name: str) -> int | None:
    value = app.current_event.get_query_string_value(name)
    if value is None:
        return None
    if not value.isdigit() or len(value) > 9:
        raise EconomyError(f"{name} is a whole number", field=name)
    return int(value)


@app.get("/me/wallet")
def wallet() -> Response[str]:
    service = economy_service()
    balance, until = service.wallet(_player_id())
    premium = until is not None and until > service.now()
    return _json(
        200,
        WalletView(
            balance=balance.balance, debt=balance.debt, premium_until=until, premium=premium
        ),
    )


@app.get("/me/ledger")
def ledger() -> Response[str]:
    limit = _query_int("limit") or 20
    entries = economy_service().ledger(_player_id(), limit, _query_int("before"))
    older = entries[-1].seq if len(entries) == limit and entries[-1].seq > 1 else None
    return _json(200, LedgerView(entries=[EntryView.of(e) for e in entries], next_before=older))


@app.get("/me/premium")
def premium_offers() -> Response[str]:
    service = economy_service()
    player = _player_id()
    _, until = service.wallet(player)
    offers = [
        PremiumOfferView(days=o.days, price=o.price, ends_at=o.ends_at)
        for o in service.premium_offers(player)
    ]
    return _json(200, PremiumOffersView(premium_until=until, offers=offers))


@app.post("/me/premium")
def buy_premium() -> Response[str]:
    request = _body(PremiumRequest)
    entry, until = economy_service().buy_premium(
        _player_id(), request.days, _key(), gift_to=request.gift_to
    )
    return _json(201, PremiumBoughtView(entry=EntryView.of(entry), premium_until=until))


@app.post("/me/gifts")
def gift_tokens() -> Response[str]:
    request = _body(GiftRequest)
    entry = economy_service().gift_tokens(_player_id(), request.nickname, request.amount, _key())
    return _json(201, GiftView(entry=EntryView.of(entry)))


@app.get("/cosmetics")
def cosmetics_catalogue() -> Response[str]:
    return _json(200, CatalogueView.now())


@app.get("/me/cosmetics")
def wardrobe() -> Response[str]:
    service = economy_service()
    return _json(200, WardrobeView.of(service.wardrobe(_player_id()), service.now()))


@app.post("/me/cosmetics")
def buy_cosmetic() -> Response[str]:
    request = _body(BuyCosmeticRequest)
    service = economy_service()
    entry, after = service.buy_cosmetic(_player_id(), request.item_id, _key())
    return _json(
        201,
        CosmeticBoughtView(
            entry=EntryView.of(entry), wardrobe=WardrobeView.of(after, service.now())
        ),
    )


@app.patch("/me/cosmetics/equipped")
def equip_cosmetic() -> Response[str]:
    request = _body(EquipRequest)
    service = economy_service()
    after = service.equip_cosmetic(_player_id(), request.kind, request.item_id)
    return _json(200, WardrobeView.of(after, service.now()))


# ---------------------------------------------------------------------- errors


@app.exception_handler(EconomyError)
def economy_error(error: EconomyError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    return _error(_STATUS.get(error.code, 400), error.code, error.message, error.field)


@app.exception_handler(ValidationError)
def invalid_request(error: ValidationError) -> Response[str]:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or None
    message = f"{field}: {first['msg']}" if field else first["msg"]
    logger.info("request refused", code="bad_request", field=field)
    return _error(400, "bad_request", message, field)


@app.exception_handler(ServiceBusyError)
def busy(error: ServiceBusyError) -> Response[str]:
    return _error(503, "busy", "the server is busy: try again in a moment")


@app.not_found
def not_found(error: Exception) -> Response[str]:
    return _error(404, "not_found", "no such route")


@app.exception_handler(Exception)
def failed(error: Exception) -> Response[str]:
    logger.exception("request failed")
    return _error(500, "internal", "something went wrong on our side: try again later")


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    player = ((event.get("requestContext") or {}).get("authorizer") or {}).get("lambda") or {}
    if "playerId" in player:
        logger.append_keys(player_id=player["playerId"])
    return app.resolve(event, context)
