"""The legal cells of each column type, rerolls and announcements (rules.md 1, 3 and 4)."""

import pytest
from conftest import cell, error_code, legal, make_game, play_turn, prefill
from yamb.rules import GRIDS

ROWS = GRIDS["yamb"].row_ids
DICE = (1, 2, 3, 4, 6)


def _started(columns, dice=DICE):
    game = make_game(columns=columns)
    game.start_turn(dice)
    return game


# -- order columns ---------------------------------------------------------------------------


def test_down_fresh_column_offers_ones_only():
    # given a fresh down column after roll 1
    game = _started(("down",))
    # when
    cells = legal(game)
    # then
    assert cells == {("down", "ones")}


def test_down_next_from_top_after_written_rows():
    # given ones to fives written in down
    game = make_game(columns=("down",))
    prefill(game, 0, "down", ["ones", "twos", "threes", "fours", "fives"])
    game.start_turn(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("down", "sixes")}


def test_down_out_of_order_write_refused():
    # given a fresh down column
    game = _started(("down",))
    # when
    code = error_code(game.write, *cell(game, "down", "twos"))
    # then
    assert code == "column_order"
    assert game.sheets[0].values[0] == [None] * 13


def test_down_written_in_order_through_the_column():
    # given a fresh down column
    game = make_game(columns=("down",))
    # when
    written = [play_turn(game, DICE, "down", row).row for row in ROWS]
    # then
    assert written == list(range(13))
    assert game.finished is True


def test_up_fresh_column_offers_yamb_only():
    # given a fresh up column after roll 1
    game = _started(("up",))
    # when
    cells = legal(game)
    # then
    assert cells == {("up", "yamb")}


def test_up_next_from_bottom_after_written_rows():
    # given yamb and poker written in up
    game = make_game(columns=("up",))
    prefill(game, 0, "up", ["yamb", "four_of_a_kind"])
    game.start_turn(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("up", "full_house")}


def test_free_fresh_column_offers_every_row():
    # given a fresh free column
    game = _started(("free",))
    # when
    cells = legal(game)
    # then
    assert cells == {("free", row) for row in ROWS}


def test_free_offers_every_empty_row():
    # given some rows of free written
    game = make_game(columns=("free",))
    prefill(game, 0, "free", ["ones", "max", "yamb"])
    game.start_turn(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("free", row) for row in ROWS if row not in {"ones", "max", "yamb"}}


def test_from_middle_fresh_column_offers_both_chain_heads():
    # given a fresh from-the-middle column
    game = _started(("from_middle",))
    # when
    cells = legal(game)
    # then
    assert cells == {("from_middle", "max"), ("from_middle", "min")}


def test_from_middle_chains_advance_independently():
    # given max and sixes written (the first chain advanced twice), min not yet
    game = make_game(columns=("from_middle",))
    prefill(game, 0, "from_middle", ["max", "sixes"])
    game.start_turn(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("from_middle", "fives"), ("from_middle", "min")}


def test_from_middle_both_chains_advance_after_each_head():
    # given a fresh from-the-middle column
    game = make_game(columns=("from_middle",))
    # when
    play_turn(game, DICE, "from_middle", "min")
    play_turn(game, DICE, "from_middle", "max")
    game.start_turn(DICE)
    # then
    assert legal(game) == {("from_middle", "sixes"), ("from_middle", "three_of_a_kind")}


def test_to_middle_fresh_column_offers_ones_and_yamb():
    # given a fresh to-the-middle column
    game = _started(("to_middle",))
    # when
    cells = legal(game)
    # then
    assert cells == {("to_middle", "ones"), ("to_middle", "yamb")}


def test_to_middle_chains_end_at_max_and_min():
    # given every cell written except Max and Min
    game = make_game(columns=("to_middle",))
    prefill(game, 0, "to_middle", [r for r in ROWS if r not in {"max", "min"}])
    game.start_turn(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("to_middle", "max"), ("to_middle", "min")}


def test_to_middle_both_chains_advance():
    # given ones and yamb written
    game = make_game(columns=("to_middle",))
    play_turn(game, DICE, "to_middle", "yamb")
    play_turn(game, DICE, "to_middle", "ones")
    game.start_turn(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("to_middle", "twos"), ("to_middle", "four_of_a_kind")}


# -- condition columns -----------------------------------------------------------------------


def test_manual_every_row_legal_after_roll_one():
    # given a fresh manual column after roll 1
    game = _started(("manual",))
    # when
    cells = legal(game)
    # then
    assert cells == {("manual", row) for row in ROWS}


def test_manual_not_legal_after_roll_two():
    # given manual and free columns, rerolled once
    game = _started(("manual", "free"))
    game.reroll((1, 2, 3, 4, 5))
    # when
    cells = legal(game)
    # then
    assert cells == {("free", row) for row in ROWS}
    assert error_code(game.write, *cell(game, "manual", "straight")) == "manual_rule"


