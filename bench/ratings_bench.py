"""Ratings benchmark (issue 32): players of known strength, the bots' levels, rated against
each other with the ratings' own code (yamb.competition.ratings), to tell how many games the
ratings need to order easy < medium < hard, and how sure that order is.

    .venv/bin/python bench/ratings_bench.py [--runs 40] [--games 200] [--preset 1]

Each run has three players of each level (nine in all) and plays `--games` ranked games of three
on a Yamb preset, the three drawn at random, the dice seeded per run. After each game it asks:
do the levels' mean ratings stand in order (easy < medium < hard), and does every player stand
in order (each easy below each medium below each hard)? A run's "games to order" is the first
game from which the order holds to the end. The figures are the runs' median and 90th
percentile, and the share of runs ordered after 10, 25, 50, 100 and 200 games (the confidence).
It also times a rating update against the game it rates (both timed in the same run). It
prints its figures and never fails.
"""

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from yamb.bots import Level
from yamb.bots.play import play
from yamb.competition.ratings import Rating, rate, rated_game
from yamb.dice import SeededDice
from yamb.game import Game
from yamb.layout import layout_for
from yamb.rules import PRESETS
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings

LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
PER_LEVEL = 3
CHECKPOINTS = (10, 25, 50, 100, 200)


def _result(game_id: str, preset: int, totals: dict[str, int]) -> GameResult:
    return GameResult(
        game_id=game_id,
        settings=GameSettings(ranked=True, preset=preset, players=len(totals), turn_seconds=60),
        ended_at=datetime(2026, 12, 5, tzinfo=UTC),
        winners=[],
        outcome="completed",
        recorded=True,
        players=[
            PlayerResult(player_id=p, total=t, full=True, left=False, turns=0)
            for p, t in totals.items()
        ],
    )


def _ordered(ratings: dict[str, Rating], players: dict[str, Level]) -> tuple[bool, bool]:
    """Whether the levels' mean ratings are in order, and whether every player is."""
    by_level = {
        level: [ratings[p].mu if p in ratings else 25.0 for p, lv in players.items() if lv == level]
        for level in LEVELS
    }
    means = [statistics.fmean(by_level[level]) for level in LEVELS]
    levels_in_order = means[0] < means[1] < means[2]
    players_in_order = max(by_level["easy"]) < min(by_level["medium"]) and max(
        by_level["medium"]
    ) < min(by_level["hard"])
    return levels_in_order, players_in_order


def _run(run: int, games: int, preset: int) -> tuple[list[bool], list[bool], float, float]:
    layout = layout_for("yamb", PRESETS[preset])
    players = {f"{level}-{n}": level for level in LEVELS for n in range(PER_LEVEL)}
    draw = random.Random(f"ratings/{run}")
    dice = SeededDice(f"ratings/{run}")
    ratings: dict[str, Rating] = {}
    levels_ok, players_ok = [], []
    playing = rating = 0.0
    for number in range(games):
        seated = draw.sample(sorted(players), 3)
        started = time.perf_counter()
        game = Game(layout, seated)
        play(game, [players[p] for p in seated], dice)
        totals = {p: game.sheets[n].total() for n, p in enumerate(seated)}
        between = time.perf_counter()
        rated = rated_game(_result(f"{run}-{number}", preset, totals))
        assert rated is not None
        ratings.update(rate(rated, ratings))
        playing += between - started
        rating += time.perf_counter() - between
        levels, each = _ordered(ratings, players)
        levels_ok.append(levels)
        players_ok.append(each)
    return levels_ok, players_ok, playing, rating


def _games_to_order(history: list[bool]) -> int | None:
    """The first game (1-based) from which the order holds to the end; None: never."""
    if not history or not history[-1]:
        return None
    first = len(history)
    while first > 1 and history[first - 2]:
        first -= 1
    return first


def _describe(label: str, histories: list[list[bool]], games: int) -> None:
    needed = [_games_to_order(h) for h in histories]
    found = sorted(n for n in needed if n is not None)
    never = len(needed) - len(found)
    if found:
        median = statistics.median(found)
        p90 = found[min(len(found) - 1, int(0.9 * len(found)))]
        each = 3 / (PER_LEVEL * len(LEVELS))  # a player's share of the games
        print(
            f"  {label}: games to order, median {median:.0f} (about {median * each:.0f} a "
            f"player), 90th percentile {p90} ({p90 * each:.0f} a player)",
            end="",
        )
    else:
        print(f"  {label}: never ordered for good", end="")
    print(f" ({never} of {len(needed)} runs not ordered at the end of {games} games)")
    shares = []
    for checkpoint in CHECKPOINTS:
        if checkpoint <= games:
            share = sum(h[checkpoint - 1] for h in histories) / len(histories)
            shares.append(f"{checkpoint}: {share:.0%}")
    print(f"    ordered after n games (share of runs): {', '.join(shares)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--preset", type=int, default=1)
    args = parser.parse_args()
    print(
        f"ratings: {args.runs} runs of {args.games} ranked games of three, Yamb preset "
        f"{args.preset}, {PER_LEVEL} bots of each level (OpenSkill Bradley-Terry)"
    )
    levels, players = [], []
    playing = rating = 0.0
    for run in range(args.runs):
        levels_ok, players_ok, played, rated = _run(run, args.games, args.preset)
        levels.append(levels_ok)
        players.append(players_ok)
        playing += played
        rating += rated
    _describe("levels' means (easy < medium < hard)", levels, args.games)
    _describe("every player (each easy < each medium < each hard)", players, args.games)
    count = args.runs * args.games
    print(
        f"  a rating update: {rating / count * 1e6:.0f} µs, {rating / playing:.3f}x the bots' "
        f"game it rates ({playing / count * 1e3:.1f} ms, the baseline, timed in the same run)"
    )


if __name__ == "__main__":
    main()
