"""Box scores of every grid (rules.md 2 and 9), straight from the score tables."""

from itertools import combinations_with_replacement

import pytest
from conftest import cell, make_game, offered, prefill, score
from yamb.rules import GRIDS
from yamb.rules.scorers import ROLL_PARAMS, SCORERS

# (row, dice that score, their score, dice that do not score)
YAMB_ROWS = [
    ("ones", (1, 1, 1, 4, 5), 3, (2, 3, 4, 5, 6)),
    ("twos", (2, 2, 3, 4, 5), 4, (1, 3, 4, 5, 6)),
    ("threes", (3, 3, 3, 3, 1), 12, (1, 2, 4, 5, 6)),
    ("fours", (4, 1, 2, 3, 5), 4, (1, 2, 3, 5, 6)),
    ("fives", (5, 5, 5, 5, 5), 25, (1, 2, 3, 4, 6)),
    ("sixes", (6, 6, 1, 1, 1), 12, (1, 2, 3, 4, 5)),
    ("three_of_a_kind", (4, 4, 4, 1, 2), 32, (1, 1, 2, 2, 3)),
    ("straight", (1, 2, 3, 4, 5), 66, (1, 2, 3, 4, 6)),
    ("full_house", (2, 2, 2, 3, 3), 42, (2, 2, 3, 3, 4)),
    ("four_of_a_kind", (3, 3, 3, 3, 6), 52, (3, 3, 3, 6, 6)),
    ("yamb", (2, 2, 2, 2, 2), 60, (2, 2, 2, 2, 1)),
]

CLASSIC_ROWS = [
    ("ones", (1, 1, 2, 3, 4), 2, (2, 3, 4, 5, 6)),
    ("twos", (2, 2, 2, 3, 4), 6, (1, 3, 4, 5, 6)),
    ("threes", (3, 1, 2, 4, 5), 3, (1, 2, 4, 5, 6)),
    ("fours", (4, 4, 4, 4, 1), 16, (1, 2, 3, 5, 6)),
    ("fives", (5, 5, 1, 2, 3), 10, (1, 2, 3, 4, 6)),
    ("sixes", (6, 6, 6, 1, 2), 18, (1, 2, 3, 4, 5)),
    ("three_of_a_kind", (4, 4, 4, 1, 2), 15, (4, 4, 1, 1, 2)),
    ("four_of_a_kind", (5, 5, 5, 5, 2), 22, (5, 5, 5, 2, 2)),
    ("full_house", (3, 3, 3, 6, 6), 25, (3, 3, 6, 6, 1)),
    ("small_straight", (3, 4, 5, 6, 6), 30, (1, 2, 3, 5, 6)),
    ("large_straight", (2, 3, 4, 5, 6), 40, (1, 2, 3, 4, 6)),
    ("yahtzee", (4, 4, 4, 4, 4), 50, (4, 4, 4, 4, 3)),
]

SCANDINAVIAN_ROWS = [
    ("ones", (1, 1, 1, 2, 3), 3, (2, 3, 4, 5, 6)),
    ("twos", (2, 1, 3, 4, 5), 2, (1, 3, 4, 5, 6)),
    ("threes", (3, 3, 1, 2, 4), 6, (1, 2, 4, 5, 6)),
    ("fours", (4, 4, 4, 1, 2), 12, (1, 2, 3, 5, 6)),
    ("fives", (5, 5, 5, 5, 1), 20, (1, 2, 3, 4, 6)),
    ("sixes", (6, 6, 6, 6, 6), 30, (1, 2, 3, 4, 5)),
    ("one_pair", (2, 2, 5, 5, 1), 10, (1, 2, 3, 4, 6)),
    ("two_pairs", (6, 6, 4, 4, 1), 20, (6, 6, 1, 2, 3)),
    ("three_of_a_kind", (5, 5, 5, 1, 2), 15, (5, 5, 1, 1, 2)),
    ("four_of_a_kind", (3, 3, 3, 3, 6), 12, (3, 3, 3, 6, 6)),
    ("small_straight", (5, 4, 3, 2, 1), 15, (2, 3, 4, 5, 6)),
    ("large_straight", (6, 5, 4, 3, 2), 20, (1, 2, 3, 4, 5)),
    ("full_house", (2, 2, 2, 5, 5), 16, (2, 2, 5, 5, 1)),
    ("yatzy", (1, 1, 1, 1, 1), 50, (1, 1, 1, 1, 2)),
]

