"""The players list on the game table: the index is `gsi1` under `PLAYERS#<shard>` (written with
each active profile by yamb_service.accounts.dynamo: the sort key is the nickname's key and the
player id, `summary` the row's ListedPlayer); presence is the player's record `PLAYER#<id>` /
`PLAYER` as the connection handlers keep it (`connection_id`, `seated_in`), read for a page's
rows in one batch."""

from collections.abc import Iterable

from pynamodb.exceptions import PynamoDBException
from pynamodb.expressions.condition import Condition
from yamb.social.players import ListedPlayer

from yamb_service.common.dynamo import ItemModel, busy_or, player_key
from yamb_service.social.players.ports import Seen

_PLAYER = "PLAYER"


class DynamoPlayerIndex:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def page(
        self, shard: str, *, after: str, prefix: str, limit: int
    ) -> list[tuple[str, ListedPlayer]]:
        # Past the page before (keys in order: the prefix's end is where a key stops holding
        # it), else from the prefix's first key, else from the shard's start.
        condition: Condition | None
        if after:
            condition = self._item.gsi1sk > after
        elif prefix:
            condition = self._item.gsi1sk.startswith(prefix)
        else:
            condition = None
        found: list[tuple[str, ListedPlayer]] = []
        try:
            for entry in self._item.gsi1.query(
                f"PLAYERS#{shard}",
                condition,
                limit=limit,
            ):
                key = entry.gsi1sk or ""
                if not key.startswith(prefix):
                    break
                if entry.summary is None:
                    continue
                found.append((key, ListedPlayer.model_validate_json(entry.summary)))
                if len(found) >= limit:
                    break
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found


class DynamoPresenceReader:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def seen(self, player_ids: Iterable[str]) -> dict[str, Seen]:
        keys = [(player_key(player), _PLAYER) for player in dict.fromkeys(player_ids)]
        found: dict[str, Seen] = {}
        try:
            for start in range(0, len(keys), 100):
                for record in self._item.batch_get(
                    keys[start : start + 100],
                    attributes_to_get=["pk", "connection_id", "seated_in"],
                ):
                    found[record.pk.removeprefix("PLAYER#")] = Seen(
                        connected=record.connection_id is not None,
                        seated_in=record.seated_in,
                    )
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found
