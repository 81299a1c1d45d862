"""What a nickname change costs (A5): 100, 200, 400, 1000, then 1000 more each time; and how
long a player waits between two changes."""

from datetime import datetime, timedelta

from yamb.accounts.errors import AccountError
from yamb.i18n import Text

NICKNAME_CHANGE_INTERVAL = timedelta(days=7)
_FIRST_PRICES = (100, 200, 400, 1000)
_STEP_AFTER = 1000


def nickname_change_price(changes_made: int) -> int:
    """The price of the next change after `changes_made` paid ones."""
    if changes_made < 0:
        raise ValueError("changes_made cannot be negative")
    if changes_made < len(_FIRST_PRICES):
        return _FIRST_PRICES[changes_made]
    return _FIRST_PRICES[-1] + _STEP_AFTER * (changes_made - len(_FIRST_PRICES) + 1)


def next_change_at(last_change: datetime | None) -> datetime | None:
    """From when the next change may be made (None: now)."""
    return None if last_change is None else last_change + NICKNAME_CHANGE_INTERVAL


def check_change_allowed(
    *, changes_made: int, last_change: datetime | None, tokens: int, now: datetime
) -> int:
    """The price to pay now, or the AccountError that refuses the change."""
    allowed_at = next_change_at(last_change)
    if allowed_at is not None and now < allowed_at:
        raise AccountError(
            Text(
                "a nickname can change once every {days} days: the next change is possible from "
                "{allowed_at}",
                days=NICKNAME_CHANGE_INTERVAL.days,
                allowed_at=allowed_at.isoformat(),
            ),
            code="nickname_too_soon",
            field="nickname",
        )
    price = nickname_change_price(changes_made)
    if tokens < price:
        raise AccountError(
            Text(
                "this change costs {price} tokens and the balance is {tokens}",
                price=price,
                tokens=tokens,
            ),
            code="not_enough_tokens",
            field="nickname",
        )
    return price
