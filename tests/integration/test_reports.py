"""Reports and their review (S5) and the contact form (S6) on moto: the content attached as the
reporter saw it, one report per reporter and target, ten a day, no self-report, a message one
cannot see refused; the third different reporter hides a player (from the players list), a
private message (both copies) or a general-chat line; an operator dismisses, hides, warns (a
mail in the player's language) or bans (handed to the accounts' jobs); three contact mails a
day to the author, the player's address to reply to."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from yamb.accounts.mail_text import Mail
from yamb.accounts.preferences import Preferences
from yamb.accounts.profile import AccountStatus, Profile
from yamb.clubs.errors import ClubError
from yamb.social import reports as rules
from yamb.social.chats import ChatLine, Conversation
from yamb.social.errors import SocialError
from yamb.social.moderation_messages import ContactRequest, ReportRequest, ReviewRequest
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.social import wiring
from yamb_service.social.chats.dynamo import DynamoChatStore
from yamb_service.social.reports.service import ModerationService

NOW = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
NAMES = ["ana", "bo", "cy", "dee", "eve", "op"]


class Sent:
    def __init__(self) -> None:
        self.mails: list[tuple[str, Mail]] = []
        self.bans: list[tuple[str, str]] = []

    def send(self, to: str, mail: Mail) -> None:
        self.mails.append((to, mail))


class World:
    def __init__(self, item: Any) -> None:
        self.accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        self.chats = DynamoChatStore(item)
        self.sent = Sent()
        self.service: ModerationService = wiring.moderation_on(
            item,
            mailer=self.sent,
            author_email="author@yamb.example",
            ban=lambda player, reason: self.sent.bans.append((player, reason)),
        )
        self.players = wiring.players_on(item)
        for name in NAMES:
            self.accounts.create(
                Profile(
                    player_id=name,
                    nickname=name.title(),
                    email=f"{name}@example.com",
                    status=AccountStatus.ACTIVE,
                    created_at=NOW,
                    preferences=Preferences(
                        description="likes yachts", language="fr" if name == "bo" else "en"
                    ),
                    operator=name == "op",
                )
            )

    def private(self, sender: str, recipient: str, text: str, minute: int = 0) -> ChatLine:
        line = ChatLine(
            id=f"{minute:013d}-abcd",
            sender=sender,
            nickname=sender.title(),
            text=text,
            sent_at=NOW + timedelta(minutes=minute),
        )
        self.chats.send_private(
            line,
            Conversation(
                owner=sender,
                other=recipient,
                nickname=recipient.title(),
                last_text=text,
                last_at=line.sent_at,
            ),
            Conversation(
                owner=recipient,
                other=sender,
                nickname=sender.title(),
                last_text=text,
                last_at=line.sent_at,
            ),
        )
        return line

    def general(self, sender: str, text: str) -> ChatLine:
        line = ChatLine(
            id="0000000000001-line", sender=sender, nickname=sender.title(), text=text, sent_at=NOW
        )
        window, version = self.chats.window()
        window.add(line, NOW)
        assert self.chats.save_window(window, version)
        return line


@pytest.fixture
def world(table: str, item: Any, monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(clock, "clock", lambda: NOW)
    return World(item)


def player_report(nickname: str, reason: str = "nickname") -> ReportRequest:
    return ReportRequest.model_validate({"kind": "player", "nickname": nickname, "reason": reason})


def message_report(channel: str, message_id: str, with_: str | None = None) -> ReportRequest:
    message = {"channel": channel, "id": message_id} | ({"with": with_} if with_ else {})
    return ReportRequest.model_validate({"kind": "message", "message": message, "reason": "abuse"})


def refused(call: Any) -> str:
    with pytest.raises(SocialError) as error:
        call()
    return str(error.value.code)


def test_three_reporters_hide_a_player_from_the_list_until_review(world: World) -> None:
    # Given ana and cy reported bo
    for reporter in ("ana", "cy"):
        filed = world.service.report(reporter, player_report("BO"))
    assert (filed.reporters, filed.hidden) == (2, False)
    assert "Bo" in [row.nickname for row in world.players.page("ana").players]
    # When dee reports him too
    third = world.service.report("dee", player_report("bo"))
    # Then he is hidden from the list, and the case waits with its content and three reports
    assert (third.reporters, third.hidden) == (3, True)
    assert "Bo" not in [row.nickname for row in world.players.page("ana").players]
    (case,) = world.service.queue("op").cases
    assert case.content == "Bo: likes yachts"
    assert [r.reporter for r in case.reports] == ["ana", "cy", "dee"]
    # When the operator dismisses it
    world.service.review("op", case.case_id, ReviewRequest(action="dismiss"))
    # Then he is listed again and the queue is empty
    assert "Bo" in [row.nickname for row in world.players.page("ana").players]
    assert world.service.queue("op").cases == []


def test_a_private_message_is_reported_by_its_recipient_and_hidden_on_both_sides_by_review(
    world: World,
) -> None:
    # Given bo wrote to ana and to cy
    to_ana = world.private("bo", "ana", "you play like a potato")
    world.private("bo", "cy", "hello", minute=1)
    # When ana reports the message she has, and cy tries to report ana's (he cannot see it)
    view = world.service.report("ana", message_report("private", to_ana.id, "bo"))
    blind = lambda: world.service.report("cy", message_report("private", to_ana.id, "bo"))  # noqa: E731
    # Then ana's report opens a case with the text as she has it; cy is refused
    assert (view.reporters, view.hidden) == (1, False)
    assert refused(blind) == "message_not_visible"
    (case,) = world.service.queue("op").cases
    assert (case.content, case.target.author, case.target.recipient) == (
        "you play like a potato",
        "bo",
        "ana",
    )
    # When the operator hides it, it is gone from both conversations
    world.service.review("op", case.case_id, ReviewRequest(action="hide"))
    assert world.chats.messages("ana", "bo", None, 50)[0] == []
    assert world.chats.messages("bo", "ana", None, 50)[0] == []
    assert [m.text for m in world.chats.messages("cy", "bo", None, 50)[0]] == ["hello"]


def test_a_general_line_reported_by_three_is_hidden_from_the_window(world: World) -> None:
    line = world.general("bo", "buy cheap tokens at spam.example")
    for reporter in ("ana", "cy", "dee"):
        view = world.service.report(reporter, message_report("general", line.id))
    assert view.hidden
    window, _ = world.chats.window()
    assert window.recent(NOW) == []
    (case,) = world.service.queue("op").cases
    assert case.content == "buy cheap tokens at spam.example"
    # when the operator keeps it hidden, it stays so and leaves the queue
    world.service.review("op", case.case_id, ReviewRequest(action="hide"))
    assert world.chats.window()[0].recent(NOW) == []
    assert world.service.queue("op").cases == []


def test_report_refusals(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    line = world.general("ana", "hello")
    assert refused(lambda: world.service.report("ana", player_report("Ana"))) == "report_self"
    assert (
        refused(lambda: world.service.report("ana", message_report("general", line.id)))
        == "report_self"
    )
    assert refused(lambda: world.service.report("ana", player_report("nobody"))) == "unknown_player"
    assert (
        refused(lambda: world.service.report("ana", message_report("general", "nope")))
        == "message_not_visible"
    )
    world.service.report("cy", player_report("bo"))
    assert refused(lambda: world.service.report("cy", player_report("bo"))) == "already_reported"
    # the daily limit: ten a day
    monkeypatch.setattr(rules, "DAILY_LIMIT", 2)
    monkeypatch.setattr("yamb_service.social.reports.dynamo.DAILY_LIMIT", 2)
    world.service.report("cy", player_report("dee"))
    assert refused(lambda: world.service.report("cy", player_report("eve"))) == "report_limit"
    case = world.service.reports.case("player:eve")
    assert case is None  # nothing written for the refused one


def test_review_is_for_operators_and_each_action_does_its_part(world: World) -> None:
    for reporter in ("ana", "cy", "dee"):
        world.service.report(reporter, player_report("bo", reason="abuse"))
    case_id = "player:bo"
    assert refused(lambda: world.service.queue("ana")) == "not_an_operator"
    assert (
        refused(lambda: world.service.review("ana", case_id, ReviewRequest(action="ban")))
        == "not_an_operator"
    )
    # warn: a mail to bo in his language (French), the case leaves the queue
    warned = world.service.review("op", case_id, ReviewRequest(action="warn", note="first time"))
    assert warned.status == "warned" and warned.reviewed_by == "Op"
    ((to, mail),) = world.sent.mails
    assert to == "bo@example.com" and mail.language == "fr"
    assert (
        refused(lambda: world.service.review("op", case_id, ReviewRequest(action="ban")))
        == "unknown_case"
    )
    # ban: handed to the accounts' jobs
    for reporter in ("ana", "cy", "dee"):
        world.service.report(reporter, player_report("eve"))
    world.service.review("op", "player:eve", ReviewRequest(action="ban", note="spam"))
    assert world.sent.bans == [("eve", "spam")]


def test_contact_mails_the_author_three_times_a_day(world: World) -> None:
    for n in range(3):
        world.service.contact("ana", ContactRequest(subject=f"idea {n}", text="a column of sevens"))
    assert (
        refused(lambda: world.service.contact("ana", ContactRequest(subject="more", text="x")))
        == "contact_limit"
    )
    assert len(world.sent.mails) == 3
    to, mail = world.sent.mails[0]
    assert to == "author@yamb.example" and mail.reply_to == "ana@example.com"
    assert "idea 0" in mail.subject and "a column of sevens" in mail.text and "Ana" in mail.text


def test_a_target_reported_again_after_a_dismissal_is_back_in_the_queue_still_shown(
    world: World,
) -> None:
    # Given bo's case was dismissed after three reports
    for reporter in ("ana", "cy", "dee"):
        world.service.report(reporter, player_report("bo"))
    world.service.review("op", "player:bo", ReviewRequest(action="dismiss"))
    # When eve reports him
    view = world.service.report("eve", player_report("bo"))
    # Then the case waits for review again, and he stays listed until a moderator decides
    assert (view.reporters, view.hidden) == (4, False)
    assert [case.case_id for case in world.service.queue("op").cases] == ["player:bo"]
    assert "Bo" in [row.nickname for row in world.players.page("ana").players]


def test_three_reporters_hide_a_club_until_review_and_a_ban_falls_on_its_admin(
    world: World, item: Any
) -> None:
    from yamb.clubs.messages import FoundRequest
    from yamb_service.clubs import wiring as clubs_wiring

    # Given bo's club, whose description offends
    clubs = clubs_wiring.clubs_on(item)
    club = clubs.found("bo", FoundRequest(name="Night Owls", tag="NO", description="we win"))
    club_id = club.club.club_id
    report = ReportRequest.model_validate({"kind": "club", "clubId": club_id, "reason": "other"})
    # When three players report it (the admin cannot report his own club)
    assert refused(lambda: world.service.report("bo", report)) == "report_self"
    for reporter in ("ana", "cy", "dee"):
        filed = world.service.report(reporter, report)
    # Then it is hidden: not listed, its page for its members only, its content in the case
    assert filed.hidden
    assert clubs.page("ana").clubs == []
    with pytest.raises(ClubError):
        clubs.view("ana", club_id)
    assert clubs.view("bo", club_id).club.name == "Night Owls"
    (case,) = world.service.queue("op").cases
    assert (case.target.kind, case.target.club_name, case.content) == (
        "club",
        "Night Owls",
        "Night Owls [NO]: we win",
    )
    # When the operator bans: the ban falls on the club's admin, and the club stays hidden
    world.service.review("op", case.case_id, ReviewRequest(action="ban"))
    assert [player for player, _ in world.sent.bans] == ["bo"]
    assert clubs.page("ana").clubs == []
    # And an unknown club cannot be reported
    unknown = ReportRequest.model_validate({"kind": "club", "clubId": "nope", "reason": "spam"})
    assert refused(lambda: world.service.report("ana", unknown)) == "unknown_club"


def test_a_dismissed_club_report_lists_the_club_again(world: World, item: Any) -> None:
    from yamb.clubs.messages import FoundRequest
    from yamb_service.clubs import wiring as clubs_wiring

    clubs = clubs_wiring.clubs_on(item)
    club_id = clubs.found("bo", FoundRequest(name="Early Birds", tag="EB")).club.club_id
    report = ReportRequest.model_validate({"kind": "club", "clubId": club_id, "reason": "other"})
    for reporter in ("ana", "cy", "dee"):
        world.service.report(reporter, report)
    (case,) = world.service.queue("op").cases
    world.service.review("op", case.case_id, ReviewRequest(action="dismiss"))
    assert [row.name for row in clubs.page("ana").clubs] == ["Early Birds"]
