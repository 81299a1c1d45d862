"""Classic Yahtzee bonus and forced joker (rules.md 9)."""

import pytest
from conftest import cell, error_code, make_game, offered, prefill

FIVES = (5, 5, 5, 5, 5)
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
)


def _classic(yahtzee: int | None, filled=(), dice=FIVES):
    """A classic game at roll 1 with the Yahtzee box holding `yahtzee` (None: empty) and the
    `filled` boxes crossed out."""
    game = make_game(grid="classic")
    if yahtzee is not None:
        prefill(game, 0, "main", ["yahtzee"], value=yahtzee)
    prefill(game, 0, "main", filled)
    game.start_turn(dice)
    return game


def _offered(game) -> dict[str, int]:
    """The legal boxes of the single column: {row id: score}."""
    return {row: s for (_, row), s in offered(game).items()}


def test_joker_yahtzee_bonus_when_yahtzee_holds_50():
    # given the Yahtzee box holding 50 and five fives
    game = _classic(yahtzee=50)
    # when
    result = game.write(*cell(game, "main", "fives"))
    # then
    totals = game.sheets[0].column_totals(0)
    assert (result.score, result.extra) == (25, 100)
    assert (totals.extra, totals.total) == (100, 175)


def test_joker_no_bonus_when_yahtzee_crossed_out():
    # given the Yahtzee box crossed out and five fives
    game = _classic(yahtzee=0)
    # when
    result = game.write(*cell(game, "main", "fives"))
    # then
    totals = game.sheets[0].column_totals(0)
    assert (result.score, result.extra) == (25, 0)
    assert (totals.extra, totals.total) == (0, 25)


def test_joker_bonus_accumulates_per_yahtzee():
    # given the Yahtzee box holding 50
    game = _classic(yahtzee=50)
    game.write(*cell(game, "main", "fives"))
    game.start_turn((2, 2, 2, 2, 2))
    # when
    result = game.write(*cell(game, "main", "twos"))
    # then
    assert result.extra == 100
    assert game.sheets[0].column_totals(0).extra == 200


def test_joker_no_joker_while_yahtzee_empty():
    # given an empty Yahtzee box and five fives
    game = _classic(yahtzee=None)
    # when
    offered = _offered(game)
    # then ordinary scoring: every box, full house not made
    assert len(offered) == 13
    assert (offered["yahtzee"], offered["full_house"], offered["fives"]) == (50, 0, 25)


@pytest.mark.parametrize("yahtzee", [50, 0])
def test_joker_face_upper_box_is_the_only_legal_cell(yahtzee):
    # given the Yahtzee box filled and the Fives box open
    game = _classic(yahtzee=yahtzee)
    # when
    offered = _offered(game)
    # then
    assert offered == {"fives": 25}


def test_joker_other_cell_refused_while_face_box_open():
    # given the Yahtzee box filled and the Fives box open
    game = _classic(yahtzee=50)
    # when
    code = error_code(game.write, *cell(game, "main", "chance"))
    # then
    assert code == "joker_rule"


@pytest.mark.parametrize("yahtzee", [50, 0])
def test_joker_lower_boxes_at_full_value_when_face_box_closed(yahtzee):
    # given the Yahtzee and Fives boxes filled
    game = _classic(yahtzee=yahtzee, filled=["fives"])
    # when
    offered = _offered(game)
    # then
    assert offered == {
        "three_of_a_kind": 25,
        "four_of_a_kind": 25,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 25,
    }


def test_joker_large_straight_written_at_40():
    # given the Yahtzee box holding 50 and Fives filled
    game = _classic(yahtzee=50, filled=["fives"])
    # when
    result = game.write(*cell(game, "main", "large_straight"))
    # then
    assert (result.score, result.extra) == (40, 100)
    assert game.sheets[0].column_totals(0).total == 50 + 40 + 100


def test_joker_only_open_lower_boxes_offered():
    # given Fives and some lower boxes filled
    game = _classic(yahtzee=50, filled=["fives", "full_house", "chance", "small_straight"])
    # when
    offered = _offered(game)
    # then
    assert offered == {"three_of_a_kind": 25, "four_of_a_kind": 25, "large_straight": 40}


def test_joker_upper_boxes_for_zero_when_lower_boxes_closed():
    # given Fives and every lower box filled
    game = _classic(yahtzee=50, filled=["fives", *LOWER])
    # when
    offered = _offered(game)
    # then
    assert offered == {row: 0 for row in UPPER if row != "fives"}


def test_joker_upper_box_for_zero_still_earns_bonus():
    # given Fives and every lower box filled, the Yahtzee box holding 50
    game = _classic(yahtzee=50, filled=["fives", *LOWER])
    # when
    result = game.write(*cell(game, "main", "sixes"))
    # then
    assert (result.score, result.extra) == (0, 100)
