"""What the economy's services need from storage (wallets and their ledgers, wardrobes) and from
the badges, as small interfaces with domain types; the DynamoDB adapters (wallet_dynamo,
wardrobe_dynamo, progression.badges.dynamo) implement them. Other domains pay through the
same wallet port, with their own writes in the payment's transaction (`TransactionPart`)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from yamb.accounts.profile import AccountStatus, Profile
from yamb.economy.cosmetics import Kind, Wardrobe
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry, Reason, Wallet
from yamb.i18n import Text

from yamb_service.common.ports import TransactionPart


@dataclass(frozen=True, slots=True)
class Change:
    """One player's side of a change: the amount (positive credits) and its entry's fields."""

    player_id: str
    amount: int
    reason: Reason
    allow_debt: bool = False
    counterparty: str | None = None
    detail: str | None = None
    # The end of premium the change gives (set by `apply` from its PremiumUntil).
    premium_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class Applied:
    """What `WalletStore.change` did: the entries of the key, and whether this call wrote them
    (False: the key answered a repeat with what it made before)."""

    entries: list[LedgerEntry]
    written: bool


@dataclass(frozen=True, slots=True)
class PremiumUntil:
    """Sets a player's premium end in the same transaction (E3: bought or given)."""

    player_id: str
    # The end to set, from the end stored now (None: none), as the caller decides it.
    until: Callable[[datetime | None], datetime]


@dataclass(frozen=True, slots=True)
class Plan:
    """Changes worked out, not written yet: (the change, the wallet before, its entry)."""

    key: str
    changes: list[tuple[Change, Wallet, LedgerEntry]]

    @property
    def entries(self) -> list[LedgerEntry]:
        return [entry for _, _, entry in self.changes]


# What a change pays for, written in its transaction: parts as they are, or a function that
# works them out again on each attempt (after a lost race, on fresh state).
type Also = Sequence[TransactionPart] | Callable[[], Sequence[TransactionPart]]


class WalletStore(Protocol):
    def wallet(self, player_id: str) -> Wallet: ...
    def premium_until(self, player_id: str, *, consistent: bool = False) -> datetime | None:
        """The end of the player's premium (None: never had it)."""

    def entries(self, player_id: str, limit: int, before: int | None = None) -> list[LedgerEntry]:
        """Newest first, up to `limit`, those before sequence number `before` when given."""

    def recorded(self, key: str) -> list[tuple[str, LedgerEntry]] | None:
        """What `key` made, each entry with its player; None: the key is unused."""

    def plan(self, key: str, changes: Sequence[Change], now: datetime) -> Plan | list[LedgerEntry]:
        """The changes worked out on the wallets as they are (EconomyError when one is not
        possible), for another store's transaction (`part_of`); or, when `key` was used
        already, the entries it made (the same change) or EconomyError key_reused."""

    def part_of(self, plan: Plan) -> TransactionPart:
        """The plan's writes, for a transaction another store commits: the wallets on the
        versions read, the entries and the key only if absent."""

    def change(
        self,
        key: str,
        changes: Sequence[Change],
        now: datetime,
        *,
        premium: PremiumUntil | None = None,
        also: Also = (),
    ) -> Applied:
        """The changes (one player's, or a gift's two) applied once for `key`, in one
        transaction with `premium`'s new end and `also`'s writes; a lost race is tried again on
        fresh state. A key already used answers with its entries when it was the same change,
        and EconomyError key_reused when it was another."""

    def apply(
        self,
        key: str,
        changes: Sequence[Change],
        now: datetime,
        *,
        premium: PremiumUntil | None = None,
        also: Also = (),
    ) -> list[LedgerEntry]:
        """The entries of `change` (written now, or by the key before)."""


class WardrobeStore(Protocol):
    def wardrobe(self, player_id: str) -> Wardrobe: ...
    def part_of(self, player_id: str, before: Wardrobe, after: Wardrobe) -> TransactionPart:
        """The wardrobe `after`, on `before` being still the one stored: for a purchase's
        transaction."""

    def equip(self, player_id: str, kind: Kind, item_id: str | None, now: datetime) -> Wardrobe:
        """The item shown for its kind, written on the wardrobe's version (tried again on
        fresh state after a lost race)."""


class BadgeCounts(Protocol):
    """What the economy counts for the badges (E8) as it is paid: Benefactor, Premium
    seniority (yamb_service.progression.badges.dynamo)."""

    def count_part(self, player_id: str, counter: str, amount: int) -> TransactionPart:
        """Adds `amount` to the player's count, in the transaction of the payment."""


@dataclass(frozen=True, slots=True)
class Accounts:
    """What the economy reads of the accounts: a profile, and who holds a nickname."""

    profile: Callable[[str], Profile | None]
    nickname_owner: Callable[[str], str | None]

    def recipient(self, buyer: str, nickname: str, *, field: str) -> str:
        """The player id of the player a gift names by nickname (a player names another by
        nickname everywhere: premium, token gifts, gift packs). EconomyError unknown_player for
        a nickname no one holds or an account deleted or being deleted, gift_to_self for the
        buyer's own; `field` is the request's field the error names."""
        owner = self.nickname_owner(nickname) if nickname else None
        profile = self.profile(owner) if owner else None
        if profile is None or profile.status in _CANNOT_RECEIVE:
            raise EconomyError(
                Text("no player has this nickname"), code="unknown_player", field=field
            )
        if profile.player_id == buyer:
            raise EconomyError(
                Text("a gift goes to another player"), code="gift_to_self", field=field
            )
        return profile.player_id


# Accounts deleted, or being deleted (locked until a login cancels it): nothing is given to them.
_CANNOT_RECEIVE = (AccountStatus.DELETING, AccountStatus.PURGING, AccountStatus.DELETED)
