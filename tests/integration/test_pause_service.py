"""Pause (rules.md 8: the player in turn freezes their clock on request, once a turn, and
resumes with at least 5 s) and unwatch (a spectator who leaves gets no more frames), through
the service on moto."""

from datetime import timedelta
from typing import Any

from yamb_service.edge.caller import Caller

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
CLEO = Caller("cleo", "conn-cleo")
DAN = Caller("dan", "conn-dan")
FREE = {"columns": ["free"], "preset": None}


def test_pause_freezes_the_clock_and_resume_runs_it_from_where_it_froze(harness: Any) -> None:
    # given ana's turn, 20 s into her 60 s
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=20)

    # when she pauses
    paused = harness.game_answer(ANA, harness.act(ANA, "pause", gameId=game_id, turn=1))

    # then her clock is frozen with 40 s left, the 3-minute countdown runs with a wake at its
    # end and no lane (no turn clock runs); ben sees her seat paused, present, with the countdown
    session = harness.session(game_id)
    assert (session.clock.deadline, session.clock.frozen_ms) == (None, 40_000)
    returns_at = harness.clock() + timedelta(minutes=3)
    assert session.seats[0].return_deadline == returns_at
    assert [w.at for w in harness.timers.waiting_wakes(game_id)] == [returns_at]
    assert harness.timers.running_lanes(game_id) == []
    assert paused["seats"][0]["paused"] is True
    seat = harness.last_game(BEN)["seats"][0]
    assert (seat["paused"], seat["present"]) == (True, True)
    assert harness.last_game(BEN)["turn"]["frozenMs"] == 40_000

    # when two minutes pass, nothing times out; then she resumes
    harness.advance(minutes=2)
    assert harness.session(game_id).turn == 1
    resumed = harness.game_answer(ANA, harness.act(ANA, "resume", gameId=game_id))

    # then her clock runs again with the 40 s she had, the countdown is gone
    session = harness.session(game_id)
    assert session.clock.deadline == harness.clock() + timedelta(seconds=40)
    assert session.seats[0].return_deadline is None
    assert resumed["seats"][0].get("paused") is None
    assert harness.last_game(BEN)["seats"][0].get("paused") is None

    # and the turn times out 40 s later, as it would have
    harness.advance(seconds=40)
    assert harness.session(game_id).turn == 2


def test_resume_gives_at_least_five_seconds(harness: Any) -> None:
    # given ana paused with 2 s left
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=58)
    harness.ack(ANA, harness.act(ANA, "pause", gameId=game_id))

    # when she resumes
    harness.ack(ANA, harness.act(ANA, "resume", gameId=game_id))

    # then she has 5 s
    assert harness.session(game_id).clock.deadline == harness.clock() + timedelta(seconds=5)


def test_pause_is_once_a_turn(harness: Any) -> None:
    # given ana paused and resumed in her turn 1
    game_id = harness.running_game(ANA, BEN)
    harness.ack(ANA, harness.act(ANA, "pause", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "resume", gameId=game_id))
    version = harness.session(game_id).version

    # when she pauses again in the same turn
    again = harness.act(ANA, "pause", gameId=game_id)

    # then she is refused and nothing is written
    assert harness.error(ANA, again)["code"] == "pause_used"
    assert harness.session(game_id).version == version

    # and in her next turn she may pause again
    harness.write_any(ANA, game_id)
    harness.write_any(BEN, game_id)
    harness.ack(ANA, harness.act(ANA, "pause", gameId=game_id))
    assert harness.session(game_id).seats[0].paused


def test_pause_refusals(harness: Any) -> None:
    # given ana's turn in a game with ben, and a slow game of cleo and dan
    game_id = harness.running_game(ANA, BEN)
    slow = harness.running_game(
        CLEO, DAN, turnType="slow", turnSeconds=None, slowDeadlineHours=48, **FREE
    )

    # when ben (not in turn) pauses, ana resumes without a pause, ana names turn 5, cleo pauses
    # a slow game's turn
    ben = harness.act(BEN, "pause", gameId=game_id)
    not_paused = harness.act(ANA, "resume", gameId=game_id)
    later = harness.act(ANA, "pause", gameId=game_id, turn=5)
    no_clock = harness.act(CLEO, "pause", gameId=slow)

    # then each is refused with its reason
    assert harness.error(BEN, ben)["code"] == "not_your_turn"
    assert harness.error(ANA, not_paused)["code"] == "not_paused"
    assert harness.error(ANA, later)["code"] == "wrong_turn"
    assert harness.error(CLEO, no_clock)["code"] == "not_allowed"


