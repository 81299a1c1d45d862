"""Weekly tasks (E6): the catalogue (data: catalogue.json), the week's choice, what a finished game
counts towards them, and the rewards.

Each ISO week (UTC) has one task per group, the same for every player, chosen from the catalogue
by a generator seeded with the week's id: the same week always gets the same choice, so the job
that stores it at the week's start and any reader that comes before it agree. A group whose
tasks all need a feature that does not exist yet (FEATURES) gets no task. A premium task (one a free
account cannot do) has a stand-in of its group, which players in their first three weeks get.

A task counts one counter (`games`, `opponents`, `games_of_preset:5`...), from the games that
count: at least two people at the table, no bot (rules: solo games, bot games and system
accounts do not count; bots are the only system players so far)."""

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from yamb.i18n import Text
from yamb.progression.errors import ProgressionError
from yamb.results.periods import Period, week_of

if TYPE_CHECKING:  # types only: the session's models are not imported at run time (an account
    # function builds the task service without them)
    from yamb.session.results import GameResult, PlayerResult

type Group = Literal["engagement", "social", "skill", "breadth", "club"]
GROUPS: tuple[Group, ...] = get_args(Group.__value__)
# Tokens for a claimed task, by group; the week's bonus once every task is claimed.
REWARDS: dict[Group, int] = {"engagement": 5, "social": 10, "skill": 15, "breadth": 20, "club": 15}
ALL_TASKS_BONUS = 10
# What exists of the product: a task needing anything else is never chosen.
FEATURES: frozenset[str] = frozenset({"clubs"})
# A player's first weeks without premium tasks: the week of the sign-up and the two after.
NEW_PLAYER_WEEKS = 3
CATALOGUE_FILE = Path(__file__).with_name("catalogue.json")

# ---------------------------------------------------------------------------- counters


def _humans(ended: "GameResult") -> list["PlayerResult"]:
    return [p for p in ended.players if p.bot is None]


def counts(ended: "GameResult") -> bool:
    """Whether the game counts for tasks: two people or more at the table, and no bot."""
    return len(ended.players) >= 2 and len(_humans(ended)) == len(ended.players)


type Amount = int | frozenset[str]
type Measure = Callable[[GameResult, PlayerResult, str], Amount]
# A counter measured from the player's club mates at the table, which the service finds out
# beside the game (the clubs' lists): `(game, player, mates) -> amount`.
type MatesMeasure = Callable[[GameResult, PlayerResult, frozenset[str]], Amount]


@dataclass(frozen=True, slots=True)
class Counter:
    """What one game adds for one player: a number, or members of a set (`distinct`: the task's
    progress is how many different members)."""

    measure: Measure
    distinct: bool = False
    parameter: Callable[[str], object] | None = None  # checks the part after ':' (if taken)
    # Set for a counter of club mates (`contribution`'s `mates`), in place of `measure`.
    with_mates: MatesMeasure | None = None


def _facts(player: "PlayerResult", name: str) -> int:
    return int(getattr(player.facts, name)) if player.facts is not None else 0


def _won(ended: "GameResult", player: "PlayerResult") -> bool:
    return player.player_id in ended.winners


