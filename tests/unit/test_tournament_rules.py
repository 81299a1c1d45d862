"""Tournaments' pure rules (issue 32): the plan an operator may make, arena and Swiss points,
the standings' shared places, arena and Swiss pairings (no repeat, one bye each), the schedule,
and the tournament's dice: one commitment for every game's seed."""

import hashlib
import itertools
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError
from yamb.competition import pairing
from yamb.competition.schedule import SCHEDULE, upcoming
from yamb.competition.standings import Entry, Played, Seat, scored, standings, with_bye
from yamb.competition.tournaments import (
    DEAL,
    TournamentError,
    TournamentPlan,
    game_seed,
    new_tournament,
    require_entry_open,
    tournament_id_for,
)

NOW = datetime(2026, 12, 5, 12, tzinfo=UTC)


def plan(**fields: object) -> TournamentPlan:
    base: dict[str, object] = {
        "kind": "arena",
        "name": "Test arena",
        "starts_at": NOW + timedelta(hours=1),
        "minutes": 60,
    }
    return TournamentPlan.model_validate({**base, **fields})


def entry(player: str, **fields: object) -> Entry:
    return Entry.model_validate(
        {"player_id": player, "nickname": player.title(), "joined_at": NOW, **fields}
    )


def game(winner: str | None, *players: str, left: str | None = None) -> Played:
    seats = tuple(Seat(p, 100 if p == winner else 80, left=p == left) for p in players)
    winners = frozenset(players if winner is None else [winner])
    return Played("g", seats, winners, NOW)


# ---------------------------------------------------------------- plans


def test_a_plan_fixes_seats_rank_and_clock_and_refuses_what_makes_no_game() -> None:
    # given an arena on preset 3
    settings = plan(rules={"preset": 3}).settings()
    # then its games are two-seat, ranked, on the tournament clock
    assert (settings.players, settings.ranked, settings.preset) == (2, True, 3)
    # and a duplicate's are solo and never ranked
    solo = plan(kind="duplicate", rules={"preset": 1}).settings()
    assert (solo.players, solo.ranked) == (1, False)
    # when a plan mixes the kinds' shapes, sets its own seats or has rising prizes: refused
    for bad in (
        {"kind": "swiss"},
        {"rounds": 3},
        {"rules": {"players": 4}},
        {"prizes": [10, 20]},
        {"rules": {"preset": 9}},
        {"entry_fee": -1},
    ):
        with pytest.raises(ValidationError):
            plan(**bad)


def test_entries_close_at_a_swiss_start_and_at_an_arena_window_end() -> None:
    # given a Swiss and an arena, both running
    swiss = new_tournament("s", plan(kind="swiss", minutes=None, rounds=4), "11" * 32, NOW)
    arena = new_tournament("a", plan(), "22" * 32, NOW)
    later = NOW + timedelta(hours=1, minutes=30)
    # then the Swiss is closed and the arena still open within its window
    with pytest.raises(TournamentError) as refused:
        require_entry_open(swiss.model_copy(update={"status": "running"}), later)
    assert refused.value.code == "tournament_started"
    require_entry_open(arena.model_copy(update={"status": "running"}), later)
    with pytest.raises(TournamentError) as over:
        require_entry_open(
            arena.model_copy(update={"status": "running"}), later + timedelta(hours=1)
        )
    assert over.value.code == "tournament_started"
    with pytest.raises(TournamentError) as finished:
        require_entry_open(arena.model_copy(update={"status": "finished"}), later)
    assert finished.value.code == "tournament_over"


def test_a_tournament_in_the_past_is_refused() -> None:
    with pytest.raises(TournamentError) as refused:
        new_tournament("x", plan(starts_at=NOW - timedelta(minutes=1)), "00" * 32, NOW)
    assert refused.value.code == "starts_in_the_past"


# ---------------------------------------------------------------- points


def test_arena_counts_double_on_a_streak_until_a_game_is_not_won() -> None:
    # given ana, who wins three games in a row, then loses, then wins
    entries = {"ana": entry("ana"), "ben": entry("ben")}
    for winner in ("ana", "ana", "ana", "ben", "ana"):
        entries = {**entries, **scored("arena", entries, game(winner, "ana", "ben"))}
    ana = entries["ana"]
    # then her third win counts 4 (on fire after two), the others 2
    assert ana.results == "WWwLW"
    assert ana.points == 2 + 2 + 4 + 0 + 2
    assert (ana.games, ana.wins, ana.streak) == (5, 4, 1)
    assert entries["ben"].points == 2


def test_a_draw_is_one_point_and_a_player_who_left_loses() -> None:
    entries = {"ana": entry("ana"), "ben": entry("ben")}
    drawn = scored("swiss", entries, game(None, "ana", "ben"))
    assert (drawn["ana"].points, drawn["ben"].points) == (1, 1)
    # ben left: even with the better total, he lost
    left = scored("swiss", entries, Played("g", (Seat("ana", 50, False), Seat("ben", 90, True)),
                                          frozenset({"ana"}), NOW))  # fmt: skip
    assert (left["ana"].results, left["ben"].results) == ("W", "L")


def test_standings_share_places_and_break_swiss_ties_by_buchholz() -> None:
    # given four Swiss entrants: ana and ben on 2 points, ana's opponent stronger
    entries = {
        "ana": entry("ana", points=2, opponents=["cid"]),
        "ben": entry("ben", points=2, opponents=["dan"]),
        "cid": entry("cid", points=1, opponents=["ana"]),
        "dan": entry("dan", points=0, opponents=["ben"]),
    }
    rows = standings("swiss", entries.values())
    assert [(r.place, r.entry.player_id, r.tiebreak) for r in rows] == [
        (1, "ana", 1), (2, "ben", 0), (3, "cid", 2), (4, "dan", 2),
    ]  # fmt: skip
    # and arena entrants equal in points and totals share their place
    same = standings("arena", [entry("x", points=4), entry("y", points=4), entry("z")])
    assert [r.place for r in same] == [1, 1, 3]


