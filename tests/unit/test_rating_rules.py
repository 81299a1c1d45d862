"""Skill ratings (issue 32): which games rate, the places they give, OpenSkill's update, the
provisional flag and the pools."""

import random
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from yamb.competition.ratings import (
    MU,
    PROVISIONAL_DEVIATION,
    SCALE,
    Rating,
    RatingPool,
    pool,
    rate,
    rated_game,
)
from yamb.results.errors import ResultsError
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings

AT = datetime(2026, 12, 5, 12, tzinfo=UTC)
RANKED = GameSettings(ranked=True, preset=3, players=3, turn_seconds=60)
PAIRS = GameSettings(ranked=True, preset=1, players=4, pairs=True, turn_seconds=60)


def _result(
    totals: dict[str, int],
    settings: GameSettings = RANKED,
    *,
    left: frozenset[str] = frozenset(),
    bots: frozenset[str] = frozenset(),
    recorded: bool = True,
    outcome: str | None = None,
) -> GameResult:
    return GameResult(
        game_id="g1",
        settings=settings,
        ended_at=AT,
        winners=[],
        outcome=outcome,  # type: ignore[arg-type]
        players=[
            PlayerResult(
                player_id=p,
                total=t,
                full=p not in left,
                left=p in left,
                turns=26,
                bot="hard" if p in bots else None,
            )
            for p, t in totals.items()
        ],
        recorded=recorded,
    )


def test_places_follow_the_totals_and_equal_totals_share_a_place() -> None:
    # given three players, two of them level
    game = rated_game(_result({"a": 700, "b": 800, "c": 700}))

    # then the best total is first and the level two share second place
    assert game is not None
    assert game.pool == RatingPool("individual", "yamb-3")
    assert game.teams == (("a",), ("b",), ("c",))
    assert game.places == (2, 1, 2)


def test_a_player_who_left_ranks_after_everyone_who_finished() -> None:
    # given a leaver whose sheet holds more than a finisher's
    game = rated_game(_result({"a": 900, "b": 500, "c": 600}, left=frozenset({"a"})))

    # then the leaver is last
    assert game is not None
    assert game.places == (3, 2, 1)


def test_pairs_rate_as_two_teams_of_two() -> None:
    # given a 2 vs 2 game (a pair's sheet total is on both its players)
    game = rated_game(_result({"a": 600, "b": 600, "c": 700, "d": 700}, PAIRS))

    # then the pool is the pairs one and the second pair won
    assert game is not None
    assert game.pool.key == "pairs/yamb-1"
    assert game.teams == (("a", "b"), ("c", "d"))
    assert game.places == (2, 1)


@pytest.mark.parametrize(
    ("settings", "kwargs"),
    [
        (GameSettings(ranked=False, preset=3, players=3), {}),
        (RANKED, {"bots": frozenset({"b"})}),
        (RANKED, {"recorded": False}),
        (RANKED, {"outcome": "cancelled"}),
    ],
    ids=["unranked", "with a bot", "not recorded", "cancelled"],
)
def test_games_that_never_rate(settings: GameSettings, kwargs: dict[str, object]) -> None:
    # given a game that is not a ranked game of people played out / then it does not rate
    assert rated_game(_result({"a": 700, "b": 800, "c": 600}, settings, **kwargs)) is None  # type: ignore[arg-type]


def test_solo_never_rates() -> None:
    solo = GameSettings(preset=3, players=1, turn_seconds=60)
    assert rated_game(_result({"a": 900}, solo)) is None


def test_a_win_raises_the_winner_and_lowers_the_others_and_counts_a_game() -> None:
    # given three newcomers / when the first wins
    game = rated_game(_result({"a": 900, "b": 800, "c": 700}))
    assert game is not None
    after = rate(game, {})

    # then the winner gains, the last loses most, every uncertainty shrinks, one game each
    assert after["a"].mu > MU > after["c"].mu
    assert after["a"].mu > after["b"].mu > after["c"].mu
    assert all(r.sigma < MU / 3 and r.games == 1 for r in after.values())
    # and a newcomer's rating is shown as 1500 ± 500, provisional
    assert Rating(player_id="x", pool="individual/yamb-3").shown == 1500
    assert Rating(player_id="x", pool="individual/yamb-3").deviation == 500
    assert after["a"].provisional


def test_the_rating_read_is_the_one_updated() -> None:
    # given a strong established player who loses to a newcomer
    strong = Rating(player_id="a", pool="individual/yamb-3", mu=35, sigma=2, games=80, version=7)
    game = rated_game(_result({"a": 600, "b": 800, "c": 500}))
    assert game is not None

    # when rated
    after = rate(game, {"a": strong})

    # then the strong player loses a little, keeps their record's version for the write and
    # is not provisional
    assert 33 < after["a"].mu < 35
    assert after["a"].games == 81
    assert after["a"].version == 7
    assert not after["a"].provisional
    assert after["a"].deviation <= PROVISIONAL_DEVIATION


def test_the_provisional_flag_goes_after_enough_games() -> None:
    # given two players who meet again and again, the first winning seven games in ten
    ratings: dict[str, Rating] = {}
    games = 0
    settings = GameSettings(ranked=True, preset=3, players=2, turn_seconds=60)
    draws = random.Random(32)
    while games < 100 and (not ratings or any(r.provisional for r in ratings.values())):
        first = draws.random() < 0.7
        game = rated_game(_result({"a": 800 if first else 700, "b": 750}, settings))
        assert game is not None
        ratings = rate(game, ratings)
        games += 1

    # then the flag goes after about twenty games of two
    assert 15 <= games <= 25


@given(st.lists(st.integers(min_value=0, max_value=1500), min_size=2, max_size=4))
def test_a_higher_total_never_gains_less_than_a_lower_one_among_newcomers(
    totals: list[int],
) -> None:
    # given newcomers with any totals
    players = {f"p{n}": total for n, total in enumerate(totals)}
    settings = GameSettings(ranked=True, preset=3, players=len(totals), turn_seconds=60)
    game = rated_game(_result(players, settings))
    assert game is not None

    # when rated / then a better total ends at least as high
    after = rate(game, {})
    for x, mine in players.items():
        for y, theirs in players.items():
            if mine > theirs:
                assert after[x].mu > after[y].mu
            if mine == theirs:
                assert after[x].mu == pytest.approx(after[y].mu)


def test_pools_are_checked_word_by_word() -> None:
    assert pool("individual", "classic").key == "individual/classic"
    with pytest.raises(ResultsError) as unknown:
        pool("individual", "yamb-9")
    assert unknown.value.field == "family"
    with pytest.raises(ResultsError) as wrong:
        pool("team", "yamb-1")
    assert wrong.value.field == "format"
    with pytest.raises(ResultsError):
        pool("pairs", "classic")  # 2 vs 2 is a Yamb game
    assert SCALE * MU == 1500
