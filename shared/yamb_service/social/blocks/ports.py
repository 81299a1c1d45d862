"""What blocks need from storage (yamb_service.social.blocks.dynamo)."""

from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, ConfigDict


class Block(BaseModel):
    """`owner` blocked `other` at `since`."""

    model_config = ConfigDict(frozen=True)
    owner: str
    other: str
    since: datetime


class Blocks(Protocol):
    def add(self, block: Block) -> bool:
        """The block kept; False when it was already (the first `since` stays)."""

    def remove(self, owner: str, other: str) -> bool:
        """The block gone; False when there was none."""

    def of(self, owner: str) -> list[Block]:
        """Every block the owner holds, oldest first."""

    def blocked_either_way(self, first: str, second: str) -> bool:
        """Whether either player blocked the other (one read of both items)."""
