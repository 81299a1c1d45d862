"""Dice sources (rules.md 1): repeatable seeded dice, secure dice, and rerolling unlocked dice."""

import pytest
from yamb.dice import SecureDice, SeededDice, roll_all, roll_unlocked


class FixedDice:
    """A dice source that hands out the given faces in order."""

    def __init__(self, faces):
        self._faces = list(faces)

    def faces(self, count):
        taken, self._faces = self._faces[:count], self._faces[count:]
        return tuple(taken)


def test_seeded_dice_same_seed_same_rolls():
    # given two sources with the same seed
    first, second = SeededDice("table-7"), SeededDice("table-7")
    # when
    rolls_first = [first.faces(5) for _ in range(20)]
    rolls_second = [second.faces(5) for _ in range(20)]
    # then
    assert rolls_first == rolls_second


def test_seeded_dice_different_seeds_differ():
    # given two sources with different seeds
    first, second = SeededDice(1), SeededDice(2)
    # when
    rolls_first = [first.faces(5) for _ in range(20)]
    rolls_second = [second.faces(5) for _ in range(20)]
    # then
    assert rolls_first != rolls_second


@pytest.mark.parametrize("count", [1, 5, 6])
def test_seeded_dice_faces_in_range(count):
    # given a seeded source
    source = SeededDice(42)
    # when
    rolls = [source.faces(count) for _ in range(200)]
    # then
    assert all(len(roll) == count for roll in rolls)
    assert {face for roll in rolls for face in roll} == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("count", [5, 6])
def test_secure_dice_faces_in_range(count):
    # given the secure source
    source = SecureDice()
    # when
    rolls = [source.faces(count) for _ in range(300)]
    # then
    assert all(len(roll) == count for roll in rolls)
    assert {face for roll in rolls for face in roll} == {1, 2, 3, 4, 5, 6}


def test_roll_all_takes_count_faces():
    # given a fixed source
    source = FixedDice([3, 1, 4, 1, 5, 9])
    # when
    dice = roll_all(source, 5)
    # then
    assert dice == (3, 1, 4, 1, 5)


def test_roll_unlocked_keeps_locked_positions():
    # given dice with positions 0 and 3 locked
    source = FixedDice([6, 5, 4])
    # when
    dice = roll_unlocked(source, (2, 2, 2, 3, 3), locked=[0, 3])
    # then
    assert dice == (2, 6, 5, 3, 4)


def test_roll_unlocked_all_locked_rolls_nothing():
    # given every die locked
    source = FixedDice([])
    # when
    dice = roll_unlocked(source, (1, 2, 3, 4, 5), locked=[4, 3, 2, 1, 0])
    # then
    assert dice == (1, 2, 3, 4, 5)


def test_roll_unlocked_nothing_locked_rolls_all():
    # given no die locked
    source = FixedDice([6, 6, 6, 6, 6])
    # when
    dice = roll_unlocked(source, (1, 2, 3, 4, 5), locked=[])
    # then
    assert dice == (6, 6, 6, 6, 6)


@pytest.mark.parametrize("locked", [[5], [-1], [0, 7]])
def test_roll_unlocked_bad_positions_refused(locked):
    # given a position outside the five dice
    source = FixedDice([1, 1, 1, 1, 1])
    # when / then
    with pytest.raises(ValueError, match="locked positions must be from 0 to 4"):
        roll_unlocked(source, (1, 2, 3, 4, 5), locked=locked)


def test_roll_unlocked_locks_in_any_order_and_repeated_count_once():
    # given the same locks listed in order, out of order and with repeats
    for locked in ([1, 4], [4, 1], [4, 1, 4, 1]):
        source = FixedDice([6, 5, 4])
        # when
        dice = roll_unlocked(source, (1, 2, 3, 4, 5), locked=locked)
        # then the unlocked dice take the fresh faces in position order
        assert dice == (6, 2, 5, 4, 5)


@pytest.mark.parametrize("count", [1, 2, 6])
def test_roll_unlocked_any_number_of_dice(count):
    # given `count` dice, the first one locked
    source = FixedDice([6] * count)
    # when
    dice = roll_unlocked(source, (1,) * count, locked=[0])
    # then the first keeps its face and the others are rolled
    assert dice == (1,) + (6,) * (count - 1)
