"""The general and private chats (S3) through the game service on moto: a private message
delivered live or kept for the next login, a conversation read, paged and closed for one side
alone, blocks and the other refusals with nothing written; the general chat's window, its
batches (one frame per listener, the batch's deliverer the first line's sender) and a gone
listener dropped."""

from typing import Any

import pytest
from yamb.social import chats as rules
from yamb_service.edge.caller import Caller
from yamb_service.social.blocks.ports import Block

from tests.integration.social import ANA, BEN, CY, of_type


def test_a_private_message_reaches_a_connected_player_and_answers_its_sender(people: Any) -> None:
    # Given ana and ben connected
    people.connect(ANA, BEN)
    # When ana writes to ben (by his nickname in another case)
    request = people.act(ANA, "send_message", to="BEN", text="  fancy   a game? ")
    # Then her answer and his copy carry the cleaned text, each naming the other
    answer = people.answer(ANA, request)
    assert (answer["type"], answer["nickname"], answer["message"]["mine"]) == (
        "message",
        "Ben",
        True,
    )
    (received,) = of_type(people, BEN, "message")
    assert received["nickname"] == "Ana" and received["requestId"] is None
    assert received["message"]["text"] == "fancy a game?"
    assert received["message"]["sender"] == "Ana" and not received["message"]["mine"]
    assert received["message"]["id"] == answer["message"]["id"]


def test_a_message_to_an_offline_player_waits_for_their_login(people: Any) -> None:
    # Given ben is not connected
    people.connect(ANA)
    people.act(ANA, "send_message", to="ben", text="see you tonight")
    people.clock.advance(seconds=2)
    people.act(ANA, "send_message", to="ben", text="bring dice")
    assert of_type(people, BEN, "message") == []
    # When he connects and the page reads his conversations, then the one with ana
    people.connect(BEN)
    listed = people.answer(BEN, people.act(BEN, "conversations"))
    read = people.answer(BEN, people.act(BEN, "conversation", nickname="ana"))
    # Then the conversation shows two unread, and reads in order; once read it shows none
    (conversation,) = listed["conversations"]
    assert (conversation["nickname"], conversation["unread"]) == ("Ana", 2)
    assert conversation["lastText"] == "bring dice"
    assert [m["text"] for m in read["messages"]] == ["see you tonight", "bring dice"]
    again = people.answer(BEN, people.act(BEN, "conversations"))
    assert again["conversations"][0]["unread"] == 0


def test_a_long_conversation_reads_page_by_page(
    people: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rules, "CONVERSATION_PAGE", 2)
    people.connect(ANA, BEN)
    for n in range(5):
        people.clock.advance(seconds=2)
        people.act(ANA, "send_message", to="ben", text=f"line {n}")
    seen: list[str] = []
    before = None
    while True:
        fields = {"nickname": "ana"} | ({"before": before} if before else {})
        page = people.answer(BEN, people.act(BEN, "conversation", **fields))
        seen = [m["text"] for m in page["messages"]] + seen
        before = page["before"]
        if before is None:
            break
    assert seen == [f"line {n}" for n in range(5)]


def test_closing_a_conversation_clears_it_for_one_side_alone(people: Any) -> None:
    # Given ana and ben exchanged messages
    people.connect(ANA, BEN)
    people.act(ANA, "send_message", to="ben", text="hello")
    people.clock.advance(seconds=1)
    people.act(BEN, "send_message", to="ana", text="hi")
    # When ben closes it
    closed = people.answer(BEN, people.act(BEN, "close_conversation", nickname="Ana"))
    # Then he has none, ana still has the whole history
    assert closed["conversations"] == []
    kept = people.answer(ANA, people.act(ANA, "conversation", nickname="ben"))
    assert [m["text"] for m in kept["messages"]] == ["hello", "hi"]
    # and closing it again is refused with its code
    again = people.answer(BEN, people.act(BEN, "close_conversation", nickname="ana"))
    assert again["code"] == "conversation_not_found"
    # and a new message opens a fresh one for him
    people.clock.advance(seconds=2)
    people.act(ANA, "send_message", to="ben", text="still there?")
    fresh = people.answer(BEN, people.act(BEN, "conversation", nickname="ana"))
    assert [m["text"] for m in fresh["messages"]] == ["still there?"]


def test_refused_messages_have_their_codes_and_write_nothing(people: Any) -> None:
    people.connect(ANA, BEN)
    people.service.social.blocks.add(Block(owner="ben", other="ana", since=people.clock()))
    refused = {
        "message_self": people.act(ANA, "send_message", to="ana", text="me"),
        "unknown_player": people.act(ANA, "send_message", to="nobody", text="hi"),
        "blocked": people.act(ANA, "send_message", to="ben", text="hi"),
        "chat_too_long": people.act(ANA, "send_message", to="cy", text="x" * 201),
        "chat_indecent": people.act(ANA, "send_message", to="cy", text="fuck you"),
    }
    for code, request in refused.items():
        assert people.answer(ANA, request)["code"] == code, code
    # the blocked one is refused the other way too
    assert (
        people.answer(BEN, people.act(BEN, "send_message", to="ana", text="x"))["code"] == "blocked"
    )
    assert of_type(people, BEN, "message") == []
    assert people.answer(ANA, people.act(ANA, "conversations"))["conversations"] == []


