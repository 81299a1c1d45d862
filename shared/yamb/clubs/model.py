"""A club and its people (C1-C4), and every change of them as a pure step: each returns the new
state or raises a ClubError, so the store writes it whole, on the version read, or nothing.

Who may do what (C3) is `RIGHTS`, data: deputies decide requests, invite, kick ordinary members
and raise the level; the admin does everything, appoints and revokes deputies, renames and
closes the club, and hands over before leaving.
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from yamb.clubs import rules
from yamb.clubs.errors import ClubError
from yamb.decency import find_offence
from yamb.i18n import Text

type Role = Literal["member", "deputy", "admin"]
type Entry = Literal["open", "approval"]
type Right = Literal[
    "announce",
    "decide_requests",
    "invite",
    "kick_member",
    "kick_deputy",
    "raise_level",
    "appoint_deputy",
    "edit",
    "rename",
    "buy_avatar",
    "close",
    "hand_over",
]

_DEPUTY: frozenset[Right] = frozenset(
    {"announce", "decide_requests", "invite", "kick_member", "raise_level"}
)
RIGHTS: dict[Role, frozenset[Right]] = {
    "member": frozenset(),
    "deputy": _DEPUTY,
    "admin": _DEPUTY
    | {"kick_deputy", "appoint_deputy", "edit", "rename", "buy_avatar", "close", "hand_over"},
}


def require(role: Role | None, right: Right) -> None:
    if role is None:
        raise ClubError(Text("you are not a member of this club"), code="not_a_member")
    if right not in RIGHTS[role]:
        raise ClubError(Text("your role in the club does not allow this"), code="not_allowed")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class TagColours(_Frozen):
    text: str = "#ffffff"
    background: str = "#2f6f4f"


class Club(_Frozen):
    club_id: str
    name: str
    tag: str
    colours: TagColours = Field(default_factory=TagColours)
    avatar: str = rules.STOCK_AVATARS[0]
    owns_avatar: bool = False
    description: str = ""
    entry: Entry = "open"
    level: int = 0
    members: int = 1
    deputies: int = 0
    admin_id: str
    renames: int = 0
    founded_at: datetime
    closed: bool = False
    # Hidden by three reports until an operator reviews it (S5): not listed, its page for its
    # members only.
    hidden: bool = False
    # Written changes: each write is conditioned on the version read.
    version: int = 0

    @property
    def capacity(self) -> int:
        return rules.capacity(self.level)

    @property
    def full(self) -> bool:
        return self.members >= self.capacity

    def _next(self, **changes: object) -> "Club":
        return self.model_copy(update={**changes, "version": self.version + 1})

    def open_for_changes(self) -> None:
        if self.closed:
            raise ClubError(Text("this club was closed"), code="club_closed")

    def joined(self) -> "Club":
        """One member more (ClubError club_full at capacity)."""
        self.open_for_changes()
        if self.full:
            raise ClubError(
                Text("the club is full ({capacity} members)", capacity=self.capacity),
                code="club_full",
            )
        return self._next(members=self.members + 1)

    def left(self, role: Role) -> "Club":
        """A member or deputy gone (the admin hands over first)."""
        if role == "admin":
            raise ClubError(
                Text("the admin hands the club over to a member before leaving"),
                code="admin_cannot_leave",
            )
        deputies = self.deputies - 1 if role == "deputy" else self.deputies
        return self._next(members=self.members - 1, deputies=deputies)

    def with_deputy(self) -> "Club":
        allowed = rules.deputies_allowed(self.members)
        if self.deputies >= allowed:
            raise ClubError(
                Text(
                    "a club of {members} members has at most {allowed} deputies",
                    members=self.members,
                    allowed=allowed,
                ),
                code="deputy_limit",
            )
        return self._next(deputies=self.deputies + 1)

    def without_deputy(self) -> "Club":
        return self._next(deputies=self.deputies - 1)

    def handed_to(self, player_id: str, their_role: Role) -> "Club":
        """The admin's seat to a member or deputy; the old admin stays as a member."""
        deputies = self.deputies - 1 if their_role == "deputy" else self.deputies
        return self._next(admin_id=player_id, deputies=deputies)

    def levelled(self) -> tuple["Club", int]:
        """One level more, and its price (ClubError max_level past the last)."""
        self.open_for_changes()
        level = self.level + 1
        return self._next(level=level), rules.level_price(level)

    def renamed(self, name: str) -> tuple["Club", int]:
        self.open_for_changes()
        return self._next(name=name, renames=self.renames + 1), rules.rename_price(self.renames)

    def with_own_avatar(self) -> tuple["Club", int]:
        self.open_for_changes()
        if self.owns_avatar:
            return self._next(avatar=rules.OWN_AVATAR), 0
        return self._next(avatar=rules.OWN_AVATAR, owns_avatar=True), rules.OWN_AVATAR_PRICE

    def edited(
        self,
        *,
        description: str | None = None,
        entry: Entry | None = None,
        colours: TagColours | None = None,
        tag: str | None = None,
        avatar: str | None = None,
    ) -> "Club":
        self.open_for_changes()
        changes: dict[str, object] = {}
        if description is not None:
            changes["description"] = description
        if entry is not None:
            changes["entry"] = entry
        if colours is not None:
            changes["colours"] = colours
        if tag is not None:
            changes["tag"] = tag
        if avatar is not None:
            if avatar == rules.OWN_AVATAR and not self.owns_avatar:
                raise ClubError(
                    Text("the club's own avatar is bought from the treasury first"),
                    code="club_avatar_invalid",
                    field="avatar",
                )
            changes["avatar"] = avatar
        return self._next(**changes)

    def shown(self, shown: bool) -> "Club":
        return self._next(hidden=not shown)

    def closed_down(self) -> "Club":
        """Closed by its admin once they are its last member: the name is free again, the
        treasury's tokens are spent with it."""
        self.open_for_changes()
        if self.members > 1:
            raise ClubError(
                Text(
                    "the club still has {others} other members: they leave or are removed first",
                    others=self.members - 1,
                ),
                code="club_not_empty",
            )
        return self._next(closed=True, members=0, deputies=0)


