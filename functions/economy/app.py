"""The wallet's HTTP API (docs/economy.md): the balance and the ledger, premium for tokens (for
oneself or as a gift), token gifts and cosmetics (E5). Each route parses its request into a
model, calls one method of the economy service and maps the answer or the error to a reply. A
change needs an `Idempotency-Key` header: the same key repeats a request without applying it
twice."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
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
from yamb_service.edge.http_api import (
    IDEMPOTENCY_KEY,
    HttpApi,
    Parameter,
    Response,
    Routes,
    add_common_handlers,
    body,
    error_reply,
    json_reply,
    on_error,
    player_id,
    query_int,
    resolve,
)

app = HttpApi()
routes = Routes(
    app,
    statuses={
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
    },
)
_KEYED = (IDEMPOTENCY_KEY,)


def _key() -> str:
    return app.current_event.headers.get("idempotency-key") or ""


@routes.get("/me/wallet", "The balance, the debt and premium", WalletView)
def wallet() -> Response[str]:
    service = economy_service()
    balance, until = service.wallet(player_id(app.current_event))
    premium = until is not None and until > service.now()
    return json_reply(
        200,
        WalletView(
            balance=balance.balance, debt=balance.debt, premium_until=until, premium=premium
        ),
    )


@routes.get(
    "/me/ledger",
    "The ledger, newest first, a page at a time",
    LedgerView,
    parameters=(
        Parameter("limit", "Entries on the page (20 when absent).", type="integer"),
        Parameter("before", "The page before this entry (nextBefore).", type="integer"),
    ),
)
def ledger() -> Response[str]:
    event = app.current_event
    limit = query_int(event, "limit") or 20
    entries = economy_service().ledger(player_id(event), limit, query_int(event, "before"))
    older = entries[-1].seq if len(entries) == limit and entries[-1].seq > 1 else None
    return json_reply(
        200, LedgerView(entries=[EntryView.of(e) for e in entries], next_before=older)
    )


@routes.get("/me/premium", "Premium's offers for tokens", PremiumOffersView)
def premium_offers() -> Response[str]:
    service = economy_service()
    player = player_id(app.current_event)
    _, until = service.wallet(player)
    offers = [
        PremiumOfferView(days=o.days, price=o.price, ends_at=o.ends_at)
        for o in service.premium_offers(player)
    ]
    return json_reply(200, PremiumOffersView(premium_until=until, offers=offers))


@routes.post(
    "/me/premium",
    "Premium bought for tokens, for oneself or as a gift",
    PremiumBoughtView,
    status=201,
    request=PremiumRequest,
    parameters=_KEYED,
)
def buy_premium() -> Response[str]:
    request = body(app.current_event, PremiumRequest)
    entry, until = economy_service().buy_premium(
        player_id(app.current_event), request.days, _key(), gift_to=request.gift_to
    )
    return json_reply(201, PremiumBoughtView(entry=EntryView.of(entry), premium_until=until))


@routes.post(
    "/me/gifts",
    "Tokens given to another player",
    GiftView,
    status=201,
    request=GiftRequest,
    parameters=_KEYED,
)
def gift_tokens() -> Response[str]:
    request = body(app.current_event, GiftRequest)
    entry = economy_service().gift_tokens(
        player_id(app.current_event), request.nickname, request.amount, _key()
    )
    return json_reply(201, GiftView(entry=EntryView.of(entry)))


@routes.get("/cosmetics", "The cosmetics on sale", CatalogueView, public=True)
def cosmetics_catalogue() -> Response[str]:
    return json_reply(200, CatalogueView.now(), cache=None)  # public, as it always was


@routes.get("/me/cosmetics", "The player's cosmetics and what is equipped", WardrobeView)
def wardrobe() -> Response[str]:
    service = economy_service()
    return json_reply(
        200, WardrobeView.of(service.wardrobe(player_id(app.current_event)), service.now())
    )


@routes.post(
    "/me/cosmetics",
    "A cosmetic bought for tokens",
    CosmeticBoughtView,
    status=201,
    request=BuyCosmeticRequest,
    parameters=_KEYED,
)
def buy_cosmetic() -> Response[str]:
    request = body(app.current_event, BuyCosmeticRequest)
    service = economy_service()
    entry, after = service.buy_cosmetic(player_id(app.current_event), request.item_id, _key())
    return json_reply(
        201,
        CosmeticBoughtView(
            entry=EntryView.of(entry), wardrobe=WardrobeView.of(after, service.now())
        ),
    )


@routes.patch(
    "/me/cosmetics/equipped",
    "A cosmetic equipped (or taken off)",
    WardrobeView,
    request=EquipRequest,
)
def equip_cosmetic() -> Response[str]:
    request = body(app.current_event, EquipRequest)
    service = economy_service()
    after = service.equip_cosmetic(player_id(app.current_event), request.kind, request.item_id)
    return json_reply(200, WardrobeView.of(after, service.now()))


# ---------------------------------------------------------------------- errors


@on_error(app, EconomyError)
def economy_error(error: EconomyError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    status = routes.statuses.get(error.code, 400)
    return error_reply(status, error.code, error.text, error.field)


add_common_handlers(app)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
