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
* **Any order.** Who gets the tokens and which offer was bought travel with the payment itself,
  as metadata we set at checkout on the session and on its PaymentIntent (`yamb_player`,
  `yamb_recipient`, `yamb_offer`); no event needs another event's write. A refund or a dispute
  reads the PaymentIntent's metadata (from the charge, else from Stripe) and debits the
  recipient with `allow_debt`; when it comes first, the balance goes into debt, and the
  completion that follows pays that debt back: the net is the same in any order, and a
  completion delivered again after a refund finds its key and credits nothing more.
* **The catalogue decides.** How many tokens a payment is worth is the server's own catalogue's
  answer for the offer id, never a number in the metadata; a completion is credited only when
  Stripe's `amount_total` and `currency` are the catalogue's price for that offer and its
  recipient is an account that can receive. Anything else is refused: nothing changes, a
  warning names the reason, and the answer is 200 (`handled: refused`, with the reason), as a
  retry would refuse it again (any other status makes Stripe deliver it again for days); an
  operator refunds such a payment from Stripe's dashboard.
* **The provider's answers.** A bad or missing signature, or a timestamp outside the tolerance
  (300 s), is WebhookRefusedError (400, nothing changed); an event of a type we do not handle,
  or not about one of our payments, answers 200 with nothing changed (any other status makes
  Stripe retry it for days). A failure of ours (DynamoDB, Stripe unreachable for a lookup)
  raises, the function answers 500 and Stripe delivers again later: the keys make that safe.
  A signed body that is not a JSON object with a type and a data object is refused too (400).
