"""Tokens for money (E4, docs/economy.md): a Stripe Checkout Session per purchase, and Stripe's
signed webhook credited exactly once per payment, refunds and disputes debited.

The rules:

* **Exactly once.** Every wallet change is one `WalletStore.apply` on a key named after
  the provider's object: `stripe:paid:<checkout session>`, `stripe:refund:<refund>`,
  `stripe:dispute:<dispute>`, and a debit given back (a pending refund that failed, a dispute
  won) `<its key>:reversed`, written after its debit's key so that nothing is paid back that
  was never taken, whichever event comes first. A key already used answers what it did: an
  event delivered twice (one after the other, or at the same moment: one transaction wins, the
  other finds its key) changes nothing more.
* **Any order.** Who gets the tokens and how many travel with the payment itself, as metadata we
  set at checkout on the session and on its PaymentIntent (`yamb_player`, `yamb_recipient`,
  `yamb_offer`, `yamb_tokens`, `yamb_amount`); no event needs another event's write. A refund
  or a dispute reads the PaymentIntent's metadata (from the charge, else from Stripe) and
  debits the recipient with `allow_debt`; when it comes first, the balance goes into debt, and
  the completion that follows pays that debt back: the net is the same in any order, and a
  completion delivered again after a refund finds its key and credits nothing more.
* **The provider's answers.** A bad or missing signature, or a timestamp outside the tolerance
  (300 s), is WebhookRefusedError (400, nothing changed); an event of a type we do not handle,
  or not about one of our payments, answers 200 with nothing changed (any other status makes
  Stripe retry it for days). A failure of ours (DynamoDB, Stripe unreachable for a lookup)
  raises, the function answers 500 and Stripe delivers again later: the keys make that safe.
"""

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import stripe
from yamb.accounts.profile import AccountStatus, Profile
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry, Reason, client_key
from yamb.economy.offers import CATALOGUE, Offer, check_gift, find_offer, offers_on_sale

from yamb_service.economy.ports import Change, WalletStore

LOG = logging.getLogger(__name__)

# Stripe's own default: a signed event older than this is refused (a replay).
WEBHOOK_TOLERANCE_SECONDS = 300
# A Checkout Session lives 30 minutes at least (Stripe's minimum) and 24 hours at most.
CHECKOUT_LIFETIME = timedelta(hours=24)
_MIN_CHECKOUT_LIFETIME = timedelta(minutes=31)
_PAID_STATUSES = ("paid", "no_payment_required")
# Refunds Stripe has made or is making; a failed or canceled one gave nothing back.
_REFUND_STATUSES = ("succeeded", "pending")
# Accounts that can no longer receive anything.
_GONE = (AccountStatus.DELETED, AccountStatus.PURGING)

type Handled = Literal["credited", "debited", "ignored"]


class WebhookRefusedError(Exception):
    """The webhook is not Stripe's, or is too old: answered 400, nothing changed."""


@dataclass(frozen=True, slots=True)
class CheckoutResult:
    """A paid offer's checkout page (`url`, `session_id`), or a free one's credit (`entry`)."""

    offer: Offer
    recipient: str
    url: str | None = None
    session_id: str | None = None
    entry: LedgerEntry | None = None


