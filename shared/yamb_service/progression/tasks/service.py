"""Weekly tasks (E6): the week's choice (kept by the weekly job, or by the first reader), the
progress each finished game adds (from the table's stream: yamb_service.edge.game_ends), the week's
view with its countdown, and claims paid through the wallet under their keys:
`task:<week>:<task>:<player>` and, once every task is claimed, `tasks-bonus:<week>:<player>`
(with a level's count of the Weekly challenge badge in the same transaction)."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from aws_lambda_powertools.metrics import MetricUnit
from yamb.i18n import DEFAULT_LANGUAGE, Language, Text
from yamb.progression.errors import ProgressionError
from yamb.progression.task_messages import BonusView, ClaimView, TasksView, TaskView
from yamb.progression.tasks import (
    ALL_TASKS_BONUS,
    Catalogue,
    WeekTasks,
    catalogue,
    choose,
    contribution,
    counts,
    is_new,
    needs_mates,
    progress,
    task_to_claim,
)
from yamb.progression.words import said
from yamb.results.periods import Period, week_of

from yamb_service.accounts.ports import Profiles
from yamb_service.common.observability import logger, metrics
from yamb_service.economy.ports import Change, WalletStore
from yamb_service.progression.tasks.ports import TaskStore

if TYPE_CHECKING:  # a type only: the session's models are not imported at run time
    from yamb.session.results import GameResult


def _utc_now() -> datetime:
    return datetime.now(UTC)


def task_key(week: str, task_id: str, player_id: str) -> str:
    return f"task:{week}:{task_id}:{player_id}"


def bonus_key(week: str, player_id: str) -> str:
    return f"tasks-bonus:{week}:{player_id}"


class TaskService:
    def __init__(
        self,
        store: TaskStore,
        wallets: WalletStore,
        accounts: Profiles,
        *,
        book: Callable[[], Catalogue] = catalogue,
        now: Callable[[], datetime] = _utc_now,
        club_mates: Callable[[list[str]], dict[str, frozenset[str]]] = lambda players: {},
        on_claimed: Callable[[str, str, int], object] = lambda player, week, tasks: None,
    ) -> None:
        self.store = store
        self.wallets = wallets
        self.accounts = accounts
        self.book = book
        self.now = now
        # The clubs (yamb_service.clubs.reward): each player's mates at a table (the club
        # group's counter), and what a claim adds to their clubs' week (the club reward, E6:
        # the player, the week, the tasks a player has that week).
        self.club_mates = club_mates
        self.on_claimed = on_claimed
        self._weeks: dict[str, WeekTasks] = {}  # a week's choice never changes once kept

    # ------------------------------------------------------------------ the week's choice

    def week_tasks(self, week: Period) -> WeekTasks:
        """The week's tasks: as kept, or chosen now and kept (the same choice the job makes)."""
        known = self._weeks.get(week.id)
        if known is None:
            known = self.store.week_tasks(week.id) or self.store.keep_week_tasks(
                choose(week, self.book())
            )
            self._weeks[week.id] = known
        return known

    def choose_week(self, now: datetime) -> WeekTasks:
        """The weekly job: the tasks of the week running at `now`."""
        chosen = self.week_tasks(week_of(now))
        logger.info("week's tasks", week=chosen.week, tasks=[c.task.id for c in chosen.chosen])
        return chosen

    # ------------------------------------------------------------------ progress

    def record_game(self, ended: "GameResult") -> int:
        """What the game adds to each player's counters of its week, once per player; the
        number of players it counted for now (0: a game that does not count, or a repeat)."""
        if not counts(ended) or ended.outcome == "cancelled":
            return 0  # a cancelled game counts for nobody (rules.md 8)
        week = week_of(ended.ended_at)
        tasks = self.week_tasks(week)
        counters = tasks.counters()
        mates = (
            self.club_mates([p.player_id for p in ended.players]) if needs_mates(counters) else {}
        )
        counted = 0
        for player in ended.players:
            if player.turns == 0:
                continue  # left before their first turn: they did not play it
            amounts = {
                counter: amount
                for counter in counters
                if (
                    amount := contribution(
                        counter, ended, player, mates.get(player.player_id, frozenset())
                    )
                )
            }
            if not amounts:
                continue
            assert week.end is not None
            if self.store.count(ended.game_id, player.player_id, week.id, amounts, week.end):
                counted += 1
        if counted:
            metrics.add_metric(name="TaskProgressCounted", unit=MetricUnit.Count, value=counted)
        return counted

    # ------------------------------------------------------------------ the player's week

    def _new(self, player_id: str, week: Period) -> bool:
        profile = self.accounts.get(player_id)
        return is_new(profile.created_at if profile else None, week)

    def view(self, player_id: str, language: Language = DEFAULT_LANGUAGE) -> TasksView:
        """The week's tasks with the player's progress, their titles in `language`."""
        now = self.now()
        week = week_of(now)
        assert week.end is not None
        tasks = self.week_tasks(week).tasks_for(self._new(player_id, week))
        counters, claimed = self.store.week_of_player(player_id, week.id)
        views = []
        for task in tasks:
            reached = progress(task, counters.get(task.counter))
            views.append(
                TaskView(
                    id=task.id,
                    group=task.group,
                    title=said(task.title, language),
                    target=task.target,
                    progress=reached,
                    reward=task.reward,
                    done=reached >= task.target,
                    claimed=task.id in claimed,
                )
            )
        ids = [t.id for t in tasks]
        # Every task claimed: the bonus is paid by now (here, if the last claim's call died
        # before it paid it), with no read when it cannot be due.
        self._bonus(player_id, week.id, ids, claimed)
        bonus_claimed = bool(ids) and set(ids) <= claimed
        return TasksView(
            week=week.id,
            ends_at=week.end,
            seconds_left=max(0, int((week.end - now).total_seconds())),
            tasks=views,
            bonus=BonusView(reward=ALL_TASKS_BONUS, claimed=bonus_claimed),
        )

    # ------------------------------------------------------------------ claims

    def claim(self, player_id: str, task_id: str, week_id: str | None = None) -> ClaimView:
        now = self.now()
        week = week_of(now)
        assert week.end is not None
        week_end = week.end
        if week_id is not None and week_id != week.id:
            raise ProgressionError(
                Text(
                    "this is week {week}: the tasks of {week_id} cannot be claimed now",
                    week=week.id,
                    week_id=week_id[:16],
                ),
                code="task_of_another_week",
                field="week",
            )
        week_tasks, new = self.week_tasks(week), self._new(player_id, week)
        tasks = week_tasks.tasks_for(new)
        task = task_to_claim(week_tasks, task_id, new, self.book())
        counters, claimed = self.store.week_of_player(player_id, week.id)
        if task.id in claimed:
            raise ProgressionError(
                Text("this task's reward was claimed already"), code="task_claimed"
            )
        reached = progress(task, counters.get(task.counter))
        if reached < task.target:
            raise ProgressionError(
                Text(
                    "this task is not done yet ({reached} of {target})",
                    reached=reached,
                    target=task.target,
                ),
                code="task_not_done",
            )

        applied = self.wallets.change(
            task_key(week.id, task.id, player_id),
            [Change(player_id, task.reward, "task", detail=f"{week.id}:{task.id}")],
            now,
            also=[self.store.claimed_part(player_id, week.id, task.id, week_end)],
        )
        if not applied.written:  # a claim racing this one was written first
            raise ProgressionError(
                Text("this task's reward was claimed already"), code="task_claimed"
            )
        metrics.add_metric(name="TaskClaimed", unit=MetricUnit.Count, value=1)
        logger.info("task claimed", week=week.id, task=task.id, tokens=task.reward)
        # Read again after the write: of two last claims racing, the later read sees both.
        _, claimed = self.store.week_of_player(player_id, week.id)
        bonus = self._bonus(player_id, week.id, [t.id for t in tasks], claimed)
        self.on_claimed(player_id, week.id, len(tasks))
        return ClaimView(
            week=week.id,
            task_id=task.id,
            tokens=task.reward,
            bonus=bonus,
            balance=self.wallets.wallet(player_id).balance,
        )

    def _bonus(
        self, player_id: str, week: str, task_ids: list[str], claimed: frozenset[str]
    ) -> int:
        """The week's bonus, paid once every task is claimed (by the last claim, or by the
        next view if that claim's call died after it); the tokens paid now, else 0."""
        if not task_ids or not set(task_ids) <= claimed:
            return 0

        applied = self.wallets.change(
            bonus_key(week, player_id),
            [Change(player_id, ALL_TASKS_BONUS, "task", detail=f"{week}:all")],
            self.now(),
            also=[self.store.weekly_challenge_part(player_id)],
        )
        if not applied.written:
            return 0
        metrics.add_metric(name="WeeklyTasksCompleted", unit=MetricUnit.Count, value=1)
        logger.info("week's tasks all claimed", week=week)
        return ALL_TASKS_BONUS
