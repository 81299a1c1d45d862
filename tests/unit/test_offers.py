"""The token offers' catalogue (E4): what is on sale when, and who a purchase is for."""

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from yamb.economy.errors import EconomyError
from yamb.economy.offers import (
    CATALOGUE,
    Offer,
    check_catalogue,
    check_gift,
    find_offer,
    offers_on_sale,
)

WINTER = Offer(
    "promo-test",
    "promotion",
    "Test promotion",
    1200,
    499,
    valid_from=datetime(2026, 12, 15, tzinfo=UTC),
    valid_until=datetime(2027, 1, 7, tzinfo=UTC),
    regular_price_cents=999,
)
PACK = Offer("pack-test", "pack", "500 tokens", 500, 499)
GIFT = Offer("gift-test", "gift", "500 tokens as a gift", 500, 499)
TEST_CATALOGUE = (PACK, GIFT, WINTER)


def test_catalogue_shipped_is_valid() -> None:
    # given the catalogue as configured / then every line passes the checks
    assert check_catalogue(CATALOGUE) == CATALOGUE
    assert {offer.kind for offer in CATALOGUE} == {"pack", "gift", "promotion"}
    assert any(offer.is_free for offer in CATALOGUE)


def test_find_offer_returns_a_pack_on_sale_at_any_time() -> None:
    # when a pack is looked up / then it is found, with its price and tokens
    offer = find_offer("pack-test", datetime(2020, 1, 1, tzinfo=UTC), TEST_CATALOGUE)
    assert (offer.tokens, offer.price_cents, offer.currency) == (500, 499, "eur")


def test_find_offer_unknown_id_is_unknown_offer() -> None:
    # when an id that is not in the catalogue is looked up / then it is refused
    with pytest.raises(EconomyError) as refused:
        find_offer("pack-nope", datetime(2026, 12, 20, tzinfo=UTC), TEST_CATALOGUE)
    assert (refused.value.code, refused.value.field) == ("unknown_offer", "offerId")


@pytest.mark.parametrize(
    ("moment", "code"),
    [
        (datetime(2026, 12, 14, 23, 59, 59, tzinfo=UTC), "offer_not_started"),
        (datetime(2027, 1, 7, tzinfo=UTC), "offer_expired"),
        (datetime(2027, 3, 1, tzinfo=UTC), "offer_expired"),
    ],
)
def test_find_offer_promotion_out_of_its_window_refused(moment: datetime, code: str) -> None:
    # when a promotion is looked up before its start or from its end on / then it is refused
    with pytest.raises(EconomyError) as refused:
        find_offer("promo-test", moment, TEST_CATALOGUE)
    assert (refused.value.code, refused.value.field) == (code, "offerId")


@pytest.mark.parametrize(
    "moment", [datetime(2026, 12, 15, tzinfo=UTC), datetime(2027, 1, 6, 23, 59, tzinfo=UTC)]
)
def test_find_offer_promotion_in_its_window_found(moment: datetime) -> None:
    # when a promotion is looked up from its first moment to just before its end / then found
    assert find_offer("promo-test", moment, TEST_CATALOGUE) == WINTER


def test_offers_on_sale_lists_promotions_in_their_window_only() -> None:
    # when the offers on sale are listed before, during and after the promotion
    before = offers_on_sale(datetime(2026, 12, 1, tzinfo=UTC), TEST_CATALOGUE)
    during = offers_on_sale(datetime(2026, 12, 20, tzinfo=UTC), TEST_CATALOGUE)
    after = offers_on_sale(datetime(2027, 2, 1, tzinfo=UTC), TEST_CATALOGUE)

    # then the packs are always there, the promotion only during its window
    assert before == after == [PACK, GIFT]
    assert during == [PACK, GIFT, WINTER]


def test_check_gift_a_pack_is_for_the_buyer() -> None:
    # when a pack is bought without a recipient / then it is for the buyer
    assert check_gift(PACK, "ana", None) == "ana"


def test_check_gift_a_gift_pack_is_for_its_recipient() -> None:
    assert check_gift(GIFT, "ana", "ben") == "ben"


@pytest.mark.parametrize(
    ("offer", "recipient", "code"),
    [
        (GIFT, "ana", "gift_to_self"),
        (GIFT, None, "bad_request"),
        (PACK, "ben", "bad_request"),
        (WINTER, "ben", "bad_request"),
    ],
)
def test_check_gift_refuses_self_no_recipient_or_a_recipient_of_a_pack(
    offer: Offer, recipient: str | None, code: str
) -> None:
    # when a gift pack is for the buyer or for nobody, or a pack names a recipient
    with pytest.raises(EconomyError) as refused:
        check_gift(offer, "ana", recipient)

    # then it is refused, about giftTo
    assert (refused.value.code, refused.value.field) == (code, "giftTo")


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        (replace(PACK, offer_id="gift-test"), "used twice"),
        (replace(PACK, price_cents=0), "only a promotion may be free"),
        (replace(PACK, price_cents=-1), "negative"),
        (replace(PACK, currency="EUR"), "lower case"),
        (replace(PACK, currency="euro"), "three letters"),
        (replace(PACK, tokens=0), "amount"),
        (replace(WINTER, valid_until=None), "valid_from and valid_until"),
        (replace(PACK, valid_until=datetime(2027, 1, 1, tzinfo=UTC)), "only a promotion"),
        (replace(WINTER, valid_until=WINTER.valid_from), "before"),
    ],
)
def test_check_catalogue_refuses_a_wrong_line(bad: Offer, problem: str) -> None:
    # given a catalogue with one wrong line / when it is checked / then that line is named
    with pytest.raises(ValueError, match=problem) as refused:
        check_catalogue((GIFT, bad))
    assert repr(bad.offer_id) in str(refused.value)


def test_free_promotion_is_free_and_a_pack_is_not() -> None:
    free = replace(WINTER, price_cents=0)
    assert free.is_free and not PACK.is_free
    assert check_catalogue((free,)) == (free,)
