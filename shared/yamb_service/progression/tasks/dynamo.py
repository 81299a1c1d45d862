"""Weekly tasks on the game table (docs/progression.md), with pynamodb:

- a week's choice: `WEEK#<week>` / `TASKS` (`entry`: WeekTasks as JSON), written once;
- a player's counter of a week: `PLAYER#<id>` / `WEEK#<week>#COUNT#<counter>` (`tally`, or
  `members` for a distinct counter), added to;
- the tasks a player claimed in a week: `PLAYER#<id>` / `WEEK#<week>#CLAIMED` (`members`);
- a game counted for a player: `GAME#<id>` / `TASKS#<player>`, written with the counters in one
  transaction only if absent, so a game end delivered twice counts once;
- a badge's counter: `PLAYER#<id>` / `COUNT#weekly_challenge` (`tally`), one more with each
  week's bonus (the badges read it).

A player's week is one query (`WEEK#<week>#`). Counters live two months past their week."""

import random
import time
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from pynamodb.exceptions import DoesNotExist, PutError, PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite
from yamb.progression.tasks import Amount, WeekTasks

from yamb_service.common.dynamo import LOST_RACE_ERRORS, DynamoPart, ItemModel, busy_or, player_key
from yamb_service.common.ports import TransactionPart

_TASKS, _CLAIMED, _WEEKLY_CHALLENGE = "TASKS", "CLAIMED", "COUNT#weekly_challenge"
KEPT = timedelta(weeks=9)
ATTEMPTS = 5


def _week_prefix(week: str) -> str:
    return f"WEEK#{week}#"


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


class DynamoTasksStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    # -------------------------------------------------------------- the week's choice

    def week_tasks(self, week: str) -> WeekTasks | None:
        try:
            stored = self._item.get(f"WEEK#{week}", _TASKS, consistent_read=True)
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        return WeekTasks.model_validate_json(stored.entry or "{}")

    def keep_week_tasks(self, tasks: WeekTasks) -> WeekTasks:
        """The week's choice, written if none is yet; the one stored wins a race (or a
        catalogue changed meanwhile)."""
        try:
            self._item(f"WEEK#{tasks.week}", _TASKS, entry=tasks.model_dump_json()).save(
                condition=self._item.pk.does_not_exist(), add_version_condition=False
            )
        except PutError as error:
            if error.cause_response_code not in LOST_RACE_ERRORS:
                raise busy_or(error) from error
            kept = self.week_tasks(tasks.week)
            assert kept is not None
            return kept
        except PynamoDBException as error:
            raise busy_or(error) from error
        return tasks

    # -------------------------------------------------------------- progress

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
        item = self._item
        ttl = _epoch(expires + KEPT)
        for attempt in range(ATTEMPTS):
            try:
                with TransactWrite(connection=item._get_connection().connection) as write:
                    write.save(
                        item(f"GAME#{game_id}", f"TASKS#{player_id}", expires_at=ttl),
                        condition=item.pk.does_not_exist(),
                    )
                    for counter, amount in sorted(amounts.items()):
                        added = (
                            item.members.add(set(amount))
                            if isinstance(amount, frozenset)
                            else item.tally.add(amount)
                        )
                        write.update(
                            item(player_key(player_id), f"{_week_prefix(week)}COUNT#{counter}"),
                            actions=[added, item.expires_at.set(ttl)],
                        )
            except TransactWriteError as error:
                # Puts come first in the transaction: the marker is the first reason.
                codes = [r.code if r else None for r in error.cancellation_reasons or []]
                if codes and codes[0] == "ConditionalCheckFailed":
                    return False
                if "TransactionConflict" in codes and attempt + 1 < ATTEMPTS:
                    time.sleep(random.uniform(0, 0.02 * (attempt + 1)))
                    continue  # another game of the player's, counted at the same moment
                raise busy_or(error) from error
            return True
        raise AssertionError("unreachable")  # pragma: no cover

    def week_of_player(self, player_id: str, week: str) -> tuple[dict[str, Amount], frozenset[str]]:
        """The player's counters of the week, and the tasks claimed in it."""
        counters: dict[str, Amount] = {}
        claimed: frozenset[str] = frozenset()
        prefix = _week_prefix(week)
        try:
            for stored in self._item.query(
                player_key(player_id), self._item.sk.startswith(prefix), consistent_read=True
            ):
                name = stored.sk[len(prefix) :]
                if name == _CLAIMED:
                    claimed = frozenset(stored.members or ())
                elif name.startswith("COUNT#"):
                    counter = name[len("COUNT#") :]
                    counters[counter] = (
                        frozenset(stored.members)
                        if stored.members is not None
                        else int(stored.tally or 0)
                    )
        except PynamoDBException as error:
            raise busy_or(error) from error
        return counters, claimed

    def claimed_counts(self, player_ids: Iterable[str], week: str) -> dict[str, int]:
        """How many tasks each of these players claimed in the week (absent: none), read in
        batches of 100 (a club's members: the club reward, E6)."""
        keys = [
            (player_key(p), f"{_week_prefix(week)}{_CLAIMED}") for p in dict.fromkeys(player_ids)
        ]
        found: dict[str, int] = {}
        try:
            for start in range(0, len(keys), 100):
                for stored in self._item.batch_get(
                    keys[start : start + 100], attributes_to_get=["pk", "members"]
                ):
                    found[stored.pk.removeprefix("PLAYER#")] = len(stored.members or ())
        except PynamoDBException as error:
            raise busy_or(error) from error
        return found

    # -------------------------------------------------------------- claims (with the wallet)

    def claimed_part(
        self, player_id: str, week: str, task_id: str, expires: datetime
    ) -> TransactionPart:
        item = self._item

        def add(write: TransactWrite) -> None:
            write.update(
                item(player_key(player_id), f"{_week_prefix(week)}{_CLAIMED}"),
                actions=[item.members.add({task_id}), item.expires_at.set(_epoch(expires + KEPT))],
            )

        return DynamoPart(add)

    def weekly_challenge_part(self, player_id: str) -> TransactionPart:
        item = self._item

        def add(write: TransactWrite) -> None:
            write.update(
                item(player_key(player_id), _WEEKLY_CHALLENGE), actions=[item.tally.add(1)]
            )

        return DynamoPart(add)
