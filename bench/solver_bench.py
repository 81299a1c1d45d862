"""Solver benchmark: per family grid, the time to solve it, its table's size, the time of one
decision, and the average of seeded solo games played by the optimal player through the engine.

The averages are checked against the published expected scores (Classic 254.59, Scandinavian
248.44) within two standard errors. A decision's time is given as a ratio to the engine's own
`legal_cells` call, timed at the same moments of the same games. It prints its figures and never
fails: a slow machine is not a broken build.

    .venv/bin/python bench/solver_bench.py [--games 2000] [--grids classic yacht] [--stored]
"""

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from yamb.dice import SeededDice, roll_all, roll_unlocked
from yamb.game import Game
from yamb.layout import MAX_ROLLS, layout_for
from yamb.solver import FAMILY, Solver, State, locks_for, state_of
from yamb_tools.solve import sizes

PUBLISHED = {"classic": 254.59, "scandinavian": 248.44}
SEED = 2026


def _timed(times: list[float], call: Callable[..., Any], *args: Any) -> Any:
    start = time.perf_counter_ns()
    result = call(*args)
    times.append((time.perf_counter_ns() - start) / 1000)
    return result


def play(solver: Solver, grid_id: str, games: int) -> tuple[list[int], dict[str, list[float]]]:
    """Seeded solo games: their totals, and the microseconds of each kind of call: a turn's
    first decision (which solves the turn), the later ones, and the engine's legal_cells."""
    layout = layout_for(grid_id)
    source = SeededDice(SEED)
    times: dict[str, list[float]] = {"first": [], "later": [], "legal_cells": []}
    totals = []
    for _ in range(games):
        game = Game(layout, ["solo"])
        while not game.finished:
            state = state_of(game)
            game.start_turn(roll_all(source, 5))
            kind = "first"
            while game.roll < MAX_ROLLS:
                rolls_left = MAX_ROLLS - game.roll
                keep, _ = _timed(times[kind], solver.best_keep, state, game.dice, rolls_left)
                kind = "later"
                _timed(times["legal_cells"], game.legal_cells)
                if len(keep) == 5:
                    break
                game.reroll(roll_unlocked(source, game.dice, locks_for(game.dice, keep)))
            else:
                _timed(times["legal_cells"], game.legal_cells)
            row_id, _ = _timed(times[kind], solver.best_box, state, game.dice, game.roll)
            game.write(0, layout.row_index(row_id))
        totals.append(game.sheets[0].total())
    return totals, times


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench(grid_id: str, games: int, stored: bool) -> None:
    start = time.perf_counter()
    solver = Solver.load(grid_id) if stored else Solver.build(grid_id)
    built = time.perf_counter() - start
    expected = solver.expected(State(0))
    how = "loaded" if stored else "built"
    print(f"\n{grid_id}: expected score {expected:.4f}, {how} in {built:.1f} s")
    for name, size in sizes(solver).items():
        print(f"  size {name:12} {size / 1e6:8.3f} MB")

    start = time.perf_counter()
    totals, times = play(solver, grid_id, games)
    played = time.perf_counter() - start
    mean = statistics.mean(totals)
    error = statistics.stdev(totals) / len(totals) ** 0.5
    print(
        f"  {games} games in {played:.1f} s: average {mean:.2f} +- {error:.2f} (standard "
        f"error), sd {statistics.stdev(totals):.1f}, median {statistics.median(totals)}"
    )
    print(f"  average - expected = {mean - expected:+.2f} = {(mean - expected) / error:+.2f} SE")
    published = PUBLISHED.get(grid_id)
    if published is not None:
        within = abs(mean - published) <= 2 * error
        verdict = "agrees within 2 SE" if within else "DIFFERS by more than 2 SE"
        print(f"  published {published}: the simulated average {verdict}")
    baseline = statistics.median(times["legal_cells"])
    p99 = _percentile(times["legal_cells"], 0.99)
    print(f"  engine legal_cells: median {baseline:.1f} us, p99 {p99:.1f} us")
    for kind, label in (("first", "a turn's first decision (solves it)"), ("later", "later")):
        median, p99 = statistics.median(times[kind]), _percentile(times[kind], 0.99)
        print(
            f"  decision, {label}: median {median:.0f} us ({median / baseline:.0f} x "
            f"legal_cells), p99 {p99:.0f} us"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--grids", nargs="+", choices=FAMILY, default=list(FAMILY))
    parser.add_argument(
        "--stored", action="store_true", help="load the stored tables instead of building them"
    )
    args = parser.parse_args(argv)
    for grid_id in args.grids:
        bench(grid_id, args.games, args.stored)
    return 0


if __name__ == "__main__":
    sys.exit(main())
