"""Mails in their recipient's language (issue 29): each kind's subject and both body parts are
catalogue sentences rendered in the language of the account they go to, dates as that language
writes them, and nothing a player typed becomes markup."""

from collections.abc import Mapping
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from yamb.accounts.mail import MailKind
from yamb.accounts.mail_text import Mail, compose
from yamb.accounts.preferences import Preferences
from yamb.accounts.profile import AccountStatus, Profile
from yamb.i18n import Text, format_date, format_number
from yamb_service.accounts.mailer import send_gated

from testkit.catalogues import use_catalogues

SUBJECTS = {
    MailKind.VERIFY_EMAIL: "Yamb: confirm your e-mail address",
    MailKind.RESET_PASSWORD: "Yamb: choose a new password",
    MailKind.CHANGE_EMAIL: "Yamb: confirm your new e-mail address",
    MailKind.ACCOUNT_EXISTS: "Yamb: someone tried to sign up with your address",
    MailKind.EMAIL_CHANGE_NOTICE: "Yamb: your account's e-mail address is being changed",
    MailKind.DELETION: "Yamb: your account will be deleted on {purgeDate}",
    MailKind.DELETION_CANCELLED: "Yamb: your account is kept",
    MailKind.RETURN_REMINDER: "Yamb: a game is waiting for you",
}
GREETINGS = {"fr": "Bonjour {nickname},", "da": "Hej {nickname},", "hr": "Pozdrav {nickname},"}
DELETION = (
    "Your account is locked and will be deleted on {purgeDate} ({count} day left). Sign in "
    "before then to keep it.",
    "Your account is locked and will be deleted on {purgeDate} ({count} days left). Sign in "
    "before then to keep it.",
)
VALUES: Mapping[MailKind, Mapping[str, object]] = {
    MailKind.VERIFY_EMAIL: {"link": "https://api.example/accounts/verify?token=t1"},
    MailKind.RESET_PASSWORD: {"link": "https://yamb.example/#/reset?token=t2"},
    MailKind.CHANGE_EMAIL: {"link": "https://api.example/accounts/email-change?token=t3"},
    MailKind.EMAIL_CHANGE_NOTICE: {"newEmail": "ana@new.example"},
    MailKind.DELETION: {"purgeDate": date(2027, 3, 5), "daysLeft": 3},
    MailKind.RETURN_REMINDER: {
        "where": Text("Your slow game is waiting for your turn."),
        "link": "https://yamb.example/",
    },
}


