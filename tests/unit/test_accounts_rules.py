"""The account rules of yamb.accounts (A1-A8) and the token admission of yamb_service.edge.identity,
pure: no AWS."""

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError
from yamb.accounts.emails import check_email, email_key
from yamb.accounts.errors import AccountError
from yamb.accounts.links import LinkKind, check_live, digest, matches, new_link, token_owner
from yamb.accounts.mail import ADDRESS_BOUNDS, MailBound, MailKind, may_send
from yamb.accounts.nicknames import (
    MAX_NICKNAME_CHARS,
    check_nickname,
    nickname_key,
    purged_nickname,
)
from yamb.accounts.passwords import check_password
from yamb.accounts.preferences import Preferences, PreferencesChange, apply_change
from yamb.accounts.prices import check_change_allowed, nickname_change_price
from yamb.accounts.profile import AccountStatus, Profile, refusal, reminder_due
from yamb.confusables import read_mapping, skeleton
from yamb_service.edge.auth import Identity
from yamb_service.edge.identity import TokenRefusedError, admit

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def _code(call: object, *args: object, **kwargs: object) -> str:
    assert callable(call)
    with pytest.raises(AccountError) as refused:
        call(*args, **kwargs)
    return refused.value.code


# ----------------------------------------------------------------------------- nicknames


@pytest.mark.parametrize(
    "nickname",
    ["ana", "Ana_92", "jean-luc", "Đorđe", "ø.k", "X", "ScunthorpeFan", "Cocktail", "AssetMgr"],
)
def test_nickname_valid_names_are_kept(nickname: str) -> None:
    # when a well-formed nickname is checked, then it is kept as written
    assert check_nickname(f"  {nickname} ") == nickname


@pytest.mark.parametrize(
    ("nickname", "code"),
    [
        ("", "nickname_empty"),
        ("   ", "nickname_empty"),
        ("a" * (MAX_NICKNAME_CHARS + 1), "nickname_too_long"),
        ("ana maria", "nickname_characters"),
        ("_ana", "nickname_characters"),
        ("ana-", "nickname_characters"),
        ("an<a>", "nickname_characters"),
        ("ana\u200b", "nickname_characters"),
        ("fuck", "nickname_indecent"),
        ("big_fuck", "nickname_indecent"),
        ("Merde.Alors", "nickname_indecent"),
        ("FuckYou", "nickname_indecent"),
        ("xfuckx", "nickname_indecent"),
        ("BigAss", "nickname_indecent"),
        ("LaPutain", "nickname_indecent"),
        ("the_B1tch", "nickname_indecent"),
    ],
)
def test_nickname_refused_names_name_the_rule(nickname: str, code: str) -> None:
    # when a nickname breaking a rule is checked, then the error names that rule and field
    with pytest.raises(AccountError) as refused:
        check_nickname(nickname)
    assert (refused.value.code, refused.value.field) == (code, "nickname")


def test_nickname_key_ignores_letter_case_and_width() -> None:
    # given one name in three spellings, then they are one nickname
    assert nickname_key("Ana") == nickname_key("ANA") == nickname_key("\uff21\uff4e\uff41")
    assert nickname_key("ana") != nickname_key("anna")


@pytest.mark.parametrize(
    "look_alike",
    [
        "\u0430na",  # Cyrillic a first
        "an\u0430",  # Cyrillic a last
        "\u0391na",  # Greek capital Alpha
        "\u0410NA",  # Cyrillic capital A, Latin N, A
        "\uff41na",  # fullwidth a
    ],
)
def test_nickname_key_is_one_for_look_alike_letters(look_alike: str) -> None:
    # given a name spelled with letters of another script that look like Latin ones
    # then it is the same nickname as the Latin one (UTS 39 skeleton of the casefolded name)
    assert nickname_key(look_alike) == nickname_key("ana")


@pytest.mark.parametrize(
    ("name", "same_as"),
    [("biIl", "bill"), ("j0hn", "john"), ("rnax", "max"), ("\u0440\u0430ypal", "paypal")],
)
def test_nickname_key_counts_letters_and_digits_as_they_look(name: str, same_as: str) -> None:
    # given a capital I among lowercase letters, a zero for an o, "rn" for "m", Cyrillic er and a
    # then each is the name it looks like
    assert nickname_key(name) == nickname_key(same_as)


