"""What the weekly tasks need from storage (yamb_service.progression.tasks.dynamo), with
domain types; the wallet and the accounts come through their own domains' ports."""

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Protocol

from yamb.progression.tasks import Amount, WeekTasks

from yamb_service.common.ports import TransactionPart


class TaskStore(Protocol):
    def week_tasks(self, week: str) -> WeekTasks | None:
        """The week's choice as kept (None: none yet)."""

    def keep_week_tasks(self, tasks: WeekTasks) -> WeekTasks:
        """The week's choice, kept if none is yet; the one kept first wins a race."""

    def count(
        self,
        game_id: str,
        player_id: str,
        week: str,
        amounts: Mapping[str, Amount],
        expires: datetime,
    ) -> bool:
        """The game's amounts added to the player's counters of the week, once: False when
        the game was counted for the player before."""

    def claimed_counts(self, player_ids: Iterable[str], week: str) -> dict[str, int]:
        """How many tasks each of these players claimed in the week (absent: none)."""

    def week_of_player(self, player_id: str, week: str) -> tuple[dict[str, Amount], frozenset[str]]:
        """The player's counters of the week, and the tasks claimed in it."""

    def claimed_part(
        self, player_id: str, week: str, task_id: str, expires: datetime
    ) -> TransactionPart:
        """The task marked claimed, in the wallet change that pays its reward."""

    def weekly_challenge_part(self, player_id: str) -> TransactionPart:
        """One more week of every task claimed (the Weekly challenge badge's count), in the
        wallet change that pays the week's bonus."""
