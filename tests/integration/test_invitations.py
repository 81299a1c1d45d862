"""Invitations to a waiting table (S2) through the game service on moto: delivered live or at
login, Yes seats the invitee, No tells the inviter and is not repeated for the same game, one
pending invitation per invited player, a withdrawal, and every refusal with nothing written."""

from typing import Any

from yamb.social import invitations as rules
from yamb_service.edge.caller import Caller
from yamb_service.social.blocks.ports import Block

from tests.integration.social import ANA, BEN, CY, DAN, of_type


def table(people: Any, creator: Caller = ANA, players: int = 2) -> str:
    people.connect(creator)
    return str(people.create_game(creator, players=players))


def test_an_invitation_reaches_a_connected_player_and_yes_seats_him(people: Any) -> None:
    # Given ana's waiting table and ben connected
    game_id = table(people)
    people.connect(BEN)
    # When ana invites ben (by nickname, any case)
    request = people.act(ANA, "invite", gameId=game_id, nickname="BEN")
    # Then she and he both get the invitation
    sent = people.answer(ANA, request)["invitation"]
    (received,) = of_type(people, BEN, "invitation")
    assert (sent["by"], sent["to"], sent["gameId"]) == ("Ana", "Ben", game_id)
    assert received["invitation"]["invitationId"] == sent["invitationId"]
    assert received["invitation"]["settings"]["players"] == 2
    # When he says yes
    yes = people.act(BEN, "answer_invitation", invitationId=sent["invitationId"], accept=True)
    # Then he is seated (the answer is the game), and ana is told
    game = people.game_answer(BEN, yes)
    assert [seat["playerId"] for seat in game["seats"]] == ["ana", "ben"]
    (told,) = of_type(people, ANA, "invitation_answer")
    assert (told["nickname"], told["accepted"]) == ("Ben", True)
    # and the invitation is gone: answering again is refused
    again = people.act(BEN, "answer_invitation", invitationId=sent["invitationId"], accept=True)
    assert people.answer(BEN, again)["code"] == "invitation_not_found"


def test_an_invitation_to_an_offline_player_waits_for_his_login(people: Any) -> None:
    game_id = table(people)
    people.act(ANA, "invite", gameId=game_id, nickname="ben")
    assert of_type(people, BEN, "invitation") == []
    people.connect(BEN)
    held = people.answer(BEN, people.act(BEN, "invitations"))["received"]
    assert (held["by"], held["gameId"]) == ("Ana", game_id)


def test_no_tells_the_inviter_and_is_not_repeated_for_that_game(people: Any) -> None:
    # Given ben refused ana's invitation
    game_id = table(people, players=3)
    people.connect(BEN, CY)
    invitation = people.answer(ANA, people.act(ANA, "invite", gameId=game_id, nickname="ben"))
    no = people.act(
        BEN,
        "answer_invitation",
        invitationId=invitation["invitation"]["invitationId"],
        accept=False,
    )
    assert people.answer(BEN, no)["received"] is None
    (told,) = of_type(people, ANA, "invitation_answer")
    assert told["accepted"] is False
    # When cy, seated too, invites him to the same table
    people.ack(CY, people.act(CY, "join_game", gameId=game_id))
    again = people.act(CY, "invite", gameId=game_id, nickname="ben")
    # Then it is refused: his No holds for that game; another table may invite him
    assert people.answer(CY, again)["code"] == "invitation_refused_before"
    other = table(people, creator=DAN)
    assert (
        people.answer(DAN, people.act(DAN, "invite", gameId=other, nickname="ben"))["type"]
        == "invitation"
    )


def test_one_pending_invitation_per_invited_player_until_it_lapses(people: Any) -> None:
    first = table(people)
    second = table(people, creator=CY)
    people.act(ANA, "invite", gameId=first, nickname="ben")
    refused = people.act(CY, "invite", gameId=second, nickname="ben")
    assert people.answer(CY, refused)["code"] == "invitation_pending"
    people.clock.advance(seconds=rules.LIFETIME.total_seconds() + 1)
    later = people.act(CY, "invite", gameId=second, nickname="ben")
    assert people.answer(CY, later)["invitation"]["by"] == "Cy"


def test_a_yes_to_a_table_that_filled_meanwhile_is_refused_and_the_invitation_gone(
    people: Any,
) -> None:
    game_id = table(people)
    people.connect(BEN, CY)
    sent = people.answer(ANA, people.act(ANA, "invite", gameId=game_id, nickname="ben"))
    people.ack(CY, people.act(CY, "join_game", gameId=game_id))
    yes = people.act(
        BEN, "answer_invitation", invitationId=sent["invitation"]["invitationId"], accept=True
    )
    assert people.answer(BEN, yes)["code"] == "table_full"
    assert people.answer(BEN, people.act(BEN, "invitations"))["received"] is None


def test_a_withdrawn_invitation_is_told_to_the_invitee(people: Any) -> None:
    game_id = table(people)
    people.connect(BEN)
    sent = people.answer(ANA, people.act(ANA, "invite", gameId=game_id, nickname="ben"))
    withdrawn = people.answer(ANA, people.act(ANA, "withdraw_invitation", nickname="ben"))
    assert withdrawn["invitationId"] == sent["invitation"]["invitationId"]
    assert of_type(people, BEN, "invitation_withdrawn")[0]["requestId"] is None
    # cy cannot withdraw what he did not send
    people.connect(CY)
    people.act(ANA, "invite", gameId=game_id, nickname="ben")
    assert (
        people.answer(CY, people.act(CY, "withdraw_invitation", nickname="ben"))["code"]
        == "invitation_not_found"
    )


def test_refused_invitations_have_their_codes(people: Any) -> None:
    game_id = table(people)
    people.connect(BEN, CY)
    people.service.social.blocks.add(Block(owner="cy", other="ana", since=people.clock()))
    refusals = {
        "invite_self": people.act(ANA, "invite", gameId=game_id, nickname="ana"),
        "unknown_player": people.act(ANA, "invite", gameId=game_id, nickname="nobody"),
        "blocked": people.act(ANA, "invite", gameId=game_id, nickname="cy"),
        "not_seated": people.act(BEN, "invite", gameId=game_id, nickname="cy"),
    }
    for code, request in refusals.items():
        caller = BEN if code == "not_seated" else ANA
        assert people.answer(caller, request)["code"] == code, code
    # a started table, and a full one
    people.ack(BEN, people.act(BEN, "join_game", gameId=game_id))
    full = people.act(ANA, "invite", gameId=game_id, nickname="dan")
    assert people.answer(ANA, full)["code"] == "table_full"
    people.ack(ANA, people.act(ANA, "start_game", gameId=game_id))
    started = people.act(ANA, "invite", gameId=game_id, nickname="dan")
    assert people.answer(ANA, started)["code"] == "wrong_status"
    assert people.service.social.invitations.pending("cy", people.clock()) is None


def test_an_invitation_lapses_with_its_table(people: Any) -> None:
    game_id = table(people)
    people.act(ANA, "invite", gameId=game_id, nickname="ben")
    people.ack(ANA, people.act(ANA, "delete_game", gameId=game_id))
    people.connect(BEN)
    assert people.answer(BEN, people.act(BEN, "invitations"))["received"] is None


def test_an_already_seated_player_is_not_invited(people: Any) -> None:
    game_id = table(people, players=3)
    people.connect(BEN)
    people.ack(BEN, people.act(BEN, "join_game", gameId=game_id))
    assert (
        people.answer(ANA, people.act(ANA, "invite", gameId=game_id, nickname="ben"))["code"]
        == "already_seated"
    )
