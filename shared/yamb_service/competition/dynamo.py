"""Ratings on the game table (docs/data-model.md, "Ratings"): one item per player and pool,
`RATING#<pool>` / `P#<player>` (the `Rating` as JSON in `summary`, on `version`), listed in
`gsi1` under the pool by the rating less three uncertainties, inverted: a rating board is one
index query. A game's ratings change in one transaction with its `GAME#<id>` / `RATED` marker,
so a redelivered result rates once."""

import random
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Literal

from pynamodb.exceptions import PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite
from yamb.competition.ratings import Rating, RatingPool

from yamb_service.common.dynamo import ItemModel, busy_or
from yamb_service.competition.ports import Rated

_PLAYER, _RATED = "P#", "RATED"
# The marker outlives the stream's 24 hours of redelivery by far.
RATED_TTL = timedelta(days=30)
_BATCH = 100
# The index's order: an ordinal of -800..800 (far beyond OpenSkill's range) in thousandths,
# inverted so that the best comes first.
_ORDER_CEILING = 800_000


def _pool_key(pool: RatingPool | str) -> str:
    return f"RATING#{pool if isinstance(pool, str) else pool.key}"


def _order(rating: Rating) -> str:
    return f"{_ORDER_CEILING - round(rating.ordinal * 1000):07d}#{rating.player_id}"


def refusal(error: TransactWriteError, marker_at: int | None = None) -> Literal["before", "moved"]:
    """What a refused transaction means: "before" when its marker (a once-only item, at
    `marker_at` among the reasons) was there already, "moved" when another write came first
    (an item's version or a condition changed since it was read: read again); else it raises
    (busy, or the error). The reasons follow the order pynamodb sends (its condition checks,
    then deletes, then puts, then updates), not the order written."""
    reasons = [None if r is None else r.code for r in (error.cancellation_reasons or [])]
    marker = reasons[marker_at] if marker_at is not None and len(reasons) > marker_at else None
    if marker == "ConditionalCheckFailed":
        return "before"
    if "ConditionalCheckFailed" in reasons or "TransactionConflict" in reasons:
        return "moved"
    raise busy_or(error) from error


def marked_write_lost(error: TransactWriteError, marker_at: int = 0) -> Rated:
    """A refused transaction led by a game's marker: counted before, or read again."""
    return "rated_before" if refusal(error, marker_at) == "before" else "moved"


class DynamoRatingStore:
    def __init__(self, item: ItemModel, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._item = item
        self._sleep = sleep

    def _read(self, keys: list[tuple[str, str]], *, consistent: bool = True) -> list[Rating]:
        found = []
        try:
            for start in range(0, len(keys), _BATCH):
                for item in self._item.batch_get(
                    keys[start : start + _BATCH], consistent_read=consistent
                ):
                    rating = Rating.model_validate_json(item.summary or "{}")
                    found.append(rating.model_copy(update={"version": int(item.version or 0)}))
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    def ratings(self, pool: RatingPool, player_ids: Iterable[str]) -> dict[str, Rating]:
        keys = [(_pool_key(pool), f"{_PLAYER}{p}") for p in dict.fromkeys(player_ids)]
        return {rating.player_id: rating for rating in self._read(keys)}

    def seat_ratings(self, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
        """The lobby's: each (pool key, player id)'s rating, those rated, in one batched read
        (eventually consistent: half the read units, and a list a second old is still true)."""
        keys = [(_pool_key(pool), f"{_PLAYER}{player}") for pool, player in dict.fromkeys(wanted)]
        return {(r.pool, r.player_id): r for r in self._read(keys, consistent=False)}

    def player_ratings(self, player_id: str, pools: Iterable[RatingPool]) -> list[Rating]:
        keys = [(_pool_key(pool), f"{_PLAYER}{player_id}") for pool in pools]
        order = {key[0]: n for n, key in enumerate(keys)}
        return sorted(self._read(keys), key=lambda r: order[_pool_key(r.pool)])

    def rate_game(
        self, game_id: str, now: datetime, before: dict[str, Rating], after: dict[str, Rating]
    ) -> Rated:
        item = self._item
        try:
            with TransactWrite(connection=item._get_connection().connection) as write:
                write.save(
                    item(
                        f"GAME#{game_id}",
                        _RATED,
                        expires_at=int((now + RATED_TTL).timestamp()),
                    ),
                    condition=item.pk.does_not_exist(),
                )
                for player_id, rating in after.items():
                    old = before.get(player_id)
                    write.save(
                        item(
                            _pool_key(rating.pool),
                            f"{_PLAYER}{player_id}",
                            summary=rating.model_dump_json(by_alias=True),
                            version=(0 if old is None else old.version) + 1,
                            gsi1pk=_pool_key(rating.pool),
                            gsi1sk=_order(rating),
                        ),
                        condition=item.pk.does_not_exist()
                        if old is None
                        else item.version == old.version,
                    )
        except TransactWriteError as error:
            return marked_write_lost(error)
        return "rated"

    def top(self, pool: RatingPool, limit: int) -> list[Rating]:
        try:
            return [
                Rating.model_validate_json(item.summary or "{}")
                for item in self._item.gsi1.query(_pool_key(pool), limit=limit)
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error

    def pause(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.02 * 2**attempt))
