"""What the reports, review and contact routes take and answer (HTTP, JSON in camelCase)."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.social.reports import MAX_NOTE_CHARS, Case, Reason, ReviewAction

MAX_SUBJECT_CHARS = 120
MAX_CONTACT_CHARS = 3_000


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class ReportedMessage(_Model):
    """The message as the reporter has it: a private message of their conversation with
    `with`, or a line of the general chat's window."""

    channel: Literal["private", "general"]
    id: str = Field(min_length=1, max_length=40)
    with_: str | None = Field(default=None, alias="with", max_length=64)


class ReportRequest(_Model):
    kind: Literal["player", "club", "message"]
    nickname: str | None = Field(default=None, max_length=64, description="kind=player")
    club_id: str | None = Field(default=None, max_length=64, description="kind=club")
    message: ReportedMessage | None = Field(default=None, description="kind=message")
    reason: Reason
    note: str = Field(default="", max_length=MAX_NOTE_CHARS)


class ReportView(_Model):
    """The report filed: its case, and whether the target is hidden now."""

    case_id: str
    reporters: int
    hidden: bool


class CasesView(_Model):
    cases: list[Case]


class ReviewRequest(_Model):
    action: ReviewAction
    note: str = Field(default="", max_length=MAX_NOTE_CHARS)


class ContactRequest(_Model):
    subject: str = Field(min_length=1, max_length=MAX_SUBJECT_CHARS)
    text: str = Field(min_length=1, max_length=MAX_CONTACT_CHARS)


class ContactView(_Model):
    sent_at: datetime
