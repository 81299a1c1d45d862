"""The benchmark's naive reference (bench/naive_reference.py) agrees with the engine.

It is the baseline that `make bench` divides the engine's speed by, so it must play the same
game: the same legal cells in the same order with the same scores, the same rerolls, the same
totals. Random states come from random legal play, announcements and directions included.
"""

import importlib.util
import random
import sys
from itertools import combinations_with_replacement
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from yamb.dice import SeededDice, roll_all, roll_unlocked
from yamb.game import Game
from yamb.layout import layout_for
from yamb.rules import COLUMN_TYPES, GRIDS, PRESETS, row_scores

BENCH = Path(__file__).resolve().parents[2] / "bench"
PLAYER_NAMES = ("ana", "ben", "cleo", "dan")


def load_reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("naive_reference", BENCH / "naive_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("naive_reference", module)
    spec.loader.exec_module(module)
    return module


naive = load_reference()

column_sets = st.one_of(
    st.sampled_from(list(PRESETS.values())),
    st.tuples(st.permutations(list(COLUMN_TYPES)), st.integers(1, len(COLUMN_TYPES))).map(
        lambda drawn: tuple(drawn[0][: drawn[1]])
    ),
)


def test_naive_scores_are_the_engines_for_every_multiset_and_roll() -> None:
    # Given every multiset of five and of six dice, on each roll
    grid = GRIDS["yamb"]
    for count in (5, 6):
        for dice in combinations_with_replacement(range(1, 7), count):
            for roll in (1, 2, 3):
                # When both score every row, then they agree
                expected = row_scores(grid, dice, roll)
                assert [naive.score(r, dice, roll) for r in range(13)] == list(expected)


def assert_same_turn(game: Game, reference: Any) -> None:
    assert reference.seat == game.seat
    assert reference.roll == game.roll
    assert reference.finished == game.finished
    assert reference.legal_cells() == game.legal_cells()
    assert reference.can_reroll() == game.can_reroll()


@settings(max_examples=30, deadline=None)
@given(
    columns=column_sets,
    dice_count=st.sampled_from((5, 6)),
    players=st.sampled_from((1, 2, 4)),
    seed=st.integers(0, 2**32 - 1),
)
def test_naive_reference_plays_the_same_random_game(
    columns: tuple[str, ...], dice_count: int, players: int, seed: int
) -> None:
    # Given the engine and the naive reference on the same sheet, fed the same dice and moves
    names = PLAYER_NAMES[:players]
    game = Game(layout_for("yamb", columns, dice_count), names)
    reference = naive.NaiveGame(columns, dice_count, names)
    dice, choices = SeededDice(seed), random.Random(seed)
    announced_types = {"announced": 1, "late_announced": 2}

    # When a whole game is played at random, announcements and rerolls included
    while not game.finished:
        rolled = roll_all(dice, dice_count)
        game.start_turn(rolled)
        reference.start_turn(rolled)
        while True:
            # Then after every roll both offer the same cells, scores and reroll
            assert_same_turn(game, reference)
            announceable = [
                (c, r)
                for c, r, _ in game.legal_cells()
                if game.announcement is None and game.roll <= announced_types.get(columns[c], 0)
            ]
            if announceable and choices.random() < 0.3:
                column, row = choices.choice(announceable)
                game.announce(column, row)
                reference.announce(column, row)
                assert_same_turn(game, reference)
            if not (game.can_reroll() and choices.random() < 0.5):
                break
            locked = [i for i in range(dice_count) if choices.random() < 0.5]
            rolled = roll_unlocked(dice, game.dice, locked)
            game.reroll(rolled)
            reference.reroll(rolled)
        column, row, value = choices.choice(game.legal_cells())
        assert reference.write(column, row) == game.write(column, row).score == value
        assert reference.obligations == game.obligations

    # and both end with the same sheets and totals
    assert reference.finished
    assert reference.legal_cells() == game.legal_cells() == []
    for seat, sheet in enumerate(game.sheets):
        assert reference.sheets[seat] == sheet.values
        for column in range(len(columns)):
            assert reference.column_total(seat, column) == sheet.column_totals(column).total
        assert reference.total(seat) == sheet.total()
