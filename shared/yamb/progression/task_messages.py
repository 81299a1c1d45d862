"""What the weekly tasks' API answers (HTTP, JSON in camelCase): the week's tasks with the
player's progress, and a claim's outcome."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.progression.tasks import Group


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class TaskView(_View):
    id: str
    group: Group
    title: str
    target: int
    progress: int
    reward: int
    done: bool
    claimed: bool


class BonusView(_View):
    """The week's bonus for every task claimed: tokens and a level of Weekly challenge."""

    reward: int
    claimed: bool


class TasksView(_View):
    week: str
    ends_at: datetime
    seconds_left: int  # the countdown to the week's end
    tasks: list[TaskView]
    bonus: BonusView


class ClaimView(_View):
    week: str
    task_id: str
    tokens: int
    # The week's bonus, when this claim was the last task (paid with it).
    bonus: int = 0
    balance: int


class ClaimRequest(BaseModel):
    """A claim's body (optional): the week the player means, refused when it is not this one."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    week: str | None = Field(default=None, max_length=16)
