"""The time-out auto-move (rules.md 4 and 8): the best legal cell, obligations first."""

from conftest import cell, cell_name, error_code, make_game, play_turn, prefill


def test_auto_move_picks_max_scoring_cell():
    # given a free column and four sixes
    game = make_game(columns=("free",))
    game.start_turn((6, 6, 6, 6, 2))
    # when
    move = game.auto_move()
    # then
    assert (cell_name(game, move.column, move.row), move.score, move.announces) == (
        ("free", "four_of_a_kind"),
        64,
        False,
    )


def test_auto_move_score_is_maximum_of_legal_cells():
    # given a free column and a straight on roll 1
    game = make_game(columns=("free",))
    game.start_turn((2, 3, 4, 5, 6))
    # when
    move = game.auto_move()
    # then
    assert move.score == max(s for _, _, s in game.legal_cells()) == 66
    assert cell_name(game, move.column, move.row) == ("free", "straight")


def test_auto_move_never_zero_when_more_possible():
    # given only yamb, ones and twos open; dice score only in twos
    game = make_game(columns=("free",))
    prefill(
        game, 0, "free", [r for r in game.layout.grid.row_ids if r not in {"ones", "twos", "yamb"}]
    )
    game.start_turn((2, 3, 4, 5, 6))
    # when
    move = game.auto_move()
    # then
    assert (cell_name(game, move.column, move.row), move.score) == (("free", "twos"), 2)


def test_auto_move_takes_first_cell_on_ties_when_all_zero():
    # given down with only Yamb left and a fresh up column (Yamb first), dice that make nothing
    game = make_game(columns=("down", "up"))
    prefill(game, 0, "down", [r for r in game.layout.grid.row_ids if r != "yamb"])
    game.start_turn((1, 2, 3, 4, 6))
    # when
    move = game.auto_move()
    # then
    assert (cell_name(game, move.column, move.row), move.score) == (("down", "yamb"), 0)


def test_auto_move_obeys_announcement():
    # given Yamb announced, and dice far better elsewhere
    game = make_game(columns=("free", "announced"))
    game.start_turn((1, 2, 3, 4, 5))
    game.announce(*cell(game, "announced", "yamb"))
    # when
    move = game.auto_move()
    # then
    assert (cell_name(game, move.column, move.row), move.score, move.announces) == (
        ("announced", "yamb"),
        0,
        False,
    )


def test_auto_move_announces_when_only_announced_cells_left():
    # given only announced cells, nothing announced, roll 1
    game = make_game(columns=("announced",))
    game.start_turn((3, 3, 3, 3, 1))
    # when
    move = game.auto_move()
    result = game.play_auto_move()
    # then
    assert (cell_name(game, move.column, move.row), move.score, move.announces) == (
        ("announced", "four_of_a_kind"),
        52,
        True,
    )
    assert (result.column, result.row, result.score) == (0, 11, 52)


def test_auto_move_obeys_direction():
    # given seat 1 directed to directed/ones, with a straight rolled
    game = make_game(columns=("free", "announced", "directed"), players=2)
    play_turn(game, (1, 2, 2, 3, 3), "announced", "ones")
    game.start_turn((2, 3, 4, 5, 6))
    # when
    move = game.auto_move()
    # then
    assert (cell_name(game, move.column, move.row), move.score) == (("directed", "ones"), 0)


def test_auto_move_play_writes_the_cell():
    # given a free column and five sixes
    game = make_game(columns=("free",), players=2)
    game.start_turn((6, 6, 6, 6, 6))
    # when
    result = game.play_auto_move()
    # then
    assert (result.seat, result.row, result.score) == (0, 12, 80)
    assert game.sheets[0].values[0][12] == 80
    assert (game.seat, game.roll) == (1, 0)


def test_auto_move_without_turn_refused():
    # given a turn not started
    game = make_game(columns=("free",))
    # when
    code = error_code(game.auto_move)
    # then
    assert code == "turn_not_started"