def test_manual_kenta_on_roll_one_scores_66():
    # given a straight on roll 1
    game = _started(("manual",), dice=(2, 3, 4, 5, 6))
    # when
    result = game.write(*cell(game, "manual", "straight"))
    # then
    assert result.score == 66


def test_announced_written_at_once_after_roll_one():
    # given a fresh announced column after roll 1, nothing announced
    game = _started(("announced",), dice=(5, 5, 5, 1, 2))
    # when
    result = game.write(*cell(game, "announced", "three_of_a_kind"))
    # then
    assert (result.score, game.sheets[0].values[0][8]) == (35, 35)


def test_announced_every_empty_row_legal_at_roll_one():
    # given announced and free columns after roll 1
    game = _started(("announced", "free"))
    # when
    cells = legal(game)
    # then
    assert cells == {(column, row) for column in ("announced", "free") for row in ROWS}


def test_announced_not_legal_at_roll_two_without_announcement():
    # given announced and free columns, rerolled without an announcement
    game = _started(("announced", "free"))
    game.reroll(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("free", row) for row in ROWS}
    assert game.is_legal(*cell(game, "announced", "ones")) is False
    assert error_code(game.write, *cell(game, "announced", "ones")) == "needs_announcement"


def test_announced_after_announcement_written_at_roll_three():
    # given an announcement of Yamb after roll 1, then two rerolls
    game = _started(("announced", "free"))
    game.announce(*cell(game, "announced", "yamb"))
    game.reroll((6, 6, 6, 2, 3))
    game.reroll((6, 6, 6, 6, 6))
    # when
    result = game.write(*cell(game, "announced", "yamb"))
    # then
    assert (result.score, game.roll, game.announcement) == (80, 0, None)


def test_late_announced_legal_at_roll_two_without_announcement():
    # given late announced and free columns at roll 2
    game = _started(("late_announced", "free"))
    game.reroll(DICE)
    # when
    cells = legal(game)
    # then
    assert ("late_announced", "ones") in cells
    assert len(cells) == 26


def test_late_announced_not_legal_at_roll_three_without_announcement():
    # given late announced and free columns at roll 3, nothing announced
    game = _started(("late_announced", "free"))
    game.reroll(DICE)
    game.reroll(DICE)
    # when
    cells = legal(game)
    # then
    assert cells == {("free", row) for row in ROWS}
    assert error_code(game.write, *cell(game, "late_announced", "ones")) == ("needs_announcement")


def test_late_announced_announced_after_roll_two_written_at_roll_three():
    # given late announced at roll 2
    game = _started(("late_announced", "free"))
    game.reroll((2, 2, 2, 5, 5))
    # when
    game.announce(*cell(game, "late_announced", "full_house"))
    game.reroll((2, 2, 2, 5, 1))
    # then
    assert legal(game) == {("late_announced", "full_house")}
    assert game.write(*cell(game, "late_announced", "full_house")).score == 0


def test_directed_not_legal_without_direction():
    # given a solo game with announced and directed, nothing announced yet
    game = _started(("announced", "directed"))
    # when
    cells = legal(game)
    # then
    assert cells == {("announced", row) for row in ROWS}
    assert error_code(game.write, *cell(game, "directed", "ones")) == "not_directed"


# -- rerolls ---------------------------------------------------------------------------------


def test_reroll_allowed_twice_in_free():
    # given a free column after roll 1
    game = _started(("free",))
    # when
    game.reroll((1, 1, 1, 1, 1))
    game.reroll((2, 2, 2, 2, 2))
    # then
    assert (game.roll, game.dice, game.can_reroll()) == (3, (2, 2, 2, 2, 2), False)


def test_reroll_fourth_roll_refused():
    # given a turn at roll 3
    game = _started(("free",))
    game.reroll(DICE)
    game.reroll(DICE)
    # when
    code = error_code(game.reroll, (6, 6, 6, 6, 6))
    # then
    assert code == "no_rolls_left"
    assert (game.roll, game.dice) == (3, DICE)


def test_reroll_refused_when_only_manual_cells_left():
    # given manual and free columns with free full
    game = make_game(columns=("manual", "free"))
    prefill(game, 0, "free")
    game.start_turn(DICE)
    # when
    allowed = game.can_reroll()
    code = error_code(game.reroll, (6, 6, 6, 6, 6))
    # then
    assert allowed is False
    assert code == "reroll_refused"
    assert (game.roll, game.dice) == (1, DICE)


def test_reroll_refused_when_only_announced_cells_left_unannounced():
    # given only an announced column, nothing announced
    game = _started(("announced",))
    # when
    allowed = game.can_reroll()
    code = error_code(game.reroll, (6, 6, 6, 6, 6))
    # then
    assert allowed is False
    assert code == "reroll_refused"


def test_reroll_allowed_when_only_announced_cells_left_and_announced():
    # given only an announced column, Yamb announced
    game = _started(("announced",))
    game.announce(*cell(game, "announced", "yamb"))
    # when
    allowed = game.can_reroll()
    game.reroll((6, 6, 6, 6, 6))
    # then
    assert allowed is True
    assert game.roll == 2


