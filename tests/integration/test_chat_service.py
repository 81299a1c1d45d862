"""Game chat through the service on moto (product G9): players and spectators, the decency
filter, the length and rate limits, and nothing written to the game."""

from typing import Any

from yamb.chat import HISTORY_LINES
from yamb_service.edge.caller import Caller

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
DAN = Caller("dan", "conn-dan")
ZED = Caller("zed", "conn-zed")


def chats(harness: Any, caller: Caller) -> list[dict[str, Any]]:
    return [frame for frame in harness.frames(caller) if frame["type"] == "chat"]


def watched_game(harness: Any) -> str:
    game_id = harness.running_game(ANA, BEN, columns=["free"], preset=None)
    harness.connect(DAN)
    harness.ack(DAN, harness.act(DAN, "watch_game", gameId=game_id))
    return str(game_id)


def test_chat_player_message_reaches_the_table_and_the_spectators(harness: Any) -> None:
    # given a game of ana and ben watched by dan
    game_id = watched_game(harness)
    version = harness.session(game_id).version

    # when ana says hello with extra spaces
    request = harness.act(ANA, "chat", gameId=game_id, text="  good   luck  ")

    # then everyone gets it, cleaned, ana's copy answering her request; the game is unchanged
    answer = harness.answer(ANA, request)
    assert (answer["type"], answer["text"], answer["sender"]) == ("chat", "good luck", "ana")
    for caller in (BEN, DAN):
        (message,) = chats(harness, caller)
        assert message["text"] == "good luck" and message["spectator"] is False
        assert message["requestId"] is None
    assert harness.session(game_id).version == version


def test_chat_spectator_message_is_marked_as_such(harness: Any) -> None:
    # given dan watches / when he writes / then the players see it marked as a spectator's
    game_id = watched_game(harness)
    harness.answer(DAN, harness.act(DAN, "chat", gameId=game_id, text="nice roll"))
    (message,) = chats(harness, ANA)
    assert (message["sender"], message["spectator"]) == ("dan", True)


def test_chat_refusals_each_have_their_code_and_reach_nobody(harness: Any) -> None:
    # given a watched game
    game_id = watched_game(harness)
    harness.connect(ZED)

    # when ana sends an empty, an overlong and an indecent message, and zed, a stranger, one
    refused = {
        "chat_empty": harness.act(ANA, "chat", gameId=game_id, text="   "),
        "chat_too_long": harness.act(ANA, "chat", gameId=game_id, text="y" * 201),
        "chat_indecent": harness.act(ANA, "chat", gameId=game_id, text="you are a p u t a i n"),
        "bad_request": harness.act(ANA, "chat", gameId=game_id, text="bell\x07"),
    }
    stranger = harness.act(ZED, "chat", gameId=game_id, text="hi")

    # then each is refused with its code and a human message, and nobody got a chat frame
    for code, request in refused.items():
        error = harness.error(ANA, request)
        assert error["code"] == code, error
        assert error["message"]
    assert harness.error(ZED, stranger)["code"] == "not_seated"
    assert chats(harness, BEN) == chats(harness, DAN) == []


def test_chat_too_frequent_messages_are_refused(harness: Any) -> None:
    # given a watched game
    game_id = watched_game(harness)

    # when ana sends two messages in the same second
    first = harness.act(ANA, "chat", gameId=game_id, text="one")
    second = harness.act(ANA, "chat", gameId=game_id, text="two")

    # then the second is refused, telling her how long to wait
    assert harness.answer(ANA, first)["type"] == "chat"
    error = harness.error(ANA, second)
    assert error["code"] == "chat_too_fast" and "wait 1 second" in error["message"]

    # when she sends one a second: the sixth within 10 s is refused
    answers = []
    for index in range(5):
        harness.advance(seconds=1.5)
        answers.append(harness.act(ANA, "chat", gameId=game_id, text=f"m{index}"))
    assert [harness.answer(ANA, r)["type"] for r in answers] == ["chat"] * 4 + ["error"]
    assert harness.error(ANA, answers[-1])["code"] == "chat_too_fast"
    assert [m["text"] for m in chats(harness, BEN)] == ["one", "m0", "m1", "m2", "m3"]


def test_chat_history_gives_a_reloaded_page_the_lines_the_others_have(harness: Any) -> None:
    # given ana and ben talked at their game watched by dan
    game_id = watched_game(harness)
    for caller, text in ((ANA, "good luck"), (BEN, "you too"), (DAN, "go ana")):
        harness.answer(caller, harness.act(caller, "chat", gameId=game_id, text=text))
        harness.advance(seconds=2)

    # when ben's page reloads and asks for the chat, and dan's too
    answers = {
        caller.player_id: harness.answer(
            caller, harness.act(caller, "chat_history", gameId=game_id)
        )
        for caller in (BEN, DAN)
    }

    # then each gets the three lines, oldest first, with who said them
    for answer in answers.values():
        assert answer["type"] == "chat_history" and answer["gameId"] == game_id
        lines = [(m["sender"], m["text"], m["spectator"]) for m in answer["messages"]]
        assert lines == [
            ("ana", "good luck", False),
            ("ben", "you too", False),
            ("dan", "go ana", True),
        ]


def test_chat_history_keeps_the_last_lines_and_is_refused_to_a_stranger(harness: Any) -> None:
    # given ana said more lines than a game keeps
    game_id = watched_game(harness)
    for number in range(HISTORY_LINES + 2):
        harness.answer(ANA, harness.act(ANA, "chat", gameId=game_id, text=f"line {number}"))
        harness.advance(seconds=2)
    harness.connect(ZED)

    # when ben and zed (neither seated nor watching) ask for the chat
    kept = harness.answer(BEN, harness.act(BEN, "chat_history", gameId=game_id))["messages"]
    refused = harness.act(ZED, "chat_history", gameId=game_id)

    # then ben gets the last HISTORY_LINES, and zed is refused
    assert [m["text"] for m in kept] == [f"line {n}" for n in range(2, HISTORY_LINES + 2)]
    assert harness.error(ZED, refused)["code"] == "not_seated"


def test_ping_is_answered_by_a_pong_and_nothing_else(harness: Any) -> None:
    # given ana is connected / when she pings
    harness.connect(ANA)
    request = harness.act(ANA, "ping")

    # then the answer is a pong to that request
    assert harness.answer(ANA, request) == {"type": "pong", "requestId": request}
