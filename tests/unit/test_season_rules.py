"""Seasons and leagues' pure rules (issue 32): the 28-day calendar, a first league, the points a
rated game gives, and a season's end: the best fifth up, the worst fifth down, too few games
stays, diamond never up and bronze never down."""

from datetime import UTC, datetime, timedelta

from yamb.competition.ratings import RatedGame, RatingPool
from yamb.competition.seasons import (
    EPOCH,
    Member,
    first_league,
    parse_season,
    season_end,
    season_of,
    season_points,
)


def test_seasons_are_28_days_from_mondays_and_ids_are_their_first_day() -> None:
    season = season_of(datetime(2026, 12, 5, 15, tzinfo=UTC))
    assert season.starts_on.weekday() == 0 and (season.starts_on - EPOCH).days % 28 == 0
    assert season.starts_at <= datetime(2026, 12, 5, 15, tzinfo=UTC) < season.ends_at
    assert season_of(season.ends_at).previous() == season
    assert season_of(season.ends_at - timedelta(seconds=1)) == season
    assert parse_season(season.season_id) == season
    assert parse_season("2026-12-01") is None and parse_season("soon") is None


def test_a_first_league_follows_an_established_rating_only() -> None:
    assert first_league(None, provisional=True) == "bronze"
    assert first_league(1900, provisional=True) == "bronze"
    assert first_league(1500, provisional=False) == "silver"
    assert first_league(1760, provisional=False) == "platinum"
    assert first_league(1200, provisional=False) == "bronze"


def test_points_count_players_beaten_and_tied() -> None:
    pool = RatingPool("individual", "yamb-1")
    four = RatedGame("g", pool, (("a",), ("b",), ("c",), ("d",)), (1, 2, 2, 4))
    assert season_points(four) == {"a": 6, "b": 3, "c": 3, "d": 0}
    pairs = RatedGame("g", RatingPool("pairs", "yamb-1"), (("a", "b"), ("c", "d")), (1, 2))
    assert season_points(pairs) == {"a": 2, "b": 2, "c": 0, "d": 0}


def member(player: str, league: str, points: int, games: int = 5) -> Member:
    return Member.model_validate({"player_id": player, "league": league, "points": points,
                                  "games": games})  # fmt: skip


def test_a_season_end_moves_the_best_fifth_up_and_the_worst_down() -> None:
    # given ten active silver players and one who played twice
    members = [member(f"p{n}", "silver", 100 - n) for n in range(10)]
    members.append(member("idle", "silver", 200, games=2))
    ends = {end.player_id: end for end in season_end("2026-11-30", members)}
    assert [p for p, e in ends.items() if e.move == "up"] == ["p0", "p1"]
    assert sorted(p for p, e in ends.items() if e.move == "down") == ["p8", "p9"]
    assert ends["idle"].move == "stay" and ends["idle"].place == 1
    assert ends["p0"].next_league == "gold" and ends["p9"].next_league == "bronze"
    # and at the ends of the ladder nobody falls off
    top = season_end("s", [member(f"d{n}", "diamond", n) for n in range(5)])
    assert {e.next_league for e in top} == {"diamond", "platinum"}
    bottom = season_end("s", [member(f"b{n}", "bronze", n) for n in range(5)])
    assert {e.next_league for e in bottom} == {"bronze", "silver"}
    # and two active players are too few to move anyone
    assert {e.move for e in season_end("s", [member("x", "gold", 9), member("y", "gold", 1)])} == {
        "stay"
    }
