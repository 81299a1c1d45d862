"""Tokens for money over the HTTP API (docs/economy.md): the offers on sale, a checkout for the
signed-in player, and Stripe's webhook (no authorizer: Stripe signs it, the SDK verifies it)."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

import base64
from datetime import datetime
from typing import Annotated, Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry
from yamb.economy.offers import Offer
from yamb_service.common.config import payment_settings
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.economy.payments.service import WebhookRefusedError
from yamb_service.economy.payments.wiring import now, payment_service
from yamb_service.edge.http_api import (
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
    resolve,
)

app = HttpApi()
routes = Routes(
    app,
    statuses={
        "bad_request": 400,
        "gift_to_self": 400,
        "unknown_player": 404,
        "unknown_offer": 404,
        "offer_not_started": 409,
        "offer_expired": 410,
        "key_reused": 409,
        "busy": 503,
        "payment_provider_unavailable": 503,
        "bad_signature": 400,
        "bad_event": 400,
    },
)
_Id = Annotated[str, Field(min_length=1, max_length=128)]


class _Message(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class CheckoutRequest(_Message):
    offer_id: _Id
    gift_to: str | None = Field(
        default=None, max_length=64, description="a gift pack's recipient: their nickname"
    )


class OfferView(_Message):
    offer_id: str
    kind: str
    name: str
    tokens: int
    price_cents: int
    currency: str
    regular_price_cents: int | None
    valid_from: datetime | None
    valid_until: datetime | None

    @classmethod
    def of(cls, offer: Offer) -> "OfferView":
        return cls(
            offer_id=offer.offer_id,
            kind=offer.kind,
            name=offer.name,
            tokens=offer.tokens,
            price_cents=offer.price_cents,
            currency=offer.currency,
            regular_price_cents=offer.regular_price_cents,
            valid_from=offer.valid_from,
            valid_until=offer.valid_until,
        )


class OffersView(_Message):
    offers: list[OfferView]


class CreditView(_Message):
    tokens: int
    balance: int
    debt: int


class CheckoutView(_Message):
    """A paid offer: the checkout page to open; a free promotion: what was credited."""

    offer_id: str
    url: str | None = None
    session_id: str | None = None
    credited: CreditView | None = None


class ReceivedView(_Message):
    received: bool = True
    handled: str
    # Why a payment was refused (handled: refused): a code, then words.
    reason: str | None = None


def _raw_body() -> bytes:
    """The body as Stripe sent it (its signature is over these bytes)."""
    event = app.current_event
    body = event.get("body") or ""
    return base64.b64decode(body) if event.get("isBase64Encoded") else str(body).encode()


def _credit(entry: LedgerEntry) -> CreditView:
    return CreditView(tokens=entry.amount, balance=entry.balance, debt=entry.debt)


@routes.get("/offers", "The token offers on sale", OffersView, public=True)
def offers() -> Response[str]:
    on_sale = payment_service().offers(now())
    return json_reply(200, OffersView(offers=[OfferView.of(offer) for offer in on_sale]))


@routes.post(
    "/me/checkout",
    "A checkout of an offer (201: the page to pay on; 200: a free promotion, credited)",
    CheckoutView,
    status=201,
    request=CheckoutRequest,
    statuses=(200,),
    parameters=(
        Parameter(
            "Idempotency-Key",
            "The same key answers the same checkout session (Stripe's idempotency key).",
            location="header",
        ),
    ),
)
def checkout() -> Response[str]:
    request = body(app.current_event, CheckoutRequest)
    shop = payment_settings().shop_url
    result = payment_service().checkout(
        player_id(app.current_event),
        request.offer_id,
        now(),
        request.gift_to,
        # Stripe puts the session's id in place of {CHECKOUT_SESSION_ID}.
        success_url=f"{shop}?checkout=success&session_id={{CHECKOUT_SESSION_ID}}",
        cancel_url=f"{shop}?checkout=cancelled",
        request_key=app.current_event.headers.get("idempotency-key"),
    )
    if result.entry is not None:
        view = CheckoutView(offer_id=result.offer.offer_id, credited=_credit(result.entry))
        return json_reply(200, view)
    view = CheckoutView(
        offer_id=result.offer.offer_id, url=result.url, session_id=result.session_id
    )
    return json_reply(201, view)


@routes.post(
    "/webhooks/stripe",
    "Stripe's events (signed: the Stripe-Signature header)",
    ReceivedView,
    public=True,
    parameters=(Parameter("Stripe-Signature", "Stripe's signature.", location="header"),),
)
def stripe_webhook() -> Response[str]:
    signature = app.current_event.headers.get("stripe-signature")
    result = payment_service().webhook(_raw_body(), signature, now())
    if result.handled == "refused":
        # Paid and not credited: an operator refunds it (docs/economy.md).
        logger.warning("stripe payment refused", event_type=result.event_type, reason=result.reason)
    else:
        logger.info("stripe webhook", event_type=result.event_type, handled=result.handled)
    return json_reply(200, ReceivedView(handled=result.handled, reason=result.reason))


# ---------------------------------------------------------------------- errors


@on_error(app, WebhookRefusedError)
def webhook_refused(error: WebhookRefusedError) -> Response[str]:
    logger.warning("stripe webhook refused", code=error.code, reason=str(error))
    return error_reply(400, error.code, str(error))


@on_error(app, EconomyError)
def economyerror_reply(error: EconomyError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    status = routes.statuses.get(error.code, 400)
    return error_reply(status, error.code, error.text, error.field)


add_common_handlers(app)  # a malformed body, busy, no route; a failure answers 500, which
# Stripe delivers again: its keys make that safe.


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