@pytest.mark.parametrize(("name", "other"), [("ana", "anna"), ("ana", "ina"), ("Đorđe", "Dorde")])
def test_nickname_key_keeps_different_names_apart(name: str, other: str) -> None:
    # given names that differ in letters people tell apart, then they stay two nicknames
    assert nickname_key(name) != nickname_key(other)


def test_skeleton_follows_uts39_mapping_of_sequences() -> None:
    # given Unicode's data: a character whose prototype is a sequence, and one with no mapping
    # then the skeleton is NFD, the mapping, NFD again; default-ignorables are dropped
    assert skeleton("m") == "rn"
    assert skeleton("\u00e9") == skeleton("e\u0301")
    assert skeleton("a\u200bb") == skeleton("ab")
    assert read_mapping("\ufeff0430 ;\t0061 ;\tMA\t# ( a )\n# a comment\n") == {"\u0430": "a"}


def test_nickname_purged_name_cannot_be_registered() -> None:
    # given the name a purged account gets, then it is no nickname anyone can take
    name = purged_nickname("4f1c2b7a-0e7d-4c55-9a1e-6a2f3d9b8c01")
    assert name == "#4f1c2b7a0e7d"
    assert _code(check_nickname, name) == "nickname_characters"


# ----------------------------------------------------------------------------- passwords, e-mail


@pytest.mark.parametrize(
    ("password", "needs"),
    [
        ("short1", "at least 12 characters"),
        ("eleven-ch1x", "at least 12 characters"),
        ("NOLOWERCASE1", "a lowercase letter"),
        ("nodigitshere", "a digit"),
        (" padded-pass1", "no space at either end"),
    ],
)
def test_password_weak_ones_say_what_they_lack(password: str, needs: str) -> None:
    with pytest.raises(AccountError) as refused:
        check_password(password)
    assert refused.value.code == "password_weak"
    assert needs in refused.value.message


def test_password_strong_enough_is_kept() -> None:
    # given twelve characters with a lowercase letter and a digit / then it is kept
    assert check_password("dice-and-421") == "dice-and-421"


def test_email_valid_address_is_normalised() -> None:
    # the domain's case is not part of an address
    assert check_email("Ana@Example.COM") == "Ana@example.com"
    assert email_key("Ana@example.com") == email_key("ana@EXAMPLE.com")


@pytest.mark.parametrize("address", ["", "ana", "ana@", "@example.com", "ana@@example.com"])
def test_email_malformed_address_is_refused(address: str) -> None:
    assert _code(check_email, address) == "email_invalid"


# ----------------------------------------------------------------------------- A5 prices


def test_nickname_change_price_follows_the_scale() -> None:
    # 100, 200, 400, 1000, then 1000 more each time
    assert [nickname_change_price(n) for n in range(7)] == [100, 200, 400, 1000, 2000, 3000, 4000]


def test_nickname_change_refused_within_seven_days_or_without_tokens() -> None:
    # given a change made 6 days ago, then the next waits; after 7 days it costs 200
    last = NOW - timedelta(days=6, hours=23)
    assert (
        _code(check_change_allowed, changes_made=1, last_change=last, tokens=500, now=NOW)
        == "nickname_too_soon"
    )
    week = NOW - timedelta(days=7)
    assert check_change_allowed(changes_made=1, last_change=week, tokens=500, now=NOW) == 200
    assert (
        _code(check_change_allowed, changes_made=1, last_change=week, tokens=199, now=NOW)
        == "not_enough_tokens"
    )


# ----------------------------------------------------------------------------- links


def test_link_live_until_its_lifetime_ends() -> None:
    # given a reset link (2 hours) and a verification link (7 days)
    token, reset = new_link(LinkKind.RESET, "p1", NOW)
    _, verify = new_link(LinkKind.VERIFY, "p1", NOW)

    # then each works within its lifetime only, and for its own kind only
    assert reset.digest == digest(token) and token not in reset.model_dump_json()
    assert check_live(reset, LinkKind.RESET, NOW + timedelta(hours=1, minutes=59)) == reset
    assert _code(check_live, reset, LinkKind.RESET, NOW + timedelta(hours=2)) == "link_expired"
    assert check_live(verify, LinkKind.VERIFY, NOW + timedelta(days=6, hours=23)) == verify
    assert _code(check_live, verify, LinkKind.VERIFY, NOW + timedelta(days=7)) == "link_expired"
    assert _code(check_live, reset, LinkKind.VERIFY, NOW) == "link_invalid"
    assert _code(check_live, None, LinkKind.VERIFY, NOW) == "link_invalid"


