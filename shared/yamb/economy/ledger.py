"""A wallet and the ledger of its changes (E1): a balance that never goes negative, and a debt
that takes what a refund or a dispute could not debit (paid back by the next credits first).

`apply` is the one rule every change follows; the store writes its result together with an
immutable ledger entry in one transaction, on the wallet's version, so the entries of a player
always sum to the balance minus the debt.
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from yamb.economy.errors import EconomyError
from yamb.i18n import Text

MAX_AMOUNT = 1_000_000

type Reason = Literal[
    "purchase",  # tokens bought with money (E4)
    "refund",  # a purchase refunded by the payment provider
    "dispute",  # a purchase disputed (chargeback)
    "refund_failed",  # a refund debited while pending, then failed: the tokens back
    "dispute_won",  # a dispute's debit given back (won, or an inquiry closed)
    "win",  # a game's win reward (E2)
    "premium",  # premium days bought (E3)
    "gift_sent",  # tokens or premium given to another player (S2)
    "gift_received",
    "nickname",  # a nickname change (A5)
    "cosmetic",  # a cosmetic bought (E5)
    "grant",  # given by an operator or a promotion
    "prize",  # a prize board's place at the end of a week or month (R2)
    "task",  # a weekly task claimed, or the week's all-tasks bonus (E6)
    "referral",  # a referral's reward: the invitee's verification, a week of play (E7)
    "badge",  # a badge's new level (E8)
    "club_donation",  # tokens from a member to a club's treasury, never refunded (C5)
    "club_level",  # a club's level bought from its treasury (C4)
    "club_rename",  # a club's rename paid from its treasury (C5)
    "club_avatar",  # a club's own avatar paid from its treasury (C1)
    "club_reward",  # a club's members solved half, then four fifths, of their week's tasks (E6)
    "tournament_entry",  # a tournament's entry fee (issue 32)
    "tournament_refund",  # an entry fee given back: the tournament was cancelled
]


class Wallet(BaseModel):
    model_config = ConfigDict(frozen=True)

    balance: int = 0
    debt: int = 0
    # The number of changes written: the next entry's sequence number is version + 1.
    version: int = 0


class LedgerEntry(BaseModel):
    """One change of a wallet, as written: never changed afterwards."""

    model_config = ConfigDict(frozen=True)

    seq: int = Field(description="1, 2, 3...: the wallet's version this change made")
    reason: Reason
    amount: int = Field(description="what was asked: positive credits, negative debits")
    balance_change: int
    debt_change: int
    balance: int = Field(description="the balance after the change")
    debt: int
    key: str = Field(description="the idempotency key: one change per key, ever")
    at: datetime
    counterparty: str | None = Field(default=None, description="the other player of a gift")
    detail: str | None = Field(default=None, description="what was bought, the payment's id")
    premium_until: datetime | None = Field(
        default=None, description="the end of premium this change gave (premium bought or given)"
    )


MAX_KEY_CHARS = 64


def client_key(player_id: str, key: str) -> str:
    """A client's idempotency key, scoped to the player (two players may pick the same)."""
    if not key or len(key) > MAX_KEY_CHARS or not key.isprintable() or " " in key:
        raise EconomyError(
            Text(
                "an Idempotency-Key header of 1 to {max_key_chars} printable characters, no "
                "spaces, is needed: the same key repeats a request safely",
                max_key_chars=MAX_KEY_CHARS,
            ),
            code="bad_request",
            field="Idempotency-Key",
        )
    return f"client:{player_id}:{key}"


def check_amount(amount: int, field: str = "amount") -> int:
    if not 1 <= amount <= MAX_AMOUNT:
        raise EconomyError(
            Text(
                "an amount is a whole number of tokens from 1 to {max_amount}",
                max_amount=format(MAX_AMOUNT, ","),
            ),
            code="bad_amount",
            field=field,
        )
    return amount


def apply(
    wallet: Wallet,
    amount: int,
    *,
    reason: Reason,
    key: str,
    at: datetime,
    allow_debt: bool = False,
    counterparty: str | None = None,
    detail: str | None = None,
    premium_until: datetime | None = None,
) -> tuple[Wallet, LedgerEntry]:
    """The wallet after the change, and its entry. A credit pays the debt back first; a debit
    beyond the balance is refused, or (`allow_debt`: what was credited is taken back) takes the
    balance to 0 and the rest into the debt."""
    check_amount(abs(amount))
    balance, debt = wallet.balance, wallet.debt
    if amount > 0:
        repaid = min(debt, amount)
        balance, debt = balance + amount - repaid, debt - repaid
    elif balance + amount >= 0:
        balance += amount
    elif allow_debt:
        balance, debt = 0, debt - amount - wallet.balance
    else:
        raise EconomyError(
            Text(
                "this costs {price} tokens and the balance is {balance}",
                price=-amount,
                balance=wallet.balance,
            ),
            code="not_enough_tokens",
        )
    after = Wallet(balance=balance, debt=debt, version=wallet.version + 1)
    entry = LedgerEntry(
        seq=after.version,
        reason=reason,
        amount=amount,
        balance_change=balance - wallet.balance,
        debt_change=debt - wallet.debt,
        balance=balance,
        debt=debt,
        key=key,
        at=at,
        counterparty=counterparty,
        detail=detail,
        premium_until=premium_until,
    )
    return after, entry
