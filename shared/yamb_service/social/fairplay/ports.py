"""What fair play needs from storage (yamb_service.social.fairplay.dynamo)."""

from collections.abc import Callable
from typing import Protocol

from yamb.social.fairplay import FairplayRecord


class FairplayStore(Protocol):
    def get(self, player_id: str) -> FairplayRecord:
        """The player's record (an empty one when they have none)."""

    def update(
        self, player_id: str, change: Callable[[FairplayRecord], FairplayRecord]
    ) -> tuple[FairplayRecord, FairplayRecord]:
        """(before, after): `change` applied to the record as stored, written on the condition
        that nobody wrote it meanwhile, and applied again on fresh state after a lost race."""


class MemoryFairplayStore:
    """A FairplayStore in memory (tests, and services wired without a table)."""

    def __init__(self) -> None:
        self.records: dict[str, FairplayRecord] = {}

    def get(self, player_id: str) -> FairplayRecord:
        return self.records.get(player_id, FairplayRecord())

    def update(
        self, player_id: str, change: Callable[[FairplayRecord], FairplayRecord]
    ) -> tuple[FairplayRecord, FairplayRecord]:
        before = self.get(player_id)
        after = change(before)
        self.records[player_id] = after
        return before, after
