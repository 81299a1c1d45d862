"""The wallet's one rule (yamb.economy.ledger.apply) and premium's dates (yamb.economy.premium):
pure, no storage."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from yamb.economy import premium
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import Wallet, apply

NOW = datetime(2027, 3, 1, 12, 0, 30, 123456, tzinfo=UTC)


def test_ledger_apply_credit_repays_the_debt_first() -> None:
    # given a wallet that owes 30
    wallet = Wallet(balance=0, debt=30, version=4)

    # when 50 are credited
    after, entry = apply(wallet, 50, reason="purchase", key="k", at=NOW)

    # then 30 repay the debt and 20 reach the balance; the entry says both
    assert (after.balance, after.debt, after.version) == (20, 0, 5)
    assert (entry.seq, entry.balance_change, entry.debt_change) == (5, 20, -30)


def test_ledger_apply_debit_beyond_the_balance_is_refused_or_owed() -> None:
    # given 10 tokens
    wallet = Wallet(balance=10, version=1)

    # when 25 are debited, as a purchase and as a refund
    with pytest.raises(EconomyError) as refused:
        apply(wallet, -25, reason="cosmetic", key="k", at=NOW)
    after, _ = apply(wallet, -25, reason="refund", key="k", at=NOW, allow_debt=True)

    # then the purchase is refused; the refund takes the 10 and owes 15
    assert refused.value.code == "not_enough_tokens"
    assert (after.balance, after.debt) == (0, 15)


@given(
    st.lists(st.tuples(st.integers(-500, 500).filter(bool), st.booleans()), min_size=1, max_size=40)
)
def test_ledger_apply_balance_never_negative_and_entries_sum_to_it(
    changes: list[tuple[int, bool]],
) -> None:
    # given any sequence of credits and debits, some allowed into debt
    wallet = Wallet()
    total = 0
    for amount, allow_debt in changes:
        # when each is applied (a refused one changes nothing)
        try:
            wallet, entry = apply(
                wallet, amount, reason="grant", key="k", at=NOW, allow_debt=allow_debt
            )
        except EconomyError:
            continue
        total += entry.balance_change - entry.debt_change
        # then the balance and the debt are never negative, and the entries sum to what they make
        assert wallet.balance >= 0 and wallet.debt >= 0
        assert not (wallet.balance and wallet.debt)
    assert total == wallet.balance - wallet.debt


def test_premium_extended_from_its_end_or_from_now() -> None:
    # given premium ending in 3 days, and premium that ended yesterday
    running, ended = NOW + timedelta(days=3), NOW - timedelta(days=1)

    # when 7 days are added to each
    # then the first runs on from its end; the second starts now (whole seconds)
    assert premium.extended(running, 7, NOW) == (running + timedelta(days=7)).replace(microsecond=0)
    assert premium.extended(ended, 7, NOW) == NOW.replace(microsecond=0) + timedelta(days=7)
    assert premium.extended(None, 1, NOW) == NOW.replace(microsecond=0) + timedelta(days=1)


def test_premium_offers_are_the_six_durations() -> None:
    # given no premium; when the offers are listed; then 1, 7, 15, 30, 90 and 360 days
    assert [o.days for o in premium.offers(None, NOW)] == [1, 7, 15, 30, 90, 360]
    with pytest.raises(EconomyError) as unknown:
        premium.price_of(2)
    assert unknown.value.code == "unknown_offer"
