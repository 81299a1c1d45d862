"""Engine benchmark (`make bench`): whole random games per second on a 9-column sheet (preset 7,
solo), as a ratio to a naive reference timed in the same run, and how fast the legal cells are
listed.

Machines differ and are noisy, so the figure that matters is the ratio: the engine against
bench/naive_reference.py (a straightforward implementation of the same rules, which recomputes
everything from the sheet and the dice), in alternating rounds of the same seeded games. It
prints its figures beside the aims and never fails: a slow machine is not a broken build.
"""

import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from naive_reference import NaiveGame
from yamb.dice import SeededDice, roll_all, roll_unlocked
from yamb.game import Game
from yamb.layout import layout_for
from yamb.rules import PRESETS
from yamb.snapshot import dump_game, load_game

AIM_RATIO = 10.0
AIM_GAMES_PER_SECOND = 1_000
AIM_LEGAL_CELLS_US = 20.0
ROUNDS = 10
ROUND_SECONDS = 0.5
LEGAL_CELLS_REPEATS = 21
LEGAL_CELLS_NUMBER = 500
SEED = 2024

COLUMNS = PRESETS[7]
LAYOUT = layout_for("yamb", COLUMNS)
DICE = LAYOUT.dice_count
CELLS = LAYOUT.cells_per_sheet


def new_engine_game() -> Game:
    return Game(LAYOUT, ["solo"])


def new_naive_game() -> NaiveGame:
    return NaiveGame(COLUMNS, DICE, ["solo"])


def play_random_turn(game: Any, dice: SeededDice, choices: random.Random) -> None:
    """Roll 1, random rerolls with random locks, then a random legal cell."""
    game.start_turn(roll_all(dice, DICE))
    while game.can_reroll() and choices.random() < 0.5:
        locked = [i for i in range(DICE) if choices.random() < 0.5]
        game.reroll(roll_unlocked(dice, game.dice, locked))
    column, row, _ = choices.choice(game.legal_cells())
    game.write(column, row)


def total_of(game: Any) -> int:
    return game.sheets[0].total() if isinstance(game, Game) else game.total(0)


def play_games(new_game: Callable[[], Any], seconds: float) -> tuple[list[int], float]:
    """Whole random solo games, always the same seeded ones, for about `seconds`: each game's
    total, and the time they took."""
    dice = SeededDice(SEED)
    choices = random.Random(SEED)
    totals = []
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or len(totals) < 3:
        game = new_game()
        while not game.finished:
            play_random_turn(game, dice, choices)
        totals.append(total_of(game))
        elapsed = time.perf_counter() - start
    return totals, elapsed


def bench_games() -> tuple[float, float, list[float], bool]:
    """Alternating rounds: the median round's engine and naive games/s, every round's ratio,
    and whether both played the same games."""
    engine_rates, naive_rates, ratios = [], [], []
    same = True
    for number in range(ROUNDS):
        # Who goes first alternates too, so that a drift in the machine's speed evens out.
        order = (new_engine_game, new_naive_game)[:: 1 if number % 2 == 0 else -1]
        results = {new_game: play_games(new_game, ROUND_SECONDS) for new_game in order}
        engine_totals, engine_time = results[new_engine_game]
        naive_totals, naive_time = results[new_naive_game]
        engine_rates.append(len(engine_totals) / engine_time)
        naive_rates.append(len(naive_totals) / naive_time)
        ratios.append(engine_rates[-1] / naive_rates[-1])
        shared = min(len(engine_totals), len(naive_totals))
        same = same and engine_totals[:shared] == naive_totals[:shared]
    return statistics.median(engine_rates), statistics.median(naive_rates), ratios, same


def games_at_stage(filled: int, seed: int) -> tuple[Game, NaiveGame, tuple[int, ...]]:
    """The same solo game on both, `filled` cells written by random play, and the dice of the
    next roll 1 (not made yet)."""
    games: list[Any] = [new_engine_game(), new_naive_game()]
    for game in games:
        dice = SeededDice(seed)
        choices = random.Random(seed)
        for _ in range(filled):
            play_random_turn(game, dice, choices)
    return games[0], games[1], roll_all(SeededDice(seed + 1), DICE)


