"""Cosmetics' rules (yamb.economy.cosmetics, E5): the catalogue, buying, extending, equipping and
expiry by time. Pure, no storage."""

from datetime import UTC, datetime, timedelta

import pytest
from yamb.economy import cosmetics
from yamb.economy.cosmetics import CATALOGUE, ITEMS, Item, Wardrobe
from yamb.economy.errors import EconomyError

NOW = datetime(2027, 3, 1, 12, 0, 30, 123456, tzinfo=UTC)
WHOLE = NOW.replace(microsecond=0)


def _refused(call: object, *args: object) -> str:
    with pytest.raises(EconomyError) as refused:
        call(*args)  # type: ignore[operator]
    return refused.value.code


def test_cosmetics_catalogue_has_e5_prices_and_every_kind() -> None:
    # given the catalogue / when its items are grouped by kind
    terms = {(i.kind, i.price, i.days) for i in CATALOGUE if i.kind != "frame"}
    frames = [i for i in CATALOGUE if i.kind == "frame"]

    # then E5's terms hold: avatar 500 for life, dice 60, sheet 90, effects 120 for 30 days
    assert terms == {
        ("avatar", 500, None),
        ("dice_skin", 60, 30),
        ("sheet_skin", 90, 30),
        ("column_effect", 120, 30),
    }
    # and frames are some free, some for life, some for 30 days
    assert {(f.price == 0, f.days) for f in frames} == {(True, None), (False, None), (False, 30)}
    assert len(ITEMS) == len(CATALOGUE)


def test_cosmetics_catalogue_check_refuses_a_price_other_than_e5s() -> None:
    # given a sheet skin at 80 tokens / when the catalogue is checked / then it is refused
    with pytest.raises(ValueError, match="E5"):
        cosmetics._check((Item("sheet-x", "sheet_skin", "X", 80, 30),))
    with pytest.raises(ValueError, match="free"):
        cosmetics._check((Item("frame-x", "frame", "X", 0, 30),))


def test_cosmetics_bought_30_days_item_runs_30_days_then_expires() -> None:
    # given an empty wardrobe / when a dice skin is bought and equipped
    wardrobe = cosmetics.bought(Wardrobe(), "dice-marble", NOW)
    wardrobe = cosmetics.equip(wardrobe, "dice_skin", "dice-marble", NOW)

    # then it is owned for 30 days (whole seconds) and shown until then, not after
    assert wardrobe.owned == {"dice-marble": WHOLE + timedelta(days=30)}
    assert cosmetics.equipped_now(wardrobe, NOW + timedelta(days=29)) == {
        "dice_skin": "dice-marble"
    }
    assert cosmetics.equipped_now(wardrobe, NOW + timedelta(days=30)) == {}


def test_cosmetics_bought_again_extends_from_the_end_while_owned() -> None:
    # given a sheet skin bought 10 days ago
    first = cosmetics.bought(Wardrobe(), "sheet-slate", NOW - timedelta(days=10))

    # when it is bought again now, and again after it has expired
    again = cosmetics.bought(first, "sheet-slate", NOW)
    later = NOW + timedelta(days=100)
    renewed = cosmetics.bought(again, "sheet-slate", later)

    # then the second purchase runs from the first's end, the third from its own moment
    end = (NOW - timedelta(days=10)).replace(microsecond=0) + timedelta(days=30)
    assert again.owned["sheet-slate"] == end + timedelta(days=30)
    assert renewed.owned["sheet-slate"] == later.replace(microsecond=0) + timedelta(days=30)


def test_cosmetics_avatar_is_for_life_and_active_at_once() -> None:
    # given an empty wardrobe / when the own avatar is bought
    wardrobe = cosmetics.bought(Wardrobe(), "own-avatar", NOW)

    # then it is owned for life and already equipped, years later too
    assert wardrobe.owned == {"own-avatar": None}
    assert cosmetics.equipped_now(wardrobe, NOW + timedelta(days=3650)) == {"avatar": "own-avatar"}
    # and it is not bought twice
    assert _refused(cosmetics.bought, wardrobe, "own-avatar", NOW) == "already_owned"


def test_cosmetics_free_frame_needs_no_purchase_and_cannot_be_bought() -> None:
    # given an empty wardrobe / when a free frame is equipped
    wardrobe = cosmetics.equip(Wardrobe(), "frame", "frame-wood", NOW)

    # then it shows, and buying it is refused
    assert cosmetics.equipped_now(wardrobe, NOW) == {"frame": "frame-wood"}
    assert _refused(cosmetics.bought, Wardrobe(), "frame-wood", NOW) == "free_item"


@pytest.mark.parametrize(
    ("kind", "item_id", "code"),
    [
        ("frame", "frame-gold", "not_owned"),
        ("dice_skin", "sheet-slate", "wrong_kind"),
        ("sheet_skin", "sheet-none", "unknown_item"),
        ("column_effect", "effect-glow", "item_expired"),
    ],
)
def test_cosmetics_equip_refused_with_its_code(kind: str, item_id: str, code: str) -> None:
    # given a wardrobe whose column effect ran out yesterday
    wardrobe = Wardrobe(owned={"effect-glow": NOW - timedelta(days=1), "sheet-slate": None})

    # when an item is equipped wrongly / then it is refused with its code
    assert _refused(cosmetics.equip, wardrobe, kind, item_id, NOW) == code


def test_cosmetics_equip_none_takes_the_kind_off() -> None:
    # given an equipped frame / when the frame is set to nothing
    wardrobe = cosmetics.equip(Wardrobe(), "frame", "frame-plain", NOW)
    bare = cosmetics.equip(wardrobe, "frame", None, NOW)

    # then nothing of that kind shows
    assert cosmetics.equipped_now(bare, NOW) == {}


def test_cosmetics_unknown_item_is_refused_when_bought() -> None:
    # given no such item / when it is bought / then it is refused
    assert _refused(cosmetics.bought, Wardrobe(), "dragon", NOW) == "unknown_item"


def test_cosmetics_withdrawn_item_counts_as_not_equipped() -> None:
    # given a wardrobe naming an item no longer in the catalogue
    wardrobe = Wardrobe(owned={"old-skin": None}, equipped={"sheet_skin": "old-skin"})

    # when what shows is asked / then nothing does
    assert cosmetics.equipped_now(wardrobe, NOW) == {}