YACHT_ROWS = [
    ("ones", (1, 2, 3, 4, 1), 2, (2, 3, 4, 5, 6)),
    ("twos", (2, 2, 2, 2, 1), 8, (1, 3, 4, 5, 6)),
    ("threes", (3, 3, 3, 1, 2), 9, (1, 2, 4, 5, 6)),
    ("fours", (4, 1, 1, 1, 1), 4, (1, 2, 3, 5, 6)),
    ("fives", (5, 5, 1, 2, 3), 10, (1, 2, 3, 4, 6)),
    ("sixes", (6, 6, 6, 6, 1), 24, (1, 2, 3, 4, 5)),
    ("four_of_a_kind", (6, 6, 6, 6, 2), 26, (6, 6, 6, 2, 2)),
    ("full_house", (4, 4, 4, 1, 1), 14, (4, 4, 1, 1, 2)),
    ("small_straight", (1, 2, 3, 4, 5), 15, (2, 3, 4, 5, 6)),
    ("large_straight", (2, 3, 4, 5, 6), 30, (1, 2, 3, 4, 5)),
    ("yacht", (3, 3, 3, 3, 3), 50, (3, 3, 3, 3, 2)),
]

# Scored on roll 2, so that no servida bonus applies.
GENERALA_ROWS = [
    ("ones", (1, 1, 2, 3, 4), 2, (2, 3, 4, 5, 6)),
    ("twos", (2, 2, 2, 1, 3), 6, (1, 3, 4, 5, 6)),
    ("threes", (3, 4, 5, 6, 1), 3, (1, 2, 4, 5, 6)),
    ("fours", (4, 4, 1, 1, 1), 8, (1, 2, 3, 5, 6)),
    ("fives", (5, 5, 5, 5, 1), 20, (1, 2, 3, 4, 6)),
    ("sixes", (6, 1, 2, 3, 4), 6, (1, 2, 3, 4, 5)),
    ("straight", (1, 2, 3, 4, 5), 20, (1, 2, 3, 4, 6)),
    ("full_house", (6, 6, 6, 1, 1), 30, (6, 6, 1, 1, 2)),
    ("four_of_a_kind", (2, 2, 2, 2, 5), 40, (2, 2, 2, 5, 5)),
    ("generala", (5, 5, 5, 5, 5), 50, (5, 5, 5, 5, 4)),
]


def _cases(grid_id, rows):
    return [pytest.param(grid_id, *row, id=f"{grid_id}-{row[0]}") for row in rows]


ALL_ROWS = (
    _cases("yamb", YAMB_ROWS)
    + _cases("classic", CLASSIC_ROWS)
    + _cases("scandinavian", SCANDINAVIAN_ROWS)
    + _cases("yacht", YACHT_ROWS)
    + _cases("generala", GENERALA_ROWS)
)


@pytest.mark.parametrize(("grid_id", "row_id", "dice", "expected", "failing"), ALL_ROWS)
def test_row_score_scoring_dice(grid_id, row_id, dice, expected, failing):
    # given dice that meet the box's condition, made on roll 2 (no first-roll bonus)
    # when
    result = score(grid_id, dice, row_id, roll=2 if grid_id == "generala" else 1)
    # then
    assert result == expected


@pytest.mark.parametrize(("grid_id", "row_id", "dice", "expected", "failing"), ALL_ROWS)
def test_row_score_failing_dice_score_zero(grid_id, row_id, dice, expected, failing):
    # given dice that do not meet the box's condition
    # when
    result = score(grid_id, failing, row_id, roll=2)
    # then
    assert result == 0


@pytest.mark.parametrize(
    ("grid_id", "row_id", "dice", "expected"),
    [
        ("yamb", "max", (6, 5, 4, 3, 1), 19),
        ("yamb", "min", (1, 1, 2, 2, 3), 9),
        ("classic", "chance", (1, 3, 3, 5, 6), 18),
        ("scandinavian", "chance", (6, 6, 5, 4, 1), 22),
        ("yacht", "choice", (2, 2, 2, 3, 6), 15),
    ],
)
def test_row_score_sum_boxes_add_all_dice(grid_id, row_id, dice, expected):
    # given any dice: these boxes have no condition
    # when
    result = score(grid_id, dice, row_id)
    # then
    assert result == expected


