"""Favourites and blocks kept on the table (yamb_service.social.relations.dynamo)."""

from datetime import UTC, datetime, timedelta
from typing import Any

from yamb_service.social.relations.dynamo import DynamoRelations
from yamb_service.social.relations.ports import Relation

MONDAY = datetime(2026, 12, 7, 9, tzinfo=UTC)


def _relation(owner: str, other: str, kind: Any, minutes: int = 0) -> Relation:
    return Relation(owner=owner, other=other, kind=kind, since=MONDAY + timedelta(minutes=minutes))


def test_a_favourite_is_a_one_way_follow_kept_once(table: str, item: Any) -> None:
    # Given ana follows bo
    relations = DynamoRelations(item)
    assert relations.add(_relation("ana", "bo", "favourite"))
    # When she follows him again later
    again = relations.add(_relation("ana", "bo", "favourite", minutes=5))
    # Then nothing changes: the first follow stays, and bo does not follow ana
    assert not again
    assert relations.of("ana", "favourite") == [_relation("ana", "bo", "favourite")]
    assert relations.of("bo", "favourite") == []
    assert relations.has("ana", "bo", "favourite")
    assert not relations.has("bo", "ana", "favourite")


def test_favourites_and_blocks_are_listed_apart_oldest_first(table: str, item: Any) -> None:
    # Given ana follows cy then bo, and blocks dan
    relations = DynamoRelations(item)
    relations.add(_relation("ana", "cy", "favourite", minutes=1))
    relations.add(_relation("ana", "bo", "favourite", minutes=2))
    relations.add(_relation("ana", "dan", "block"))
    # Then each list holds its own kind, in the order they were made
    assert [r.other for r in relations.of("ana", "favourite")] == ["cy", "bo"]
    assert [r.other for r in relations.of("ana", "block")] == ["dan"]


def test_a_block_is_seen_from_either_side_until_it_is_removed(table: str, item: Any) -> None:
    # Given bo blocked ana
    relations = DynamoRelations(item)
    relations.add(_relation("bo", "ana", "block"))
    # Then the block stands whichever player asks, and not between others
    assert relations.blocked_either_way("ana", "bo")
    assert relations.blocked_either_way("bo", "ana")
    assert not relations.blocked_either_way("ana", "cy")
    # When bo removes it (twice: the second finds none)
    assert relations.remove("bo", "ana", "block")
    assert not relations.remove("bo", "ana", "block")
    # Then it is gone both ways
    assert not relations.blocked_either_way("ana", "bo")
