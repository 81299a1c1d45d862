"""What favourites and blocks need from storage (yamb_service.social.relations.dynamo)."""

from datetime import datetime
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

type RelationKind = Literal["favourite", "block"]


class Relation(BaseModel):
    """`owner` follows (favourite) or blocked (block) `other`, since `since`."""

    model_config = ConfigDict(frozen=True)
    owner: str
    other: str
    kind: RelationKind
    since: datetime


class Relations(Protocol):
    def add(self, relation: Relation) -> bool:
        """The relation kept; False when it was already (the first `since` stays)."""

    def remove(self, owner: str, other: str, kind: RelationKind) -> bool:
        """The relation gone; False when there was none."""

    def of(self, owner: str, kind: RelationKind) -> list[Relation]:
        """Every relation of that kind the owner holds, oldest first."""

    def has(self, owner: str, other: str, kind: RelationKind) -> bool:
        """Whether the owner holds that relation to `other`."""

    def blocked_either_way(self, first: str, second: str) -> bool:
        """Whether either player blocked the other (one read of both items)."""
