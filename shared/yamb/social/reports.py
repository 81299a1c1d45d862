"""Reports (S5), pure: what can be reported, by whom, how often, and when a target is hidden.

A report is of a player, of a club (its name, tag and description: its admin answers for it) or
of one message (private or in the general chat), with its content as the reporter saw it,
attached by the server. A target's reports make one case; the third
different reporter hides the target until an operator reviews the case (dismiss: shown again;
hide: kept hidden; warn: the player is mailed a warning; ban: the account is banned and signed
out everywhere). A player files at most DAILY_LIMIT reports a day, one per target."""

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

DAILY_LIMIT = 10
HIDE_AT = 3
MAX_NOTE_CHARS = 300


class Reason(StrEnum):
    ABUSE = "abuse"
    CHEATING = "cheating"
    SPAM = "spam"
    NICKNAME = "nickname"
    OTHER = "other"


# "hidden": by three reporters, waiting for review; "removed": an operator kept it hidden.
type CaseStatus = Literal["open", "hidden", "dismissed", "removed", "warned", "banned"]
type ReviewAction = Literal["dismiss", "hide", "warn", "ban"]
# A case waits in the review queue while it is one of these.
TO_REVIEW: tuple[CaseStatus, ...] = ("open", "hidden")
AFTER: dict[ReviewAction, CaseStatus] = {
    "dismiss": "dismissed",
    "hide": "removed",
    "warn": "warned",
    "ban": "banned",
}


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Target(_Model):
    """What a case is about: a player, a club (`author`: its admin), or one message of a
    player's (`author`)."""

    kind: Literal["player", "club", "private", "general"]
    author: str  # the player reported, the club's admin, or the message's sender
    author_nickname: str
    # A private message: its recipient and id; a general-chat line: its id.
    recipient: str | None = None
    message_id: str | None = None
    # A club: its id and name.
    club_id: str | None = None
    club_name: str | None = None

    @property
    def case_id(self) -> str:
        if self.kind == "player":
            return f"player:{self.author}"
        if self.kind == "club":
            return f"club:{self.club_id}"
        if self.kind == "private":
            return f"private:{self.author}:{self.recipient}:{self.message_id}"
        return f"general:{self.message_id}"


class Report(_Model):
    reporter: str
    reporter_nickname: str
    reason: Reason
    note: str = ""
    at: datetime


class Case(_Model):
    case_id: str
    target: Target
    # The content attached: the message's text, or the player's nickname and description.
    content: str
    status: CaseStatus = "open"
    reporters: int = 0
    opened_at: datetime
    reports: list[Report] = Field(default_factory=list)
    reviewed_by: str | None = None
    review_note: str | None = None

    def hides_now(self) -> bool:
        """Whether the target should be hidden: enough reporters and not reviewed yet."""
        return self.status == "open" and self.reporters >= HIDE_AT