def _preset(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 7:
        raise ValueError("a preset is 1 to 7")
    return value


def _table(text: str) -> int:
    value = int(text)
    if not 2 <= value <= 4:
        raise ValueError("a table has 2 to 4 seats")
    return value


def _turn_type(text: str) -> str:
    if text not in ("turn_by_turn", "simultaneous", "each_for_themself", "slow"):
        raise ValueError("a turn type is turn_by_turn, simultaneous, each_for_themself or slow")
    return text


COUNTERS: dict[str, Counter] = {
    "games": Counter(lambda e, p, _: 1),
    "turns": Counter(lambda e, p, _: p.turns),
    "full_sheets": Counter(lambda e, p, _: int(p.full and not p.left)),
    "wins": Counter(lambda e, p, _: int(_won(e, p))),
    "ranked_wins": Counter(lambda e, p, _: int(_won(e, p) and e.settings.ranked)),
    "yambs": Counter(lambda e, p, _: _facts(p, "yambs")),
    "bonuses": Counter(lambda e, p, _: _facts(p, "bonuses")),
    "sheets_scoring": Counter(lambda e, p, at: int(p.total >= int(at)), parameter=int),
    "opponents": Counter(
        lambda e, p, _: frozenset(o.player_id for o in e.players if o.player_id != p.player_id),
        distinct=True,
    ),
    "pairs_games": Counter(lambda e, p, _: int(e.settings.pairs)),
    "games_at_tables_of": Counter(
        lambda e, p, seats: int(len(e.players) >= int(seats)), parameter=_table
    ),
    "presets": Counter(
        lambda e, p, _: frozenset({str(e.settings.preset)} if e.settings.preset else ()),
        distinct=True,
    ),
    "games_of_preset": Counter(
        lambda e, p, preset: int(e.settings.preset == int(preset)), parameter=_preset
    ),
    "games_of_turn_type": Counter(
        lambda e, p, kind: int(e.settings.turn_type == kind), parameter=_turn_type
    ),
    "six_dice_games": Counter(lambda e, p, _: int(e.settings.dice == 6)),
    "family_grid_games": Counter(lambda e, p, _: int(e.settings.grid != "yamb")),
    # A game with at least one member of one of the player's live clubs at the table (C6, E6).
    "club_games": Counter(
        lambda e, p, _: 0,
        with_mates=lambda e, p, mates: int(
            any(o.player_id in mates for o in e.players if o.player_id != p.player_id)
        ),
    ),
}


def _counter(name: str) -> tuple[Counter, str]:
    base, _, parameter = name.partition(":")
    counter = COUNTERS.get(base)
    if counter is None:
        raise ValueError(f"unknown counter {base!r}")
    if (counter.parameter is None) != (parameter == ""):
        raise ValueError(f"counter {base!r} takes {'a' if counter.parameter else 'no'} parameter")
    if counter.parameter is not None:
        counter.parameter(parameter)
    return counter, parameter


def contribution(
    counter_name: str,
    ended: "GameResult",
    player: "PlayerResult",
    mates: frozenset[str] = frozenset(),
) -> Amount:
    """What the game adds to `counter_name` for `player` (0 or an empty set: nothing); `mates`
    are the other players at the table who share a live club with them."""
    counter, parameter = _counter(counter_name)
    if counter.with_mates is not None:
        return counter.with_mates(ended, player, mates)
    return counter.measure(ended, player, parameter)


def needs_mates(counter_names: Iterable[str]) -> bool:
    """Whether any of these counters is measured from club mates (the service reads the clubs
    only then)."""
    return any(_counter(name)[0].with_mates is not None for name in counter_names)


# --------------------------------------------------------------------------- catalogue


class Task(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")
    group: Group
    title: str = Field(min_length=1, max_length=80)
    counter: str
    target: int = Field(ge=1, le=10_000)
    premium: bool = False  # a free account cannot do it
    requires: frozenset[str] = frozenset()  # features it needs

    @property
    def reward(self) -> int:
        return REWARDS[self.group]

    @property
    def available(self) -> bool:
        return self.requires <= FEATURES

    @model_validator(mode="after")
    def _known_counter(self) -> "Task":
        if self.available:  # a task of a feature to come may name a counter to come
            _counter(self.counter)
        return self


class Catalogue(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    about: str = ""
    tasks: tuple[Task, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _coherent(self) -> "Catalogue":
        ids = [task.id for task in self.tasks]
        if len(ids) != len(set(ids)):
            raise ValueError("task ids must be unique")
        for group in GROUPS:
            tasks = self.of(group)
            if any(t.premium for t in tasks) and all(t.premium for t in tasks):
                raise ValueError(f"group {group!r} needs a task without premium for new players")
        return self

    def of(self, group: Group) -> list[Task]:
        return [task for task in self.tasks if task.group == group and task.available]

    def task(self, task_id: str) -> Task | None:
        return next((task for task in self.tasks if task.id == task_id), None)


def parse_catalogue(text: str) -> Catalogue:
    try:
        return Catalogue.model_validate_json(text)
    except ValidationError as error:
        raise ValueError(f"the task catalogue is not valid: {error}") from None


@cache
def catalogue() -> Catalogue:
    return parse_catalogue(CATALOGUE_FILE.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------- week's choice


class ChosenTask(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    task: Task
    standin: Task | None = None  # for players in their first weeks, when `task` is premium

    def for_player(self, new: bool) -> Task:
        return self.standin if new and self.standin is not None else self.task


class WeekTasks(BaseModel):
    """A week's tasks, as the weekly job stores them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    week: str
    chosen: tuple[ChosenTask, ...]

    def counters(self) -> frozenset[str]:
        """Every counter a game of the week adds to (the stand-ins' too)."""
        tasks = [c.task for c in self.chosen] + [c.standin for c in self.chosen if c.standin]
        return frozenset(task.counter for task in tasks)

    def tasks_for(self, new: bool) -> list[Task]:
        return [chosen.for_player(new) for chosen in self.chosen]


def choose(week: Period, book: Catalogue) -> WeekTasks:
    """The week's tasks: one of each group that has a task available, the same for a week
    however often it is asked."""
    pick = random.Random(f"yamb-weekly-tasks/{week.id}")
    chosen = []
    for group in GROUPS:
        tasks = book.of(group)
        if not tasks:
            continue  # a group whose every task needs what does not exist yet
        task = pick.choice(tasks)
        standin = pick.choice([t for t in tasks if not t.premium]) if task.premium else None
        chosen.append(ChosenTask(task=task, standin=standin))
    return WeekTasks(week=week.id, chosen=tuple(chosen))


def is_new(signed_up: datetime | None, week: Period) -> bool:
    """Whether the week is among the player's first three: the sign-up's week and the next two
    (an unknown sign-up counts as an old player)."""
    if signed_up is None or week.start is None:
        return False
    first = week_of(signed_up).start
    assert first is not None
    return week.start < first + timedelta(weeks=NEW_PLAYER_WEEKS)


def task_to_claim(week_tasks: WeekTasks, task_id: str, new: bool, book: Catalogue) -> Task:
    """The player's task of this week named `task_id`, or why it cannot be claimed."""
    for task in week_tasks.tasks_for(new):
        if task.id == task_id:
            return task
    if book.task(task_id) is None and not any(
        c.task.id == task_id or (c.standin and c.standin.id == task_id) for c in week_tasks.chosen
    ):
        raise ProgressionError(
            Text("there is no task '{task_id}'", task_id=task_id[:40]),
            code="unknown_task",
            field="taskId",
        )
    raise ProgressionError(
        Text(
            "'{task_id}' is not one of your tasks of week {week}",
            task_id=task_id[:40],
            week=week_tasks.week,
        ),
        code="task_of_another_week",
        field="taskId",
    )


def progress(task: Task, amount: int | frozenset[str] | None) -> int:
    """How far the player is, up to the task's target."""
    if amount is None:
        return 0
    reached = len(amount) if isinstance(amount, frozenset) else amount
    return min(reached, task.target)
