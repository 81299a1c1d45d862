"""Return reminders (A8): a player away from a slow game or a waiting table is mailed once per
absence by the clock function, through the one mail gate (the return-reminder switch)."""

from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from moto.ses.models import ses_backends
from yamb.accounts.mail import MailKind
from yamb.accounts.mail_text import Mail
from yamb.accounts.preferences import EmailNotifications, Notifications, Preferences
from yamb.accounts.profile import AccountStatus, Profile
from yamb.session.model import GameSession
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.accounts.mailer import SesMailer, send_gated
from yamb_service.edge.caller import Caller
from yamb_service.game.reminders import MailedReminders

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
SLOW = {"columns": ["free"], "preset": None, "turnType": "slow", "turnSeconds": None}
REGION = "us-east-1"


class RecordingReminders:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def remind(self, player_id: str, session: GameSession) -> bool:
        self.sent.append((player_id, session.game_id))
        return True


@pytest.fixture
def reminders(harness: Any) -> RecordingReminders:
    recording = RecordingReminders()
    harness.service.reminders = recording
    return recording


def test_slow_game_away_player_is_reminded_once_per_absence(
    harness: Any, reminders: RecordingReminders
) -> None:
    # given a slow game of a week, where ben closed every window
    game_id = harness.running_game(ANA, BEN, slowDeadlineHours=168, **SLOW)
    harness.service.disconnect(BEN)

    # when a day passes, then another
    harness.advance(hours=23)
    before = list(reminders.sent)
    harness.advance(hours=1, seconds=1)
    harness.advance(hours=30)

    # then ben was reminded once, at a day away, and not before
    assert before == []
    assert reminders.sent == [("ben", game_id)]

    # when he comes back and goes away again, and a day passes
    harness.connect(BEN)
    harness.service.disconnect(BEN)
    harness.advance(hours=24, seconds=1)

    # then this new absence has its own reminder
    assert reminders.sent == [("ben", game_id), ("ben", game_id)]


def test_slow_game_player_back_in_time_is_not_reminded(
    harness: Any, reminders: RecordingReminders
) -> None:
    # given ben away from a slow game of a week
    harness.running_game(ANA, BEN, slowDeadlineHours=168, **SLOW)
    harness.service.disconnect(BEN)

    # when he is back after 20 hours, and two days pass with him there
    harness.advance(hours=20)
    harness.connect(BEN)
    harness.advance(hours=48)

    # then nobody was reminded
    assert reminders.sent == []


def test_slow_game_reminder_comes_by_half_of_the_time_left(
    harness: Any, reminders: RecordingReminders
) -> None:
    # given a slow game of 10 hours, ben away from the start
    game_id = harness.running_game(ANA, BEN, slowDeadlineHours=10, **SLOW)
    harness.service.disconnect(BEN)

    # when 5 hours pass
    harness.advance(hours=5, seconds=1)

    # then he is reminded while there is still time to play
    assert reminders.sent == [("ben", game_id)]


def test_waiting_table_away_player_is_reminded(harness: Any, reminders: RecordingReminders) -> None:
    # given ben sits at ana's waiting table of three and closed every window
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=3)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.service.disconnect(BEN)

    # when ten minutes pass
    harness.advance(minutes=10, seconds=1)

    # then he is reminded that the table waits
    assert reminders.sent == [("ben", game_id)]


def test_regular_running_game_has_the_return_countdown_and_no_reminder(
    harness: Any, reminders: RecordingReminders
) -> None:
    # given a regular game where ben went away
    harness.running_game(ANA, BEN, columns=["free"], preset=None)
    harness.service.disconnect(BEN)

    # when a day passes
    harness.advance(hours=24)

    # then no reminder: the 3-minute return countdown decided (rules.md 8)
    assert reminders.sent == []


# ------------------------------------------------------------------ the mail and its gate


class RecordingMailer:
    def __init__(self) -> None:
        self.sent: list[tuple[str, MailKind, Mail]] = []

    def send(self, to: str, mail: Mail) -> None:
        self.sent.append((to, mail.kind, mail))