class Member(_Frozen):
    """A member as the club lists them."""

    player_id: str
    role: Role
    joined_at: datetime
    donated: int = 0
    # A membership kept while premium has ended (C8): the member's points do not count.
    dormant: bool = False


def can_kick(actor: Role | None, target: Role) -> None:
    """A deputy kicks ordinary members; the admin kicks members and deputies; no one kicks the
    admin."""
    if target == "admin":
        raise ClubError(Text("no one can remove the club's admin"), code="not_allowed")
    require(actor, "kick_deputy" if target == "deputy" else "kick_member")


class Membership(_Frozen):
    """One of a player's clubs as the player's list keeps it: which, the role, since when.
    The club's name and tag are read from the club (a rename shows at once)."""

    club_id: str
    role: Role
    joined_at: datetime
    dormant: bool = False
    # The newest announcement the player has seen (C6): later ones are counted as unread.
    seen_at: datetime | None = None


class PlayerClubs(_Frozen):
    """A player's clubs, in their order (the first is the main club, whose tag is shown by
    their nickname), written on its version."""

    clubs: list[Membership] = Field(default_factory=list)
    version: int = 0

    @property
    def main(self) -> Membership | None:
        return next((club for club in self.clubs if not club.dormant), None)

    def role_in(self, club_id: str) -> Role | None:
        return next((club.role for club in self.clubs if club.club_id == club_id), None)

    def _next(self, clubs: list[Membership]) -> "PlayerClubs":
        return PlayerClubs(clubs=clubs, version=self.version + 1)

    def joining(self, membership: Membership, *, premium: bool) -> "PlayerClubs":
        """One club more, within the player's limit (C1: one, three with premium; admin of at
        most one)."""
        if self.role_in(membership.club_id) is not None:
            raise ClubError(Text("you are already in this club"), code="already_member")
        allowed = rules.clubs_allowed(premium)
        if len(self.clubs) >= allowed:
            raise ClubError(
                Text(
                    "you can be in {allowed} clubs at most (premium: {premium_allowed})",
                    allowed=allowed,
                    premium_allowed=rules.CLUBS_PREMIUM,
                ),
                code="club_limit",
            )
        if membership.role == "admin" and any(club.role == "admin" for club in self.clubs):
            raise ClubError(
                Text("you are the admin of a club already: one at a time"), code="admin_limit"
            )
        return self._next([*self.clubs, membership])

    def leaving(self, club_id: str) -> "PlayerClubs":
        return self._next([club for club in self.clubs if club.club_id != club_id])

    def with_role(self, club_id: str, role: Role) -> "PlayerClubs":
        if role == "admin" and any(
            club.role == "admin" and club.club_id != club_id for club in self.clubs
        ):
            raise ClubError(Text("this player is the admin of another club"), code="admin_limit")
        return self._next(
            [
                club.model_copy(update={"role": role}) if club.club_id == club_id else club
                for club in self.clubs
            ]
        )

    def settled(self, premium: bool) -> "PlayerClubs":
        """Dormant memberships (C8): with premium every club is live; without it the first of
        the list and the one the player administers stay live and the others turn dormant
        (shown grey, their points do not count; chat and announcements still arrive). The same
        list (not a new version) when nothing changes."""
        first = self.clubs[0].club_id if self.clubs else None
        live = {club.club_id for club in self.clubs if premium or club.role == "admin"} | {first}
        settled = [
            club.model_copy(update={"dormant": club.club_id not in live}) for club in self.clubs
        ]
        if [c.dormant for c in settled] == [c.dormant for c in self.clubs]:
            return self
        return self._next(settled)

    def having_seen(self, club_id: str, at: datetime) -> "PlayerClubs":
        return self._next(
            [
                club.model_copy(update={"seen_at": at}) if club.club_id == club_id else club
                for club in self.clubs
            ]
        )

    def ordered(self, club_ids: list[str]) -> "PlayerClubs":
        """The player's own order (the first is the main club)."""
        by_id = {club.club_id: club for club in self.clubs}
        if sorted(club_ids) != sorted(by_id):
            raise ClubError(
                Text("the order lists each of your clubs once"), code="bad_request", field="clubIds"
            )
        return self._next([by_id[club_id] for club_id in club_ids])


class ClubRequest(_Frozen):
    """A player's request to join a club by approval (C2), with their short message."""

    club_id: str
    player_id: str
    message: str = ""
    at: datetime


class ClubInvitation(_Frozen):
    """A club's invitation, kept for the player until they answer it (C2: it reaches them even
    offline), and who invited them."""

    club_id: str
    player_id: str
    by: str
    at: datetime


def check_request_message(message: str) -> str:
    cleaned = " ".join(message.split())
    if len(cleaned) > rules.MAX_REQUEST_MESSAGE_CHARS:
        raise ClubError(
            Text(
                "a request's message is at most {max_chars} characters",
                max_chars=rules.MAX_REQUEST_MESSAGE_CHARS,
            ),
            code="bad_request",
            field="message",
        )
    if find_offence(cleaned) is not None:
        raise ClubError(
            Text("this message contains a word the game does not allow"),
            code="message_indecent",
            field="message",
        )
    return cleaned