def test_paused_player_must_resume_before_playing(harness: Any) -> None:
    # given ana paused her turn
    game_id = harness.running_game(ANA, BEN)
    harness.ack(ANA, harness.act(ANA, "pause", gameId=game_id))
    column, row = harness.legal_cell(game_id)

    # when she rolls and writes
    roll = harness.act(ANA, "roll", gameId=game_id)
    write = harness.act(ANA, "write", gameId=game_id, column=column, row=row)

    # then both are refused with `paused`; after resuming, her write applies
    assert harness.error(ANA, roll)["code"] == "paused"
    assert harness.error(ANA, write)["code"] == "paused"
    harness.ack(ANA, harness.act(ANA, "resume", gameId=game_id))
    harness.write_any(ANA, game_id)
    assert harness.session(game_id).turn == 2


def test_not_resuming_in_three_minutes_is_leaving(harness: Any) -> None:
    # given ana played a turn, and paused her second one
    game_id = harness.running_game(ANA, BEN)
    harness.write_any(ANA, game_id)
    harness.write_any(BEN, game_id)
    harness.ack(ANA, harness.act(ANA, "pause", gameId=game_id))

    # when her countdown runs out
    harness.advance(minutes=3)

    # then she has left the game: ben wins, and it counts as a disappearance
    session = harness.session(game_id)
    assert session.seats[0].left
    assert session.winners == ["ben"]
    assert harness.players.get("ana").disappearances == 1


def test_lost_connection_while_paused_keeps_the_pause_and_its_countdown(harness: Any) -> None:
    # given ana paused 20 s into her turn
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=20)
    harness.ack(ANA, harness.act(ANA, "pause", gameId=game_id))
    returns_at = harness.clock() + timedelta(minutes=3)

    # when her connection drops a minute later and she comes back
    harness.advance(minutes=1)
    harness.service.disconnect(ANA)
    assert harness.session(game_id).seats[0].return_deadline == returns_at
    harness.connect(Caller("ana", "conn-ana-2"))

    # then the turn is still paused, the clock frozen with 40 s, the same countdown running
    session = harness.session(game_id)
    seat = session.seats[0]
    assert (seat.present, seat.paused, seat.return_deadline) == (True, True, returns_at)
    assert (session.clock.deadline, session.clock.frozen_ms) == (None, 40_000)


def test_each_for_themself_pause_freezes_only_the_pausing_players_clock(harness: Any) -> None:
    # given an each-for-themself game of ana and ben, 10 s in
    game_id = harness.running_game(ANA, BEN, turnType="each_for_themself", **FREE)
    harness.advance(seconds=10)

    # when ana pauses
    harness.ack(ANA, harness.act(ANA, "pause", gameId=game_id, turn=1))

    # then her own clock is frozen, ben's runs on
    session = harness.session(game_id)
    ana, ben = (seat.own for seat in session.seats)
    assert ana is not None and ben is not None
    assert (ana.clock.deadline, ana.clock.frozen_ms) == (None, 50_000)
    assert ben.clock.deadline == harness.clock() + timedelta(seconds=50)


# ----------------------------------------------------------------------------- unwatch


def test_unwatch_stops_the_frames_to_the_spectator(harness: Any) -> None:
    # given dan watches ana and ben's game
    game_id = harness.running_game(ANA, BEN)
    harness.connect(DAN)
    harness.game_answer(DAN, harness.act(DAN, "watch_game", gameId=game_id))
    harness.write_any(ANA, game_id)
    seen = len(harness.broadcasts(DAN))
    assert seen == 2

    # when he stops watching
    request_id = harness.act(DAN, "unwatch_game", gameId=game_id)

    # then he gets an ack, he is no longer a spectator, and the next moves reach him no more
    assert harness.ack(DAN, request_id)["type"] == "ack"
    assert harness.games.load(game_id).spectators == []
    harness.write_any(BEN, game_id)
    assert len(harness.broadcasts(DAN)) == seen

    # and a repeat, not watching any more, is acknowledged too
    assert harness.ack(DAN, harness.act(DAN, "unwatch_game", gameId=game_id))["type"] == "ack"


def test_unwatch_of_an_unknown_game_is_game_not_found(harness: Any) -> None:
    # given dan is connected
    harness.connect(DAN)

    # when he unwatches a game that does not exist
    request_id = harness.act(DAN, "unwatch_game", gameId="0123456789abcdef0123")

    # then he is told so
    assert harness.error(DAN, request_id)["code"] == "game_not_found"
