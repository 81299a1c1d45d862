"""What docs/competition.md says of a duplicate's deal and of late entries, held against the
service (issue 32): a duplicate deals a game to every entrant without one while its window is
open, there or not (an absent one's game starts without them); an entry after an arena's window
answers `tournament_started` while its last games are played, `tournament_over` once it is
finished."""

from typing import Any

import pytest
from yamb.competition.tournaments import TournamentError

from tests.integration.test_tournaments import Tournaments, callers, tournaments

__all__ = ["tournaments"]  # the fixture, used by name


def _refusal(tournaments: Tournaments, tournament_id: str, player: Any) -> str:
    with pytest.raises(TournamentError) as refused:
        tournaments.enter(tournament_id, player)
    return refused.value.code


def test_a_duplicate_deals_a_game_to_every_entrant_there_or_not(tournaments: Tournaments) -> None:
    # given a duplicate entered by ana, who is connected, and ben, who is not
    ana, ben = callers("ana", "ben")
    tournaments.harness.connect(ana)
    tid = tournaments.create(kind="duplicate", minutes=60)
    tournaments.enter(tid, ana, ben)
    tournaments.harness.advance(minutes=10)

    # when the job runs at its start
    done = tournaments.run(tid)

    # then each has a game, started: ben's without him, his seat away
    assert done.paired == 2
    sessions = [tournaments.harness.session(g) for g in tournaments.under_way(tid)]
    seats = {s.seats[0].player_id: s.seats[0] for s in sessions}
    assert all(s.status == "running" for s in sessions)
    assert (seats[ana.player_id].present, seats[ben.player_id].present) == (True, False)

    # and one who enters later in the window is dealt a game at the next run
    (cid,) = callers("cid")
    tournaments.enter(tid, cid)
    assert tournaments.run(tid).paired == 1


def test_an_entry_after_an_arenas_window_is_started_then_over(tournaments: Tournaments) -> None:
    # given an arena of ten minutes whose one game is still under way after its window
    players = callers("ana", "ben")
    tournaments.harness.connect(*players)
    tid = tournaments.create(kind="arena", minutes=10)
    tournaments.enter(tid, *players)
    tournaments.harness.advance(minutes=10)
    assert tournaments.run(tid).paired == 1
    tournaments.harness.advance(minutes=11)
    (cid,) = callers("cid")

    # when cid enters, then the tournament still runs: refused as started
    assert tournaments.run(tid).finished == []
    assert _refusal(tournaments, tid, cid) == "tournament_started"

    # and once its game ended and the job finished it: refused as over
    (game_id,) = tournaments.under_way(tid)
    tournaments.finish(game_id, players)
    assert tournaments.run(tid).finished == [tid]
    assert _refusal(tournaments, tid, cid) == "tournament_over"
