"""Verifiable dice benchmark (`make bench`): what deriving the dice of a turn costs, against
drawing them from `secrets` (the dice before issue 17), timed in the same run, and the
chi-square of a million derived dice.

A turn here is roll 1 of five dice and two rolls of three: the game key is derived once per roll,
as the service does (it keeps no key between requests). It prints figures and never fails.
"""

import statistics
import sys
import timeit
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from yamb import fair_dice
from yamb.dice import SecureDice, roll_all, roll_unlocked

SEED = "5e" * 32
GAME_ID = "0123456789abcdef0123"
CLIENT_SEEDS = {"ana": "lucky-7", "ben": "x"}
REPEATS = 7
NUMBER = 2_000
CHI_SQUARE_DICE = 1_000_000


def derived_turn() -> None:
    dice: tuple[int, ...] = ()
    for roll, kept in ((1, ()), (2, (0, 1)), (3, (0, 1))):
        key = fair_dice.game_key(SEED, GAME_ID, CLIENT_SEEDS)
        dice = fair_dice.roll_dice(key, 17, roll, dice, kept, 5)


SECURE = SecureDice()


def secrets_turn() -> None:
    dice = roll_all(SECURE, 5)
    for _ in range(2):
        dice = roll_unlocked(SECURE, dice, (0, 1))


def best_microseconds(function: object) -> float:
    times = timeit.repeat(function, repeat=REPEATS, number=NUMBER)  # type: ignore[arg-type]
    return min(times) / NUMBER * 1e6


def main() -> None:
    derived, baseline = [], []
    for _ in range(3):  # alternating rounds: the machine's noise falls on both
        baseline.append(best_microseconds(secrets_turn))
        derived.append(best_microseconds(derived_turn))
    derived_us, baseline_us = statistics.median(derived), statistics.median(baseline)
    print("Verifiable dice")
    print(
        f"  a turn's dice (3 rolls): {derived_us:.1f} us derived, {baseline_us:.1f} us from "
        f"secrets: {derived_us / baseline_us:.1f}x"
    )
    key = fair_dice.game_key(SEED, "chi-square", {})
    counts = Counter(fair_dice.face(key, n // 6, 1, n % 6) for n in range(CHI_SQUARE_DICE))
    expected = CHI_SQUARE_DICE / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    shares = " ".join(f"{face}:{counts[face] / CHI_SQUARE_DICE:.4f}" for face in range(1, 7))
    print(
        f"  {CHI_SQUARE_DICE:,} derived dice: chi-square {chi_square:.2f} (5 d.f.; 5% tail 11.07, "
        f"0.1% tail 20.52); shares {shares}"
    )


if __name__ == "__main__":
    main()
