"""A player's cosmetics on the game table (E5, docs/data-model.md): `PLAYER#<id>` / `WARDROBE`
(`wardrobe`: JSON of what is owned and equipped, `version`: its writes).

A purchase is written by the wallet store's transaction (`part_of`: the wardrobe on the version
it was read at, beside the debit, its ledger entry and its key); equipping is a put on the
version, tried again on fresh state when another write came first. The game service reads what
a player shows (`looks`) when they sit down: one GetItem, never on a move.
"""

import json
import random
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pynamodb.exceptions import DoesNotExist, PutError, PynamoDBException
from pynamodb.expressions.condition import Condition
from pynamodb.transactions import TransactWrite
from yamb.economy import cosmetics
from yamb.economy.cosmetics import Kind, Wardrobe
from yamb.economy.looks import Looks

from yamb_service.common.dynamo import LOST_RACE_ERRORS, DynamoPart, ItemModel, busy_or, player_key
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.ports import TransactionPart

_WARDROBE = "WARDROBE"
ATTEMPTS = 8


class DynamoWardrobeStore:
    def __init__(self, item: ItemModel, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._item = item
        self._sleep = sleep

    def wardrobe(self, player_id: str) -> Wardrobe:
        try:
            stored = self._item.get(player_key(player_id), _WARDROBE, consistent_read=True)
        except DoesNotExist:
            return Wardrobe()
        except PynamoDBException as error:
            raise busy_or(error) from error
        data = json.loads(stored.wardrobe or "{}")
        return Wardrobe.model_validate({**data, "version": int(stored.version or 0)})

    def looks(self, player_id: str, now: datetime) -> Looks | None:
        """What the player shows at `now` (the game service's port); None: nothing."""
        shown = cosmetics.equipped_now(self.wardrobe(player_id), now)
        if not shown:
            return None
        return Looks(
            frame=shown.get("frame"),
            avatar="avatar" in shown,
            sheet_skin=shown.get("sheet_skin"),
            dice_skin=shown.get("dice_skin"),
            column_effect=shown.get("column_effect"),
        )

    def _written(self, player_id: str, before: Wardrobe, after: Wardrobe) -> tuple[Any, Condition]:
        """The item to put and its condition: on the version `before` was read at."""
        item = self._item
        unchanged = (
            item.pk.does_not_exist() if before.version == 0 else item.version == before.version
        )
        body = after.model_dump_json(exclude={"version"})
        return (
            item(player_key(player_id), _WARDROBE, wardrobe=body, version=before.version + 1),
            unchanged,
        )

    def part_of(self, player_id: str, before: Wardrobe, after: Wardrobe) -> TransactionPart:
        """The wardrobe's put, in a purchase's transaction."""
        stored, condition = self._written(player_id, before, after)

        def add(write: TransactWrite) -> None:
            write.save(stored, condition=condition)

        return DynamoPart(add)

    def change(self, player_id: str, rule: Callable[[Wardrobe], Wardrobe]) -> Wardrobe:
        """`rule` applied to the wardrobe as it is and written on its version (EconomyError
        from the rule: nothing written); a lost race reads again and applies it again."""
        for attempt in range(ATTEMPTS):
            before = self.wardrobe(player_id)
            after = rule(before)
            stored, condition = self._written(player_id, before, after)
            try:
                stored.save(condition=condition)
            except PutError as error:
                if error.cause_response_code not in LOST_RACE_ERRORS:
                    raise busy_or(error) from error
                self._sleep(random.uniform(0, 0.01 * (attempt + 1)))
                continue
            return after.model_copy(update={"version": before.version + 1})
        raise ServiceBusyError()

    def equip(self, player_id: str, kind: Kind, item_id: str | None, now: datetime) -> Wardrobe:
        return self.change(player_id, lambda w: cosmetics.equip(w, kind, item_id, now))
