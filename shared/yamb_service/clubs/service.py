"""Clubs (C1-C5): founding, entry by request or invitation, roles, levels and the treasury.

Every change reads what it needs, works out the new state with the pure steps of yamb.clubs,
and writes it in one transaction on the state read (the club's version, the player's list's
version, an item's presence); a lost race reads again and retries, so two admins never exist,
a 31st member never squeezes into a club of 30, and a deputy demoted meanwhile kicks no one.
What the treasury pays is one wallet change with its club writes in the same transaction."""

import contextlib
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime

from yamb.clubs import rules
from yamb.clubs.errors import ClubError
from yamb.clubs.messages import (
    AnnouncementView,
    ClubRow,
    ClubsPage,
    ClubView,
    DonatedView,
    EditRequest,
    FoundRequest,
    InvitationView,
    JoinedView,
    MembershipView,
    MemberView,
    MyClubsView,
    RequestView,
    TreasuryView,
)
from yamb.clubs.model import (
    Club,
    ClubInvitation,
    ClubRequest,
    Member,
    Membership,
    PlayerClubs,
    Role,
    TagColours,
    can_kick,
    check_request_message,
    require,
)
from yamb.clubs.tag import TagView
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry, Reason, client_key
from yamb.i18n import Text
from yamb.protocol import ClubInvitationFrame, Frame

from yamb_service.accounts.ports import Profiles
from yamb_service.clubs.ports import ClubStore, StaleReadError
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.common.ports import TransactionPart
from yamb_service.economy.ports import Change, WalletStore
from yamb_service.social.blocks.ports import Blocks

ATTEMPTS = 8
PAGE_SIZE = 20
MAX_PREFIX_CHARS = rules.MAX_NAME_CHARS
HISTORY_SIZE = 50


