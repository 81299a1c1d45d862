"""Reports, their review and the contact form (S5, S6).

A report names its target; the server finds what it is about as the reporter sees it (a
player by nickname, a message of the reporter's own conversation, a line of the general chat's
window), attaches its content, and files it in one transaction with the reporter's day. The
third different reporter hides the target until review (applied right after the report, again
at each later report until it holds: the steps are idempotent). An operator (a profile's
`operator` flag) works through the queue."""

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from yamb.accounts.mail import MailKind
from yamb.accounts.profile import Profile
from yamb.clubs.errors import ClubError
from yamb.clubs.model import Club
from yamb.i18n import Plural, Text
from yamb.social import reports as rules
from yamb.social.errors import SocialError
from yamb.social.moderation_messages import (
    CasesView,
    ContactRequest,
    ContactView,
    ReportRequest,
    ReportView,
    ReviewRequest,
)
from yamb.social.reports import Case, Report, Target

from yamb_service.accounts.ports import AccountStore, StaleProfileError
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.social.chats.ports import ChatStore
from yamb_service.social.reports.ports import ReportRefusedError, ReportStore

NOT_VISIBLE = Text(
    "this message is not one you can see: only your own conversations and the general chat's "
    "recent lines can be reported"
)
HIDE_ATTEMPTS = 5
QUEUE_SIZE = 50
CONTACT_DAILY_LIMIT = 3


class ReportedClubs(Protocol):
    """The clubs, as reports need them (yamb_service.clubs.service.ClubsService)."""

    def reported(self, club_id: str) -> tuple[Club, str]:
        """The club, and what it shows (ClubError unknown_club)."""

    def show(self, club_id: str, shown: bool) -> None: ...


