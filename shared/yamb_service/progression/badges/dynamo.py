"""Badges on the game table (docs/progression.md, "Badges"), with pynamodb:

- a count: `PLAYER#<id>` / `COUNT#<counter>` (`tally`), only ever added to (ADD), by whatever
  counts it: a finished game (here), the weekly tasks, the referral, the economy's gifts and
  premium (`count_part`, in the wallet's transaction). One Query reads a player's counts;
- a level paid: `PLAYER#<id>` / `BADGE#<badge>` (`tally`: the highest level paid), set in the
  wallet transaction that pays it (`paid_part`), beside the payment's idempotency key
  `badge:<badge>:<level>:<player>`; Pioneer is `BADGE#pioneer` (`tally`: its number);
- a finished game counted for a player: `GAME#<id>` / `BADGES#<player>` (kept 30 days), put in
  the transaction that adds the game's counts, only if absent: a repeat adds nothing;
- a day a player played, `PLAYER#<id>` / `PLAYED#<yyyy-mm-dd>` (kept 31 days: longer than a
  game of that day can come late), and an opponent met, `PLAYER#<id>` / `OPPONENT#<id>`: the
  markers of Veteran's and Sociable's distinct counts, each put only if absent in that
  transaction;
- the pioneers so far: `PIONEERS` / `PIONEERS` (`tally`), put at n+1 on n being still the
  count read, in one transaction with the player's `BADGE#pioneer` put only if absent.
"""

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from pynamodb.exceptions import DoesNotExist, PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite

from yamb_service.common.dynamo import DynamoPart, ItemModel, busy_or, player_key
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.ports import TransactionPart
from yamb_service.progression.badges.ports import Recorded

_COUNT, _BADGE = "COUNT#", "BADGE#"
_GAME_MARKER = "BADGES#"
_PIONEERS = "PIONEERS"
PIONEER_SK = f"{_BADGE}pioneer"
# Longer than the stream's 24 hours of redelivery and than the game's ENDED item (30 days).
GAME_MARKER_TTL = timedelta(days=30)
ATTEMPTS = 12
_FAILED, _CONFLICT = "ConditionalCheckFailed", "TransactionConflict"


def _reasons(error: TransactWriteError) -> list[str | None]:
    return [None if r is None else r.code for r in (error.cancellation_reasons or [])]


def _add_count(
    write: TransactWrite, item: ItemModel, player_id: str, counter: str, amount: int
) -> None:
    key = (player_key(player_id), f"{_COUNT}{counter}")
    write.update(item(*key), actions=[item.tally.add(amount)])


