"""Bots benchmark: the average final solo score per level and grid with its standard error,
the optimal player's averages against the published ones, head-to-head win rates on Yamb
preset 5, and each level's decision time per move.

    .venv/bin/python bench/bots_bench.py [--games 2000] [--h2h 300] [--workers 2]

Games are seeded (the same dice sequences for every level of a grid: common random numbers) and
shared between worker processes. A decision is one choose() call after a roll (the roll-0
RollMove(()) is not timed). The optimal level plays where its solver table loads: Classic,
Yacht and Generala are committed; Scandinavian's is made by `yamb solve scandinavian` (its
cache directory may be set with YAMB_SOLVER_CACHE). It prints its figures and never fails.
"""

import os

# Small matrix products wait for BLAS threads; the workers are the parallelism here.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool

from yamb.bots import Level, choose, levels_for
from yamb.bots.moves import BotMove
from yamb.bots.play import play
from yamb.dice import SeededDice
from yamb.game import Game
from yamb.layout import Layout, layout_for
from yamb.rules import PRESETS

PUBLISHED = {"classic": 254.59, "scandinavian": 248.44}
SOLO = ("classic", "scandinavian", "yacht", "generala", "yamb p1", "yamb p5", "yamb p7")
HEAD_TO_HEAD: tuple[tuple[Level, Level], ...] = (
    ("easy", "medium"),
    ("easy", "hard"),
    ("medium", "hard"),
)
CHUNK = 50
SEED = 2026


def layout_of(name: str) -> Layout:
    if name.startswith("yamb p"):
        return layout_for("yamb", PRESETS[int(name[6:])])
    return layout_for(name)


def _timed_choose(times: list[float]) -> Callable[[Game, Level], BotMove]:
    def timed(game: Game, level: Level) -> BotMove:
        if not game.roll:
            return choose(game, level)
        start = time.perf_counter_ns()
        move = choose(game, level)
        times.append((time.perf_counter_ns() - start) / 1000)
        return move

    return timed


def _solo(task: tuple[str, Level, int, int]) -> tuple[str, Level, list[int], list[float]]:
    name, level, chunk, games = task
    layout = layout_of(name)
    source = SeededDice(f"{SEED}/{name}/{chunk}")
    times: list[float] = []
    totals = []
    for _ in range(games):
        game = Game(layout, ["bot"])
        play(game, [level], source, _timed_choose(times))
        totals.append(game.sheets[0].total())
    return name, level, totals, times


def _match(task: tuple[Level, Level, int, int]) -> tuple[Level, Level, float, int]:
    """Games of two levels on preset 5, the first seat alternating: A's points (a win 1, a tie
    1/2) and the number of games."""
    first, second, chunk, games = task
    layout = layout_of("yamb p5")
    source = SeededDice(f"{SEED}/h2h/{first}/{second}/{chunk}")
    points = 0.0
    for index in range(games):
        levels: list[Level] = [first, second] if index % 2 == 0 else [second, first]
        game = Game(layout, ["a", "b"])
        play(game, levels, source)
        totals = [sheet.total() for sheet in game.sheets]
        a = 0 if index % 2 == 0 else 1
        points += 1.0 if totals[a] > totals[1 - a] else 0.5 if totals[a] == totals[1 - a] else 0
    return first, second, points, games


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _tables() -> set[str]:
    """Loads what the levels use, timing it; the family grids whose optimal player loads."""
    from yamb.bots.dice_tables import dice_tables
    from yamb.solver import Solver, TableError

    for count in (5, 6):
        start = time.perf_counter()
        dice_tables(count)
        print(f"dice tables, {count} dice: built in {time.perf_counter() - start:.3f} s")
    optimal = set()
    for grid in ("classic", "scandinavian", "yacht", "generala"):
        start = time.perf_counter()
        try:
            Solver.load(grid)
        except TableError as error:
            print(f"solver table {grid}: not available ({error}); optimal not played")
            continue
        print(f"solver table {grid}: loaded in {time.perf_counter() - start:.3f} s")
        optimal.add(grid)
    return optimal


