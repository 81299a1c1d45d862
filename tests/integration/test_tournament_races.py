"""Tournaments when things go wrong (issue 32's review): an entry racing a start or a
cancellation, refunds cut short, one tournament failing among others, a Swiss that cannot be
paired or whose round is written in parts, a player at another game, a game whose end never
came, prizes for those who never played. On moto with the real game service."""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from yamb.competition import pairing
from yamb.competition.tournaments import TournamentError
from yamb_service.competition import tournaments as tournaments_module
from yamb_service.edge.caller import Caller

from tests.integration.conftest import load_event
from tests.integration.test_boards_http import CONTEXT, load_quietly
from tests.integration.test_tournaments import Tournaments, callers


@pytest.fixture
def tours(harness: Any, item: Any) -> Iterator[Tournaments]:
    yield Tournaments(harness, item)


def connected_entrants(tours: Tournaments, *names: str, **plan: Any) -> tuple[str, list[Caller]]:
    """A new tournament (an arena of ten minutes unless `plan` says) its named players entered,
    connected."""
    players = connected(tours, *names)
    tid = tours.create(**(plan or {"kind": "arena", "minutes": 10}))
    tours.enter(tid, *players)
    return tid, players


def connected(tours: Tournaments, *names: str) -> list[Caller]:
    players = callers(*names)
    tours.harness.connect(*players)
    return players


def balances(tours: Tournaments, *players: Caller) -> dict[str, int]:
    return {p.player_id: tours.wallets.wallet(p.player_id).balance for p in players}


def test_an_entry_moves_the_tournament_on_so_a_start_read_before_it_is_refused(
    tours: Tournaments,
) -> None:
    # given an arena the job has read, about to cancel it (one entrant)
    ana, ben = callers("ana", "ben")
    tours.harness.connect(ana, ben)
    tid = tours.create(kind="arena", minutes=10, entry_fee=10)
    tours.give(ana, 10)
    tours.give(ben, 10)
    tours.enter(tid, ana)
    read = tours.service.state(tid)
    # when ben's paid entry lands between that read and the job's write
    tours.enter(tid, ben)
    cancelled = read.tournament.model_copy(update={"status": "cancelled"})
    # then the job's write on what it read is refused: it must read again, and sees ben
    assert tours.service.store.advance(read.tournament, cancelled) == "moved"
    assert set(tours.service.state(tid).entries) == {"ana", "ben"}


def test_no_entry_lands_once_the_tournament_is_cancelled(tours: Tournaments) -> None:
    # given an arena with one entrant, cancelled at its start
    ana, ben = callers("ana", "ben")
    tid = tours.create(kind="arena", minutes=10, entry_fee=10)
    tours.give(ana, 10)
    tours.give(ben, 10)
    tours.enter(tid, ana)
    tours.harness.advance(minutes=10)
    assert tours.run(tid).cancelled == [tid]
    # when ben tries to enter after it
    with pytest.raises(TournamentError) as refused:
        tours.enter(tid, ben)
    # then he is refused and keeps his tokens; ana got hers back
    assert refused.value.code == "tournament_over"
    assert balances(tours, ana, ben) == {"ana": 10, "ben": 10}
    assert tours.service.state(tid).tournament.refunded


