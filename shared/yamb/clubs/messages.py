"""What the clubs' routes take and answer (HTTP, JSON in camelCase)."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.clubs import rules
from yamb.clubs.model import Entry, Role
from yamb.clubs.tag import TagView
from yamb.economy.ledger import LedgerEntry


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class ColoursBody(_Model):
    text: str = Field(max_length=7, description="#rrggbb")
    background: str = Field(max_length=7, description="#rrggbb")


class FoundRequest(_Model):
    name: str = Field(max_length=64)
    tag: str = Field(max_length=16)
    colours: ColoursBody | None = None
    avatar: str = Field(default=rules.STOCK_AVATARS[0], max_length=16)
    description: str = Field(default="", max_length=1_000)
    entry: Entry = "open"


class EditRequest(_Model):
    """Only the fields given change (the admin)."""

    tag: str | None = Field(default=None, max_length=16)
    colours: ColoursBody | None = None
    avatar: str | None = Field(default=None, max_length=16)
    description: str | None = Field(default=None, max_length=1_000)
    entry: Entry | None = None


class RenameRequest(_Model):
    name: str = Field(max_length=64)


class JoinRequest(_Model):
    """Joins an open club at once; asks to join one by approval, with a short message."""

    message: str = Field(default="", max_length=rules.MAX_REQUEST_MESSAGE_CHARS)


class DecisionRequest(_Model):
    accept: bool


class InviteRequest(_Model):
    nickname: str = Field(min_length=1, max_length=64)


class AnswerRequest(_Model):
    accept: bool


class RoleRequest(_Model):
    role: Role = Field(description="deputy or member (the admin's seat: hand over)")


class HandOverRequest(_Model):
    nickname: str = Field(min_length=1, max_length=64)


class OrderRequest(_Model):
    club_ids: list[str] = Field(max_length=rules.CLUBS_PREMIUM)


class DonationRequest(_Model):
    amount: int = Field(ge=1, le=1_000_000)


class ClubRow(_Model):
    club_id: str
    name: str
    tag: TagView
    avatar: str
    entry: Entry
    members: int
    capacity: int
    level: int


class ClubsPage(_Model):
    clubs: list[ClubRow]
    next: str | None = Field(default=None, description="the `after` of the next page")


class MemberView(_Model):
    nickname: str
    role: Role
    joined_at: datetime
    you: bool = Field(description="this member is the reader")
    # The treasury's donors are for members' eyes only (C5): 0 for others.
    donated: int


class RequestView(_Model):
    nickname: str
    message: str
    at: datetime


class AnnouncementView(_Model):
    id: str
    sender: str = Field(description="the admin's or deputy's nickname")
    text: str
    sent_at: datetime


class ClubView(_Model):
    """A club's page. `you` is the reader's role (none: not a member); the members' donations,
    the requests and the treasury are shown to members only."""

    club: ClubRow
    description: str
    founded_at: datetime
    admin: str
    deputies: int
    deputies_allowed: int
    renames: int
    next_rename_price: int
    next_level_price: int | None
    own_avatar_price: int
    owns_avatar: bool
    you: Role | None
    requested: bool = Field(description="the reader asked to join and waits for a decision")
    members: list[MemberView]
    requests: list[RequestView]
    treasury: int | None
    announcements: list[AnnouncementView] = Field(
        description="the latest, newest first (members only)"
    )


class MembershipView(_Model):
    club_id: str
    name: str
    tag: TagView
    role: Role
    joined_at: datetime
    dormant: bool
    unread: int = Field(description="announcements since the player last read the club's page")


class InvitationView(_Model):
    club_id: str
    name: str
    tag: TagView
    by: str
    at: datetime


class MyClubsView(_Model):
    """The player's clubs in their order (the first is the main club), the invitations
    waiting for an answer and how many clubs they may be in."""

    clubs: list[MembershipView]
    invitations: list[InvitationView]
    allowed: int


class JoinedView(_Model):
    """joined: a member now; requested: the admin or a deputy decides."""

    outcome: str = Field(description="joined or requested")
    club: ClubRow


class TreasuryView(_Model):
    balance: int
    history: list[LedgerEntry]


class DonatedView(_Model):
    entry: LedgerEntry
    treasury: int


class ClubBoardRow(_Model):
    place: int
    club: ClubRow
    score: int
    counted: int = Field(description="the members whose points make the score")


class ClubBoardView(_Model):
    """The month's club board (C7): each club's members' main-board scores of the month,
    summed; members who joined during the month and dormant memberships do not count. No
    token prizes."""

    period: str
    rows: list[ClubBoardRow]
