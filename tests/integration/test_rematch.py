"""The rematch, through the game service on moto: after a game has ended, one of its players
opens a table with the same settings (its bots seated again) and the others are told, and
accept by joining it."""

from typing import Any

from tests.integration.conftest import ANA, BEN, CLEO


def _ended_game(harness: Any, **settings: Any) -> str:
    """Ana and ben's game, ended: ana resigned and ben chose not to finish alone."""
    game_id = harness.running_game(ANA, BEN, **settings)
    harness.ack(ANA, harness.act(ANA, "resign", gameId=game_id))
    harness.ack(BEN, harness.act(BEN, "finish_sheet", gameId=game_id, accept=False))
    assert harness.session(game_id).status in ("finished", "cancelled")
    return str(game_id)


def test_rematch_opens_the_same_table_and_invites_the_other_players(harness: Any) -> None:
    # given ana and ben's ended game of preset 2, 90 s a turn
    ended = _ended_game(harness, preset=2, turnSeconds=90)
    before = harness.session(ended)

    # when ben asks for a rematch
    asked = harness.act(BEN, "rematch", gameId=ended)

    # then he is answered with a new waiting table of his, with the same settings
    table = harness.game_answer(BEN, asked)
    assert table["gameId"] != ended
    assert table["status"] == "waiting"
    assert table["creator"] == "ben"
    assert [seat["playerId"] for seat in table["seats"]] == ["ben"]
    assert harness.session(table["gameId"]).settings == before.settings
    # and ana is told, by a frame naming the new table, the ended one and who asks
    (invitation,) = [f for f in harness.frames(ANA) if f["type"] == "rematch"]
    assert invitation == {
        "type": "rematch",
        "gameId": table["gameId"],
        "fromGameId": ended,
        "by": "ben",
        "nickname": BEN.nickname,
    }

    # when ana accepts by joining the new table
    harness.ack(ANA, harness.act(ANA, "join_game", gameId=table["gameId"]))

    # then both sit at it, and the ended game is as it was
    assert harness.session(table["gameId"]).player_ids == ["ben", "ana"]
    assert harness.session(ended).version == before.version


def test_rematch_repeated_request_opens_one_table_and_tells_once(harness: Any) -> None:
    # given ana and ben's ended game, and ben's rematch
    ended = _ended_game(harness)
    first = harness.act(BEN, "rematch", gameId=ended)
    table = harness.game_answer(BEN, first)["gameId"]

    # when the same request comes again (its answer lost)
    harness.act(BEN, "rematch", gameId=ended, requestId=first)

    # then it is acknowledged for the same table, and ana was told once
    repeat = harness.answers(BEN, first)[-1]
    assert (repeat["type"], repeat["gameId"]) == ("ack", table)
    assert len([f for f in harness.frames(ANA) if f["type"] == "rematch"]) == 1


def test_rematch_refused_before_the_end_and_to_one_not_at_the_table(harness: Any) -> None:
    # given ana and ben's running game, and cleo, who does not play it
    harness.connect(CLEO)
    game_id = harness.running_game(ANA, BEN)

    # when ana asks for a rematch of a game still in play
    early = harness.act(ANA, "rematch", gameId=game_id)
    # and, once it has ended, cleo asks for one
    harness.ack(ANA, harness.act(ANA, "resign", gameId=game_id))
    harness.ack(BEN, harness.act(BEN, "finish_sheet", gameId=game_id, accept=False))
    stranger = harness.act(CLEO, "rematch", gameId=game_id)

    # then both are refused, saying why, and no table is opened
    assert harness.error(ANA, early)["code"] == "wrong_status"
    assert harness.error(CLEO, stranger)["code"] == "not_seated"
    assert not [f for f in harness.frames(BEN) if f["type"] == "rematch"]


def test_rematch_seats_the_ended_games_bots_again(harness: Any) -> None:
    # given ana's game against a hard bot, ended by her resignation
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=2, turnSeconds=60)
    harness.ack(ANA, harness.act(ANA, "add_bot", gameId=game_id, level="hard"))
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "resign", gameId=game_id))
    assert harness.session(game_id).status in ("finished", "cancelled")

    # when she asks for a rematch
    table = harness.game_answer(ANA, harness.act(ANA, "rematch", gameId=game_id))

    # then the new table seats her and a hard bot again, ready to start
    assert [(seat["playerId"], seat["bot"]) for seat in table["seats"]] == [
        ("ana", None),
        ("bot-1", "hard"),
    ]