def test_reroll_late_announced_allowed_at_roll_one_refused_at_roll_two():
    # given only a late announced column, nothing announced
    game = _started(("late_announced",))
    # when
    at_roll_one = game.can_reroll()
    game.reroll(DICE)
    at_roll_two = game.can_reroll()
    # then
    assert (at_roll_one, at_roll_two) == (True, False)
    assert error_code(game.reroll, DICE) == "reroll_refused"


# -- announcements ---------------------------------------------------------------------------


def test_announce_only_the_announced_cell_is_legal():
    # given announced and free columns after roll 1
    game = _started(("free", "announced"))
    # when
    game.announce(*cell(game, "announced", "four_of_a_kind"))
    # then
    assert legal(game) == {("announced", "four_of_a_kind")}
    assert error_code(game.write, *cell(game, "free", "ones")) == "announced_elsewhere"


def test_announce_second_announcement_refused():
    # given an announcement made
    game = _started(("announced", "late_announced"))
    game.announce(*cell(game, "announced", "yamb"))
    # when
    code = error_code(game.announce, *cell(game, "late_announced", "ones"))
    # then
    assert code == "bad_announcement"
    assert game.announcement == cell(game, "announced", "yamb")


def test_announce_written_cell_refused():
    # given announced/yamb already written
    game = make_game(columns=("announced",))
    prefill(game, 0, "announced", ["yamb"])
    game.start_turn(DICE)
    # when
    code = error_code(game.announce, *cell(game, "announced", "yamb"))
    # then
    assert code == "cell_written"
    assert game.announcement is None


@pytest.mark.parametrize("column_id", ["down", "up", "free", "manual", "from_middle", "to_middle"])
def test_announce_non_announced_column_refused(column_id):
    # given a column that takes no announcement
    game = _started((column_id, "announced"))
    # when
    code = error_code(game.announce, *cell(game, column_id, "ones"))
    # then
    assert code == "bad_announcement"
    assert game.announcement is None


def test_announce_announced_after_roll_two_refused():
    # given an announced column at roll 2 (free keeps the reroll legal)
    game = _started(("announced", "free"))
    game.reroll(DICE)
    # when
    code = error_code(game.announce, *cell(game, "announced", "yamb"))
    # then
    assert code == "bad_announcement"


def test_announce_late_announced_after_roll_two_allowed():
    # given a late announced column at roll 2
    game = _started(("late_announced", "free"))
    game.reroll(DICE)
    # when
    game.announce(*cell(game, "late_announced", "yamb"))
    # then
    assert game.announcement == cell(game, "late_announced", "yamb")
    assert game.can_reroll() is True


def test_announce_late_announced_after_roll_one_written_at_roll_three():
    # given a late announced column with Poker announced after roll 1
    game = _started(("late_announced", "free"))
    game.announce(*cell(game, "late_announced", "four_of_a_kind"))
    game.reroll((4, 4, 4, 1, 2))
    game.reroll((4, 4, 4, 4, 2))
    # when
    result = game.write(*cell(game, "late_announced", "four_of_a_kind"))
    # then
    assert result.score == 56


def test_announce_late_announced_after_roll_three_refused():
    # given a late announced column at roll 3
    game = _started(("late_announced", "free"))
    game.reroll(DICE)
    game.reroll(DICE)
    # when
    code = error_code(game.announce, *cell(game, "late_announced", "yamb"))
    # then
    assert code == "bad_announcement"


def test_announce_before_roll_one_refused():
    # given a turn not started
    game = make_game(columns=("announced",))
    # when
    code = error_code(game.announce, *cell(game, "announced", "yamb"))
    # then
    assert code == "bad_announcement"


# -- writing ---------------------------------------------------------------------------------


def test_write_filled_cell_refused():
    # given free/max already written
    game = make_game(columns=("free",))
    prefill(game, 0, "free", ["max"], value=22)
    game.start_turn((6, 6, 6, 6, 6))
    # when
    code = error_code(game.write, *cell(game, "free", "max"))
    # then
    assert code == "cell_written"
    assert game.sheets[0].values[0][6] == 22


def test_write_before_roll_one_refused():
    # given a turn not started
    game = make_game(columns=("free",))
    # when
    code = error_code(game.write, *cell(game, "free", "max"))
    # then
    assert code == "turn_not_started"


def test_write_crossed_out_cell_scores_zero():
    # given dice that make no yamb
    game = _started(("free",), dice=(1, 2, 3, 4, 6))
    # when
    result = game.write(*cell(game, "free", "yamb"))
    # then
    assert (result.score, game.sheets[0].values[0][12]) == (0, 0)


def test_write_ends_turn_and_passes_to_next_seat():
    # given two players
    game = make_game(columns=("free",), players=2)
    # when
    result = play_turn(game, (6, 6, 6, 6, 6), "free", "sixes")
    # then
    assert (result.seat, result.score, result.game_over) == (0, 30, False)
    assert (game.seat, game.roll, game.dice) == (1, 0, ())