def test_link_token_names_its_player_and_matches_only_its_own_link() -> None:
    # given two reset links of one player, one after the other
    first_token, first = new_link(LinkKind.RESET, "player-1", NOW)
    second_token, second = new_link(LinkKind.RESET, "player-1", NOW)

    # then each token names the player, and matches its own link only (the store keeps the
    # newest: the first token then finds nothing)
    assert token_owner(first_token) == token_owner(second_token) == "player-1"
    assert matches(second, second_token) == second
    assert matches(second, first_token) is None
    assert matches(None, first_token) is None
    assert first.digest != second.digest
    for mangled in ("", "no-separator", ".secret-only", "player-1."):
        assert _code(token_owner, mangled) == "link_invalid"


def test_mail_bound_windows_are_fixed_and_shared_by_every_request() -> None:
    # given the hourly bound
    hourly = MailBound(3, timedelta(hours=1))
    start = datetime(2026, 12, 4, 16, 0, tzinfo=UTC)

    # then every moment of an hour is in the window of its hour, and the next hour is another
    assert hourly.window_start(start) == start
    assert hourly.window_start(start + timedelta(minutes=59, seconds=59)) == start
    assert hourly.window_start(start + timedelta(hours=1)) == start + timedelta(hours=1)
    # and an address gets at most 3 such mails an hour, 10 a day
    assert [(bound.limit, bound.window) for bound in ADDRESS_BOUNDS] == [
        (3, timedelta(hours=1)),
        (10, timedelta(days=1)),
    ]


# ----------------------------------------------------------------------------- A4 settings


def test_preferences_change_merges_what_it_names() -> None:
    # given the default settings
    current = Preferences()

    # when a change names the country, one e-mail switch and the description
    change = PreferencesChange.model_validate(
        {"country": "hr", "notifications": {"email": {"offers": False}}, "description": "  hi  "}
    )
    updated = apply_change(current, change)

    # then those change and everything else stays
    assert updated.country == "HR"
    assert updated.notifications.email.offers is False
    assert updated.notifications.email.tournaments is True
    assert updated.notifications.in_app == current.notifications.in_app
    assert updated.description == "hi"
    assert updated.language == "en" and updated.public_page is True


def test_preferences_country_null_is_the_yamb_world_flag() -> None:
    current = Preferences(country="DK")
    assert (
        apply_change(current, PreferencesChange.model_validate({"country": None})).country is None
    )


@pytest.mark.parametrize(
    ("change", "code"),
    [({"country": "ZZ"}, "country_unknown"), ({"description": "merde"}, "description_indecent")],
)
def test_preferences_bad_values_are_refused(change: dict[str, object], code: str) -> None:
    assert _code(apply_change, Preferences(), PreferencesChange.model_validate(change)) == code


@pytest.mark.parametrize(
    ("description", "character"),
    [
        ("abc\u202edcba", "U+202E"),  # right-to-left override
        ("abc\u2067dcba\u2069", "U+2067"),  # right-to-left isolate
        ("ad\u200bmin", "U+200B"),  # zero-width space
        ("a\u200db", "U+200D"),  # a zero-width joiner between letters
        ("nice\ufeff", "U+FEFF"),  # zero-width no-break space (a BOM)
        ("nul\x00here", "U+0000"),
        ("bell\x07", "U+0007"),
        ("escape \x1b[31mred", "U+001B"),
    ],
)
def test_description_with_hidden_characters_is_refused_naming_one(
    description: str, character: str
) -> None:
    # given a description holding a bidi control, a zero-width, control or NUL character
    # when it is set
    with pytest.raises(AccountError) as refused:
        apply_change(Preferences(), PreferencesChange(description=description))

    # then it is refused with its own code, naming the character; nothing is dropped silently
    assert (refused.value.code, refused.value.field) == ("description_characters", "description")
    assert character in str(refused.value)


@pytest.mark.parametrize(
    "description",
    [
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467 and \U0001f3f3\ufe0f\u200d\U0001f308",
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",
        "\u05e9\u05dc\u05d5\u05dd and \u0645\u0631\u062d\u0628\u0627",  # RTL text as itself
    ],
)
def test_description_keeps_emoji_sequences_and_right_to_left_text(description: str) -> None:
    # given joined emoji, a region flag and Hebrew and Arabic words / when set / then kept
    change = PreferencesChange(description=description)
    assert apply_change(Preferences(), change).description == description