YAMB_MAXIMA = [
    ("ones", (1, 1, 1, 1, 1), 5),
    ("twos", (2, 2, 2, 2, 2), 10),
    ("threes", (3, 3, 3, 3, 3), 15),
    ("fours", (4, 4, 4, 4, 4), 20),
    ("fives", (5, 5, 5, 5, 5), 25),
    ("sixes", (6, 6, 6, 6, 6), 30),
    ("max", (6, 6, 6, 6, 6), 30),
    ("min", (1, 1, 1, 1, 1), 5),
    ("three_of_a_kind", (6, 6, 6, 6, 6), 38),
    ("straight", (2, 3, 4, 5, 6), 66),
    ("full_house", (6, 6, 6, 5, 5), 58),
    ("four_of_a_kind", (6, 6, 6, 6, 6), 64),
    ("yamb", (6, 6, 6, 6, 6), 80),
]


@pytest.mark.parametrize(("row_id", "dice", "expected"), YAMB_MAXIMA)
def test_yamb_row_maximum_value(row_id, dice, expected):
    # given the best dice for the row, on roll 1
    # when
    result = score("yamb", dice, row_id)
    # then
    assert result == expected


@pytest.mark.parametrize(("row_id", "expected"), [(row, best) for row, _, best in YAMB_MAXIMA])
def test_yamb_row_maximum_never_exceeded(row_id, expected):
    # given every multiset of five dice on every roll
    all_dice = list(combinations_with_replacement(range(1, 7), 5))
    # when
    if row_id == "min":
        best = min(score("yamb", d, row_id, roll) for d in all_dice for roll in (1, 2, 3))
    else:
        best = max(score("yamb", d, row_id, roll) for d in all_dice for roll in (1, 2, 3))
    # then
    assert best == expected


@pytest.mark.parametrize(
    ("dice", "roll", "expected"),
    [
        ((1, 2, 3, 4, 5), 1, 66),
        ((1, 2, 3, 4, 5), 2, 56),
        ((1, 2, 3, 4, 5), 3, 46),
        ((6, 5, 4, 3, 2), 1, 66),
        ((6, 5, 4, 3, 2), 2, 56),
        ((6, 5, 4, 3, 2), 3, 46),
    ],
)
def test_yamb_kenta_depends_on_roll(dice, roll, expected):
    # given a straight
    # when
    result = score("yamb", dice, "straight", roll)
    # then
    assert result == expected


@pytest.mark.parametrize("grid_id", ["yamb", "classic", "scandinavian", "yacht", "generala"])
def test_full_house_five_alike_is_not_a_full_house(grid_id):
    # given five alike (no joker: straight from the score table)
    dice = (4, 4, 4, 4, 4)
    # when
    result = score(grid_id, dice, "full_house", roll=2)
    # then
    assert result == 0


def test_yamb_triling_best_face_counts():
    # given a triling of fives with a pair of ones (not three)
    # when
    result = score("yamb", (1, 1, 5, 5, 5), "three_of_a_kind")
    # then
    assert result == 35


def test_yamb_poker_five_alike_counts_as_four():
    # given five alike
    # when
    result = score("yamb", (2, 2, 2, 2, 2), "four_of_a_kind")
    # then
    assert result == 48


def test_scandinavian_two_pairs_sum_of_pairs():
    # given two different pairs and a single
    # when
    result = score("scandinavian", (5, 5, 3, 3, 1), "two_pairs")
    # then
    assert result == 16


def test_scandinavian_two_pairs_four_alike_is_one_pair():
    # given four alike and a single: only one paired face
    # when
    result = score("scandinavian", (6, 6, 6, 6, 1), "two_pairs")
    # then
    assert result == 0


def test_scandinavian_one_pair_highest_pair_counts():
    # given pairs of twos and sixes
    # when
    result = score("scandinavian", (2, 2, 6, 6, 4), "one_pair")
    # then
    assert result == 12


def test_classic_small_straight_accepts_large_straight():
    # given five in a row
    # when
    result = score("classic", (1, 2, 3, 4, 5), "small_straight")
    # then
    assert result == 30


def test_classic_four_of_a_kind_yahtzee_counts():
    # given five alike
    # when
    result = score("classic", (3, 3, 3, 3, 3), "four_of_a_kind")
    # then
    assert result == 15


