"""The local stack's stand-in for the payment provider's page (docs/economy.md, "On the local
stack"): Stripe cannot be reached from here, so a checkout answers `payment_provider_unavailable`
and the web client shows what would happen instead; its "simulate the payment" button asks
``POST /_local/pay`` (devstack.web) to deliver what Stripe would send once the player paid: a
``checkout.session.completed`` event, signed with the local webhook secret by Stripe's own SDK,
to the stack's ``POST /webhooks/stripe``. The webhook route then does all the work, exactly as
deployed (the catalogue's price, the recipient, the key ``stripe:paid:<session>``), so a
simulated payment is credited once per client key, like a real one once per session.
"""

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import stripe
from yamb.economy.errors import EconomyError
from yamb.economy.offers import find_offer

__all__ = ["PaymentRefusedError", "SimulatedPayment", "checkout_completed", "deliver"]

WEBHOOK_PATH = "/webhooks/stripe"


class PaymentRefusedError(Exception):
    """The simulation cannot be made: `status` and a sentence for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class SimulatedPayment:
    buyer: str  # player ids
    recipient: str
    offer_id: str
    key: str  # the page's key: one session, so one credit, per key


def checkout_completed(payment: SimulatedPayment, now: datetime) -> str:
    """The event Stripe sends when the session is paid, as JSON (the offer's own price)."""
    try:
        offer = find_offer(payment.offer_id, now)
    except EconomyError as error:
        raise PaymentRefusedError(
            404 if error.code == "unknown_offer" else 409, str(error)
        ) from error
    session = f"cs_local_{payment.buyer[:8]}_{payment.key}"
    event = {
        "id": f"evt_local_{payment.key}",
        "object": "event",
        "type": "checkout.session.completed",
        "data": {
            "object": {
                "id": session,
                "object": "checkout.session",
                "payment_status": "paid",
                "payment_intent": f"pi_local_{payment.buyer[:8]}_{payment.key}",
                "amount_total": offer.price_cents,
                "currency": offer.currency,
                "metadata": {
                    "yamb_player": payment.buyer,
                    "yamb_recipient": payment.recipient,
                    "yamb_offer": offer.offer_id,
                },
            }
        },
    }
    return json.dumps(event)


def deliver(http_url: str, body: str, secret: str) -> dict[str, Any]:
    """Posts `body` to the stack's webhook, signed as Stripe signs; its JSON answer."""
    signature = stripe.WebhookSignature.generate_signature_header(body, secret)
    request = urllib.request.Request(
        f"{http_url}{WEBHOOK_PATH}",
        data=body.encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Stripe-Signature": signature},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            found: dict[str, Any] = json.loads(answer.read())
            return found
    except urllib.error.HTTPError as error:
        raise PaymentRefusedError(error.code, error.read().decode(errors="replace")) from error
