"""A club's chat (C6) through the game service on moto: a line reaches every member connected
now and nobody else, and is not kept; an announcement (the admin's, a deputy's) is kept for the
members away, counted unread at their next login until they read the club's page; a member
cannot announce, an outsider cannot write, and a club writing too fast is slowed down."""

from typing import Any

import pytest
from yamb.clubs import rules
from yamb.clubs.messages import FoundRequest
from yamb_service.clubs import wiring
from yamb_service.common import clock

from tests.integration.social import ANA, BEN, CY, DAN, of_type


@pytest.fixture
def club(people: Any, item: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """Ana's open club, with ben and cy in it (dan is not)."""
    monkeypatch.setattr(clock, "clock", people.clock)
    clubs = wiring.clubs_on(item)
    club_id = clubs.found(ANA.player_id, FoundRequest(name="Chatters", tag="CH")).club.club_id
    clubs.join(BEN.player_id, club_id)
    clubs.join(CY.player_id, club_id)
    return club_id


def test_a_line_reaches_the_members_connected_now_and_is_not_kept(
    people: Any, item: Any, club: str
) -> None:
    # Given ana, ben and dan (not a member) connected; cy away
    people.connect(ANA, BEN, DAN)
    # When ana writes in the club's chat
    request = people.act(ANA, "club_chat", clubId=club, text="  good   game all ")
    # Then she has her line back, ben has it, dan (an outsider) has nothing
    answer = people.answer(ANA, request)
    assert (answer["type"], answer["clubId"], answer["line"]["mine"]) == ("club_chat", club, True)
    (received,) = of_type(people, BEN, "club_chat")
    assert (received["line"]["text"], received["line"]["sender"]) == ("good game all", "Ana")
    assert received["announcement"] is False and not received["line"]["mine"]
    assert of_type(people, DAN, "club_chat") == []
    # And nothing is kept: cy, connecting later, finds no unread announcement
    people.connect(CY)
    assert of_type(people, CY, "club_chat") == []
    mine = wiring.clubs_on(item).mine(CY.player_id)
    assert [m.unread for m in mine.clubs] == [0]


def test_an_announcement_waits_for_members_away_until_they_read_the_page(
    people: Any, item: Any, club: str
) -> None:
    clubs = wiring.clubs_on(item)
    clubs.set_role(ANA.player_id, club, "Ben", "deputy")
    people.connect(BEN, CY)
    # When ben, a deputy, announces; and cy, a member, tries to
    people.advance(seconds=1)
    people.answer(BEN, people.act(BEN, "club_chat", clubId=club, text="Cup on Friday",
                                  announcement=True))  # fmt: skip
    refused = people.error(
        CY, people.act(CY, "club_chat", clubId=club, text="me too", announcement=True)
    )
    # Then cy's is refused, and ana (away) finds one unread announcement at her login
    assert refused["code"] == "not_allowed"
    (line,) = of_type(people, CY, "club_chat")
    assert line["announcement"] is True
    assert [m.unread for m in clubs.mine(ANA.player_id).clubs] == [1]
    view = clubs.view(ANA.player_id, club)
    assert [(a.sender, a.text) for a in view.announcements] == [("Ben", "Cup on Friday")]
    # And once she has read the page it is no longer unread; an outsider sees none
    assert [m.unread for m in clubs.seen(ANA.player_id, club).clubs] == [0]
    assert clubs.view(DAN.player_id, club).announcements == []


def test_an_outsider_cannot_write_and_a_club_writing_too_fast_is_slowed(
    people: Any, item: Any, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    people.connect(ANA, BEN, CY, DAN)
    refused = people.error(DAN, people.act(DAN, "club_chat", clubId=club, text="hello"))
    assert refused["code"] == "not_a_club_member"
    monkeypatch.setattr(rules, "CLUB_LINES_PER_WINDOW", 3)
    writers = [ANA, BEN, CY, ANA]
    codes = []
    for writer in writers:
        request = people.act(writer, "club_chat", clubId=club, text="go go go")
        answers = people.answers(writer, request)
        codes.append(answers[-1].get("code") if answers[-1]["type"] == "error" else "sent")
    # Each writer is within their own pace, but the club's fourth line in the window waits
    assert codes == ["sent", "sent", "sent", "chat_too_fast"]
    assert len(of_type(people, DAN, "club_chat")) == 0


def test_a_player_sits_down_with_their_main_clubs_tag(people: Any, club: str) -> None:
    # given ana (in the club) and dan (in none), connected
    people.connect(ANA, DAN)
    # when ana creates a table and dan joins it
    game_id = people.create_game(ANA, players=2)
    people.game_answer(DAN, people.act(DAN, "join_game", gameId=game_id))
    # then the table shows ana's club's tag beside her name, none beside dan's
    seats = {s["playerId"]: s for s in people.last_game(ANA)["seats"]}
    assert seats[ANA.player_id]["club"] == {
        "clubId": club,
        "tag": "CH",
        "text": "#ffffff",
        "background": "#2f6f4f",
    }
    assert seats[DAN.player_id]["club"] is None


def test_a_line_carries_its_senders_main_club_tag(people: Any, club: str) -> None:
    # given ana (in the club) and dan (in none), both with the general chat open
    people.connect(ANA, DAN)
    for caller in (ANA, DAN):
        people.answer(caller, people.act(caller, "general_chat_open"))
    # when each says something there, and ana writes to dan
    said = people.answer(ANA, people.act(ANA, "general_chat", text="hello all"))
    people.advance(seconds=2)
    plain = people.answer(DAN, people.act(DAN, "general_chat", text="hi"))
    people.advance(seconds=2)
    people.answer(ANA, people.act(ANA, "send_message", to="Dan", text="a game?"))
    # then ana's lines carry her club's tag, dan's none
    assert said["lines"][0]["club"]["tag"] == "CH"
    assert plain["lines"][0]["club"] is None
    (message,) = of_type(people, DAN, "message")
    assert message["message"]["club"]["clubId"] == club
