"""The heartbeat tells the server who is still there (issue 28: a dead network went unnoticed
and the opponents saw the player present until API Gateway's 10-minute idle timeout): a
connection that pinged and then went silent for 45 s is closed and its seat shown away when
another player of its table pings."""

from typing import Any

from yamb_service.edge.caller import Caller
from yamb_service.game.presence import SILENCE

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")


def ping(harness: Any, caller: Caller) -> None:
    request = harness.act(caller, "ping")
    assert harness.answer(caller, request)["type"] == "pong"


def started_with_heartbeats(harness: Any) -> str:
    game_id = harness.running_game(ANA, BEN, columns=["free"], preset=None)
    ping(harness, ANA)
    ping(harness, BEN)
    return str(game_id)


def test_a_seat_whose_heartbeat_stopped_goes_away_when_another_player_pings(
    harness: Any,
) -> None:
    # given ana and ben both pinging in a game, and then ben's network dies (no more pings)
    game_id = started_with_heartbeats(harness)
    harness.advance(seconds=SILENCE.total_seconds() + 1)

    # when ana's page pings
    ping(harness, ANA)

    # then ben's seat is away with its return countdown, ana is shown so, and his connection
    # is closed at API Gateway
    seat = harness.session(game_id).seats[1]
    assert (seat.present, seat.connection_id) == (False, None)
    assert seat.return_deadline is not None
    shown = harness.last_game(ANA)["seats"][1]
    assert shown["present"] is False
    assert harness.notifier.closed == [BEN.connection_id]


def test_the_closed_connections_own_disconnect_writes_nothing_more(harness: Any) -> None:
    # given ben's silent connection dropped on ana's ping
    game_id = started_with_heartbeats(harness)
    harness.advance(seconds=SILENCE.total_seconds() + 1)
    ping(harness, ANA)
    version = harness.session(game_id).version

    # when API Gateway runs $disconnect for it
    harness.service.disconnect(BEN)

    # then the game is as the drop left it
    assert harness.session(game_id).version == version


def test_a_seat_heard_within_the_silence_stays_present(harness: Any) -> None:
    # given ben pinged again shortly before the silence would have run out
    game_id = started_with_heartbeats(harness)
    harness.advance(seconds=SILENCE.total_seconds() - 5)
    ping(harness, BEN)
    harness.advance(seconds=10)

    # when ana pings
    ping(harness, ANA)

    # then ben is still present on his connection
    seat = harness.session(game_id).seats[1]
    assert (seat.present, seat.connection_id) == (True, BEN.connection_id)
    assert harness.notifier.closed == []


def test_a_connection_that_never_pinged_is_never_judged_silent(harness: Any) -> None:
    # given ben plays from a client without a heartbeat
    game_id = harness.running_game(ANA, BEN, columns=["free"], preset=None)
    harness.advance(seconds=SILENCE.total_seconds() * 2)

    # when ana pings
    ping(harness, ANA)

    # then ben is present
    assert harness.session(game_id).seats[1].present
    assert harness.notifier.closed == []


def test_a_new_connection_is_not_judged_by_the_silence_of_the_one_it_replaced(
    harness: Any,
) -> None:
    # given ben pinged on a connection, then came back on a new one that has not pinged yet
    game_id = started_with_heartbeats(harness)
    newer = Caller("ben", "conn-ben-2")
    harness.service.connect(newer)
    harness.advance(seconds=SILENCE.total_seconds() + 1)

    # when ana pings
    ping(harness, ANA)

    # then ben's seat is present on the new connection, which stays open
    seat = harness.session(game_id).seats[1]
    assert (seat.present, seat.connection_id) == (True, newer.connection_id)
    assert newer.connection_id not in harness.notifier.closed