def _catalogues(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Each subject as "<language>: <English>", the greeting, March's date and the deletion's
    sentence (Croatian with its three forms) truly translated."""
    languages: dict[str, dict[str | tuple[str, str], str | tuple[str, ...]]] = {}
    for language, greeting in GREETINGS.items():
        languages[language] = {
            **{subject: f"{language}: {subject}" for subject in SUBJECTS.values()},
            "Hello {nickname},": greeting,
        }
    languages["fr"]["{day} March {year}"] = "{day} mars {year}"
    languages["da"]["{day} March {year}"] = "{day}. marts {year}"
    languages["hr"]["{day} March {year}"] = "{day}. ožujka {year}."
    languages["hr"][DELETION] = (
        "Vaš račun je zaključan i bit će izbrisan {purgeDate} (još {count} dan).",
        "Vaš račun je zaključan i bit će izbrisan {purgeDate} (još {count} dana).",
        "Vaš račun je zaključan i bit će izbrisan {purgeDate} (još {count} dana).",
    )
    languages["hr"]["The link is valid 7 days. If you did not sign up, ignore this mail."] = (
        "Poveznica vrijedi 7 dana. Ako se niste prijavili, zanemarite ovu poruku."
    )
    use_catalogues(monkeypatch, folder, languages)


class RecordingMailer:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Mail]] = []

    def send(self, to: str, mail: Mail) -> None:
        self.sent.append((to, mail))


def _profile(language: str, nickname: str = "ana") -> Profile:
    return Profile(
        player_id="p1",
        nickname=nickname,
        email="ana@example.com",
        status=AccountStatus.ACTIVE,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        preferences=Preferences.model_validate({"language": language}),
    )


@pytest.mark.parametrize("language", ["fr", "da", "hr", "en"])
def test_every_mail_goes_in_its_recipients_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, language: str
) -> None:
    # given catalogues that translate every subject and the greeting, and a recipient whose
    # account speaks `language`
    _catalogues(monkeypatch, tmp_path)
    mailer = RecordingMailer()
    recipient = _profile(language)

    # when a mail of each kind goes through the one mail gate
    for kind in SUBJECTS:
        assert send_gated(mailer, recipient, kind, {"nickname": "ana", **VALUES.get(kind, {})})

    # then each one's subject, text and HTML are in that language (English has no catalogue)
    assert [mail.kind for _, mail in mailer.sent] == list(SUBJECTS)
    for _, mail in mailer.sent:
        english = SUBJECTS[mail.kind].split(" {")[0]
        assert mail.language == language
        if language == "en":
            assert mail.subject.startswith(english)
            assert mail.text.startswith("Hello ana,\n\n")
        else:
            assert mail.subject.startswith(f"{language}: {english}")
            assert mail.text.startswith(GREETINGS[language].format(nickname="ana") + "\n\n")
            assert GREETINGS[language].format(nickname="ana") in mail.html
        assert f'<html lang="{language}">' in mail.html


def test_a_mail_with_a_link_shows_it_in_both_parts_and_the_untranslated_stays_english(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # given the catalogues, with one of the verification mail's sentences not yet translated
    _catalogues(monkeypatch, tmp_path)
    link = VALUES[MailKind.VERIFY_EMAIL]["link"]

    # when the verification mail is composed in Croatian
    mail = compose(MailKind.VERIFY_EMAIL, {"nickname": "ana", "link": link}, "hr")

    # then the link is on its own line in the text and an anchor in the HTML, the translated
    # sentence is Croatian and the untranslated one English rather than nothing
    assert f":\n{link}\n" in mail.text
    assert f'<a href="{link}">Confirm your e-mail address</a>' in mail.html
    assert "Poveznica vrijedi 7 dana." in mail.text
    assert "Confirm your e-mail address to start playing." in mail.text


def test_the_deletion_mail_writes_its_date_and_days_as_croatian_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # given the catalogues
    _catalogues(monkeypatch, tmp_path)

    # when the deletion mail is composed in Croatian, three days before the purge
    mail = compose(
        MailKind.DELETION,
        {"nickname": "ana", "purgeDate": date(2027, 3, 5), "daysLeft": 3},
        "hr",
    )

    # then the date takes the genitive month and the days Croatian's "few" form
    assert mail.subject == "hr: Yamb: your account will be deleted on 5. ožujka 2027."
    assert "izbrisan 5. ožujka 2027. (još 3 dana)." in mail.text
    # and in English the date is English, the plural English's
    english = compose(
        MailKind.DELETION, {"nickname": "ana", "purgeDate": date(2027, 3, 5), "daysLeft": 1}, "en"
    )
    assert "deleted on 5 March 2027 (1 day left)" in english.text


def test_nothing_a_player_typed_becomes_markup_in_a_mail(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # given the catalogues and values with markup in them
    _catalogues(monkeypatch, tmp_path)
    values = {
        "nickname": '<b>Ana</b> & "co"',
        "newEmail": "x@y.example<script>",
    }

    # when the e-mail change notice is composed in French
    mail = compose(MailKind.EMAIL_CHANGE_NOTICE, values, "fr")

    # then the HTML part has them as text, the plain text as they are
    assert "<b>" not in mail.html and "<script>" not in mail.html
    assert "Bonjour &lt;b&gt;Ana&lt;/b&gt; &amp; &quot;co&quot;," in mail.html
    assert "x@y.example&lt;script&gt;" in mail.html
    assert mail.text.startswith('Bonjour <b>Ana</b> & "co",')


def test_a_link_cannot_break_out_of_its_attribute() -> None:
    # given a link with a quote in it
    link = 'https://yamb.example/?a="><script>'

    # when a mail with that link is composed
    mail = compose(MailKind.RESET_PASSWORD, {"nickname": "ana", "link": link}, "en")

    # then the attribute holds it escaped
    assert 'href="https://yamb.example/?a=&quot;&gt;&lt;script&gt;"' in mail.html


def test_numbers_and_dates_follow_the_language_without_babel(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # given the catalogues with March's date pattern of each language
    _catalogues(monkeypatch, tmp_path)

    # then a date and a number read as each language writes them
    day = date(2027, 3, 5)
    assert [format_date(day, lang) for lang in ("en", "fr", "da", "hr")] == [
        "5 March 2027",
        "5 mars 2027",
        "5. marts 2027",
        "5. ožujka 2027.",
    ]
    assert format_number(1234567, "en") == "1,234,567"
    assert format_number(1234.5, "fr", decimals=1) == "1\u202f234,5"
    assert format_number(-1234, "da") == "-1.234"
    assert format_number(999, "hr") == "999"
