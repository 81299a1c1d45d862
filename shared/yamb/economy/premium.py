"""Premium for tokens (E3): the offers, the end date each would give, extension from the end of
what is already paid, and what premium unlocks (every preset, three slow games)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from yamb.economy.errors import EconomyError
from yamb.i18n import Text

# Days -> tokens: configuration, one line an offer.
PREMIUM_PRICES: dict[int, int] = {1: 20, 7: 100, 15: 180, 30: 300, 90: 750, 360: 2500}


@dataclass(frozen=True, slots=True)
class PremiumOffer:
    days: int
    price: int
    ends_at: datetime  # the end of premium if this offer is bought now


def is_premium(until: datetime | None, now: datetime) -> bool:
    return until is not None and until > now


def extended(until: datetime | None, days: int, now: datetime) -> datetime:
    """Days added to what is left, or from now when nothing is."""
    start = until if is_premium(until, now) and until is not None else now
    # Whole seconds: what is stored (a repeat of the purchase reads it back).
    return start.replace(microsecond=0) + timedelta(days=days)


def price_of(days: int) -> int:
    try:
        return PREMIUM_PRICES[days]
    except KeyError:
        offered = ", ".join(str(d) for d in PREMIUM_PRICES)
        raise EconomyError(
            Text("premium is sold for {offered} days", offered=offered),
            code="unknown_offer",
            field="days",
        ) from None


def offers(until: datetime | None, now: datetime) -> list[PremiumOffer]:
    return [
        PremiumOffer(days=days, price=price, ends_at=extended(until, days, now))
        for days, price in PREMIUM_PRICES.items()
    ]