"""

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import stripe
from yamb.accounts.profile import AccountStatus
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry, Reason, client_key
from yamb.economy.offers import (
    CATALOGUE,
    Offer,
    check_gift,
    find_offer,
    offer_by_id,
    offers_on_sale,
)
from yamb.i18n import Text

from yamb_service.economy.ports import Accounts, Change, WalletStore

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

type Handled = Literal["credited", "debited", "ignored", "refused"]


class WebhookRefusedError(Exception):
    """The webhook is not Stripe's, or is too old (`bad_signature`), or is signed but is no
    event (`bad_event`): answered 400, nothing changed."""

    def __init__(self, message: str, code: str = "bad_signature") -> None:
        super().__init__(message)
        self.code = code


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
    # Why a payment was refused (`handled == "refused"`): a code, then words.
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class _Payment:
    """Whose payment it is (our metadata), and the catalogue's offer it bought (or None: an
    offer id the catalogue does not have)."""

    buyer: str
    recipient: str
    offer_id: str
    offer: Offer | None

    def share(self, amount: int) -> int:
        """The tokens `amount` of the payment bought, at the catalogue's price (a partial
        refund: rounded down)."""
        if self.offer is None or self.offer.price_cents <= 0 or amount <= 0:
            return 0
        return min(self.offer.tokens, self.offer.tokens * amount // self.offer.price_cents)


def _metadata(buyer: str, recipient: str, offer: Offer) -> dict[str, str]:
    # No tokens or amount: what a payment is worth is the catalogue's, looked up by the offer.
    return {"yamb_player": buyer, "yamb_recipient": recipient, "yamb_offer": offer.offer_id}


def _strings(metadata: Mapping[str, Any], *keys: str) -> tuple[str, ...] | None:
    values = tuple(metadata.get(key) for key in keys)
    if all(isinstance(value, str) and value for value in values):
        return values  # type: ignore[return-value]
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
        accounts: Accounts,
        client: Callable[[], stripe.StripeClient],
        webhook_secret: Callable[[], str],
        catalogue: tuple[Offer, ...] = CATALOGUE,
        tolerance: int = WEBHOOK_TOLERANCE_SECONDS,
    ) -> None:
        self._wallets = wallets
        self._accounts = accounts
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
        credit). `gift_to` names a gift pack's recipient by nickname, as every route that names
        another player does. EconomyError when the offer cannot be bought; nothing is changed
        then.

        `request_key` (the client's Idempotency-Key) goes to Stripe as its idempotency key: a
        request sent again within the hour gets the same session, not a second one."""
        offer = find_offer(offer_id, now, self._catalogue)
        recipient = check_gift(offer, player_id, gift_to)
        if gift_to is not None and recipient != player_id:
            recipient = self._accounts.recipient(player_id, gift_to, field="giftTo")
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
                Text(
                    "the key '{request_key}' was used for another checkout", request_key=request_key
                ),
                code="key_reused",
                field="key",
            ) from error
        except stripe.StripeError as error:
            LOG.warning("checkout session not created: %r", error)
            raise EconomyError(
                Text("the payment provider cannot be reached: try again in a moment"),
                code="payment_provider_unavailable",
            ) from error
        if not session.url:
            raise EconomyError(
                Text("the payment provider gave no checkout page"),
                code="payment_provider_unavailable",
            )
        return CheckoutResult(offer, recipient, url=session.url, session_id=session.id)

    # -------------------------------------------------------------- the webhook

    def webhook(self, payload: bytes, signature_header: str | None, now: datetime) -> WebhookResult:
        """One delivery of Stripe's webhook: verified with Stripe's SDK, then applied once."""
        try:
            stripe.WebhookSignature.verify_header(
                payload.decode("utf-8", "replace"),
                signature_header or "",
                self._webhook_secret(),
                tolerance=self._tolerance,
            )
        except stripe.SignatureVerificationError as error:
            raise WebhookRefusedError(str(error).split(";")[0][:200]) from None
        # Signed: then it must be an event, a JSON object with a type and a data object.
        try:
            data = json.loads(payload)
        except ValueError as error:
            raise WebhookRefusedError(f"the body is not JSON: {error}"[:200], "bad_event") from None
        inner = data.get("data") if isinstance(data, dict) else None
        obj = inner.get("object") if isinstance(inner, dict) else None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise WebhookRefusedError(
                "the body is not an event: a JSON object with a type", "bad_event"
            )
        if not isinstance(obj, dict):
            raise WebhookRefusedError("the event has no data object", "bad_event")
        event_type = str(data["type"])
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
        payment = self._payment(session.get("metadata"))
        session_id = _id(session.get("id"))
        if payment is None or session_id is None:
            LOG.warning("checkout session %s has no purchase of ours", session_id)
            return WebhookResult("ignored", event_type)
        if session.get("payment_status") not in _PAID_STATUSES:
            # An asynchronous payment method: async_payment_succeeded follows (same key).
            return WebhookResult("ignored", event_type)
        refusal = self._refusal(payment, session)
        if refusal is not None:
            LOG.warning("checkout session %s refused: %s", session_id, refusal)
            return WebhookResult("refused", event_type, reason=refusal)
        assert payment.offer is not None  # _refusal checked it
        detail = _id(session.get("payment_intent")) or session_id
        change = Change(
            payment.recipient,
            payment.offer.tokens,
            "purchase",
            counterparty=None if payment.recipient == payment.buyer else payment.buyer,
            detail=detail,
        )
        entries = self._wallets.apply(f"stripe:paid:{session_id}", [change], now)
        return WebhookResult("credited", event_type, tuple(entries))

    def _refunded(self, event_type: str, charge: Mapping[str, Any], now: datetime) -> WebhookResult:
        payment = self._payment_of(charge)
        if payment is None or not self._debitable(payment):
            return WebhookResult("ignored", event_type)
        entries: list[LedgerEntry] = []
        for refund in self._refunds_of(charge):
            refund_id = _id(refund.get("id"))
            tokens = payment.share(_int(refund.get("amount")))
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
        tokens = 0 if payment is None else payment.share(_int(dispute.get("amount")))
        if payment is None or dispute_id is None or tokens < 1 or not self._debitable(payment):
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
        tokens = 0 if payment is None else payment.share(_int(obj.get("amount")))
        if payment is None or obj_id is None or tokens < 1 or not self._debitable(payment):
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
        payment = self._payment(obj.get("metadata"))
        if payment is not None:
            return payment
        intent = obj.get("payment_intent")
        if isinstance(intent, Mapping):
            payment = self._payment(intent.get("metadata"))
            if payment is not None:
                return payment
        intent_id = _id(intent)
        if intent_id is None:
            LOG.warning("%s %s has no payment intent: not ours", obj.get("object"), _id(obj))
            return None
        found = self._client().v1.payment_intents.retrieve(intent_id).to_dict()
        payment = self._payment(found.get("metadata"))
        if payment is None:
            LOG.warning("payment intent %s has no purchase of ours", intent_id)
        return payment

    def _payment(self, metadata: Any) -> _Payment | None:
        """Our metadata's buyer, recipient and offer, the offer looked up in the catalogue; None
        when the metadata is not ours."""
        if not isinstance(metadata, Mapping):
            return None
        found = _strings(metadata, "yamb_player", "yamb_recipient", "yamb_offer")
        if found is None:
            return None
        buyer, recipient, offer_id = found
        return _Payment(buyer, recipient, offer_id, offer_by_id(offer_id, self._catalogue))

    def _refusal(self, payment: _Payment, session: Mapping[str, Any]) -> str | None:
        """Why a paid session is not credited, or None: the offer is not the catalogue's, the
        amount or currency paid is not its price, or the recipient cannot receive."""
        offer = payment.offer
        if offer is None or offer.is_free:
            return f"unknown_offer: no paid offer {payment.offer_id[:40]!r} in the catalogue"
        paid = session.get("amount_total")
        currency = session.get("currency")
        if type(paid) is not int or paid != offer.price_cents:
            return (
                f"amount_mismatch: {offer.offer_id} costs {offer.price_cents}, "
                f"the session says {str(paid)[:20]}"
            )
        if not isinstance(currency, str) or currency.lower() != offer.currency:
            return (
                f"currency_mismatch: {offer.offer_id} is priced in {offer.currency}, "
                f"the session says {str(currency)[:10]}"
            )
        profile = self._accounts.profile(payment.recipient)
        if profile is None or profile.status in _GONE:
            return f"unknown_player: the recipient {payment.recipient[:64]!r} has no account"
        return None

    def _debitable(self, payment: _Payment) -> bool:
        """Whether a refund or dispute of the payment may debit its recipient: an offer of the
        catalogue, and an account that exists (a payment refused for either was never
        credited; a refund of it takes nothing)."""
        if payment.offer is None:
            LOG.warning("payment of unknown offer %r: nothing debited", payment.offer_id[:40])
            return False
        if self._accounts.profile(payment.recipient) is None:
            LOG.warning("payment to unknown player %r: nothing debited", payment.recipient[:64])
            return False
        return True

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


def _int(value: Any) -> int:
    """An amount Stripe sent (an integer), or 0."""
    return value if type(value) is int else 0
