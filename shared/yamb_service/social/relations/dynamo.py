"""Favourites and blocks on the game table, in the owner's partition:
`PLAYER#<owner>` / `FAVOURITE#<other>` and `PLAYER#<owner>` / `BLOCK#<other>` (`entry`: the
Relation as JSON). A player's favourites are one query; a block between two players is one
batch read of both sides' items."""

from pynamodb.exceptions import DeleteError, DoesNotExist, PutError, PynamoDBException

from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, busy_or, player_key
from yamb_service.social.relations.ports import Relation, RelationKind

_PREFIX: dict[RelationKind, str] = {"favourite": "FAVOURITE#", "block": "BLOCK#"}


def _sort_key(kind: RelationKind, other: str) -> str:
    return f"{_PREFIX[kind]}{other}"


class DynamoRelations:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def add(self, relation: Relation) -> bool:
        stored = self._item(
            player_key(relation.owner),
            _sort_key(relation.kind, relation.other),
            entry=relation.model_dump_json(),
        )
        try:
            stored.save(condition=self._item.sk.does_not_exist(), add_version_condition=False)
        except PutError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def remove(self, owner: str, other: str, kind: RelationKind) -> bool:
        stored = self._item(player_key(owner), _sort_key(kind, other))
        try:
            stored.delete(condition=self._item.sk.exists(), add_version_condition=False)
        except DeleteError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def of(self, owner: str, kind: RelationKind) -> list[Relation]:
        try:
            found = [
                Relation.model_validate_json(item.entry or "{}")
                for item in self._item.query(
                    player_key(owner), self._item.sk.startswith(_PREFIX[kind])
                )
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error
        return sorted(found, key=lambda relation: relation.since)

    def has(self, owner: str, other: str, kind: RelationKind) -> bool:
        try:
            self._item.get(player_key(owner), _sort_key(kind, other), attributes_to_get=["pk"])
        except DoesNotExist:
            return False
        except PynamoDBException as error:
            raise busy_or(error) from error
        return True

    def blocked_either_way(self, first: str, second: str) -> bool:
        keys = [
            (player_key(first), _sort_key("block", second)),
            (player_key(second), _sort_key("block", first)),
        ]
        try:
            return any(True for _ in self._item.batch_get(keys, attributes_to_get=["pk"]))
        except PynamoDBException as error:
            raise busy_or(error) from error
