"""Where dice come from: `secrets` in play, a seeded generator in tests and benchmarks."""

import random
import secrets
from collections.abc import Sequence
from functools import cache
from itertools import product
from typing import Protocol


@cache
def _outcomes(count: int) -> tuple[tuple[int, ...], ...]:
    """Every ordered outcome of `count` dice: one draw below 6**count picks a whole roll."""
    return tuple(product(range(1, 7), repeat=count))


class DiceSource(Protocol):
    def faces(self, count: int) -> Sequence[int]:
        """`count` independent, uniform faces from 1 to 6."""
        ...


class SecureDice:
    """Unpredictable dice for live games."""

    def faces(self, count: int) -> tuple[int, ...]:
        return _outcomes(count)[secrets.randbelow(6**count)]


class SeededDice:
    """Repeatable dice: the same seed gives the same rolls."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def faces(self, count: int) -> tuple[int, ...]:
        return _outcomes(count)[self._random.randrange(6**count)]


def roll_all(source: DiceSource, count: int) -> tuple[int, ...]:
    return tuple(source.faces(count))


def roll_unlocked(
    source: DiceSource, dice: Sequence[int], locked: Sequence[int]
) -> tuple[int, ...]:
    """Rerolls the dice whose positions are not in `locked`; locked dice keep their faces."""
    if any(not 0 <= position < len(dice) for position in locked):
        raise ValueError(f"locked positions must be from 0 to {len(dice) - 1}")
    keep = set(locked)
    fresh = iter(source.faces(len(dice) - len(keep)))
    return tuple(face if i in keep else next(fresh) for i, face in enumerate(dice))
