"""The game chat's rules: a message cleaned or refused, and one sender's rate limit."""

from datetime import UTC, datetime, timedelta

import pytest
from yamb.chat import (
    CHAT_BURST,
    CHAT_MIN_GAP_SECONDS,
    CHAT_WINDOW_SECONDS,
    MAX_CHAT_CHARS,
    ChatRate,
    ChatRefused,
    validate_message,
)
from yamb.errors import YambError

T0 = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_validate_message_strips_and_collapses_whitespace() -> None:
    # given a message with outer, doubled and odd whitespace
    text = "  nice \t roll,\n\n  well   played\u00a0 "

    # when validated
    cleaned = validate_message(text)

    # then it is trimmed, each run of whitespace one space
    assert cleaned == "nice roll, well played"


def test_validate_message_keeps_unicode_text_composed() -> None:
    # given a message with a decomposed accent and an emoji
    text = "bien joue\u0301 \U0001f3b2"

    # when validated / then it comes back composed, otherwise unchanged
    assert validate_message(text) == "bien joué \U0001f3b2"


@pytest.mark.parametrize("text", ["", "   ", "\n\t \r\n", "\u00a0\u2003"])
def test_validate_message_refuses_an_empty_message(text: str) -> None:
    # given a message of nothing but whitespace
    # when validated
    with pytest.raises(ChatRefused) as refused:
        validate_message(text)

    # then it is refused as empty
    assert refused.value.code == "chat_empty"
    assert refused.value.message == "a chat message cannot be empty"


def test_validate_message_refuses_a_message_too_long() -> None:
    # given a message of 312 characters
    text = "y" * 312

    # when validated
    with pytest.raises(ChatRefused) as refused:
        validate_message(text)

    # then it is refused, saying the limit and its length
    assert refused.value.code == "chat_too_long"
    assert refused.value.message == "a chat message is at most 200 characters (this one has 312)"


def test_validate_message_counts_length_after_cleaning() -> None:
    # given a message of MAX_CHAT_CHARS characters once its whitespace is collapsed
    text = "   " + "a  " * 100

    # when validated / then it passes with exactly the limit
    assert len(validate_message(text)) == 199
    assert len(validate_message("b" * MAX_CHAT_CHARS)) == MAX_CHAT_CHARS


@pytest.mark.parametrize(
    "text", ["gg \x07", "bell\x00", "esc \x1b[31m red", "next\x85line", "\u202egnirts desrever"]
)
def test_validate_message_refuses_control_characters(text: str) -> None:
    # given a message holding a control character (or a reordering one)
    # when validated
    with pytest.raises(ChatRefused) as refused:
        validate_message(text)

    # then it is refused as a malformed request, naming the character
    assert refused.value.code == "bad_request"
    assert refused.value.message.startswith("a chat message cannot hold control characters (U+")


def test_validate_message_refuses_a_lone_surrogate() -> None:
    # given a message with a lone surrogate (a JSON "\ud800" that is no character)
    # when validated / then it is refused as malformed
    with pytest.raises(ChatRefused) as refused:
        validate_message("oops \ud800")
    assert refused.value.code == "bad_request"


@pytest.mark.parametrize("text", ["what the fuck", "quel connard", "sikke noget lort", "sh1t"])
def test_validate_message_refuses_an_indecent_message(text: str) -> None:
    # given a message with a word the lists hold
    # when validated
    with pytest.raises(ChatRefused) as refused:
        validate_message(text)

    # then it is refused without echoing the word
    assert refused.value.code == "chat_indecent"
    assert refused.value.message == (
        "this message was not sent: it contains a word the chat does not allow"
    )


def test_validate_message_lets_scunthorpe_through() -> None:
    # given a decent message whose words contain entries
    # when validated / then it is sent
    assert validate_message("Scunthorpe class, contre-attaque") == (
        "Scunthorpe class, contre-attaque"
    )


def test_chat_refused_is_a_yamb_error_with_code_and_message() -> None:
    # given a refusal / when caught as any domain error / then code and message are there
    with pytest.raises(YambError) as refused:
        validate_message("")
    assert isinstance(refused.value, ChatRefused)
    assert str(refused.value) == refused.value.message


def test_chat_rate_allows_a_first_message() -> None:
    # given a sender who never sent
    rate = ChatRate()

    # when they send / then it is allowed
    rate.check(at(0))
    assert rate.wait(at(0)) == 0


def test_chat_rate_refuses_a_message_within_a_second() -> None:
    # given a sender who just sent
    rate = ChatRate()
    rate.record(at(0))

    # when they send again 0.4 seconds later
    with pytest.raises(ChatRefused) as refused:
        rate.check(at(0.4))

    # then it is refused, saying to wait a second
    assert refused.value.code == "chat_too_fast"
    assert refused.value.message == (
        "you are sending chat messages too fast: wait 1 second before the next"
    )


def test_chat_rate_allows_after_the_minimum_gap() -> None:
    # given a sender who sent a second ago
    rate = ChatRate()
    rate.record(at(0))

    # when they send again / then it is allowed
    rate.check(at(CHAT_MIN_GAP_SECONDS))


def test_chat_rate_refuses_a_sixth_message_within_ten_seconds() -> None:
    # given a sender who sent 5 messages, one every 1.5 seconds (0 to 6)
    rate = ChatRate()
    for index in range(CHAT_BURST):
        rate.check(at(index * 1.5))
        rate.record(at(index * 1.5))

    # when they send a sixth at 7.2 seconds
    with pytest.raises(ChatRefused) as refused:
        rate.check(at(7.2))

    # then it is refused until the first leaves the window: 2.8 seconds, said as 3
    assert refused.value.code == "chat_too_fast"
    assert "wait 3 seconds" in refused.value.message
    assert rate.wait(at(7.2)) == pytest.approx(2.8)


def test_chat_rate_allows_once_the_oldest_leaves_the_window() -> None:
    # given a sender who sent 5 messages from 0 to 4 seconds
    rate = ChatRate()
    for index in range(CHAT_BURST):
        rate.record(at(index))

    # when they send at 10 seconds / then it is allowed
    rate.check(at(CHAT_WINDOW_SECONDS))


def test_chat_rate_record_keeps_only_what_still_counts() -> None:
    # given a sender who sent 8 messages, then one much later
    rate = ChatRate()
    for index in range(8):
        rate.record(at(index))
    kept_in_burst = list(rate.sent)
    rate.record(at(60))

    # when the record is read / then only the last burst, and then only the recent one, is kept
    assert kept_in_burst == [at(index) for index in range(3, 8)]
    assert rate.sent == [at(60)]


def test_chat_rate_round_trips_through_json() -> None:
    # given a sender's record
    rate = ChatRate()
    rate.record(at(0))
    rate.record(at(2.5))

    # when stored as JSON and read back
    restored = ChatRate.model_validate_json(rate.model_dump_json())

    # then it is the same record and limits the same way
    assert restored == rate
    with pytest.raises(ChatRefused):
        restored.check(at(3))