def test_messages_too_fast_are_refused(people: Any) -> None:
    people.connect(ANA, BEN)
    codes = [
        people.answer(ANA, people.act(ANA, "send_message", to="ben", text=f"m{n}")).get("code")
        for n in range(3)
    ]
    assert codes[0] is None and "chat_too_fast" in codes


# ------------------------------------------------------------------------ the general chat


def test_the_general_chat_window_and_its_batches(people: Any) -> None:
    # Given ana and ben have the general chat open, cy is connected without it
    people.connect(ANA, BEN, CY)
    opened = people.answer(ANA, people.act(ANA, "general_chat_open"))
    people.answer(BEN, people.act(BEN, "general_chat_open"))
    assert opened["lines"] == []
    # When cy says something
    request = people.act(CY, "general_chat", text="hello all")
    # Then his answer holds his line, and each listener got one batch frame with it
    assert [line["text"] for line in people.answer(CY, request)["lines"]] == ["hello all"]
    for caller in (ANA, BEN):
        batches = [f for f in of_type(people, caller, "general_chat") if f["requestId"] is None]
        assert [[line["text"] for line in b["lines"]] for b in batches] == [["hello all"]]
    # and a page opening the chat later reads the line in the window
    reopened = people.answer(CY, people.act(CY, "general_chat_open"))
    assert [line["sender"] for line in reopened["lines"]] == ["Cy"]


def test_lines_of_one_batch_go_out_in_one_frame(people: Any) -> None:
    # Given a batch waiting to go out (its deliverer has not delivered yet)
    people.connect(ANA, BEN)
    people.act(ANA, "general_chat_open")
    chats = people.service.social.chats
    window, version = chats.window()
    window.flush_due = people.clock.moment
    assert chats.save_window(window, version)
    # When ben says two things (neither delivers: a delivery is due)
    people.act(BEN, "general_chat", text="one")
    people.clock.advance(seconds=2)
    people.act(BEN, "general_chat", text="two")
    assert [f for f in of_type(people, ANA, "general_chat") if f["requestId"] is None] == []
    # and the batch is delivered
    from yamb_service.social.chats.service import deliver_general

    posted = deliver_general(people.service)
    # Then ana gets both lines in one frame
    (batch,) = [f for f in of_type(people, ANA, "general_chat") if f["requestId"] is None]
    assert [line["text"] for line in batch["lines"]] == ["one", "two"]
    assert posted == 1
    # and a delivery with nothing new posts nothing
    assert deliver_general(people.service) == 0


def test_a_closed_or_gone_listener_gets_no_more_batches(people: Any) -> None:
    people.connect(ANA, BEN, CY)
    people.act(ANA, "general_chat_open")
    people.act(BEN, "general_chat_open")
    people.act(ANA, "general_chat_close")
    people.notifier.gone.add(BEN.connection_id)
    people.act(CY, "general_chat", text="anyone?")
    assert [f for f in of_type(people, ANA, "general_chat") if f["requestId"] is None] == []
    assert people.service.social.chats.listeners() == []


def test_a_disconnect_ends_the_listening(people: Any) -> None:
    people.connect(ANA)
    people.act(ANA, "general_chat_open")
    people.service.disconnect(ANA)
    assert people.service.social.chats.listeners() == []


def test_the_window_keeps_the_last_lines_of_the_last_minutes(people: Any) -> None:
    people.connect(ANA, BEN)
    for n in range(rules.WINDOW_LINES + 3):
        people.clock.advance(seconds=2)
        people.act(BEN, "general_chat", text=f"l{n}")
    lines = people.answer(ANA, people.act(ANA, "general_chat_open"))["lines"]
    assert len(lines) == rules.WINDOW_LINES and lines[-1]["text"] == f"l{rules.WINDOW_LINES + 2}"
    people.clock.advance(minutes=rules.WINDOW_MINUTES + 1)
    assert people.answer(ANA, people.act(ANA, "general_chat_open"))["lines"] == []


def test_the_general_chat_refuses_listeners_past_its_bound(
    people: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rules, "MAX_LISTENERS", 1)
    people.connect(ANA, BEN)
    people.act(ANA, "general_chat_open")
    assert people.answer(BEN, people.act(BEN, "general_chat_open"))["code"] == "general_chat_full"


def test_the_interval_keeps_the_broadcast_within_its_budget() -> None:
    # a batch a listener per interval: the posts a second never exceed the budget
    for listeners in (0, 1, 999, 1_000, 2_500, rules.MAX_LISTENERS):
        interval = rules.flush_interval(listeners)
        assert interval >= rules.FLUSH_SECONDS
        assert listeners / interval <= rules.BROADCAST_BUDGET


def test_a_danish_writer_may_say_slut_the_end_in_danish(people: Any) -> None:
    # given a Danish writer and an English one
    danish = Caller("dan", "conn-dan", nickname="Dan", language="da")
    people.connect(danish, ANA)
    # when each writes "slut på spillet" (the end of the game) to ben
    said = people.answer(
        danish, people.act(danish, "send_message", to="ben", text="slut på spillet")
    )
    refused = people.answer(ANA, people.act(ANA, "send_message", to="ben", text="slut på spillet"))
    # then the Danish one goes, the English one is refused as indecent
    assert said["type"] == "message"
    assert refused["code"] == "chat_indecent"