def _profile(
    *, switches: dict[str, bool] | None = None, status: AccountStatus = AccountStatus.ACTIVE
) -> Profile:
    email = EmailNotifications(**(switches or {}))
    return Profile(
        player_id="ben",
        nickname="ben",
        email="ben@example.com",
        status=status,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        preferences=Preferences(notifications=Notifications(email=email)),
    )


@pytest.mark.parametrize(
    ("kind", "switch"),
    [
        (MailKind.RETURN_REMINDER, "return_reminders"),
        (MailKind.TOURNAMENT, "tournaments"),
        (MailKind.OFFER, "offers"),
    ],
)
def test_mail_gate_sends_a_groups_mail_only_while_its_switch_is_on(
    kind: MailKind, switch: str
) -> None:
    # given a player with this group's switch off, and the same player with it on
    mailer = RecordingMailer()
    off, on = _profile(switches={switch: False}), _profile()

    # when a mail of the group is sent to each
    sent = [send_gated(mailer, off, kind, {"nickname": "ben"}), send_gated(mailer, on, kind, {})]

    # then only the one with the switch on gets it
    assert sent == [False, True]
    assert [(to, k) for to, k, _ in mailer.sent] == [("ben@example.com", kind)]


def test_mail_gate_account_mail_always_goes_and_group_mail_only_to_active_accounts() -> None:
    # given a locked account (deletion asked) with every group switched off
    mailer = RecordingMailer()
    quiet = {"return_reminders": False, "tournaments": False, "offers": False}
    locked = _profile(switches=quiet, status=AccountStatus.DELETING)
    banned = _profile(status=AccountStatus.BANNED)

    # when it is sent account mail, and a banned account a reminder
    account = send_gated(mailer, locked, MailKind.DELETION, {"nickname": "ben"})
    reminder = send_gated(mailer, banned, MailKind.RETURN_REMINDER, {"nickname": "ben"})

    # then the account mail goes, the reminder does not
    assert (account, reminder) == (True, False)
    assert [k for _, k, _ in mailer.sent] == [MailKind.DELETION]


def test_mailed_reminder_goes_through_ses_in_the_players_words(harness: Any) -> None:
    # given ben's account on the table and SES with the stack's sender identity
    store = DynamoAccountStore(harness.games._item, harness.games.result)
    store.create(_profile())
    ses = boto3.client("ses", region_name=REGION)
    ses.verify_email_identity(EmailAddress="yamb@example.com")
    mailer = SesMailer(lambda: boto3.client("ses", region_name=REGION), sender="yamb@example.com")
    reminders = MailedReminders(lambda: store, lambda: mailer, "https://play.example/")
    session = GameSession.model_construct(game_id="g1", status="waiting")

    # when ben is reminded
    went = reminders.remind("ben", session)

    # then one mail went to his address (SendEmail: no template), saying where he is awaited
    assert went
    (sent,) = ses_backends["123456789012"][REGION].sent_messages
    assert sent.destinations["ToAddresses"] == ["ben@example.com"]
    assert sent.subject == "Yamb: a game is waiting for you"
    assert "The table you sat down at is waiting for players." in sent.body


def test_mailed_reminder_skips_a_player_who_switched_reminders_off(harness: Any) -> None:
    # given ben switched return reminders off
    store = DynamoAccountStore(harness.games._item, harness.games.result)
    store.create(_profile(switches={"return_reminders": False}).model_copy(
        update={"player_id": "cleo", "nickname": "cleo", "email": "cleo@example.com"}))  # fmt: skip
    mailer = RecordingMailer()
    reminders = MailedReminders(lambda: store, lambda: mailer, "https://play.example/")
    session = GameSession.model_construct(game_id="g1", status="running")

    # when he is reminded, then nothing is sent
    assert reminders.remind("cleo", session) is False
    assert mailer.sent == []