class ClubsService:
    def __init__(
        self,
        *,
        store: ClubStore,
        wallets: WalletStore,
        profiles: Profiles,
        blocks: Blocks,
        now: Callable[[], datetime],
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex[:12],
        rescore: Callable[[str], object] = lambda club_id: None,
        tell: Callable[[str, Frame], object] = lambda player_id, frame: None,
    ) -> None:
        self.store = store
        # A frame to a player's live connection, if they have one (an invitation that arrives).
        self.tell = tell
        # The club's score of the month worked out again (yamb_service.clubs.board): after a
        # member's points leave it (a leaver, a dormant membership) or come back.
        self.rescore = rescore
        self.wallets = wallets
        self.profiles = profiles
        self.blocks = blocks
        self.now = now
        self.new_id = new_id

    # -------------------------------------------------------------- reading

    def page(self, reader: str, prefix: str = "", after: str = "") -> ClubsPage:
        """Open clubs by name, or those whose name starts with `prefix` (compared as names
        are: whatever the case and the look-alike letters)."""
        if len(prefix) > MAX_PREFIX_CHARS or len(after) > 200:
            raise ClubError(Text("this search is too long"), code="bad_request", field="prefix")
        key = rules.search_key(prefix)
        found = self.store.page(prefix=key, after=after, limit=PAGE_SIZE + 1)
        shown = found[:PAGE_SIZE]
        following = shown[-1][0] if len(found) > PAGE_SIZE else None
        return ClubsPage(clubs=[club_row(club) for _, club in shown], next=following)

    def view(self, reader: str, club_id: str) -> ClubView:
        club = self._club(club_id)
        members = self.store.members(club_id)
        role = next((m.role for m in members if m.player_id == reader), None)
        if club.hidden and role is None:
            raise ClubError(Text("there is no such club"), code="unknown_club")
        requests = self.store.requests(club_id) if role in ("admin", "deputy") else []
        names = self._nicknames(
            [m.player_id for m in members] + [r.player_id for r in requests] + [club.admin_id]
        )
        order: dict[Role, int] = {"admin": 0, "deputy": 1, "member": 2}
        members.sort(key=lambda m: (order[m.role], names.get(m.player_id, "").casefold()))
        treasury = self.wallets.wallet(rules.treasury_owner(club_id)).balance if role else None
        next_level = club.level + 1
        return ClubView(
            club=club_row(club),
            description=club.description,
            founded_at=club.founded_at,
            admin=names.get(club.admin_id, "?"),
            deputies=club.deputies,
            deputies_allowed=rules.deputies_allowed(club.members),
            renames=club.renames,
            next_rename_price=rules.rename_price(club.renames),
            next_level_price=rules.LEVEL_PRICES.get(next_level),
            own_avatar_price=rules.OWN_AVATAR_PRICE,
            owns_avatar=club.owns_avatar,
            you=role,
            requested=role is None and self.store.request(club_id, reader) is not None,
            members=[
                MemberView(
                    nickname=names.get(m.player_id, "?"),
                    role=m.role,
                    joined_at=m.joined_at,
                    you=m.player_id == reader,
                    donated=m.donated if role else 0,
                )
                for m in members
                if m.player_id in names
            ],
            requests=[
                RequestView(nickname=names[r.player_id], message=r.message, at=r.at)
                for r in requests
                if r.player_id in names
            ],
            treasury=treasury,
            announcements=[
                AnnouncementView(id=a.id, sender=a.nickname, text=a.text, sent_at=a.sent_at)
                for a in (
                    self.store.announcements(club_id, rules.ANNOUNCEMENTS_SHOWN) if role else []
                )
                if not a.hidden
            ],
        )

    def mine(self, player_id: str) -> MyClubsView:
        """The player's clubs, settled first (C8: read at sign-in, so a membership turns
        dormant, or live again on renewal, as the player comes)."""
        premium = self._premium(player_id)
        _, held = self._settle(player_id, premium)
        invitations = self.store.invitations(player_id)
        clubs = self.store.clubs([m.club_id for m in held.clubs] + [i.club_id for i in invitations])
        inviters = self._nicknames([i.by for i in invitations])
        return MyClubsView(
            clubs=[
                MembershipView(
                    club_id=m.club_id,
                    name=clubs[m.club_id].name,
                    tag=tag_view(clubs[m.club_id]),
                    role=m.role,
                    joined_at=m.joined_at,
                    dormant=m.dormant,
                    unread=self._unread(m),
                )
                for m in held.clubs
                if m.club_id in clubs
            ],
            invitations=[
                InvitationView(
                    club_id=i.club_id,
                    name=clubs[i.club_id].name,
                    tag=tag_view(clubs[i.club_id]),
                    by=inviters.get(i.by, "?"),
                    at=i.at,
                )
                for i in invitations
                if i.club_id in clubs and not clubs[i.club_id].closed
            ],
            allowed=rules.clubs_allowed(premium),
        )

    def _unread(self, membership: Membership) -> int:
        since = membership.seen_at or membership.joined_at
        latest = self.store.announcements(membership.club_id, rules.ANNOUNCEMENTS_SHOWN)
        return sum(1 for line in latest if line.sent_at > since and not line.hidden)

    def seen(self, player_id: str, club_id: str) -> MyClubsView:
        """The club's announcements read up to now (C6): no longer counted as unread."""
        self._role(club_id, player_id)

        def attempt() -> None:
            held = self.store.player_clubs(player_id)
            self.store.commit(
                [
                    self.store.player_clubs_part(
                        player_id, held, held.having_seen(club_id, self.now())
                    )
                ]
            )

        self._retrying(attempt)
        return self.mine(player_id)

    def treasury(self, player_id: str, club_id: str) -> TreasuryView:
        """The balance and the latest movements: for members' eyes only (C5)."""
        self._club(club_id)
        self._role(club_id, player_id)
        owner = rules.treasury_owner(club_id)
        return TreasuryView(
            balance=self.wallets.wallet(owner).balance,
            history=self.wallets.entries(owner, HISTORY_SIZE),
        )

    # -------------------------------------------------------------- founding (C1)

    def found(self, player_id: str, asked: FoundRequest) -> ClubView:
        name = rules.check_name(asked.name)
        key = rules.name_key(name)
        colours = _colours(asked.colours.text, asked.colours.background) if asked.colours else None
        now = self.now()
        club_id = self.new_id()
        club = Club(
            club_id=club_id,
            name=name,
            tag=rules.check_tag(asked.tag),
            colours=colours or TagColours(),
            avatar=rules.check_stock_avatar(asked.avatar),
            description=rules.check_description(asked.description),
            entry=asked.entry,
            admin_id=player_id,
            founded_at=now,
            version=1,
        )
        premium = self._premium(player_id)

        def attempt() -> None:
            if self.store.name_owner(key) is not None:
                raise ClubError(
                    Text("a club is called '{name}' already", name=name),
                    code="club_name_taken",
                    field="name",
                )
            held = self.store.player_clubs(player_id)
            joined = held.joining(
                Membership(club_id=club_id, role="admin", joined_at=now), premium=premium
            )
            self.store.commit(
                [
                    self.store.name_part(key, club_id),
                    self.store.club_part(None, club),
                    self.store.member_part(
                        club_id, Member(player_id=player_id, role="admin", joined_at=now), new=True
                    ),
                    self.store.player_clubs_part(player_id, held, joined),
                ]
            )

        self._retrying(attempt)
        logger.info("club founded", club_id=club_id, player_id=player_id)
        metrics.add_metric(name="ClubFounded", unit=MetricUnit.Count, value=1)
        return self.view(player_id, club_id)

    # -------------------------------------------------------------- entry (C2)

    def join(self, player_id: str, club_id: str, message: str = "") -> JoinedView:
        """An open club, or one that invited the player: a member at once. A club by approval:
        a request with a short message, decided by its admin or a deputy."""
        club = self._club(club_id)
        invited = self.store.invitation(player_id, club_id) is not None
        if club.entry == "open" or invited:
            return JoinedView(outcome="joined", club=club_row(self._admit(club_id, player_id)))
        held = self.store.player_clubs(player_id)
        held.joining(
            Membership(club_id=club_id, role="member", joined_at=self.now()),
            premium=self._premium(player_id),
        )  # the player's own limits, told now rather than when the request is decided
        _not_full(club)
        request = ClubRequest(
            club_id=club_id,
            player_id=player_id,
            message=check_request_message(message),
            at=self.now(),
        )
        try:
            self.store.commit([self.store.request_part(request)])
        except StaleReadError:
            raise ClubError(
                Text("your request to join this club waits for a decision already"),
                code="request_pending",
            ) from None
        return JoinedView(outcome="requested", club=club_row(club))

    def withdraw(self, player_id: str, club_id: str) -> None:
        """The player's own pending request taken back."""
        try:
            self.store.commit([self.store.remove_request_part(club_id, player_id)])
        except StaleReadError:
            raise _no_request() from None

    def decide(self, actor: str, club_id: str, nickname: str, *, accept: bool) -> ClubView:
        require(self._role(club_id, actor), "decide_requests")
        player_id = self._player(nickname)
        if self.store.request(club_id, player_id) is None:
            raise _no_request()
        if not accept:
            try:
                self.store.commit([self.store.remove_request_part(club_id, player_id)])
            except StaleReadError:
                raise _no_request() from None
            return self.view(actor, club_id)
        try:
            self._admit(club_id, player_id, request=True)
        except ClubError as error:
            if error.code in ("club_full", "club_limit", "admin_limit", "already_member"):
                # The request cannot be granted any more: it goes (a full club drops them).
                self._drop_request(club_id, player_id)
            raise
        return self.view(actor, club_id)

    def invite(self, actor: str, club_id: str, nickname: str) -> InvitationView:
        require(self._role(club_id, actor), "invite")
        club = self._club(club_id)
        _not_full(club)
        player_id = self._player(nickname)
        if self.store.member(club_id, player_id) is not None:
            raise ClubError(
                Text("{nickname} is a member already", nickname=nickname),
                code="already_member",
                field="nickname",
            )
        if self.blocks.blocked_either_way(actor, player_id):
            raise ClubError(
                Text("you cannot invite {nickname}", nickname=nickname),
                code="blocked",
                field="nickname",
            )
        invitation = ClubInvitation(club_id=club_id, player_id=player_id, by=actor, at=self.now())
        try:
            self.store.commit([self.store.invitation_part(invitation)])
        except StaleReadError:
            raise ClubError(
                Text("{nickname} has this club's invitation already", nickname=nickname),
                code="invitation_pending",
                field="nickname",
            ) from None
        logger.info("club invitation", club_id=club_id, player_id=player_id)
        by = self._nickname(actor)
        try:  # it waits in their list anyway: a failed live notice loses nothing
            self.tell(
                player_id,
                ClubInvitationFrame(club_id=club_id, name=club.name, tag=tag_view(club), by=by),
            )
        except Exception:
            logger.exception("club invitation not told live", club_id=club_id)
        return InvitationView(
            club_id=club_id, name=club.name, tag=tag_view(club), by=by, at=invitation.at
        )

    def answer(self, player_id: str, club_id: str, *, accept: bool) -> MyClubsView:
        if self.store.invitation(player_id, club_id) is None:
            raise ClubError(Text("this club has not invited you"), code="no_invitation")
        if accept:
            self._admit(club_id, player_id)
        else:
            self.store.commit([self.store.remove_invitation_part(player_id, club_id)])
        return self.mine(player_id)

    def _admit(self, club_id: str, player_id: str, *, request: bool = False) -> Club:
        """The player in as a member: the club's count on its version, their list on its
        version, the member's item, their request or invitation gone, in one transaction."""
        premium = self._premium(player_id)

        def attempt() -> Club:
            club = self._club(club_id, consistent=True)
            if request and self.store.request(club_id, player_id) is None:
                raise _no_request()  # taken back (or decided) meanwhile
            held = self.store.player_clubs(player_id)
            now = self.now()
            joined = held.joining(
                Membership(club_id=club_id, role="member", joined_at=now), premium=premium
            )
            after = club.joined()
            parts = [
                self.store.club_part(club, after),
                self.store.member_part(
                    club_id, Member(player_id=player_id, role="member", joined_at=now), new=True
                ),
                self.store.player_clubs_part(player_id, held, joined),
                self.store.remove_invitation_part(player_id, club_id),
            ]
            if request:
                parts.append(self.store.remove_request_part(club_id, player_id))
            self.store.commit(parts)
            return after

        club = self._retrying(attempt)
        logger.info("club joined", club_id=club_id, player_id=player_id)
        metrics.add_metric(name="ClubJoined", unit=MetricUnit.Count, value=1)
        if club.full:
            dropped = self.store.drop_requests(club_id)
            logger.info("club full: requests dropped", club_id=club_id, dropped=dropped)
        return club

    def _drop_request(self, club_id: str, player_id: str) -> None:
        with contextlib.suppress(StaleReadError):  # gone already
            self.store.commit([self.store.remove_request_part(club_id, player_id)])

    # -------------------------------------------------------------- leaving

    def leave(self, player_id: str, club_id: str) -> MyClubsView:
        self._remove(club_id, player_id, actor=None)
        return self.mine(player_id)  # settled: the next club may be the first now

    def kick(self, actor: str, club_id: str, nickname: str) -> ClubView:
        player_id = self._player(nickname)
        if player_id == actor:
            raise ClubError(Text("to go, leave the club"), code="bad_request", field="nickname")
        self._remove(club_id, player_id, actor=actor)
        return self.view(actor, club_id)

    def _remove(self, club_id: str, player_id: str, *, actor: str | None) -> None:
        def attempt() -> None:
            club = self._club(club_id, consistent=True)
            member = self.store.member(club_id, player_id)
            if member is None:
                raise _not_a_member(actor is None)
            if actor is not None:
                can_kick(self._role(club_id, actor), member.role)
            after = club.left(member.role)
            held = self.store.player_clubs(player_id)
            self.store.commit(
                [
                    self.store.club_part(club, after),
                    self.store.remove_member_part(club_id, player_id),
                    self.store.player_clubs_part(player_id, held, held.leaving(club_id)),
                ]
            )

        self._retrying(attempt)
        logger.info("club left", club_id=club_id, player_id=player_id, kicked_by=actor)
        self.rescore(club_id)

    def close(self, actor: str, club_id: str) -> MyClubsView:
        """The club closed by its admin, its last member: its name free again."""

        def attempt() -> None:
            club = self._club(club_id, consistent=True)
            require(self._role(club_id, actor), "close")
            after = club.closed_down()
            held = self.store.player_clubs(actor)
            key = rules.name_key(club.name)
            self.store.commit(
                [
                    self.store.club_part(club, after),
                    self.store.release_name_part(key),
                    self.store.remove_member_part(club_id, actor),
                    self.store.player_clubs_part(actor, held, held.leaving(club_id)),
                ]
            )

        self._retrying(attempt)
        self.store.drop_requests(club_id)
        logger.info("club closed", club_id=club_id, player_id=actor)
        return self.mine(actor)

    # -------------------------------------------------------------- roles (C3)

    def set_role(self, actor: str, club_id: str, nickname: str, role: Role) -> ClubView:
        """A member made deputy, or a deputy made member again (the admin)."""
        if role == "admin":
            raise ClubError(
                Text("the admin's seat is handed over, not given"),
                code="bad_request",
                field="role",
            )
        player_id = self._player(nickname)

        def attempt() -> None:
            club = self._club(club_id, consistent=True)
            require(self._role(club_id, actor), "appoint_deputy")
            member = self.store.member(club_id, player_id)
            if member is None:
                raise _not_a_member(False)
            if member.role == role:
                return
            if member.role == "admin":
                raise ClubError(Text("no one can change the admin's role"), code="not_allowed")
            after = club.with_deputy() if role == "deputy" else club.without_deputy()
            held = self.store.player_clubs(player_id)
            self.store.commit(
                [
                    self.store.club_part(club, after),
                    self.store.member_part(
                        club_id, member.model_copy(update={"role": role}), new=False
                    ),
                    self.store.player_clubs_part(player_id, held, held.with_role(club_id, role)),
                ]
            )

        self._retrying(attempt)
        logger.info("club role", club_id=club_id, player_id=player_id, role=role)
        return self.view(actor, club_id)

    def hand_over(self, actor: str, club_id: str, nickname: str) -> ClubView:
        """The admin's seat to a member or deputy; the old admin stays as a member."""
        player_id = self._player(nickname)
        if player_id == actor:
            raise ClubError(Text("you are the admin already"), code="bad_request", field="nickname")

        def attempt() -> None:
            club = self._club(club_id, consistent=True)
            require(self._role(club_id, actor), "hand_over")
            admin = self.store.member(club_id, actor)
            member = self.store.member(club_id, player_id)
            if admin is None or member is None:
                raise _not_a_member(False)
            theirs, mine = self.store.player_clubs(player_id), self.store.player_clubs(actor)
            self.store.commit(
                [
                    self.store.club_part(club, club.handed_to(player_id, member.role)),
                    self.store.member_part(
                        club_id, member.model_copy(update={"role": "admin"}), new=False
                    ),
                    self.store.member_part(
                        club_id, admin.model_copy(update={"role": "member"}), new=False
                    ),
                    self.store.player_clubs_part(
                        player_id, theirs, theirs.with_role(club_id, "admin")
                    ),
                    self.store.player_clubs_part(actor, mine, mine.with_role(club_id, "member")),
                ]
            )

        self._retrying(attempt)
        logger.info("club handed over", club_id=club_id, player_id=player_id, by=actor)
        return self.view(actor, club_id)

    def settle(self, player_id: str) -> list[str]:
        """The player's memberships made dormant or live as their premium says (C8), the list
        and each changed member item in one transaction; the changed clubs, scored again."""
        return self._settle(player_id, self._premium(player_id))[0]

    def _settle(self, player_id: str, premium: bool) -> tuple[list[str], PlayerClubs]:
        """`settle`'s changed clubs, and the player's list as it is now."""

        def attempt() -> tuple[list[str], PlayerClubs]:
            held = self.store.player_clubs(player_id)
            after = held.settled(premium)
            if after is held:
                return [], held
            flipped = [
                new
                for old, new in zip(held.clubs, after.clubs, strict=True)
                if old.dormant != new.dormant
            ]
            parts = [self.store.player_clubs_part(player_id, held, after)]
            for membership in flipped:
                member = self.store.member(membership.club_id, player_id)
                if member is not None:
                    parts.append(
                        self.store.member_part(
                            membership.club_id,
                            member.model_copy(update={"dormant": membership.dormant}),
                            new=False,
                        )
                    )
            self.store.commit(parts)
            return [membership.club_id for membership in flipped], after

        changed, held = self._retrying(attempt)
        for club_id in changed:
            self.rescore(club_id)
        if changed:
            logger.info("memberships settled", player_id=player_id, clubs=changed, premium=premium)
            metrics.add_metric(name="MembershipsSettled", unit=MetricUnit.Count, value=len(changed))
        return changed, held

    def settle_all(self) -> int:
        """Every player in more than one club settled (the daily job: premium ended or
        renewed while they were away); how many memberships changed."""
        return sum(len(self.settle(player_id)) for player_id in self.store.players_in_several())

    def order(self, player_id: str, club_ids: Sequence[str]) -> MyClubsView:
        """The player's clubs in their order: the first is the main club."""

        def attempt() -> None:
            held = self.store.player_clubs(player_id)
            self.store.commit(
                [self.store.player_clubs_part(player_id, held, held.ordered(list(club_ids)))]
            )

        self._retrying(attempt)
        return self.mine(player_id)

    # -------------------------------------------------------------- the club's looks

    def edit(self, actor: str, club_id: str, asked: EditRequest) -> ClubView:
        tag = rules.check_tag(asked.tag) if asked.tag is not None else None
        colours = _colours(asked.colours.text, asked.colours.background) if asked.colours else None
        avatar = asked.avatar
        if avatar is not None and avatar != rules.OWN_AVATAR:
            rules.check_stock_avatar(avatar)
        description = (
            rules.check_description(asked.description) if asked.description is not None else None
        )

        def attempt() -> None:
            club = self._club(club_id, consistent=True)
            require(self._role(club_id, actor), "edit")
            after = club.edited(
                description=description,
                entry=asked.entry,
                colours=colours,
                tag=tag,
                avatar=avatar,
            )
            self.store.commit([self.store.club_part(club, after)])

        self._retrying(attempt)
        return self.view(actor, club_id)

    # -------------------------------------------------------------- the treasury (C4, C5)

    def donate(self, player_id: str, club_id: str, amount: int, key: str) -> DonatedView:
        """Tokens from the member's wallet to the treasury, never refunded: both sides'
        entries and the member's donations counted, in one transaction."""
        if amount < rules.MIN_DONATION:
            raise ClubError(
                Text("a donation is at least {minimum} tokens", minimum=rules.MIN_DONATION),
                code="donation_too_small",
                field="amount",
            )
        scoped = client_key(player_id, key)
        treasury = rules.treasury_owner(club_id)
        if self.wallets.recorded(scoped) is None:
            self._club(club_id)
            self._role(club_id, player_id)

        def counted() -> list[TransactionPart]:
            if self.store.member(club_id, player_id) is None:
                raise _not_a_member(True)
            return [self.store.donation_part(club_id, player_id, amount)]

        try:
            applied = self.wallets.change(
                scoped,
                [
                    Change(player_id, -amount, "club_donation", counterparty=treasury),
                    Change(treasury, amount, "club_donation", counterparty=player_id),
                ],
                self.now(),
                also=counted,
            )
        except EconomyError as error:
            if error.code == "not_enough_tokens":
                raise ClubError(error.text, code="not_enough_tokens", field="amount") from error
            raise
        if applied.written:
            logger.info("club donation", club_id=club_id, player_id=player_id, amount=amount)
            metrics.add_metric(name="ClubDonation", unit=MetricUnit.Count, value=1)
        entry, credit = applied.entries[0], applied.entries[1]
        return DonatedView(entry=entry, treasury=credit.balance)

    def raise_level(self, actor: str, club_id: str) -> ClubView:
        """One level more (5 seats), bought from the treasury (C4)."""
        club = self._club(club_id)
        require(self._role(club_id, actor), "raise_level")
        after, price = club.levelled()
        self._spend(
            club_id,
            f"club:{club_id}:level:{after.level}",
            price,
            "club_level",
            detail=str(after.level),
            change=lambda fresh: fresh.levelled()[0] if fresh.level == club.level else None,
        )
        logger.info("club level", club_id=club_id, level=after.level, by=actor)
        return self.view(actor, club_id)

    def rename(self, actor: str, club_id: str, name: str) -> ClubView:
        """A new name, paid from the treasury: each rename costs twice the one before."""
        cleaned = rules.check_name(name)
        key = rules.name_key(cleaned)
        club = self._club(club_id)
        require(self._role(club_id, actor), "rename")
        old_key = rules.name_key(club.name)
        if cleaned == club.name:
            raise ClubError(
                Text("this is the club's name already"), code="bad_request", field="name"
            )
        after, price = club.renamed(cleaned)

        def taken() -> None:
            owner = self.store.name_owner(key)
            if owner is not None and owner != club_id:
                raise ClubError(
                    Text("a club is called '{name}' already", name=cleaned),
                    code="club_name_taken",
                    field="name",
                )

        taken()

        def renamed(fresh: Club) -> Club | None:
            taken()
            return fresh.renamed(cleaned)[0] if fresh.renames == club.renames else None

        names: list[TransactionPart] = []
        if key != old_key:
            names = [self.store.name_part(key, club_id), self.store.release_name_part(old_key)]
        self._spend(
            club_id,
            f"club:{club_id}:rename:{club.renames}",
            price,
            "club_rename",
            detail=cleaned,
            change=renamed,
            extra=names,
        )
        logger.info("club renamed", club_id=club_id, by=actor, renames=after.renames)
        return self.view(actor, club_id)

    def buy_avatar(self, actor: str, club_id: str) -> ClubView:
        """The club's own avatar, bought once from the treasury (the picture is the
        client's); once owned it is chosen again for free."""
        club = self._club(club_id)
        require(self._role(club_id, actor), "buy_avatar")
        if club.owns_avatar:
            return self.edit(actor, club_id, EditRequest(avatar=rules.OWN_AVATAR))
        self._spend(
            club_id,
            f"club:{club_id}:avatar",
            rules.OWN_AVATAR_PRICE,
            "club_avatar",
            detail=None,
            change=lambda fresh: None if fresh.owns_avatar else fresh.with_own_avatar()[0],
        )
        return self.view(actor, club_id)

    def _spend(
        self,
        club_id: str,
        key: str,
        price: int,
        reason: Reason,
        *,
        detail: str | None,
        change: Callable[[Club], Club | None],
        extra: Sequence[TransactionPart] = (),
    ) -> list[LedgerEntry]:
        """The treasury's debit for `key` (each level, rename or avatar has its own: a repeat
        pays once) with the club's change on its version, in one transaction. `change` works the
        change out again on the club as it is (None: another request made it meanwhile)."""

        def parts() -> list[TransactionPart]:
            fresh = self._club(club_id, consistent=True)
            after = change(fresh)
            if after is None:
                raise ServiceBusyError()
            return [self.store.club_part(fresh, after), *extra]

        try:
            return self.wallets.apply(
                key,
                [Change(rules.treasury_owner(club_id), -price, reason, detail=detail)],
                self.now(),
                also=parts,
            )
        except EconomyError as error:
            if error.code != "not_enough_tokens":
                raise
            balance = self.wallets.wallet(rules.treasury_owner(club_id)).balance
            raise ClubError(
                Text(
                    "this costs {price} tokens and the treasury holds {balance}",
                    price=price,
                    balance=balance,
                ),
                code="treasury_too_low",
            ) from error

    # -------------------------------------------------------------- reports (S5)

    def reported(self, club_id: str) -> tuple[Club, str]:
        """A club as a report attaches it: the club, and what it shows (name, tag,
        description)."""
        club = self._club(club_id)
        shown = f"{club.name} [{club.tag}]"
        return club, f"{shown}: {club.description}" if club.description else shown

    def show(self, club_id: str, shown: bool) -> None:
        """The club hidden by its reports (not listed, its page and tag for its members only)
        or shown again by a review."""

        def attempt() -> None:
            club = self.store.club(club_id, consistent=True)
            if club is None or club.hidden != shown:
                return
            self.store.commit([self.store.club_part(club, club.shown(shown))])

        self._retrying(attempt)
        logger.info("club shown" if shown else "club hidden", club_id=club_id)

    # -------------------------------------------------------------- helpers

    def _club(self, club_id: str, *, consistent: bool = False) -> Club:
        club = self.store.club(club_id, consistent=consistent) if len(club_id) <= 64 else None
        if club is None or club.closed:
            raise ClubError(Text("there is no such club"), code="unknown_club")
        return club

    def _role(self, club_id: str, player_id: str) -> Role:
        member = self.store.member(club_id, player_id)
        if member is None:
            raise _not_a_member(True)
        return member.role

    def _player(self, nickname: str) -> str:
        player_id = self.profiles.nickname_owner(nickname)
        profile = self.profiles.get(player_id) if player_id else None
        if profile is None or profile.status != "active":
            raise ClubError(
                Text("there is no player called '{nickname}'", nickname=nickname[:64]),
                code="unknown_player",
                field="nickname",
            )
        return profile.player_id

    def _nicknames(self, player_ids: Sequence[str]) -> dict[str, str]:
        found = self.profiles.profiles(list(dict.fromkeys(player_ids)))
        return {player: profile.nickname for player, profile in found.items()}

    def _nickname(self, player_id: str) -> str:
        return self._nicknames([player_id]).get(player_id, "?")

    def _premium(self, player_id: str) -> bool:
        until = self.wallets.premium_until(player_id)
        return until is not None and until > self.now()

    def _retrying[T](self, attempt: Callable[[], T]) -> T:
        for _ in range(ATTEMPTS):
            try:
                return attempt()
            except StaleReadError:
                continue
        raise ServiceBusyError()


def tag_view(club: Club) -> TagView:
    return TagView(
        club_id=club.club_id,
        tag=club.tag,
        text=club.colours.text,
        background=club.colours.background,
    )


def club_row(club: Club) -> ClubRow:
    return ClubRow(
        club_id=club.club_id,
        name=club.name,
        tag=tag_view(club),
        avatar=club.avatar,
        entry=club.entry,
        members=club.members,
        capacity=club.capacity,
        level=club.level,
    )


def _colours(text: str, background: str) -> TagColours:
    return TagColours(
        text=rules.check_colour(text, "colours.text"),
        background=rules.check_colour(background, "colours.background"),
    )


def _not_full(club: Club) -> None:
    if club.full:
        raise ClubError(
            Text("the club is full ({capacity} members)", capacity=club.capacity),
            code="club_full",
        )


def _no_request() -> ClubError:
    return ClubError(Text("there is no request to decide"), code="no_request")


def _not_a_member(you: bool) -> ClubError:
    if you:
        return ClubError(Text("you are not a member of this club"), code="not_a_member")
    return ClubError(Text("this player is not a member of the club"), code="not_a_member")
