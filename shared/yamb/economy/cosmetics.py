"""Cosmetics for tokens (E5): the catalogue, a player's wardrobe and its rules. Pure: the store
(yamb_service.economy.wardrobe_dynamo) keeps the wardrobe, the wallet store pays for it in the same
transaction.

An item is owned for life (`until` None) or until a moment; a 30-day item bought again is
extended from its end while it is still owned. A frame may be free: it is equipped without
buying. What a player shows is what is equipped and still valid at the moment asked: an item
whose time has run out counts as not equipped, nothing has to be removed when it expires.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from yamb.economy.errors import EconomyError
from yamb.i18n import Text

type Kind = Literal["avatar", "frame", "dice_skin", "sheet_skin", "column_effect"]
KINDS: tuple[Kind, ...] = get_args(Kind.__value__)

# E5's prices and durations for the kinds it fixes; None: for life.
RENTAL_DAYS = 30
AVATAR_PRICE = 500


@dataclass(frozen=True, slots=True)
class Item:
    item_id: str  # never reused for another item: a ledger entry names it
    kind: Kind
    name: str
    price: int  # tokens; 0: free (frames only), nothing to buy
    days: int | None  # how long a purchase lasts; None: for life


def _rented(item_id: str, kind: Kind, name: str, price: int) -> Item:
    return Item(item_id, kind, name, price, RENTAL_DAYS)


# Configuration, one line an item (checked below, at import).
CATALOGUE: tuple[Item, ...] = (
    # The right to an own avatar (the picture itself is the client's): for life, active at once.
    Item("own-avatar", "avatar", "Own avatar", AVATAR_PRICE, None),
    Item("frame-plain", "frame", "Plain", 0, None),
    Item("frame-wood", "frame", "Wood", 0, None),
    Item("frame-silver", "frame", "Silver", 150, None),
    Item("frame-gold", "frame", "Gold", 300, None),
    _rented("frame-laurel", "frame", "Laurel", 40),
    _rented("frame-flame", "frame", "Flame", 50),
    _rented("dice-ivory", "dice_skin", "Ivory", 60),
    _rented("dice-marble", "dice_skin", "Marble", 60),
    _rented("dice-neon", "dice_skin", "Neon", 60),
    _rented("sheet-parchment", "sheet_skin", "Parchment", 90),
    _rented("sheet-slate", "sheet_skin", "Slate", 90),
    _rented("sheet-ocean", "sheet_skin", "Ocean", 90),
    _rented("effect-sparkle", "column_effect", "Sparkle", 120),
    _rented("effect-glow", "column_effect", "Glow", 120),
    _rented("effect-confetti", "column_effect", "Confetti", 120),
)
ITEMS: dict[str, Item] = {item.item_id: item for item in CATALOGUE}

# What E5 fixes: (price, days) by kind; frames are priced item by item.
_E5_TERMS: dict[Kind, tuple[int, int | None]] = {
    "avatar": (AVATAR_PRICE, None),
    "dice_skin": (60, RENTAL_DAYS),
    "sheet_skin": (90, RENTAL_DAYS),
    "column_effect": (120, RENTAL_DAYS),
}


def _check(catalogue: tuple[Item, ...]) -> None:
    if len({item.item_id for item in catalogue}) != len(catalogue):
        raise ValueError("an item id is used twice")
    for item in catalogue:
        if item.kind in _E5_TERMS and (item.price, item.days) != _E5_TERMS[item.kind]:
            raise ValueError(f"{item.item_id}: E5 sells a {item.kind} at {_E5_TERMS[item.kind]}")
        if item.price < 0 or (item.price == 0 and (item.kind != "frame" or item.days)):
            raise ValueError(f"{item.item_id}: only frames are free, and free for life")
        if item.days is not None and item.days < 1:
            raise ValueError(f"{item.item_id}: a duration is a day or more")


_check(CATALOGUE)


class Wardrobe(BaseModel):
    """A player's cosmetics: what they own (until when; None: for life), what they equipped
    (one item a kind), and the version it was written at (0: never)."""

    model_config = ConfigDict(frozen=True)

    owned: dict[str, datetime | None] = Field(default_factory=dict)
    equipped: dict[Kind, str] = Field(default_factory=dict)
    version: int = 0


def item_of(item_id: str, field: str = "itemId") -> Item:
    try:
        return ITEMS[item_id]
    except KeyError:
        raise EconomyError(Text("no such cosmetic"), code="unknown_item", field=field) from None


def valid(wardrobe: Wardrobe, item_id: str, now: datetime) -> bool:
    """The player may show the item now: free, owned for life, or owned until later."""
    item = ITEMS.get(item_id)
    if item is None:  # withdrawn from the catalogue
        return False
    if item.price == 0:
        return True
    if item_id not in wardrobe.owned:
        return False
    until = wardrobe.owned[item_id]
    return until is None or until > now


def bought(wardrobe: Wardrobe, item_id: str, now: datetime) -> Wardrobe:
    """The wardrobe once the item is bought (its price is the caller's debit): a 30-day item
    runs from its end while still owned, else from now; the avatar is equipped at once."""
    item = item_of(item_id)
    if item.price == 0:
        raise EconomyError(Text("this frame is free: equip it"), code="free_item", field="itemId")
    owned = dict(wardrobe.owned)
    if item.days is None:
        if item_id in owned:
            raise EconomyError(
                Text("you own this for life already"), code="already_owned", field="itemId"
            )
        owned[item_id] = None
    else:
        current = owned.get(item_id)
        start = current if current is not None and current > now else now
        # Whole seconds: what is stored.
        owned[item_id] = start.replace(microsecond=0) + timedelta(days=item.days)
    equipped = dict(wardrobe.equipped)
    if item.kind == "avatar":
        equipped["avatar"] = item_id
    return wardrobe.model_copy(update={"owned": owned, "equipped": equipped})


def equip(wardrobe: Wardrobe, kind: Kind, item_id: str | None, now: datetime) -> Wardrobe:
    """The item shown for its kind (None: nothing of that kind). It must be of that kind and
    free or owned and not expired."""
    equipped = dict(wardrobe.equipped)
    if item_id is None:
        equipped.pop(kind, None)
        return wardrobe.model_copy(update={"equipped": equipped})
    item = item_of(item_id)
    if item.kind != kind:
        raise EconomyError(
            Text(
                "{item_id} is a {kind}, not a {expected}",
                item_id=item_id,
                kind=item.kind,
                expected=kind,
            ),
            code="wrong_kind",
            field="kind",
        )
    if item.price and item_id not in wardrobe.owned:
        raise EconomyError(Text("buy this first"), code="not_owned", field="itemId")
    if not valid(wardrobe, item_id, now):
        raise EconomyError(
            Text("this has expired: buy it again to use it"), code="item_expired", field="itemId"
        )
    equipped[kind] = item_id
    return wardrobe.model_copy(update={"equipped": equipped})


def equipped_now(wardrobe: Wardrobe, now: datetime) -> dict[Kind, str]:
    """What is equipped and still valid: an expired item counts as not equipped."""
    return {
        kind: item_id
        for kind, item_id in wardrobe.equipped.items()
        if valid(wardrobe, item_id, now) and ITEMS[item_id].kind == kind
    }
