"""Wallets and their ledgers on the game table (docs/data-model.md), with pynamodb:

- a wallet: `PLAYER#<id>` / `WALLET` (`balance`, `debt`, `version`: the changes written);
- a ledger entry: `PLAYER#<id>` / `LEDGER#<seq, 10 digits>` (`entry`: JSON), never rewritten;
- an idempotency key: `IDEM#<key>` / `IDEM` (`entry`: the change it made, with its player).

Every change is one transaction: the wallet on its version (so the balance is checked against
what it is, never negative), the new ledger entry and the key, each written only if absent, and
whatever else the change pays for (premium's end on the player record, a cosmetic in the
wardrobe). A key written before answers with the change it made: a repeat changes nothing. A
transaction lost to another writer is tried again on fresh state.
"""

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from pynamodb.exceptions import DoesNotExist, PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite
from yamb.economy import ledger
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry, Wallet
from yamb.i18n import Text

from yamb_service.common.dynamo import (
    LOST_RACE_ERRORS,
    DynamoPart,
    ItemModel,
    add_parts,
    busy_or,
    player_key,
)
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.ports import TransactionPart
from yamb_service.economy.ports import Also, Applied, Change, Plan, PremiumUntil

_WALLET, _IDEM, _PLAYER = "WALLET", "IDEM", "PLAYER"
ATTEMPTS = 12
_LOST_RACE_REASONS = ("ConditionalCheckFailed", "TransactionConflict")


def _ledger_sk(seq: int) -> str:
    return f"LEDGER#{seq:010d}"


def _lost_race(error: PynamoDBException) -> bool:
    if error.cause_response_code in LOST_RACE_ERRORS:
        return True
    reasons = getattr(error, "cancellation_reasons", None) or []
    return any(reason is not None and reason.code in _LOST_RACE_REASONS for reason in reasons)