def test_refunds_cut_short_are_finished_by_the_next_run_each_once(
    tours: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a Swiss with a fee, one entrant (too few), and a wallet that fails on the first
    # refund it is asked for
    (ana,) = callers("ana")
    tid = tours.create(kind="swiss", rounds=2, entry_fee=25)
    tours.give(ana, 25)
    tours.enter(tid, ana)
    real_change = tours.wallets.change
    failures = []

    def flaky_change(key: str, *args: Any, **kwargs: Any) -> Any:
        if key.startswith("tournament-refund:") and not failures:
            failures.append(key)
            raise RuntimeError("the wallet's table went away")
        return real_change(key, *args, **kwargs)

    monkeypatch.setattr(tours.wallets, "change", flaky_change)
    tours.harness.advance(minutes=10)
    # when the run that cancels it fails on the refund
    with pytest.raises(RuntimeError):
        tours.run(tid)
    state = tours.service.state(tid).tournament
    assert (state.status, state.refunded, tours.wallets.wallet("ana").balance) == (
        "cancelled",
        False,
        0,
    )
    # then the next run of all tournaments refunds it, once, and leaves it alone after
    done = tours.service.run(tours.now)
    assert tours.wallets.wallet("ana").balance == 25 and done.failed == []
    assert tours.service.state(tid).tournament.refunded
    assert tid not in tours.service.store.active()
    tours.service.run(tours.now)
    assert tours.wallets.wallet("ana").balance == 25


def test_one_failing_tournament_does_not_stop_the_others(
    tours: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given two arenas due to start, one whose partition cannot be read
    players = callers("ana", "ben")
    tours.harness.connect(*players)
    broken = tours.create(kind="arena", minutes=10)
    sound = tours.create(kind="arena", minutes=10)
    for tid in (broken, sound):
        tours.enter(tid, *players)
    real_state = tours.service.store.state

    def state(tournament_id: str) -> Any:
        if tournament_id == broken:
            raise RuntimeError("a bad item")
        return real_state(tournament_id)

    monkeypatch.setattr(tours.service.store, "state", state)
    tours.harness.advance(minutes=10)
    # when the job runs every tournament
    done = tours.service.run(tours.now)
    # then the sound one started and was paired, the broken one is reported
    assert done.failed == [broken] and done.started == [sound] and done.paired == 1


def test_a_swiss_plays_no_more_rounds_than_a_round_robin_has(tours: Tournaments) -> None:
    # given three players in a Swiss planned for five rounds
    players = callers("ana", "ben", "cid")
    tours.harness.connect(*players)
    tid = tours.create(kind="swiss", rounds=5)
    tours.enter(tid, *players)
    tours.harness.advance(minutes=10)
    # when every round is played
    for _ in range(5):
        tours.run(tid)
        for game_id in tours.under_way(tid):
            tours.finish(game_id, players)
    tours.run(tid)
    # then it ended after three (each met each other once, each had a bye), and was paid
    state = tours.service.state(tid)
    assert (state.tournament.status, state.tournament.round, state.tournament.rounds) == (
        "paid",
        3,
        3,
    )
    assert all(e.byes == 1 and e.games == 2 for e in state.entries.values())


def test_a_swiss_with_no_round_left_without_a_repeat_ends_with_the_rounds_played(
    tours: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a 4-player Swiss of three rounds whose second round cannot be paired
    players = callers("ana", "ben", "cid", "dan")
    tours.harness.connect(*players)
    tid = tours.create(kind="swiss", rounds=3)
    tours.enter(tid, *players)
    tours.harness.advance(minutes=10)
    assert tours.run(tid).paired == 2
    for game_id in tours.under_way(tid):
        tours.finish(game_id, players)

    def no_round(rows: Any) -> Any:
        raise TournamentError("every pairing would repeat", code="pairing_would_repeat")

    monkeypatch.setattr(pairing, "swiss_round", no_round)
    # when the job runs
    done = tours.run(tid)
    # then the tournament is finished and paid with its one round, not stuck
    assert done.finished == [tid] and done.failed == []
    assert tours.service.state(tid).tournament.status == "paid"


def test_a_swiss_round_written_in_parts_is_completed_after_a_run_that_stopped(
    tours: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a Swiss of six whose pairings are written one per transaction, and a run that
    # dies after the first
    players = callers("ana", "ben", "cid", "dan", "eva", "fay")
    tours.harness.connect(*players)
    tid = tours.create(kind="swiss", rounds=2)
    tours.enter(tid, *players)
    tours.harness.advance(minutes=10)
    monkeypatch.setattr(tournaments_module, "PAIRINGS_PER_WRITE", 1)
    store = tours.service.store
    real_advance = store.advance
    writes: list[int] = []

    def dying_advance(before: Any, after: Any, **kwargs: Any) -> Any:
        if kwargs.get("games") and not kwargs["games"][0].started:
            writes.append(1)
            if len(writes) == 2:
                raise RuntimeError("the run's Lambda timed out")
        return real_advance(before, after, **kwargs)

    monkeypatch.setattr(store, "advance", dying_advance)
    with pytest.raises(RuntimeError):
        tours.run(tid)
    # then the round is chosen whole: one game written, two pairings kept for the next run
    state = tours.service.state(tid)
    assert state.tournament.round == 1 and len(state.tournament.pending) == 2
    assert len(state.games) == 1
    # when the next run comes
    tours.run(tid)
    # then the round's three games exist, each player in one
    state = tours.service.state(tid)
    assert state.tournament.pending == [] and len(state.games) == 3
    seated = [p for game in state.games.values() for p in game.players]
    assert sorted(seated) == sorted(p.player_id for p in players)


def test_a_swiss_player_at_another_game_forfeits_the_pairing(tours: Tournaments) -> None:
    # given a 4-player Swiss; dan is at a game of his own under way when it starts
    tid, players = connected_entrants(
        tours, "ana", "ben", "cid", "dan", kind="swiss", rounds=2, prizes=[40, 30, 20, 10]
    )
    tours.harness.running_game(players[3], *connected(tours, "eve"), connect=False)
    tours.harness.advance(minutes=10)
    # when the job pairs the first round
    tours.run(tid)
    # then dan's pairing is a forfeit: he lost it, his opponent won it; the other is played
    state = tours.service.state(tid)
    forfeits = [g for g in state.games.values() if g.forfeit]
    assert len(forfeits) == 1 and "dan" in forfeits[0].players
    (opponent,) = set(forfeits[0].players) - {"dan"}
    assert state.entries["dan"].results == "L" and state.entries[opponent].results == "W"
    assert forfeits[0].winners == [opponent]
    assert len(tours.under_way(tid)) == 1

    # and when dan is still away for the second round and the Swiss ends, the three who
    # played share the prizes, dan (four prizes, but no game of his) nothing
    for _ in range(2):
        for game_id in tours.under_way(tid):
            tours.finish(game_id, players)
        tours.run(tid)
    state = tours.service.state(tid)
    assert state.tournament.status == "paid" and state.entries["dan"].results == "LL"
    paid = balances(tours, *players)
    assert paid["dan"] == 0 and all(paid[p] > 0 for p in ("ana", "ben", "cid"))


def test_an_arena_pairs_nobody_who_is_at_another_game(tours: Tournaments) -> None:
    # given an arena of four; cid is at a game of his own under way
    tid, players = connected_entrants(tours, "ana", "ben", "cid", "dan")
    tours.harness.running_game(players[2], *connected(tours, "eve"), connect=False)
    tours.harness.advance(minutes=10)
    # when the job pairs
    done = tours.run(tid)
    # then one pairing without cid, no void pairing, cid still free
    state = tours.service.state(tid)
    assert done.paired == 1 and not any(g.void for g in state.games.values())
    assert state.entries["cid"].game_id is None
    assert "cid" not in {p for g in state.games.values() for p in g.players}


def test_a_game_whose_end_never_reached_the_standings_is_collected_from_its_table(
    tours: Tournaments,
) -> None:
    # given an arena game played to its end whose end record was lost (never recorded)
    tid, players = connected_entrants(tours, "ana", "ben")
    tours.harness.advance(minutes=10)
    tours.run(tid)
    (game_id,) = tours.under_way(tid)
    while tours.harness.session(game_id).status == "running":
        session = tours.harness.session(game_id)
        if session.finish_offer is not None:
            offered = next(p for p in players if p.player_id == session.finish_offer)
            tours.harness.act(offered, "finish_sheet", gameId=game_id, accept=False)
            continue
        game = session.game()
        mover = next(p for p in players if p.player_id == game.players[game.seat])
        tours.harness.write_any(mover, game_id)
    # when the window is over, a while later, and the job runs
    tours.harness.advance(minutes=60)
    done = tours.run(tid)
    # then the game's result is in the standings and the arena finished
    state = tours.service.state(tid)
    assert state.games[game_id].ended and not state.games[game_id].void
    assert sum(e.games for e in state.entries.values()) == 2
    assert done.finished == [tid]


def test_prizes_go_only_to_entrants_who_played(tours: Tournaments) -> None:
    # given an arena with three prizes; cid entered but was never there to be paired
    ana, ben, cid = callers("ana", "ben", "cid")
    tours.harness.connect(ana, ben)
    tid = tours.create(kind="arena", minutes=10, prizes=[30, 20, 10])
    tours.enter(tid, ana, ben, cid)
    tours.harness.advance(minutes=10)
    tours.run(tid)
    (game_id,) = tours.under_way(tid)
    tours.finish(game_id, [ana, ben])
    # when the arena is over and paid
    tours.harness.advance(minutes=11)
    assert tours.run(tid).paid == [tid]
    # then the two who played share the first two prizes (as placed, or evenly when tied),
    # and cid, third with no game, is paid nothing
    paid = balances(tours, ana, ben, cid)
    assert paid["cid"] == 0 and paid["ana"] + paid["ben"] == 50


def test_the_job_finds_a_tournament_however_many_are_listed(tours: Tournaments) -> None:
    # given an arena starting soon and, after it, more tournaments than the public list shows
    players = callers("ana", "ben")
    tours.harness.connect(*players)
    soon = tours.create(kind="arena", minutes=10)
    tours.enter(soon, *players)
    start = tours.now + timedelta(days=1)
    for n in range(tournaments_module.LISTED + 1):
        tours.create(kind="arena", minutes=10, starts_at=start + timedelta(minutes=n))
    assert soon not in [t.tournament_id for t in tours.service.listed()]
    tours.harness.advance(minutes=10)
    # when the job runs every tournament
    done = tours.service.run(tours.now)
    # then the arena started and was paired
    assert done.started == [soon] and done.paired == 1


def test_the_run_sample_in_events_runs_the_jobs_function(
    tours: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given the tournaments jobs function on this table's service, and an arena due to start
    tid, _ = connected_entrants(tours, "ana", "ben")
    jobs = load_quietly("tournaments_jobs")
    monkeypatch.setattr(jobs, "tournament_runner", lambda: tours.service)
    tours.harness.advance(minutes=10)
    # when events/tournaments_jobs_run.json is sent, as of now
    event = load_event("tournaments_jobs_run.json") | {"now": tours.now.isoformat()}
    answer = jobs.handler(event, CONTEXT)
    # then the run started the arena and paired its two players
    assert answer["job"] == "run" and answer["started"] == [tid] and answer["paired"] == 1


@pytest.mark.parametrize(
    ("sample", "function", "model"),
    [
        ("tournaments_jobs_run.json", "tournaments_jobs", "TournamentJob"),
        ("tournaments_jobs_plan.json", "tournaments_jobs", "TournamentJob"),
        ("tournaments_jobs_season.json", "tournaments_jobs", "TournamentJob"),
        ("opendb_jobs_month.json", "opendb_jobs", "ExportJob"),
    ],
)
def test_each_job_sample_in_events_is_a_job_its_function_takes(
    sample: str, function: str, model: str
) -> None:
    # the samples `sam local invoke -e` and the README use: each a valid job of its function
    job = getattr(load_quietly(function), model).model_validate(load_event(sample))
    assert job.job == sample.removesuffix(".json").rsplit("_", 1)[1]


def test_a_tournament_made_before_the_active_markers_is_still_run(tours: Tournaments) -> None:
    # given an arena due to start whose active marker is missing (made before markers existed)
    tid, _ = connected_entrants(tours, "ana", "ben")
    tours.item.get("TOURNAMENTS#ACTIVE", tid).delete()
    tours.harness.advance(minutes=10)
    # when the job runs every tournament
    done = tours.service.run(tours.now)
    # then it found it in the public list, started and paired it
    assert done.started == [tid] and done.paired == 1


def test_a_duplicate_deals_nobody_at_another_game_until_they_are_free(tours: Tournaments) -> None:
    # given a duplicate of two; ben is at a game of his own under way
    tid, players = connected_entrants(tours, "ana", "ben", kind="duplicate", minutes=30)
    other = tours.harness.running_game(players[1], *connected(tours, "eve"), connect=False)
    tours.harness.advance(minutes=10)
    # when the job deals
    assert tours.run(tid).paired == 1
    # then ana has her game, ben none and no void game was made for him
    state = tours.service.state(tid)
    assert [g.players for g in state.games.values()] == [["ana"]]
    # and once ben's game is over (he resigns) he is dealt his
    tours.harness.ack(players[1], tours.harness.act(players[1], "resign", gameId=other))
    assert tours.run(tid).paired == 1


def test_a_swiss_pairing_whose_table_closed_before_its_start_is_paired_again(
    tours: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a Swiss of two whose first table is closed before it could start (a run died
    # between making and starting it, and the waiting table was removed)
    from yamb_service.game.tournament_tables import GameTables

    tid, _ = connected_entrants(tours, "ana", "ben", kind="swiss", rounds=2)
    tours.harness.advance(minutes=10)
    real_open = GameTables.open_table
    tries: list[str] = []

    def closed_once(self: GameTables, tournament_id: str, game_id: str, *args: Any) -> bool:
        tries.append(game_id)
        if len(tries) == 1:
            return False  # the table is gone: nobody is busy, nothing to start
        return real_open(self, tournament_id, game_id, *args)

    monkeypatch.setattr(GameTables, "open_table", closed_once)
    # when the job runs, then runs again
    tours.run(tid)
    state = tours.service.state(tid)
    # then the first pairing is void and the same players are paired again, under a new id
    (void,) = [g for g in state.games.values() if g.void]
    (again,) = [g for g in state.games.values() if not g.void]
    assert sorted(again.players) == sorted(void.players) and again.round == 1
    assert {state.entries[p].game_id for p in again.players} == {again.game_id}
    tours.run(tid)
    # and its table is made: the round is played
    assert tours.under_way(tid) == [again.game_id] and tries[-1] == again.game_id