class ModerationService:
    def __init__(
        self,
        *,
        reports: ReportStore,
        accounts: AccountStore,
        chats: ChatStore,
        now: Callable[[], datetime],
        ban: Callable[[str, str], None],
        mail: Callable[[Profile, str, MailKind, dict[str, object]], bool],
        contact: Callable[[Profile, str, str], None],
        clubs: ReportedClubs | None = None,
    ) -> None:
        self.reports = reports
        self.accounts = accounts
        self.chats = chats
        self.now = now
        # Hands a ban to the accounts' jobs function (it disables the account and signs it
        # out everywhere).
        self.ban = ban
        # A mail to a player in their language (a warning).
        self.mail = mail
        # The contact form's mail to the author.
        self.contact_mail = contact
        # A reported club read, hidden and shown again (yamb_service.clubs.service).
        self.clubs = clubs

    # ------------------------------------------------------------------ reports

    def _profile(self, player_id: str) -> Profile:
        profile = self.accounts.get(player_id)
        if profile is None:
            raise SocialError(Text("this account does not exist"), code="unknown_player")
        return profile

    def _named(self, nickname: str) -> Profile:
        owner = self.accounts.nickname_owner(nickname)
        profile = self.accounts.get(owner) if owner else None
        if profile is None or profile.status != "active":
            raise SocialError(
                Text("no player is called {nickname}", nickname=nickname),
                code="unknown_player",
                field="nickname",
            )
        return profile

    def _target(self, reporter: str, request: ReportRequest) -> tuple[Target, str]:
        if request.kind == "club":
            return self._club_target(request.club_id)
        if request.kind == "player":
            if not request.nickname:
                raise SocialError(Text("name the player you report"), field="nickname")
            profile = self._named(request.nickname)
            content = profile.nickname
            if profile.preferences.description:
                content += f": {profile.preferences.description}"
            target = Target(
                kind="player", author=profile.player_id, author_nickname=profile.nickname
            )
            return target, content
        message = request.message
        if message is None:
            raise SocialError(Text("name the message you report"), field="message")
        if message.channel == "private":
            other = self._named(message.with_ or "") if message.with_ else None
            line = (
                self.chats.private_message(reporter, other.player_id, message.id) if other else None
            )
            if other is None or line is None or line.hidden:
                raise SocialError(NOT_VISIBLE, code="message_not_visible", field="message")
            target = Target(
                kind="private",
                author=line.sender,
                author_nickname=line.nickname,
                recipient=reporter if line.sender != reporter else other.player_id,
                message_id=line.id,
            )
            return target, line.text
        window, _ = self.chats.window()
        found = window.line(message.id)
        if found is None or found.hidden:
            raise SocialError(NOT_VISIBLE, code="message_not_visible", field="message")
        target = Target(
            kind="general", author=found.sender, author_nickname=found.nickname, message_id=found.id
        )
        return target, found.text

    def report(self, reporter: str, request: ReportRequest) -> ReportView:
        now = self.now()
        target, content = self._target(reporter, request)
        if target.author == reporter:
            raise SocialError(
                Text("you cannot report yourself or your own messages"), code="report_self"
            )
        me = self._profile(reporter)
        filed = Report(
            reporter=reporter,
            reporter_nickname=me.nickname,
            reason=request.reason,
            note=request.note.strip(),
            at=now,
        )
        try:
            case = self.reports.file(target, content, filed, now.date().isoformat())
        except ReportRefusedError as refused:
            if refused.code == "already_reported":
                raise SocialError(
                    Text("you have reported this already"), code="already_reported"
                ) from None
            raise SocialError(
                Plural(
                    "you can file at most {count} report a day: try again tomorrow",
                    "you can file at most {count} reports a day: try again tomorrow",
                    rules.DAILY_LIMIT,
                ),
                code="report_limit",
            ) from None
        metrics.add_metric(name="ReportFiled", unit=MetricUnit.Count, value=1)
        logger.info("report filed", case_id=case.case_id, reporters=case.reporters)
        if case.status not in rules.TO_REVIEW:
            # Reported again after a decision: back in the queue for a moderator to look at,
            # as it was decided (a dismissed target stays shown until then).
            case = self.reports.set_status(case, "open", by=None, note=None, now=now)
        elif case.hides_now():
            case = self._hide(case, now)
        return ReportView(
            case_id=case.case_id, reporters=case.reporters, hidden=case.status == "hidden"
        )

    def _club_target(self, club_id: str | None) -> tuple[Target, str]:
        if not club_id or self.clubs is None:
            raise SocialError(Text("name the club you report"), field="clubId")
        try:
            club, content = self.clubs.reported(club_id)
        except ClubError:
            raise SocialError(
                Text("there is no such club"), code="unknown_club", field="clubId"
            ) from None
        admin = self._profile(club.admin_id)
        target = Target(
            kind="club",
            author=club.admin_id,
            author_nickname=admin.nickname,
            club_id=club.club_id,
            club_name=club.name,
        )
        return target, content

    def _show(self, target: Target, hidden: bool) -> None:
        """The target hidden from everyone, or shown again."""
        if target.kind == "club":
            if self.clubs is not None and target.club_id:
                self.clubs.show(target.club_id, not hidden)
            return
        if target.kind == "player":
            for _ in range(HIDE_ATTEMPTS):
                profile = self._profile(target.author)
                if profile.hidden == hidden:
                    return
                try:
                    self.accounts.save(profile.model_copy(update={"hidden": hidden}))
                    return
                except StaleProfileError:  # the profile changed meanwhile: read it again
                    continue
            return
        if target.kind == "private" and target.recipient and target.message_id:
            self.chats.set_private_hidden(
                target.author, target.recipient, target.message_id, hidden
            )
            self.chats.set_private_hidden(
                target.recipient, target.author, target.message_id, hidden
            )
            return
        for _ in range(HIDE_ATTEMPTS):
            window, version = self.chats.window()
            if not window.set_hidden(target.message_id or "", hidden):
                return  # gone from the window: nobody sees it any more
            if self.chats.save_window(window, version):
                return

    def _hide(self, case: Case, now: datetime) -> Case:
        self._show(case.target, hidden=True)
        metrics.add_metric(name="ReportedTargetHidden", unit=MetricUnit.Count, value=1)
        logger.info("reported target hidden", case_id=case.case_id)
        return self.reports.set_status(case, "hidden", by=None, note=None, now=now)

    # ------------------------------------------------------------------ review

    def _operator(self, player_id: str) -> Profile:
        profile = self._profile(player_id)
        if not profile.operator:
            raise SocialError(Text("only an operator can review reports"), code="not_an_operator")
        return profile

    def queue(self, operator: str) -> CasesView:
        self._operator(operator)
        return CasesView(cases=self.reports.open_cases(QUEUE_SIZE))

    def review(self, operator: str, case_id: str, request: ReviewRequest) -> Case:
        me = self._operator(operator)
        case = self.reports.case(case_id)
        if case is None or case.status not in rules.TO_REVIEW:
            raise SocialError(
                Text("no report waits for review under {case_id}", case_id=case_id),
                code="unknown_case",
            )
        now = self.now()
        if request.action == "dismiss":
            self._show(case.target, hidden=False)
        else:
            self._show(case.target, hidden=True)
        if request.action == "warn":
            author = self._profile(case.target.author)
            if author.email:
                self.mail(
                    author, author.email, MailKind.MODERATION_WARNING, {"nickname": author.nickname}
                )
        if request.action == "ban":
            self.ban(case.target.author, request.note or f"reports: {case.case_id}")
        reviewed = self.reports.set_status(
            case, rules.AFTER[request.action], by=me.nickname, note=request.note or None, now=now
        )
        metrics.add_metric(name="ReportReviewed", unit=MetricUnit.Count, value=1)
        logger.info("report reviewed", case_id=case_id, action=request.action)
        return reviewed

    # ------------------------------------------------------------------ contact (S6)

    def contact(self, player_id: str, request: ContactRequest) -> ContactView:
        profile = self._profile(player_id)
        now = self.now()
        if not self.reports.count_day(player_id, "CONTACT", now, CONTACT_DAILY_LIMIT):
            raise SocialError(
                Plural(
                    "you can write to the author at most {count} time a day: try again tomorrow",
                    "you can write to the author at most {count} times a day: try again tomorrow",
                    CONTACT_DAILY_LIMIT,
                ),
                code="contact_limit",
            )
        self.contact_mail(profile, request.subject.strip(), request.text.strip())
        metrics.add_metric(name="AuthorContacted", unit=MetricUnit.Count, value=1)
        return ContactView(sent_at=now)
