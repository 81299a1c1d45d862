"""Column and game totals (rules.md 2 and 9): upper part and bonus, middle part, lower part."""

import pytest
from conftest import make_game, prefill_values

# Upper values summing to 59, 60, 62 and 63.
UPPER_59 = {"ones": 4, "twos": 6, "threes": 9, "fours": 12, "fives": 10, "sixes": 18}
UPPER_60 = {**UPPER_59, "ones": 5}
UPPER_62 = {**UPPER_59, "threes": 12}
UPPER_63 = {**UPPER_62, "ones": 5}


def _totals(grid: str, values: dict[str, int]):
    """The totals of a one-column sheet holding `values`."""
    game = make_game(columns=("free",), grid=grid)
    prefill_values(game, 0, game.layout.columns[0].id, values)
    return game.sheets[0].column_totals(0)


@pytest.mark.parametrize(
    ("grid", "values", "upper", "bonus"),
    [
        ("yamb", UPPER_59, 59, 0),
        ("yamb", UPPER_60, 60, 30),
        ("classic", UPPER_62, 62, 0),
        ("classic", UPPER_63, 63, 35),
        ("scandinavian", UPPER_62, 62, 0),
        ("scandinavian", UPPER_63, 63, 50),
        ("yacht", UPPER_62, 62, 0),
        ("yacht", UPPER_63, 63, 35),
        ("generala", UPPER_63, 63, 0),
    ],
)
def test_column_totals_upper_bonus_at_threshold(grid, values, upper, bonus):
    # given an upper part summing to just below or exactly the grid's threshold
    # when
    totals = _totals(grid, values)
    # then
    assert (totals.upper, totals.bonus, totals.total) == (upper, bonus, upper + bonus)


def test_column_totals_middle_is_max_minus_min_times_ones():
    # given Max 28, Min 8 and Ones 3 written
    # when
    totals = _totals("yamb", {"max": 28, "min": 8, "ones": 3})
    # then
    assert (totals.upper, totals.middle, totals.total) == (3, 60, 63)


@pytest.mark.parametrize(
    "values",
    [
        {"max": 28, "min": 8},
        {"max": 28, "ones": 3},
        {"min": 8, "ones": 3},
        {},
    ],
)
def test_column_totals_middle_zero_until_all_three_written(values):
    # given only some of Max, Min and Ones written
    # when
    totals = _totals("yamb", values)
    # then
    assert totals.middle == 0


def test_column_totals_middle_may_be_negative():
    # given Max below Min
    # when
    totals = _totals("yamb", {"max": 10, "min": 20, "ones": 2})
    # then
    assert (totals.middle, totals.total) == (-20, -18)


def test_column_totals_lower_sums_rows_nine_to_thirteen():
    # given every lower row of a yamb column written
    values = {
        "three_of_a_kind": 38,
        "straight": 56,
        "full_house": 0,
        "four_of_a_kind": 52,
        "yamb": 60,
    }
    # when
    totals = _totals("yamb", values)
    # then
    assert (totals.upper, totals.middle, totals.lower, totals.total) == (0, 0, 206, 206)


def test_column_totals_max_and_min_not_in_lower():
    # given only Max and Min written
    # when
    totals = _totals("yamb", {"max": 30, "min": 5})
    # then
    assert (totals.upper, totals.lower, totals.total) == (0, 0, 0)


def test_column_totals_classic_lower_boxes():
    # given classic lower boxes
    values = {"three_of_a_kind": 20, "full_house": 25, "chance": 22, "yahtzee": 50}
    # when
    totals = _totals("classic", values)
    # then
    assert (totals.lower, totals.total) == (117, 117)


def test_column_totals_full_yamb_column():
    # given a full column: upper 60 (+30), middle (30 - 5) x 5, lower 80
    values = {**UPPER_60, "max": 30, "min": 5, "three_of_a_kind": 38, "yamb": 42}
    values |= {"straight": 0, "full_house": 0, "four_of_a_kind": 0}
    # when
    totals = _totals("yamb", values)
    # then
    assert totals.as_dict() == {
        "upper": 60,
        "bonus": 30,
        "middle": 125,
        "lower": 80,
        "extra": 0,
        "total": 295,
    }


def test_sheet_total_sums_column_totals():
    # given two columns with different totals
    game = make_game(columns=("down", "up"))
    prefill_values(game, 0, "down", {**UPPER_60, "max": 25, "min": 10})
    prefill_values(game, 0, "up", {"yamb": 80, "ones": 2})
    # when
    total = game.sheets[0].total()
    # then
    assert total == (60 + 30 + 15 * 5) + (80 + 2)