def test_duplicate_ranks_by_total_then_who_finished_first() -> None:
    early, late = NOW, NOW + timedelta(minutes=5)
    rows = standings(
        "duplicate",
        [
            entry("a", score=200, finished_at=late),
            entry("b", score=200, finished_at=early),
            entry("c", score=250, finished_at=late),
            entry("d"),  # not played yet
        ],
    )
    assert [r.entry.player_id for r in rows] == ["c", "b", "a", "d"]


# ---------------------------------------------------------------- pairings


def test_arena_pairs_neighbours_but_not_the_last_opponent_again() -> None:
    rows = standings(
        "arena",
        [entry("a", points=6, opponents=["b"]), entry("b", points=5, opponents=["a"]),
         entry("c", points=4), entry("d", points=1), entry("e")],
    )  # fmt: skip
    pairs = pairing.arena_pairs(rows)
    assert pairs == [("a", "c"), ("b", "d")]  # e waits


def test_a_swiss_of_seven_over_four_rounds_never_repeats_and_gives_four_byes() -> None:
    # given seven entrants, results decided by name (earlier letter wins)
    entries = {p: entry(p) for p in "abcdefg"}
    byes = []
    for _ in range(4):
        pairs, bye = pairing.swiss_round(standings("swiss", entries.values()))
        assert bye is not None and len(pairs) == 3
        byes.append(bye)
        entries[bye] = with_bye(entries[bye])
        for first, second in pairs:
            entries.update(scored("swiss", entries, game(min(first, second), first, second)))
    # then nobody met anyone twice and nobody had two byes
    for e in entries.values():
        assert len(e.opponents) == len(set(e.opponents))
    assert len(set(byes)) == 4
    assert sum(e.points for e in entries.values()) == 4 * (3 * 2 + 2)


def test_a_swiss_round_that_can_only_repeat_is_refused() -> None:
    # given two players who have met
    rows = standings("swiss", [entry("a", opponents=["b"]), entry("b", opponents=["a"])])
    with pytest.raises(TournamentError) as refused:
        pairing.swiss_round(rows)
    assert refused.value.code == "pairing_would_repeat"


def test_swiss_pairing_backtracks_past_a_greedy_dead_end() -> None:
    # given a, b, c, d in that order, c and d having met: a-b first would leave c-d
    met = {"a": [], "b": [], "c": ["d"], "d": ["c"]}
    rows = standings("swiss", [entry(p, opponents=o) for p, o in met.items()])
    # when the round is paired
    pairs, bye = pairing.swiss_round(rows)
    # then a takes c, and b takes d
    assert (pairs, bye) == ([("a", "c"), ("b", "d")], None)


# ---------------------------------------------------------------- schedule and dice


def test_the_schedule_plans_a_week_once_per_slot() -> None:
    found = list(upcoming(NOW))
    ids = [tournament_id_for(s.series, at) for s, at in found]
    assert len(ids) == len(set(ids))
    assert {s.series for s, _ in found} == {s.series for s in SCHEDULE}
    assert all(NOW < at <= NOW + timedelta(days=7) for _, at in found)
    for series, at in found:
        assert series.plan(at).starts_at == at  # every slot makes a valid plan


def test_every_game_seed_follows_from_the_one_commitment() -> None:
    seed = "ab" * 32
    tournament = new_tournament("t", plan(), seed, NOW)
    assert tournament.commitment == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    seeds = {game_seed(seed, label) for label in ("g1", "g2", DEAL)}
    assert len(seeds) == 3 and all(len(s) == 64 for s in seeds)
    assert game_seed(seed, "g1") == game_seed(seed, "g1")
    assert game_seed("cd" * 32, "g1") not in seeds


def test_pairs_are_whole_for_any_even_number() -> None:
    for count in range(2, 12, 2):
        entries = [entry(f"p{i}") for i in range(count)]
        pairs, bye = pairing.swiss_round(standings("swiss", entries))
        assert bye is None
        assert sorted(itertools.chain.from_iterable(pairs)) == sorted(e.player_id for e in entries)


@pytest.mark.parametrize(
    ("planned", "entrants", "played"),
    [(5, 0, 5), (5, 3, 3), (5, 4, 3), (5, 6, 5), (11, 7, 7), (2, 2, 1), (4, 9, 4)],
)
def test_a_swiss_plays_at_most_a_round_robin(planned: int, entrants: int, played: int) -> None:
    # a round robin of n players has n - 1 rounds (n even) or n, each with one bye (n odd)
    swiss = new_tournament("s", plan(kind="swiss", minutes=None, rounds=planned), "00", NOW)
    assert swiss.model_copy(update={"entrants": entrants}).rounds == played


@pytest.mark.parametrize(
    ("status", "refunded", "active"),
    [
        ("open", False, True),
        ("running", False, True),
        ("finished", False, True),
        ("paid", False, False),
        ("cancelled", False, True),
        ("cancelled", True, False),
    ],
)
def test_the_job_keeps_a_tournament_until_it_is_paid_or_refunded(
    status: str, refunded: bool, active: bool
) -> None:
    arena = new_tournament("a", plan(), "00", NOW)
    assert arena.model_copy(update={"status": status, "refunded": refunded}).active is active