@dataclass(frozen=True, slots=True)
class WebhookResult:
    handled: Handled
    event_type: str
    entries: tuple[LedgerEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class _Payment:
    """What our metadata on a payment says."""

    buyer: str
    recipient: str
    offer_id: str
    tokens: int
    amount: int  # what was charged, in the currency's smallest unit

    def share(self, amount: int) -> int:
        """The tokens `amount` of the payment bought (a partial refund: rounded down)."""
        if self.amount <= 0:
            return 0
        return min(self.tokens, self.tokens * amount // self.amount)


def _metadata(buyer: str, recipient: str, offer: Offer) -> dict[str, str]:
    return {
        "yamb_player": buyer,
        "yamb_recipient": recipient,
        "yamb_offer": offer.offer_id,
        "yamb_tokens": str(offer.tokens),
        "yamb_amount": str(offer.price_cents),
    }


def _payment(metadata: Any) -> _Payment | None:
    if not isinstance(metadata, Mapping):
        return None
    try:
        return _Payment(
            buyer=str(metadata["yamb_player"]),
            recipient=str(metadata["yamb_recipient"]),
            offer_id=str(metadata["yamb_offer"]),
            tokens=int(metadata["yamb_tokens"]),
            amount=int(metadata["yamb_amount"]),
        )
    except (KeyError, ValueError, TypeError):
        return None


def _id(value: Any) -> str | None:
    """An id, whether Stripe sent it bare or as an expanded object."""
    if isinstance(value, Mapping):
        value = value.get("id")
    return value if isinstance(value, str) and value else None


class PaymentService:
    def __init__(
        self,
        *,
        wallets: WalletStore,
        profiles: Callable[[str], Profile | None],
        client: Callable[[], stripe.StripeClient],
        webhook_secret: Callable[[], str],
        catalogue: tuple[Offer, ...] = CATALOGUE,
        tolerance: int = WEBHOOK_TOLERANCE_SECONDS,
    ) -> None:
        self._wallets = wallets
        self._profiles = profiles
        # Both on first use: reading /offers needs neither the API key nor the secret.
        self._client = client
        self._webhook_secret = webhook_secret
        self._catalogue = catalogue
        self._tolerance = tolerance

    # -------------------------------------------------------------- the shop

    def offers(self, now: datetime) -> list[Offer]:
        return offers_on_sale(now, self._catalogue)

    def checkout(
        self,
        player_id: str,
        offer_id: str,
        now: datetime,
        gift_to: str | None = None,
        *,
        success_url: str,
        cancel_url: str,
        request_key: str | None = None,
    ) -> CheckoutResult:
        """A Checkout Session for the offer (its page's URL), or, for a free promotion, its
        tokens credited at once (once per player and promotion: a repeat answers the same
        credit). EconomyError when the offer cannot be bought; nothing is changed then.

        `request_key` (the client's Idempotency-Key) goes to Stripe as its idempotency key: a
        request sent again within the hour gets the same session, not a second one."""
        offer = find_offer(offer_id, now, self._catalogue)
        recipient = check_gift(offer, player_id, gift_to)
        if recipient != player_id:
            profile = self._profiles(recipient)
            if profile is None or profile.status in _GONE:
                raise EconomyError(
                    "there is no player with this id", code="unknown_player", field="giftTo"
                )
        if offer.is_free:
            (entry,) = self._wallets.apply(
                f"promo:{offer.offer_id}:{player_id}",
                [Change(player_id, offer.tokens, "purchase", detail=offer.offer_id)],
                now,
            )
            return CheckoutResult(offer, recipient, entry=entry)
        metadata = _metadata(player_id, recipient, offer)
        # What the page was opened at counts: a promotion ending meanwhile is still honoured
        # for this session (its metadata), which Stripe keeps open at least 30 minutes.
        # Stripe answers a repeated key only when every parameter is the same: the expiry is
        # worked out from the hour the request is made in, not its second.
        hour = now.replace(minute=0, second=0, microsecond=0)
        expires = hour + CHECKOUT_LIFETIME
        if offer.valid_until is not None:
            shortest = hour + timedelta(hours=1) + _MIN_CHECKOUT_LIFETIME
            expires = min(expires, max(offer.valid_until, shortest))
        options: stripe.RequestOptions = {}
        if request_key is not None:
            # The hour in the key too: sent again in a later hour (other parameters), it makes a
            # new session rather than Stripe's refusal of a key reused with other parameters.
            scoped = client_key(player_id, request_key)
            options["idempotency_key"] = f"checkout:{scoped}:{hour:%Y%m%dT%H}"
        try:
            session = self._client().v1.checkout.sessions.create(
                {
                    "mode": "payment",
                    "line_items": [
                        {
                            "quantity": 1,
                            "price_data": {
                                "currency": offer.currency,
                                "unit_amount": offer.price_cents,
                                "product_data": {"name": offer.name},
                            },
                        }
                    ],
                    "client_reference_id": player_id,
                    "metadata": metadata,
                    "payment_intent_data": {"metadata": metadata},
                    "success_url": success_url,
                    "cancel_url": cancel_url,
                    "expires_at": int(expires.timestamp()),
                },
                options,
            )
        except stripe.IdempotencyError as error:
            raise EconomyError(
                f"the key {request_key!r} was used for another checkout",
                code="key_reused",
                field="key",
            ) from error
        except stripe.StripeError as error:
            LOG.warning("checkout session not created: %r", error)
            raise EconomyError(
                "the payment provider cannot be reached: try again in a moment",
                code="payment_provider_unavailable",
            ) from error
        if not session.url:
            raise EconomyError(
                "the payment provider gave no checkout page",
                code="payment_provider_unavailable",
            )
        return CheckoutResult(offer, recipient, url=session.url, session_id=session.id)

    # -------------------------------------------------------------- the webhook

    def webhook(self, payload: bytes, signature_header: str | None, now: datetime) -> WebhookResult:
        """One delivery of Stripe's webhook: verified with Stripe's SDK, then applied once."""
        try:
            event = stripe.Webhook.construct_event(
                payload, signature_header, self._webhook_secret(), tolerance=self._tolerance
            )
        except stripe.SignatureVerificationError as error:
            raise WebhookRefusedError(str(error).split(";")[0][:200]) from None
        except ValueError as error:  # signed, but not JSON
            raise WebhookRefusedError(f"the body is not an event: {error}") from None
        event_type = str(event.type)
        data = event.to_dict()
        obj = (data.get("data") or {}).get("object") or {}
        match event_type:
            case "checkout.session.completed" | "checkout.session.async_payment_succeeded":
                return self._paid(event_type, obj, now)
            case "charge.refunded":
                return self._refunded(event_type, obj, now)
            case "charge.dispute.created":
                return self._disputed(event_type, obj, now)
            case "refund.failed" | "charge.refund.updated":
                return self._refund_failed(event_type, obj, now)
            case "charge.dispute.closed" | "charge.dispute.funds_reinstated":
                return self._dispute_reversed(event_type, obj, now)
        LOG.info("webhook event %s ignored", event_type)
        return WebhookResult("ignored", event_type)

    def _paid(self, event_type: str, session: Mapping[str, Any], now: datetime) -> WebhookResult:
        payment = _payment(session.get("metadata"))
        session_id = _id(session.get("id"))
        if payment is None or session_id is None:
            LOG.warning("checkout session %s has no purchase of ours", session_id)
            return WebhookResult("ignored", event_type)
        if session.get("payment_status") not in _PAID_STATUSES:
            # An asynchronous payment method: async_payment_succeeded follows (same key).
            return WebhookResult("ignored", event_type)
        detail = _id(session.get("payment_intent")) or session_id
        change = Change(
            payment.recipient,
            payment.tokens,
            "purchase",
            counterparty=None if payment.recipient == payment.buyer else payment.buyer,
            detail=detail,
        )
        entries = self._wallets.apply(f"stripe:paid:{session_id}", [change], now)
        return WebhookResult("credited", event_type, tuple(entries))

    def _refunded(self, event_type: str, charge: Mapping[str, Any], now: datetime) -> WebhookResult:
        payment = self._payment_of(charge)
        if payment is None:
            return WebhookResult("ignored", event_type)
        entries: list[LedgerEntry] = []
        for refund in self._refunds_of(charge):
            refund_id = _id(refund.get("id"))
            tokens = payment.share(int(refund.get("amount") or 0))
            if refund_id is None or refund.get("status") not in _REFUND_STATUSES or tokens < 1:
                continue
            change = Change(
                payment.recipient,
                -tokens,
                "refund",
                allow_debt=True,
                detail=_id(charge.get("payment_intent")) or _id(charge.get("id")),
            )
            entries += self._wallets.apply(f"stripe:refund:{refund_id}", [change], now)
        return WebhookResult("debited" if entries else "ignored", event_type, tuple(entries))

    def _disputed(
        self, event_type: str, dispute: Mapping[str, Any], now: datetime
    ) -> WebhookResult:
        dispute_id = _id(dispute.get("id"))
        payment = self._payment_of(dispute)
        tokens = 0 if payment is None else payment.share(int(dispute.get("amount") or 0))
        if payment is None or dispute_id is None or tokens < 1:
            return WebhookResult("ignored", event_type)
        change = Change(
            payment.recipient,
            -tokens,
            "dispute",
            allow_debt=True,
            detail=_id(dispute.get("payment_intent")) or _id(dispute.get("charge")),
        )
        entries = self._wallets.apply(f"stripe:dispute:{dispute_id}", [change], now)
        return WebhookResult("debited", event_type, tuple(entries))

    def _refund_failed(
        self, event_type: str, refund: Mapping[str, Any], now: datetime
    ) -> WebhookResult:
        """A refund that failed after it was debited (a pending one): the tokens come back."""
        if refund.get("status") != "failed":  # charge.refund.updated says other things too
            return WebhookResult("ignored", event_type)
        return self._given_back(event_type, refund, "refund", "refund_failed", now)

    def _dispute_reversed(
        self, event_type: str, dispute: Mapping[str, Any], now: datetime
    ) -> WebhookResult:
        """A dispute won (or an inquiry closed, or its funds reinstated): its debit comes back;
        a dispute lost keeps it."""
        won = event_type == "charge.dispute.funds_reinstated" or dispute.get("status") in (
            "won",
            "warning_closed",
        )
        if not won:
            return WebhookResult("ignored", event_type)
        return self._given_back(event_type, dispute, "dispute", "dispute_won", now)

    def _given_back(
        self,
        event_type: str,
        obj: Mapping[str, Any],
        kind: Literal["refund", "dispute"],
        reason: Reason,
        now: datetime,
    ) -> WebhookResult:
        """The debit of a refund or dispute (`obj`) given back, once (see `_reversed`)."""
        obj_id = _id(obj.get("id"))
        payment = self._payment_of(obj)
        tokens = 0 if payment is None else payment.share(int(obj.get("amount") or 0))
        if payment is None or obj_id is None or tokens < 1:
            return WebhookResult("ignored", event_type)
        detail = _id(obj.get("payment_intent")) or _id(obj.get("charge"))
        debit = Change(payment.recipient, -tokens, kind, allow_debt=True, detail=detail)
        entries = self._reversed(debit, f"stripe:{kind}:{obj_id}", reason, now)
        return WebhookResult("credited", event_type, tuple(entries))

    def _reversed(
        self, debit: Change, debit_key: str, reason: Reason, now: datetime
    ) -> list[LedgerEntry]:
        """The debit under its own key (nothing when it was made: its key answers), then its
        reversal under one of its own: in whichever order the events come, a debit that was
        never made is never paid back, and each is made once."""
        self._wallets.apply(debit_key, [debit], now)
        credit = Change(debit.player_id, -debit.amount, reason, detail=debit.detail)
        return self._wallets.apply(f"{debit_key}:reversed", [credit], now)

    def _payment_of(self, obj: Mapping[str, Any]) -> _Payment | None:
        """Our metadata of the payment a charge or a dispute is about: the object's own, else
        its PaymentIntent's, asked of Stripe (a StripeError raises: Stripe delivers again)."""
        payment = _payment(obj.get("metadata"))
        if payment is not None:
            return payment
        intent = obj.get("payment_intent")
        if isinstance(intent, Mapping):
            payment = _payment(intent.get("metadata"))
            if payment is not None:
                return payment
        intent_id = _id(intent)
        if intent_id is None:
            LOG.warning("%s %s has no payment intent: not ours", obj.get("object"), _id(obj))
            return None
        found = self._client().v1.payment_intents.retrieve(intent_id).to_dict()
        payment = _payment(found.get("metadata"))
        if payment is None:
            LOG.warning("payment intent %s has no purchase of ours", intent_id)
        return payment

    def _refunds_of(self, charge: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """The charge's refunds: in the event when its API version includes them, else asked
        of Stripe."""
        refunds = charge.get("refunds")
        listed_here = isinstance(refunds, Mapping) and isinstance(refunds.get("data"), list)
        if listed_here and isinstance(refunds, Mapping) and not refunds.get("has_more"):
            return [r for r in refunds["data"] if isinstance(r, Mapping)]
        charge_id = _id(charge.get("id"))
        if charge_id is None:
            return []
        listed = self._client().v1.refunds.list({"charge": charge_id, "limit": 100})
        return [refund.to_dict() for refund in listed.auto_paging_iter()]
