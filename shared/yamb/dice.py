"""Where dice come from: `secrets` in play, a seeded generator in tests and benchmarks."""

import random
import secrets
from collections.abc import Callable, Sequence
from itertools import product
from operator import itemgetter
from typing import Protocol

_OUTCOMES: dict[int, tuple[tuple[int, ...], ...]] = {}
# Per count: every outcome, how many, and the bits of a draw below that.
_DRAWS: dict[int, tuple[tuple[tuple[int, ...], ...], int, int]] = {}


def _draws(count: int) -> tuple[tuple[tuple[int, ...], ...], int, int]:
    outcomes = _outcomes(count)
    draws = _DRAWS[count] = (outcomes, len(outcomes), len(outcomes).bit_length())
    return draws


def _outcomes(count: int) -> tuple[tuple[int, ...], ...]:
    """Every ordered outcome of `count` dice: one draw below 6**count picks a whole roll."""
    outcomes = _OUTCOMES.get(count)
    if outcomes is None:
        outcomes = _OUTCOMES[count] = tuple(product(range(1, 7), repeat=count))
    return outcomes


class DiceSource(Protocol):
    def faces(self, count: int) -> Sequence[int]:
        """`count` independent, uniform faces from 1 to 6."""
        ...

    def seed(self) -> str:
        """A new secret seed (32 bytes, hex) for a game's verifiable dice (yamb.fair_dice)."""
        ...


class SecureDice:
    """Unpredictable dice for live games."""

    def faces(self, count: int) -> tuple[int, ...]:
        return _outcomes(count)[secrets.randbelow(6**count)]

    def seed(self) -> str:
        return secrets.token_hex(32)


class SeededDice:
    """Repeatable dice: the same seed gives the same rolls."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)
        self._bits = self._random.getrandbits

    def seed(self) -> str:
        return self._random.randbytes(32).hex()

    def faces(self, count: int) -> tuple[int, ...]:
        # randrange(6**count) spelled out (the same draws, so the same rolls for a seed), without
        # its argument handling: benchmarks and property tests draw hundreds of thousands.
        outcomes, size, bits = _DRAWS.get(count) or _draws(count)
        draw = self._bits(bits)
        while draw >= size:
            draw = self._bits(bits)
        return outcomes[draw]


def roll_all(source: DiceSource, count: int) -> tuple[int, ...]:
    return tuple(source.faces(count))


# Per number of dice, the locked positions (ascending, each once) -> how many dice to roll and
# how to place them: (dice + fresh faces) -> the new dice. At most 2**count entries per count.
type _Reroll = tuple[int, Callable[[tuple[int, ...]], tuple[int, ...]]]
_REROLLS: dict[int, dict[tuple[int, ...], _Reroll]] = {}


def _placer(places: list[int]) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    return lambda faces: tuple(faces[i] for i in places)


def _reroll(count: int, locked: tuple[int, ...]) -> _Reroll:
    if any(not 0 <= position < count for position in locked):
        raise ValueError(f"locked positions must be from 0 to {count - 1}")
    keep = sorted(set(locked))
    plans = _REROLLS.setdefault(count, {})
    plan = plans.get(tuple(keep))
    if plan is None:
        fresh = iter(range(count, 2 * count))
        places = [i if i in keep else next(fresh) for i in range(count)]
        # itemgetter of one index gives the item itself, not a 1-tuple.
        place = itemgetter(*places) if count >= 2 else _placer(places)
        plan = plans[tuple(keep)] = (count - len(keep), place)
    return plan


def roll_unlocked(
    source: DiceSource, dice: Sequence[int], locked: Sequence[int]
) -> tuple[int, ...]:
    """Rerolls the dice whose positions are not in `locked`; locked dice keep their faces."""
    plans = _REROLLS.get(len(dice))
    key = tuple(locked)
    plan = None if plans is None else plans.get(key)
    if plan is None:
        plan = _reroll(len(dice), key)
    fresh, place = plan
    return place(tuple(dice) + tuple(source.faces(fresh)))


def positions_of(dice: Sequence[int], faces: Sequence[int]) -> tuple[int, ...]:
    """The positions in `dice` of the faces to hold (each position once, ascending)."""
    wanted = list(faces)
    held = []
    for position, face in enumerate(dice):
        if face in wanted:
            wanted.remove(face)
            held.append(position)
    if wanted:
        raise ValueError(f"{tuple(faces)} is not within the dice {tuple(dice)}")
    return tuple(held)
