"""Engine benchmark (`make bench`): how fast the legal cells are listed, and how many whole
random games one core plays per second, on a 9-column sheet (preset 7).

It prints its figures beside the targets and never fails: a slow machine is not a broken build.
"""

import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable

from yamb.dice import SeededDice, roll_all, roll_unlocked
from yamb.game import Game
from yamb.layout import layout_for
from yamb.rules import PRESETS

TARGET_LEGAL_CELLS_US = 20.0
TARGET_GAMES_PER_SECOND = 1_000
LEGAL_CELLS_REPEATS = 41
LEGAL_CELLS_NUMBER = 2_000
GAMES_SECONDS = 5.0
GAMES_MIN = 200
SEED = 2024

LAYOUT = layout_for("yamb", PRESETS[7])
CELLS = LAYOUT.cells_per_sheet


def play_random_turn(game: Game, dice: SeededDice, choices: random.Random) -> None:
    """Roll 1, random rerolls with random locks, then a random legal cell."""
    count = game.layout.dice_count
    game.start_turn(roll_all(dice, count))
    while game.can_reroll() and choices.random() < 0.5:
        locked = [i for i in range(count) if choices.random() < 0.5]
        game.reroll(roll_unlocked(dice, game.dice, locked))
    column, row, _ = choices.choice(game.legal_cells())
    game.write(column, row)


def game_at_stage(filled: int, seed: int) -> Game:
    """A solo game with `filled` cells written by random play, its next turn started."""
    game = Game(LAYOUT, ["solo"])
    dice = SeededDice(seed)
    choices = random.Random(seed)
    for _ in range(filled):
        play_random_turn(game, dice, choices)
    game.start_turn(roll_all(dice, LAYOUT.dice_count))
    return game


def median_us(statement: Callable[[], object]) -> float:
    """The median over many timeit repeats of one call, in microseconds."""
    times = timeit.repeat(statement, number=LEGAL_CELLS_NUMBER, repeat=LEGAL_CELLS_REPEATS)
    return statistics.median(times) / LEGAL_CELLS_NUMBER * 1e6


def bench_legal_cells() -> list[tuple[str, int, float, float]]:
    """Per stage: (name, legal cells, first listing of a turn, listing again in the same turn).

    The first listing of a turn works out the writable rows of every column; later listings
    in the same turn reuse them. The first is timed through `restart_turn`, a new roll 1 with
    the same dice, which also forgets them; its own cost is measured and taken off.
    """
    stages = (("start", 0), ("mid", CELLS // 2), ("late", CELLS - 10))
    results = []
    for name, filled in stages:
        game = game_at_stage(filled, SEED + filled)
        dice = game.dice

        def restart(game: Game = game, dice: tuple[int, ...] = dice) -> None:
            game.restart_turn(dice)

        def first_listing(game: Game = game, dice: tuple[int, ...] = dice) -> object:
            game.restart_turn(dice)
            return game.legal_cells()

        restart_us = median_us(restart)
        first_us = max(median_us(first_listing) - restart_us, 0.0)
        again_us = median_us(game.legal_cells)
        results.append((name, len(game.legal_cells()), first_us, again_us))
    return results


def bench_games() -> tuple[int, float]:
    """Whole random solo games on one core for about GAMES_SECONDS: (games, seconds)."""
    dice = SeededDice(SEED)
    choices = random.Random(SEED)
    games = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < GAMES_SECONDS or games < GAMES_MIN:
        game = Game(LAYOUT, ["solo"])
        while not game.finished:
            play_random_turn(game, dice, choices)
        games += 1
        elapsed = time.perf_counter() - start
    return games, elapsed


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "BELOW the target"


def main() -> int:
    print(f"Yamb engine benchmark: preset 7 ({len(LAYOUT.columns)} columns, {CELLS} cells), solo")
    print(f"python {sys.version.split()[0]}, one core")
    print()
    print(
        f"Listing the legal cells with their scores (median of {LEGAL_CELLS_REPEATS} repeats "
        f"x {LEGAL_CELLS_NUMBER:,} calls; target under {TARGET_LEGAL_CELLS_US:.0f} us)"
    )
    print(f"  {'stage':<6} {'cells':>5} {'first in a turn':>17} {'again, same turn':>18}")
    for name, cells, first_us, again_us in bench_legal_cells():
        print(
            f"  {name:<6} {cells:>5} {first_us:>14.2f} us {again_us:>15.2f} us"
            f"   {verdict(max(first_us, again_us) < TARGET_LEGAL_CELLS_US)}"
        )
    print()
    games, seconds = bench_games()
    rate = games / seconds
    print(
        f"Whole random 9-column solo games (roll 1, random rerolls, random legal cell; "
        f"seed {SEED}; target at least {TARGET_GAMES_PER_SECOND:,} games/s)"
    )
    print(
        f"  {games:,} games in {seconds:.2f} s: {rate:,.0f} games/s "
        f"({seconds / games * 1e3:.3f} ms a game, {seconds / games / CELLS * 1e6:.2f} us a turn)"
        f"   {verdict(rate >= TARGET_GAMES_PER_SECOND)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