class DynamoBadgeStore:
    def __init__(self, item: ItemModel, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._item = item
        self._sleep = sleep

    def _transaction(self) -> TransactWrite:
        return TransactWrite(connection=self._item._get_connection().connection)

    def pause(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.01 * (attempt + 1)))

    # -------------------------------------------------------------- reads

    def _tallies(self, player_id: str, prefix: str) -> dict[str, int]:
        item = self._item
        try:
            return {
                found.sk.removeprefix(prefix): int(found.tally or 0)
                for found in item.query(
                    player_key(player_id), item.sk.startswith(prefix), consistent_read=True
                )
            }
        except PynamoDBException as error:
            raise busy_or(error) from error

    def counts(self, player_id: str) -> dict[str, int]:
        """Every count of the player, by counter (absent: 0)."""
        return self._tallies(player_id, _COUNT)

    def held(self, player_id: str) -> tuple[dict[str, int], int | None]:
        """The highest level paid per badge, and the player's Pioneer number (None: none)."""
        held = self._tallies(player_id, _BADGE)
        pioneer = held.pop("pioneer", None)
        return held, pioneer

    def present(self, player_id: str, markers: Iterable[str]) -> set[str]:
        """Which of these markers of the player exist (consistently read): a marker is the
        sort key of its item."""
        wanted = [(player_key(player_id), sk) for sk in dict.fromkeys(markers)]
        if not wanted:
            return set()
        try:
            return {
                found.sk
                for found in self._item.batch_get(
                    wanted, consistent_read=True, attributes_to_get=["pk", "sk"]
                )
            }
        except PynamoDBException as error:
            raise busy_or(error) from error

    # -------------------------------------------------------------- writes

    def record(
        self,
        game_id: str,
        player_id: str,
        adds: Mapping[str, int],
        markers: Sequence[tuple[str, datetime | None]],
        now: datetime,
    ) -> Recorded:
        """A game's counts for one player, in one transaction with the game's marker for the
        player and the new markers (each `(sk, expires at)`), all put only if absent."""
        item = self._item
        key = player_key(player_id)
        try:
            with self._transaction() as write:
                write.save(
                    item(
                        f"GAME#{game_id}",
                        f"{_GAME_MARKER}{player_id}",
                        expires_at=int((now + GAME_MARKER_TTL).timestamp()),
                    ),
                    condition=item.pk.does_not_exist(),
                )
                for sk, expires in markers:
                    write.save(
                        item(
                            key,
                            sk,
                            expires_at=None if expires is None else int(expires.timestamp()),
                        ),
                        condition=item.pk.does_not_exist(),
                    )
                for counter, amount in adds.items():
                    if amount:
                        _add_count(write, item, player_id, counter, amount)
        except TransactWriteError as error:
            reasons = _reasons(error)
            if reasons and reasons[0] == _FAILED:  # the game's marker: the first put
                return "recorded_before"
            if _FAILED in reasons or _CONFLICT in reasons:
                return "moved"
            raise busy_or(error) from error
        return "recorded"

    def count_part(self, player_id: str, counter: str, amount: int) -> TransactionPart:
        """Adds `amount` to the player's count, in the transaction of what it counts (the
        economy's gifts and premium)."""
        item = self._item
        return DynamoPart(lambda write: _add_count(write, item, player_id, counter, amount))

    def paid_part(self, player_id: str, badge: str, level: int) -> TransactionPart:
        """The badge's level paid, in the wallet transaction that pays it. Levels are paid in
        order and each under its own key (a level's key is written once, after the level
        below's), so the last written is the highest: a put, with nothing to condition. (A put,
        not an update: the login trigger that pays needs no more than PutItem.)"""
        item = self._item

        def add(write: TransactWrite) -> None:
            write.save(item(player_key(player_id), f"{_BADGE}{badge}", tally=level))

        return DynamoPart(add)

    # -------------------------------------------------------------- Pioneer

    def pioneers(self) -> int:
        """How many players are pioneers (consistently read)."""
        try:
            found = self._item.get(_PIONEERS, _PIONEERS, consistent_read=True)
        except DoesNotExist:
            return 0
        except PynamoDBException as error:
            raise busy_or(error) from error
        return int(found.tally or 0)

    def enrol_pioneer(self, player_id: str, places: int) -> int | None:
        """The player's Pioneer number, if one of the first `places` is still free and they
        have none yet (None: all taken, or the player holds one already). The count moves from
        the value read to the next in the transaction that gives the badge: of two racing
        players, one wins and the other reads again."""
        item = self._item
        for attempt in range(ATTEMPTS):
            taken = self.pioneers()
            if taken >= places:
                return None
            number = taken + 1
            try:
                with self._transaction() as write:
                    # A put on the count read (the accounts function writes with PutItem only).
                    write.save(
                        item(_PIONEERS, _PIONEERS, tally=number),
                        condition=item.pk.does_not_exist() if taken == 0 else item.tally == taken,
                    )
                    write.save(
                        item(player_key(player_id), PIONEER_SK, tally=number),
                        condition=item.pk.does_not_exist(),
                    )
            except TransactWriteError as error:
                reasons = _reasons(error)
                if len(reasons) > 1 and reasons[1] == _FAILED:  # a pioneer already
                    return None
                if _FAILED in reasons or _CONFLICT in reasons:
                    self.pause(attempt)
                    continue
                raise busy_or(error) from error
            return number
        raise ServiceBusyError()