type Totals = dict[tuple[str, Level], list[int]]
type Times = dict[tuple[str, Level], list[float]]
type Points = dict[tuple[Level, Level], list[float]]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard", "optimal")


def _run(games: int, h2h: int, workers: int, optimal: set[str]) -> tuple[Totals, Times, Points]:
    tasks: list[tuple[str, Level, int, int]] = []
    for name in SOLO:
        grid = name.split()[0]
        for level in levels_for(grid):
            if level == "optimal" and grid not in optimal:
                continue
            for chunk, first in enumerate(range(0, games, CHUNK)):
                tasks.append((name, level, chunk, min(CHUNK, games - first)))
    # The slow ones first, so that the workers end together.
    tasks.sort(key=lambda t: (t[0] != "yamb p7", t[0] != "yamb p5", t[1] == "easy"))
    matches = [
        (a, b, chunk, min(CHUNK, h2h - first))
        for a, b in HEAD_TO_HEAD
        for chunk, first in enumerate(range(0, h2h, CHUNK))
    ]
    totals: Totals = {}
    times: Times = {}
    points: Points = {}
    with Pool(workers) as pool:
        solo = pool.imap_unordered(_solo, tasks)
        duels = pool.imap_unordered(_match, matches)
        for name, level, part, spent in solo:
            totals.setdefault((name, level), []).extend(part)
            times.setdefault((name, level), []).extend(spent)
        for a, b, won, played in duels:
            tally = points.setdefault((a, b), [0.0, 0.0])
            tally[0] += won
            tally[1] += played
    return totals, times, points


def _print_solo(totals: Totals) -> None:
    print("\nSolo games: average final score +- standard error (games per level and grid)")
    print(f"{'':14}" + "".join(f"{level:>22}" for level in LEVELS))
    for name in SOLO:
        cells = []
        for level in LEVELS:
            got = totals.get((name, level))
            if not got:
                cells.append(f"{'-':>22}")
                continue
            mean, error = statistics.fmean(got), statistics.stdev(got) / len(got) ** 0.5
            cells.append(f"{f'{mean:.2f} +- {error:.2f} ({len(got)})':>22}")
        print(f"{name:14}" + "".join(cells))
    for grid, published in PUBLISHED.items():
        got = totals.get((grid, "optimal"))
        if not got:
            print(f"optimal {grid}: no table, not played")
            continue
        mean, error = statistics.fmean(got), statistics.stdev(got) / len(got) ** 0.5
        off = (mean - published) / error
        verdict = "agrees within 2 SE" if abs(off) <= 2 else "DIFFERS by more than 2 SE"
        print(f"optimal {grid}: {mean:.2f} vs published {published}: {off:+.2f} SE, {verdict}")


def _print_duels(points: Points) -> None:
    print("\nHead to head on Yamb preset 5 (2 players, first seat alternating; a tie is 1/2)")
    for (a, b), (won, games) in points.items():
        rate = won / games
        error = (rate * (1 - rate) / games) ** 0.5
        print(f"  {a} vs {b}: {a} wins {rate:.1%} +- {error:.1%} of {int(games)} games")


def _print_times(times: Times) -> None:
    print("\nDecision time per move (one choose() after a roll), microseconds")
    for level in LEVELS:
        spent = [t for (_, lv), got in times.items() if lv == level for t in got]
        if spent:
            print(
                f"  {level:8} median {statistics.median(spent):8.0f}   "
                f"p99 {_percentile(spent, 0.99):8.0f}   max {max(spent):8.0f}   "
                f"({len(spent)} decisions)"
            )
    for level in LEVELS[1:]:
        for name in SOLO:
            got = times.get((name, level))
            if got:
                print(
                    f"    {level:8} {name:14} median {statistics.median(got):6.0f}   "
                    f"p99 {_percentile(got, 0.99):6.0f}"
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="solo games per level and grid")
    parser.add_argument("--h2h", type=int, default=300, help="games per pair of levels")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    optimal = _tables()
    totals, times, points = _run(args.games, args.h2h, args.workers, optimal)
    _print_solo(totals)
    _print_duels(points)
    _print_times(times)
    print(f"\nbench time {time.perf_counter() - started:.0f} s with {args.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