def median_us(statement: Callable[[], object], number: int) -> float:
    times = timeit.repeat(statement, number=number, repeat=LEGAL_CELLS_REPEATS)
    return statistics.median(times) / number * 1e6


def first_listing_us(game: Game, dice: tuple[int, ...]) -> float:
    """Roll 1 and the turn's first listing, on freshly loaded copies of the game, as a service
    action meets them: whatever the engine works out once a turn is in this figure."""
    stored = dump_game(game)
    times = []
    for _ in range(LEGAL_CELLS_REPEATS):
        copies = [load_game(stored) for _ in range(LEGAL_CELLS_NUMBER)]
        start = time.perf_counter()
        for copy in copies:
            copy.start_turn(dice)
            copy.legal_cells()
        times.append(time.perf_counter() - start)
    return statistics.median(times) / LEGAL_CELLS_NUMBER * 1e6


def bench_legal_cells() -> list[tuple[str, int, float, float, float]]:
    """Per stage: (name, legal cells, roll 1 + first listing, listing again in the same turn,
    the naive reference's listing)."""
    stages = (("start", 0), ("mid", CELLS // 2), ("late", CELLS - 10))
    results = []
    for name, filled in stages:
        game, reference, dice = games_at_stage(filled, SEED + filled)
        first_us = first_listing_us(game, dice)
        game.start_turn(dice)
        reference.start_turn(dice)
        assert game.legal_cells() == reference.legal_cells()
        again_us = median_us(game.legal_cells, LEGAL_CELLS_NUMBER * 4)
        naive_us = median_us(reference.legal_cells, LEGAL_CELLS_NUMBER // 10)
        results.append((name, len(game.legal_cells()), first_us, again_us, naive_us))
    return results


def verdict(ok: bool) -> str:
    return "meets the aim" if ok else "BELOW the aim"


def main() -> int:
    print(f"Yamb engine benchmark: preset 7 ({len(LAYOUT.columns)} columns, {CELLS} cells), solo")
    print(f"python {sys.version.split()[0]}, one core")
    print()
    print(
        f"Whole random games (roll 1, random rerolls with random locks, a random legal cell; "
        f"seed {SEED}), {ROUNDS} alternating rounds of {ROUND_SECONDS:.1f} s each"
    )
    engine_rate, naive_rate, ratios, same = bench_games()
    ratio = statistics.median(ratios)
    aims = (f"aim about {AIM_GAMES_PER_SECOND:,} games/s (machines differ: see the ratio)", "")
    for (name, rate), aim in zip(
        (("engine", engine_rate), ("naive reference", naive_rate)), aims, strict=True
    ):
        print(f"  {name:<17} {rate:>7,.0f} games/s ({1e6 / rate / CELLS:6.2f} us a turn)   {aim}")
    print(
        f"  ratio             {ratio:>7.1f}x {'':26} aim {AIM_RATIO:.0f}x   "
        f"{verdict(ratio >= AIM_RATIO)}"
    )
    print(
        f"  (median of the rounds; their ratios ran from {min(ratios):.1f}x to {max(ratios):.1f}x)"
    )
    print(f"  the same games on both: {'yes' if same else 'NO, the two disagree'}")
    print()
    print(
        f"Listing the legal cells with their scores (median of {LEGAL_CELLS_REPEATS} repeats; "
        f"aim under {AIM_LEGAL_CELLS_US:.0f} us)"
    )
    print(f"  {'stage':<6} {'cells':>5} {'roll 1 + first':>15} {'again':>10} {'naive':>11}")
    for name, cells, first_us, again_us, naive_us in bench_legal_cells():
        print(
            f"  {name:<6} {cells:>5} {first_us:>12.2f} us {again_us:>7.2f} us {naive_us:>8.1f} us"
            f"   {verdict(max(first_us, again_us) < AIM_LEGAL_CELLS_US)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