@pytest.mark.parametrize(
    ("row_id", "dice", "roll", "expected"),
    [
        ("straight", (1, 2, 3, 4, 5), 1, 25),
        ("straight", (1, 2, 3, 4, 5), 3, 20),
        ("full_house", (2, 2, 2, 4, 4), 1, 35),
        ("full_house", (2, 2, 2, 4, 4), 2, 30),
        ("four_of_a_kind", (6, 6, 6, 6, 1), 1, 45),
        ("four_of_a_kind", (6, 6, 6, 6, 1), 3, 40),
    ],
)
def test_generala_servida_adds_five_on_roll_one(row_id, dice, roll, expected):
    # given a combination made on the given roll
    # when
    result = score("generala", dice, row_id, roll)
    # then
    assert result == expected


@pytest.mark.parametrize(("roll", "expected"), [(1, 25), (2, 20)])
def test_generala_straight_three_to_six_and_one_counts(roll, expected):
    # given the 3-4-5-6-1 straight
    # when
    result = score("generala", (3, 4, 5, 6, 1), "straight", roll)
    # then
    assert result == expected


def test_generala_generala_has_no_servida_bonus():
    # given five alike on roll 1
    # when
    result = score("generala", (2, 2, 2, 2, 2), "generala", roll=1)
    # then
    assert result == 50


def test_generala_double_generala_scores_100_when_generala_holds_50():
    # given a generala box holding 50 and five alike
    game = make_game(grid="generala")
    prefill(game, 0, "main", ["generala"], value=50)
    game.start_turn((3, 3, 3, 3, 3))
    # when
    result = game.score_of(*cell(game, "main", "double_generala"))
    # then
    assert result == 100


@pytest.mark.parametrize("generala", [0, None])
def test_generala_double_generala_scores_zero_unless_generala_holds_50(generala):
    # given a generala box crossed out (0) or still empty, and five alike
    game = make_game(grid="generala")
    if generala is not None:
        prefill(game, 0, "main", ["generala"], value=generala)
    game.start_turn((3, 3, 3, 3, 3))
    # when
    scores = offered(game)
    # then
    assert scores[("main", "double_generala")] == 0
    assert game.score_of(*cell(game, "main", "double_generala")) == 0


@pytest.mark.parametrize(
    ("row_id", "roll", "expected"),
    [
        ("max", 1, 20),
        ("min", 1, 15),
        ("straight", 1, 66),
        ("straight", 2, 56),
        ("ones", 1, 1),
        ("sixes", 1, 6),
    ],
)
def test_six_dice_scored_on_best_five_for_each_cell(row_id, roll, expected):
    # given six dice 1..6
    dice = (1, 2, 3, 4, 5, 6)
    # when
    result = score("yamb", dice, row_id, roll)
    # then
    assert result == expected


@pytest.mark.parametrize(
    ("dice", "row_id", "expected"),
    [
        ((6, 6, 6, 6, 6, 6), "sixes", 30),
        ((6, 6, 6, 6, 6, 6), "yamb", 80),
        ((6, 6, 6, 6, 6, 6), "full_house", 0),
        ((6, 6, 6, 6, 5, 5), "full_house", 58),
        ((1, 1, 1, 1, 1, 6), "max", 10),
        ((1, 6, 6, 6, 6, 6), "min", 25),
        ((2, 2, 2, 5, 5, 5), "three_of_a_kind", 35),
    ],
)
def test_six_dice_best_five_combinations(dice, row_id, expected):
    # given six dice
    # when
    result = score("yamb", dice, row_id)
    # then
    assert result == expected


def test_six_dice_game_offers_best_five_scores():
    # given a six-dice game rolling 1..6 on roll 1
    game = make_game(columns=("free",), dice_count=6)
    game.start_turn((6, 5, 4, 3, 2, 1))
    # when
    scores = offered(game)
    # then
    assert (scores[("free", "max")], scores[("free", "min")], scores[("free", "straight")]) == (
        20,
        15,
        66,
    )


def test_a_box_without_roll_parameters_scores_the_same_on_every_roll():
    # given every box of every grid whose parameters do not involve the roll (the score tables
    # score those once for all three rolls)
    for grid in GRIDS.values():
        for row in grid.rows:
            if not ROLL_PARAMS.isdisjoint(row.params):
                continue
            scorer = SCORERS[row.scorer]
            for dice in combinations_with_replacement(range(1, 7), 5):
                # when scored on each roll; then the scores agree
                scores = {scorer(dice, roll, **row.params) for roll in (1, 2, 3)}
                assert len(scores) == 1, (grid.id, row.id, dice)