def test_description_line_breaks_and_tabs_are_spaces() -> None:
    # given a description over lines / when set / then one line, its words kept
    change = PreferencesChange(description="roll\tthe\r\ndice\u2028now")
    assert apply_change(Preferences(), change).description == "roll the dice now"


@pytest.mark.parametrize(
    "change",
    [{}, {"language": "xx"}, {"language": None}, {"colour": "red"}, {"publicPage": "yes"}],
)
def test_preferences_change_malformed_fails_at_the_edge(change: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        PreferencesChange.model_validate(change)


# ----------------------------------------------------------------------------- A8 mail


def test_mail_account_mail_goes_whatever_the_switches() -> None:
    # given a player who switched every e-mail group off
    quiet = apply_change(
        Preferences(),
        PreferencesChange.model_validate(
            {
                "notifications": {
                    "email": {"returnReminders": False, "tournaments": False, "offers": False}
                }
            }
        ),
    )

    # then account and security mail still goes, and no group mail does
    groups = {MailKind.RETURN_REMINDER, MailKind.TOURNAMENT, MailKind.OFFER}
    for kind in MailKind:
        assert may_send(quiet, kind) is (kind not in groups)
    assert may_send(Preferences(), MailKind.OFFER) is True
    assert may_send(quiet, MailKind.RESET_PASSWORD) is True


# ----------------------------------------------------------------------------- A7 deletion


def _profile(**changes: object) -> Profile:
    base = Profile(
        player_id="p1",
        nickname="ana",
        email="ana@example.com",
        status=AccountStatus.ACTIVE,
        created_at=NOW - timedelta(days=100),
    )
    return base.model_copy(update=changes)


def test_deletion_reminders_go_once_each_at_7_and_1_days_left() -> None:
    # given an account whose deletion was asked now
    deleting = _profile(status=AccountStatus.DELETING, deletion_requested_at=NOW)

    # then no reminder before 7 days are left, the first at 7, the second at 1, none after
    assert reminder_due(deleting, NOW + timedelta(days=22)) is None
    assert reminder_due(deleting, NOW + timedelta(days=23)) == 0
    reminded = deleting.model_copy(update={"deletion_reminders": 1})
    assert reminder_due(reminded, NOW + timedelta(days=25)) is None
    assert reminder_due(reminded, NOW + timedelta(days=29)) == 1
    done = deleting.model_copy(update={"deletion_reminders": 2})
    assert reminder_due(done, NOW + timedelta(days=29, hours=12)) is None
    assert reminder_due(deleting, NOW + timedelta(days=30)) is None


def test_deletion_reminder_after_a_missed_week_is_the_latest_only() -> None:
    deleting = _profile(status=AccountStatus.DELETING, deletion_requested_at=NOW)
    assert reminder_due(deleting, NOW + timedelta(days=29, hours=6)) == 1


# ----------------------------------------------------------------------------- admission


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (AccountStatus.UNVERIFIED, "account_unverified"),
        (AccountStatus.DELETING, "account_locked"),
        (AccountStatus.BANNED, "account_banned"),
        (AccountStatus.PURGING, "account_deleted"),
        (AccountStatus.DELETED, "account_deleted"),
    ],
)
def test_admit_refuses_accounts_that_may_not_play(status: AccountStatus, code: str) -> None:
    identity = Identity(player_id="p1", nickname="p1", expires_at=0)
    with pytest.raises(TokenRefusedError) as refused:
        admit(identity, _profile(status=status))
    assert refused.value.code == code
    assert refusal(None) is not None


def test_admit_refuses_a_token_of_an_older_sign_out_generation() -> None:
    # given an account signed out everywhere twice
    profile = _profile(session=2)

    # then a token of generation 1 is refused, one of generation 2 speaks for the nickname
    with pytest.raises(TokenRefusedError) as refused:
        admit(Identity(player_id="p1", nickname="p1", expires_at=0, session=1), profile)
    assert refused.value.code == "signed_out"
    admitted = admit(Identity(player_id="p1", nickname="p1", expires_at=0, session=2), profile)
    assert admitted.nickname == "ana"
