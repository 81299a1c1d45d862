"""The economy's HTTP requests and answers (camelCase on the wire, as the accounts' are)."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, StrictInt
from pydantic.alias_generators import to_camel

from yamb.economy import cosmetics
from yamb.economy.cosmetics import Kind, Wardrobe
from yamb.economy.ledger import LedgerEntry, Reason


class _Message(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class PremiumRequest(_Message):
    days: StrictInt
    gift_to: str | None = Field(default=None, max_length=64, description="a nickname")


class GiftRequest(_Message):
    nickname: str = Field(max_length=64)
    amount: StrictInt


class WalletView(_Message):
    balance: int
    debt: int = Field(description="what refunds could not take back; credits repay it first")
    premium_until: datetime | None
    premium: bool


class EntryView(_Message):
    seq: int
    reason: Reason
    amount: int
    balance: int
    debt: int
    at: datetime
    counterparty: str | None
    detail: str | None

    @classmethod
    def of(cls, entry: LedgerEntry) -> "EntryView":
        return cls(
            seq=entry.seq,
            reason=entry.reason,
            amount=entry.amount,
            balance=entry.balance,
            debt=entry.debt,
            at=entry.at,
            counterparty=entry.counterparty,
            detail=entry.detail,
        )


class LedgerView(_Message):
    entries: list[EntryView]
    next_before: int | None = Field(description="pass as `before` for the next (older) page")


class PremiumOfferView(_Message):
    days: int
    price: int
    ends_at: datetime


class PremiumOffersView(_Message):
    premium_until: datetime | None
    offers: list[PremiumOfferView]


class PremiumBoughtView(_Message):
    entry: EntryView
    premium_until: datetime


class GiftView(_Message):
    entry: EntryView


# ---------------------------------------------------------------------- cosmetics (E5)


class BuyCosmeticRequest(_Message):
    item_id: str = Field(max_length=64)


class EquipRequest(_Message):
    kind: Kind
    item_id: str | None = Field(max_length=64, description="null: nothing of this kind")


class CosmeticView(_Message):
    item_id: str
    kind: Kind
    name: str
    price: int = Field(description="tokens; 0: free, equipped without buying")
    days: int | None = Field(description="how long a purchase lasts; null: for life")


class CatalogueView(_Message):
    items: list[CosmeticView]

    @classmethod
    def now(cls) -> "CatalogueView":
        return cls(
            items=[
                CosmeticView(
                    item_id=i.item_id, kind=i.kind, name=i.name, price=i.price, days=i.days
                )
                for i in cosmetics.CATALOGUE
            ]
        )


class OwnedView(_Message):
    item_id: str
    kind: Kind
    until: datetime | None = Field(description="null: for life")
    valid: bool = Field(description="false once its time has run out")


class EquippedView(_Message):
    """Item ids, what is equipped and still valid (an expired item shows as nothing)."""

    avatar: str | None = None
    frame: str | None = None
    dice_skin: str | None = None
    sheet_skin: str | None = None
    column_effect: str | None = None


class WardrobeView(_Message):
    owned: list[OwnedView]
    equipped: EquippedView

    @classmethod
    def of(cls, wardrobe: Wardrobe, now: datetime) -> "WardrobeView":
        return cls(
            owned=[
                OwnedView(
                    item_id=item_id,
                    kind=cosmetics.ITEMS[item_id].kind,
                    until=until,
                    valid=cosmetics.valid(wardrobe, item_id, now),
                )
                for item_id, until in sorted(wardrobe.owned.items())
                if item_id in cosmetics.ITEMS
            ],
            equipped=EquippedView(**cosmetics.equipped_now(wardrobe, now)),
        )


class CosmeticBoughtView(_Message):
    entry: EntryView
    wardrobe: WardrobeView
