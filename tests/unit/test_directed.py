"""The Directed column (rules.md 4): who directs whom, lapsed directions, free directed cells."""

from conftest import cell, error_code, legal, make_game, play_turn, prefill, prefill_all_but

COLUMNS = ("free", "announced", "directed")
ROWS = ("ones", "twos", "threes")
DICE = (1, 1, 2, 3, 4)


def _game(players: int):
    return make_game(columns=COLUMNS, players=players)


def test_directed_solo_own_announced_write_opens_own_directed_row():
    # given a solo game
    game = _game(1)
    # when
    result = play_turn(game, DICE, "announced", "twos")
    game.start_turn(DICE)
    # then
    assert result.directs == (0, game.layout.row_index("twos"))
    assert legal(game) == {("directed", "twos")}


def test_directed_solo_announcement_then_write_directs():
    # given a solo game with Yamb announced after roll 1
    game = _game(1)
    game.start_turn(DICE)
    game.announce(*cell(game, "announced", "yamb"))
    game.reroll((1, 1, 1, 1, 1))
    # when
    result = game.write(*cell(game, "announced", "yamb"))
    game.start_turn((1, 1, 1, 1, 1))
    # then
    assert (result.score, result.directs) == (55, (0, 12))
    assert legal(game) == {("directed", "yamb")}


def test_directed_other_cells_refused_while_directed():
    # given a solo player directed to directed/twos
    game = _game(1)
    play_turn(game, DICE, "announced", "twos")
    game.start_turn(DICE)
    # when
    code = error_code(game.write, *cell(game, "free", "ones"))
    # then
    assert code == "directed_elsewhere"


def test_directed_announcement_refused_while_directed():
    # given a solo player directed to directed/twos
    game = _game(1)
    play_turn(game, DICE, "announced", "twos")
    game.start_turn(DICE)
    # when
    code = error_code(game.announce, *cell(game, "announced", "yamb"))
    # then
    assert code == "directed_elsewhere"
    assert game.announcement is None


def test_directed_two_players_opponent_directs():
    # given two players
    game = _game(2)
    # when
    result = play_turn(game, DICE, "announced", "max")
    game.start_turn(DICE)
    # then
    assert result.directs == (1, game.layout.row_index("max"))
    assert legal(game) == {("directed", "max")}


def test_directed_two_players_direction_released_after_write():
    # given seat 1 directed to max, which it writes
    game = _game(2)
    play_turn(game, DICE, "announced", "max")
    play_turn(game, DICE, "directed", "max")
    # when
    play_turn(game, DICE, "free", "ones")
    game.start_turn(DICE)
    # then
    assert game.seat == 1
    assert legal(game) == {(c, r) for c in ("free", "announced") for r in game.layout.grid.row_ids}


def test_directed_two_players_free_write_directs_nobody():
    # given two players
    game = _game(2)
    # when
    result = play_turn(game, DICE, "free", "max")
    game.start_turn(DICE)
    # then
    assert result.directs is None
    assert game.obligations == [None, None]
    assert not any(column == "directed" for column, _ in legal(game))


def test_directed_late_announced_write_directs_nobody():
    # given two players with announced, late announced and directed
    game = make_game(columns=("announced", "directed", "late_announced"), players=2)
    # when
    result = play_turn(game, DICE, "late_announced", "ones")
    # then
    assert result.directs is None
    assert game.obligations == [None, None]


def test_directed_four_players_previous_seat_directs_next_seat():
    # given four players; seat 0 plays free
    game = _game(4)
    play_turn(game, DICE, "free", "ones")
    # when seat 1 writes announced/fours
    result = play_turn(game, DICE, "announced", "fours")
    game.start_turn(DICE)
    # then seat 2, and only seat 2, is directed
    assert result.directs == (2, game.layout.row_index("fours"))
    assert game.obligations == [None, None, 3, None]
    assert (game.seat, legal(game)) == (2, {("directed", "fours")})


def test_directed_four_players_further_seats_unaffected():
    # given seat 1 directed seat 2, who wrote its directed cell
    game = _game(4)
    play_turn(game, DICE, "free", "ones")
    play_turn(game, DICE, "announced", "fours")
    play_turn(game, DICE, "directed", "fours")
    # when
    game.start_turn(DICE)
    # then seat 3 may write anything but its unopened directed cells
    assert game.seat == 3
    assert legal(game) == {(c, r) for c in ("free", "announced") for r in game.layout.grid.row_ids}


def test_directed_four_players_last_seat_directs_first():
    # given four players; seats 0 to 2 play free
    game = _game(4)
    for _ in range(3):
        play_turn(game, DICE, "free", "ones")
    # when
    result = play_turn(game, DICE, "announced", "sixes")
    game.start_turn(DICE)
    # then
    assert result.directs == (0, game.layout.row_index("sixes"))
    assert (game.seat, legal(game)) == (0, {("directed", "sixes")})


def test_directed_direction_to_written_cell_lapses():
    # given seat 1's directed/max already written
    game = _game(2)
    prefill(game, 1, "directed", ["max"], value=20)
    # when
    result = play_turn(game, DICE, "announced", "max")
    game.start_turn(DICE)
    # then
    assert result.directs is None
    assert game.obligations == [None, None]
    assert ("free", "ones") in legal(game)


def test_directed_free_once_director_announced_column_full():
    # given seat 0's announced column full
    game = _game(2)
    prefill(game, 0, "announced")
    play_turn(game, DICE, "free", "ones")
    # when
    game.start_turn(DICE)
    # then every empty directed cell of seat 1 is legal
    cells = legal(game)
    assert {("directed", r) for r in game.layout.grid.row_ids} <= cells
    assert len(cells) == 39


def test_directed_free_once_director_left():
    # given three players; seat 0 leaves at its turn
    game = _game(3)
    game.leave(0)
    # when
    game.start_turn(DICE)
    # then seat 1 (directed by seat 0) may write its directed cells
    assert game.seat == 1
    assert ("directed", "yamb") in legal(game)
    assert len(legal(game)) == 39


def test_directed_not_free_when_another_seat_left():
    # given three players; seat 0 leaves, seat 1 plays
    game = _game(3)
    game.leave(0)
    play_turn(game, DICE, "free", "ones")
    # when
    game.start_turn(DICE)
    # then seat 2 (directed by seat 1, present) may not write directed cells
    assert game.seat == 2
    assert not any(column == "directed" for column, _ in legal(game))


def test_directed_only_unopened_directed_cells_left_are_free():
    # given seat 1 with only three unopened directed cells empty; seat 0 still announcing
    game = _game(2)
    prefill_all_but(game, 1, [("directed", r) for r in ROWS])
    play_turn(game, DICE, "free", "ones")
    # when
    game.start_turn(DICE)
    # then
    assert game.seat == 1
    assert legal(game) == {("directed", r) for r in ROWS}


def test_directed_auto_move_obeys_direction():
    # given seat 1 directed to directed/yamb, with dice far better elsewhere
    game = _game(2)
    play_turn(game, DICE, "announced", "yamb")
    game.start_turn((1, 2, 3, 4, 5))
    # when
    move = game.auto_move()
    result = game.play_auto_move()
    # then
    assert (move.column, move.row, move.score, move.announces) == (2, 12, 0, False)
    assert (result.seat, result.column, result.row, result.score) == (1, 2, 12, 0)
