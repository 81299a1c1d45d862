"""Token offers for money (E4): the catalogue as data, and which offer may be bought when.

Three kinds: a pack (tokens for a price, for oneself), a gift pack (the same, bought for another
player) and a promotion (a pack on sale between two moments, discounted or free). The price is
in the currency's smallest unit (cents) and is what the payment provider charges; a price of 0
is credited at once, without the provider. Pure: the payment service
(yamb_service.economy.payments.service) looks offers up here and charges them.
"""

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from yamb.economy.errors import EconomyError
from yamb.economy.ledger import check_amount
from yamb.i18n import Text

type OfferKind = Literal["pack", "gift", "promotion"]


@dataclass(frozen=True, slots=True)
class Offer:
    offer_id: str
    kind: OfferKind
    name: str
    tokens: int
    price_cents: int
    currency: str = "eur"
    # A promotion's window: on sale from valid_from (included) until valid_until (excluded).
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    # What the same tokens cost outside the promotion (shown struck through), if anything.
    regular_price_cents: int | None = None

    @property
    def is_gift(self) -> bool:
        return self.kind == "gift"

    @property
    def is_free(self) -> bool:
        return self.price_cents == 0

    def on_sale(self, now: datetime) -> bool:
        started = self.valid_from is None or self.valid_from <= now
        return started and (self.valid_until is None or now < self.valid_until)


def _utc(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


# Configuration: one line an offer. An id is never reused for another content (a payment's
# metadata names it).
CATALOGUE: tuple[Offer, ...] = (
    Offer("pack-500", "pack", "500 tokens", 500, 499),
    Offer("pack-1200", "pack", "1,200 tokens", 1200, 999),
    Offer("pack-2500", "pack", "2,500 tokens", 2500, 1999),
    Offer("pack-6500", "pack", "6,500 tokens", 6500, 4999),
    Offer("gift-500", "gift", "500 tokens as a gift", 500, 499),
    Offer("gift-1200", "gift", "1,200 tokens as a gift", 1200, 999),
    Offer(
        "promo-winter-2026",
        "promotion",
        "Winter: 1,200 tokens for the price of 500",
        1200,
        499,
        valid_from=_utc(2026, 12, 15),
        valid_until=_utc(2027, 1, 7),
        regular_price_cents=999,
    ),
    Offer(
        "promo-welcome-2027",
        "promotion",
        "Welcome: 200 tokens, free",
        200,
        0,
        valid_from=_utc(2026, 12, 1),
        valid_until=_utc(2027, 7, 1),
    ),
)


def check_catalogue(catalogue: tuple[Offer, ...]) -> tuple[Offer, ...]:
    """The catalogue, or ValueError naming the first line that is wrong."""
    seen: set[str] = set()
    for offer in catalogue:
        problem = None
        if offer.offer_id in seen:
            problem = "the id is used twice"
        elif not (len(offer.currency) == 3 and offer.currency.isalpha()):
            problem = "a currency is three letters (ISO 4217)"
        elif offer.currency != offer.currency.lower():
            problem = "a currency is written in lower case, as the provider does"
        elif offer.price_cents < 0 or (offer.price_cents == 0 and offer.kind != "promotion"):
            problem = "only a promotion may be free; no price is negative"
        elif offer.kind == "promotion" and (offer.valid_from is None or offer.valid_until is None):
            problem = "a promotion has valid_from and valid_until"
        elif offer.kind != "promotion" and (offer.valid_from or offer.valid_until):
            problem = "only a promotion has validity dates"
        elif (
            offer.valid_from is not None
            and offer.valid_until is not None
            and not offer.valid_from < offer.valid_until
        ):
            problem = "valid_from comes before valid_until"
        else:
            try:
                check_amount(offer.tokens, "tokens")
            except EconomyError as error:
                problem = error.message
        if problem is not None:
            raise ValueError(f"offer {offer.offer_id!r}: {problem}")
        seen.add(offer.offer_id)
    return catalogue


def offers_on_sale(now: datetime, catalogue: tuple[Offer, ...] = CATALOGUE) -> list[Offer]:
    """What may be bought at `now`, in catalogue order."""
    return [offer for offer in catalogue if offer.on_sale(now)]


def offer_by_id(offer_id: str, catalogue: tuple[Offer, ...] = CATALOGUE) -> Offer | None:
    """The catalogue's offer of that id, on sale or not (a payment made while it was), or None."""
    return next((offer for offer in catalogue if offer.offer_id == offer_id), None)


def find_offer(offer_id: str, now: datetime, catalogue: tuple[Offer, ...] = CATALOGUE) -> Offer:
    """The offer if it may be bought at `now`; EconomyError unknown_offer, offer_not_started
    or offer_expired (field `offerId`) if not."""
    for offer in catalogue:
        if offer.offer_id != offer_id:
            continue
        if offer.valid_from is not None and now < offer.valid_from:
            raise EconomyError(
                Text(
                    "{name} is on sale from {starts}",
                    name=offer.name,
                    starts=offer.valid_from.isoformat(),
                ),
                code="offer_not_started",
                field="offerId",
            )
        if offer.valid_until is not None and now >= offer.valid_until:
            raise EconomyError(
                Text(
                    "{name} ended at {ended}",
                    name=offer.name,
                    ended=offer.valid_until.isoformat(),
                ),
                code="offer_expired",
                field="offerId",
            )
        return offer
    raise EconomyError(
        Text("there is no offer '{offer_id}'", offer_id=offer_id[:40]),
        code="unknown_offer",
        field="offerId",
    )


def check_gift(offer: Offer, buyer: str, recipient: str | None) -> str:
    """Who gets the tokens: the buyer, or the recipient of a gift pack (required there and
    refused elsewhere; never the buyer). Whether the recipient's account exists is the
    service's check."""
    if not offer.is_gift:
        if recipient is not None:
            raise EconomyError(
                Text("{name} is not a gift: buy a gift pack for another player", name=offer.name),
                code="bad_request",
                field="giftTo",
            )
        return buyer
    if recipient is None:
        raise EconomyError(
            Text("a gift pack names the player it is for"), code="bad_request", field="giftTo"
        )
    if recipient == buyer:
        raise EconomyError(
            Text("a gift pack is for another player: buy a pack for yourself"),
            code="gift_to_self",
            field="giftTo",
        )
    return recipient


check_catalogue(CATALOGUE)
