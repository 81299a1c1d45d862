"""The economy's HTTP requests and answers (camelCase on the wire, as the accounts' are)."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, StrictInt
from pydantic.alias_generators import to_camel

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