class DynamoWalletStore:
    def __init__(self, item: ItemModel, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._item = item
        self._sleep = sleep

    @property
    def table_item(self) -> ItemModel:
        """The table's item class (another store of the same table takes it)."""
        return self._item

    # -------------------------------------------------------------- reads

    def wallet(self, player_id: str) -> Wallet:
        try:
            stored = self._item.get(player_key(player_id), _WALLET, consistent_read=True)
        except DoesNotExist:
            return Wallet()
        except PynamoDBException as error:
            raise busy_or(error) from error
        return Wallet(
            balance=int(stored.balance or 0),
            debt=int(stored.debt or 0),
            version=int(stored.version or 0),
        )

    def premium_until(self, player_id: str, *, consistent: bool = False) -> datetime | None:
        """The end of the player's premium (None: never had it); `consistent` for a write
        conditioned on it."""
        try:
            stored = self._item.get(
                player_key(player_id),
                _PLAYER,
                attributes_to_get=["premium_until"],
                consistent_read=consistent,
            )
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        until = stored.premium_until
        return None if until is None else datetime.fromtimestamp(float(until), UTC)

    def entries(self, player_id: str, limit: int, before: int | None = None) -> list[LedgerEntry]:
        """Newest first, up to `limit`, those before sequence number `before` when given."""
        condition = (
            self._item.sk.startswith("LEDGER#")
            if before is None
            else self._item.sk.between("LEDGER#", _ledger_sk(max(before - 1, 0)))
        )
        try:
            items = self._item.query(
                player_key(player_id),
                condition,
                scan_index_forward=False,
                limit=limit,
                consistent_read=True,
            )
            return [LedgerEntry.model_validate_json(item.entry or "{}") for item in items]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def recorded(self, key: str) -> list[tuple[str, LedgerEntry]] | None:
        """What `key` made, each entry with its player; None: the key is unused."""
        try:
            stored = self._item.get(f"IDEM#{key}", _IDEM, consistent_read=True)
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        data = json.loads(stored.entry or "[]")
        return [(player, LedgerEntry.model_validate(entry)) for player, entry in data]

    # -------------------------------------------------------------- changes

    def plan(self, key: str, changes: Sequence[Change], now: datetime) -> Plan | list[LedgerEntry]:
        """The changes worked out on the wallets as they are now (EconomyError when one is not
        possible), to be written in a transaction (`part_of`, or `change`); or, when `key` was used
        already, the entries it made (the same change) or EconomyError key_reused."""
        recorded = self.recorded(key)
        if recorded is not None:
            return _same_or_refused(key, recorded, changes)
        wallets = {change.player_id: self.wallet(change.player_id) for change in changes}
        planned: list[tuple[Change, Wallet, LedgerEntry]] = []
        for change in changes:
            before = wallets[change.player_id]
            after, entry = ledger.apply(
                before,
                change.amount,
                reason=change.reason,
                key=key,
                at=now,
                allow_debt=change.allow_debt,
                counterparty=change.counterparty,
                detail=change.detail,
                premium_until=change.premium_until,
            )
            wallets[change.player_id] = after
            planned.append((change, before, entry))
        return Plan(key, planned)

    def part_of(self, plan: Plan) -> TransactionPart:
        """The plan's writes, for a transaction another store commits (a rename's)."""
        return DynamoPart(lambda write: self._add(write, plan))

    def _add(self, write: TransactWrite, plan: Plan) -> None:
        """The plan's writes, each on a condition: the wallet on the version it was read at,
        the ledger entry and the key only if absent."""
        item = self._item
        for change, before, entry in plan.changes:
            unchanged = (
                item.pk.does_not_exist() if before.version == 0 else item.version == before.version
            )
            write.save(
                item(
                    player_key(change.player_id),
                    _WALLET,
                    balance=entry.balance,
                    debt=entry.debt,
                    version=entry.seq,
                ),
                condition=unchanged,
            )
            write.save(
                item(
                    player_key(change.player_id),
                    _ledger_sk(entry.seq),
                    entry=entry.model_dump_json(),
                ),
                condition=item.pk.does_not_exist(),
            )
        record = [
            (change.player_id, entry.model_dump(mode="json")) for change, _, entry in plan.changes
        ]
        write.save(
            item(f"IDEM#{plan.key}", _IDEM, entry=json.dumps(record)),
            condition=item.pk.does_not_exist(),
        )

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
        return self.change(key, changes, now, premium=premium, also=also).entries

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
        transaction. A key already used answers with its entries when it was the same change,
        and EconomyError key_reused when it was another. `premium` and `also` add what the
        change pays for to the transaction, worked out again on each attempt (after a lost
        race, on fresh state); premium's new end is kept on the entries, so a repeat answers
        the end it gave; working out `also` may refuse with EconomyError (nothing is
        written)."""
        for attempt in range(ATTEMPTS):
            current: datetime | None = None
            asked = list(changes)
            if premium is not None:
                current = self.premium_until(premium.player_id, consistent=True)
                until = premium.until(current)
                asked = [replace(change, premium_until=until) for change in changes]
            plan = self.plan(key, asked, now)
            if not isinstance(plan, Plan):
                return Applied(plan, written=False)
            parts = also() if callable(also) else also
            try:
                with TransactWrite(connection=self._item._get_connection().connection) as write:
                    self._add(write, plan)
                    if premium is not None:
                        self._set_premium(write, premium.player_id, current, until)
                    add_parts(write, parts)
            except TransactWriteError as error:
                if not _lost_race(error):
                    raise busy_or(error) from error
                self._sleep(random.uniform(0, 0.01 * (attempt + 1)))
                continue
            return Applied(plan.entries, written=True)
        raise ServiceBusyError()

    def _set_premium(
        self, write: TransactWrite, player_id: str, current: datetime | None, until: datetime
    ) -> None:
        """Premium's end `until`, on the end read (`current`) being still the stored one."""
        item = self._item
        same = (
            item.premium_until.does_not_exist()
            if current is None
            else item.premium_until == int(current.timestamp())
        )
        write.update(
            item(player_key(player_id), _PLAYER),
            actions=[item.premium_until.set(int(until.timestamp()))],
            condition=same,
        )


def _same_or_refused(
    key: str, recorded: list[tuple[str, LedgerEntry]], changes: Sequence[Change]
) -> list[LedgerEntry]:
    asked = [(c.player_id, c.amount, c.reason) for c in changes]
    made = [(player, entry.amount, entry.reason) for player, entry in recorded]
    if asked != made:
        raise EconomyError(
            Text("the key '{key}' was used for another change", key=key[:40]),
            code="key_reused",
            field="key",
        )
    return [entry for _, entry in recorded]
