"""Blocks on the game table, in the owner's partition: `PLAYER#<owner>` / `BLOCK#<other>`
(`entry`: the Block as JSON). A player's blocks are one query; whether two players blocked each
other is one batch read of both sides' items."""

from pynamodb.exceptions import DeleteError, PutError, PynamoDBException

from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, busy_or, player_key
from yamb_service.social.blocks.ports import Block

_BLOCK = "BLOCK#"


class DynamoBlocks:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def add(self, block: Block) -> bool:
        stored = self._item(
            player_key(block.owner), f"{_BLOCK}{block.other}", entry=block.model_dump_json()
        )
        try:
            stored.save(condition=self._item.sk.does_not_exist(), add_version_condition=False)
        except PutError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def remove(self, owner: str, other: str) -> bool:
        stored = self._item(player_key(owner), f"{_BLOCK}{other}")
        try:
            stored.delete(condition=self._item.sk.exists(), add_version_condition=False)
        except DeleteError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def of(self, owner: str) -> list[Block]:
        try:
            found = [
                Block.model_validate_json(item.entry or "{}")
                for item in self._item.query(player_key(owner), self._item.sk.startswith(_BLOCK))
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error
        return sorted(found, key=lambda block: block.since)

    def blocked_either_way(self, first: str, second: str) -> bool:
        keys = [
            (player_key(first), f"{_BLOCK}{second}"),
            (player_key(second), f"{_BLOCK}{first}"),
        ]
        try:
            return any(True for _ in self._item.batch_get(keys, attributes_to_get=["pk"]))
        except PynamoDBException as error:
            raise busy_or(error) from error
