"""The bots' brains (yamb.bots): every level plays whole games through the engine, every move
legal; levels per grid and their refusals; announcements, the directed row, 6 dice."""

import json
import random
import subprocess
import sys

import pytest
from conftest import cell, make_game, prefill, prefill_all_but
from yamb.bots import (
    LEVELS,
    AnnounceMove,
    BotLevelError,
    BotMove,
    RollMove,
    WriteMove,
    check_level,
    choose,
    levels_for,
)
from yamb.dice import DiceSource, SeededDice, roll_all, roll_unlocked
from yamb.game import Game, WriteResult
from yamb.layout import layout_for
from yamb.rules import PRESETS

FAMILY = ("classic", "scandinavian", "yacht", "generala")
# Optimal needs a solved table; Scandinavian's is not committed (tested on its own below).
OPTIMAL_STORED = ("classic", "yacht", "generala")


def apply(game: Game, move: BotMove, source: DiceSource) -> WriteResult | None:
    """Applies a bot's move to the engine (which raises on an illegal one), checking the
    promises of choose() on the way."""
    if isinstance(move, RollMove):
        if not game.roll:
            assert move.keep == ()
            game.start_turn(roll_all(source, game.layout.dice_count))
        else:
            assert game.can_reroll()
            assert len(set(move.keep)) == len(move.keep) < game.layout.dice_count
            game.reroll(roll_unlocked(source, game.dice, move.keep))
        return None
    assert game.roll, "a bot writes or announces only after a roll"
    if isinstance(move, AnnounceMove):
        game.announce(move.column, move.row)
        return None
    return game.write(move.column, move.row)


def play(game: Game, levels: tuple[str, ...], seed: int) -> list[WriteResult]:
    """Plays the game to its end, seat s at levels[s]; every write's result."""
    source = SeededDice(seed)
    writes = []
    while not game.finished:
        move = choose(game, levels[game.seat])  # type: ignore[arg-type]
        result = apply(game, move, source)
        if result is not None:
            writes.append(result)
    return writes


def _yamb(preset: int, dice: int = 5, players: int = 1) -> Game:
    return make_game(columns=PRESETS[preset], players=players, dice_count=dice)


# -- the API -------------------------------------------------------------------------------


def test_bots_import_loads_neither_numpy_nor_a_table() -> None:
    # Given a fresh interpreter importing the bots' package
    script = (
        "import sys, json, yamb.bots\n"
        "print(json.dumps(['numpy' in sys.modules, 'yamb.solver' in sys.modules]))"
    )
    # When it runs
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    # Then neither numpy nor the solver was imported
    assert json.loads(out) == [False, False]


def test_levels_for_offers_optimal_only_on_the_family_grids() -> None:
    # Given every grid; when its levels are asked; then optimal is only on the family grids
    assert levels_for("yamb") == ("easy", "medium", "hard")
    for grid in FAMILY:
        assert levels_for(grid) == LEVELS == ("easy", "medium", "hard", "optimal")


def test_check_level_accepts_a_level_the_grid_offers() -> None:
    # Given levels offered by their grids; when checked; then they come back as they are
    assert check_level("hard", "yamb") == "hard"
    assert check_level("optimal", "scandinavian") == "optimal"


@pytest.mark.parametrize(
    ("level", "grid", "code"),
    [
        ("genius", "yamb", "unknown_level"),
        ("", "classic", "unknown_level"),
        ("Hard", "yamb", "unknown_level"),
        ("optimal", "yamb", "level_not_for_grid"),
    ],
)
def test_check_level_refuses_with_a_stable_code(level: str, grid: str, code: str) -> None:
    # Given a level the grid does not offer; when it is checked
    with pytest.raises(BotLevelError) as caught:
        check_level(level, grid)
    # Then the refusal names its code and the level
    assert caught.value.code == code
    assert caught.value.fields == ("level",)
    assert "bot" in caught.value.message


def test_choose_refuses_optimal_on_yamb() -> None:
    # Given a Yamb game; when the optimal level is asked for
    with pytest.raises(BotLevelError) as caught:
        choose(_yamb(1), "optimal")
    # Then it is refused as a level the grid does not offer
    assert caught.value.code == "level_not_for_grid"


def test_choose_optimal_without_a_stored_table_is_level_unavailable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    # Given no solved Scandinavian table anywhere (the cache pointed at an empty directory)
    from yamb.solver import Solver

    monkeypatch.setenv("YAMB_SOLVER_CACHE", str(tmp_path))
    monkeypatch.setattr(Solver, "_loaded", {})
    game = make_game(grid="scandinavian")
    # When the optimal bot is asked for a move
    with pytest.raises(BotLevelError) as caught:
        choose(game, "optimal")
    # Then the refusal says which command makes the table
    assert caught.value.code == "level_unavailable"
    assert "yamb solve scandinavian" in caught.value.message


@pytest.mark.parametrize("level", LEVELS)
def test_choose_at_roll_zero_asks_for_roll_one(level: str) -> None:
    # Given a Classic game whose turn has not started; when a bot chooses
    move = choose(make_game(grid="classic"), level)  # type: ignore[arg-type]
    # Then it asks for the first roll, holding nothing
    assert move == RollMove(())


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", ("easy", "medium", "hard"))
@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("dice", (5, 6))
def test_choose_plays_whole_solo_yamb_games(level: str, preset: int, dice: int) -> None:
    # Given a solo Yamb game of this preset and dice count
    game = _yamb(preset, dice)
    # When the bot plays it to the end through the engine (an illegal move would raise)
    writes = play(game, (level,), seed=preset * 10 + dice)
    # Then every cell was written, one a turn
    assert game.finished and game.sheets[0].is_full()
    assert len(writes) == game.layout.cells_per_sheet


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("grid", FAMILY)
def test_choose_plays_whole_solo_family_games(level: str, grid: str) -> None:
    if level == "optimal" and grid not in OPTIMAL_STORED:
        pytest.skip("Scandinavian's table is built by `yamb solve scandinavian`, not committed")
    # Given a solo game on a Yahtzee-family grid
    game = make_game(grid=grid)
    # When the bot plays it to the end
    writes = play(game, (level,), seed=len(grid))
    # Then the sheet is full and scores
    assert game.finished and len(writes) == game.layout.cells_per_sheet
    assert game.sheets[0].total() > 0


@pytest.mark.parametrize("levels", [("easy", "hard"), ("hard", "medium"), ("medium", "easy")])
@pytest.mark.parametrize("dice", (5, 6))
def test_choose_obeys_the_directed_row_in_two_player_games(
    levels: tuple[str, str], dice: int
) -> None:
    # Given a 2-player game with Announced and Directed columns (preset 7)
    game = _yamb(7, dice, players=2)
    # When both bots play it to the end
    writes = play(game, levels, seed=dice)
    # Then directions arose, and each directed seat's next write was its directed row
    directed = game.layout.directed_column
    directions = [(i, w.directs) for i, w in enumerate(writes) if w.directs is not None]
    assert directions
    for i, (seat, row) in directions:
        following = next(w for w in writes[i + 1 :] if w.seat == seat)
        assert (following.column, following.row) == (directed, row)
    assert all(sheet.is_full() for sheet in game.sheets)


@pytest.mark.parametrize("level", ("easy", "medium", "hard"))
def test_choose_plays_a_game_of_own_turns_for_the_focused_seat(level: str) -> None:
    # Given a 2-player game of own turns (each for themself), preset 5
    game = Game(layout_for("yamb", PRESETS[5]), ("ana", "ben"), own_turns=True)
    source = SeededDice(7)
    rng = random.Random(7)
    # When the seats' moves interleave at random, each chosen for the focused seat
    while not game.finished:
        open_seats = [s for s in range(2) if not game.sheets[s].is_full()]
        game.focus(rng.choice(open_seats))
        apply(game, choose(game, level), source)  # type: ignore[arg-type]
    # Then both sheets are full
    assert all(sheet.is_full() for sheet in game.sheets)


@pytest.mark.parametrize("level", LEVELS)
def test_choose_is_the_same_for_the_same_position(level: str) -> None:
    # Given the same Classic position twice
    first, second = make_game(grid="classic"), make_game(grid="classic")
    for game in (first, second):
        game.start_turn((2, 3, 3, 5, 6))
    # When a bot chooses in each (with different rngs)
    moves = [
        choose(game, level, random.Random(seed))  # type: ignore[arg-type]
        for seed, game in enumerate((first, second))
    ]
    # Then the moves agree
    assert moves[0] == moves[1]


# -- positions -----------------------------------------------------------------------------


def test_easy_holds_the_most_common_face_the_higher_on_a_tie() -> None:
    # Given dice with two pairs after roll 1
    game = _yamb(2)
    game.start_turn((2, 5, 2, 5, 1))
    # When the easy bot chooses; then it holds the fives
    assert choose(game, "easy") == RollMove((1, 3))


def test_easy_writes_five_alike_at_once() -> None:
    # Given five sixes after roll 1 in a free column
    game = _yamb(2)
    game.start_turn((6, 6, 6, 6, 6))
    # When the easy bot chooses; then it writes the best cell now: Yamb (80), the first of
    # them in sheet order (Up's Yamb, open first)
    assert choose(game, "easy") == WriteMove(*cell(game, "up", "yamb"))


@pytest.mark.parametrize("level", ("easy", "medium", "hard"))
def test_choose_writes_after_roll_one_when_only_manual_cells_are_left(level: str) -> None:
    # Given a sheet whose only empty cells are in the Manual column (no reroll is allowed)
    game = make_game(columns=("free", "manual"))
    prefill(game, 0, "free")
    game.start_turn((1, 2, 3, 4, 6))
    # When the bot chooses
    move = choose(game, level)  # type: ignore[arg-type]
    # Then it writes a manual cell
    assert isinstance(move, WriteMove)
    assert move.column == game.layout.column_index("manual")


@pytest.mark.parametrize("level", ("medium", "hard"))
def test_choose_announces_yamb_on_four_sixes_when_only_announced_yamb_is_left(
    level: str,
) -> None:
    # Given only announced/yamb open, and four sixes after roll 1
    game = make_game(columns=("free", "announced"))
    prefill_all_but(game, 0, [("announced", "yamb")])
    game.start_turn((6, 6, 6, 6, 2))
    # When the bot chooses
    move = choose(game, level)  # type: ignore[arg-type]
    # Then it announces Yamb (writing now would score 0; rerolling is refused unannounced)
    assert move == AnnounceMove(*cell(game, "announced", "yamb"))
    # And after the announcement it holds the sixes
    game.announce(move.column, move.row)
    assert choose(game, level) == RollMove((0, 1, 2, 3))  # type: ignore[arg-type]


@pytest.mark.parametrize("level", ("easy", "medium", "hard"))
def test_choose_goes_for_the_directed_row_only(level: str) -> None:
    # Given a solo player directed to directed/yamb (by their own announced write)
    game = make_game(columns=("free", "announced", "directed"))
    game.start_turn((1, 2, 3, 4, 6))
    game.write(*cell(game, "announced", "yamb"))
    game.start_turn((5, 5, 5, 2, 1))
    # When the bot chooses after roll 1
    move = choose(game, level)  # type: ignore[arg-type]
    # Then it rolls for five alike holding the fives (the only legal write is directed/yamb)
    assert move == RollMove((0, 1, 2))


def test_hard_keeps_a_made_kenta_on_roll_one() -> None:
    # Given a fresh preset 2 sheet and a straight on roll 1 (66 in Kenta)
    game = _yamb(2)
    game.start_turn((2, 3, 4, 5, 6))
    # When the hard bot chooses; then it writes a straight now
    move = choose(game, "hard")
    assert isinstance(move, WriteMove)
    assert game.layout.grid.rows[move.row].id == "straight"


def test_hard_on_six_dice_holds_at_most_five() -> None:
    # Given six dice with five sixes after roll 1
    game = _yamb(2, dice=6)
    game.start_turn((6, 6, 6, 6, 6, 1))
    # When the hard bot chooses; then it writes its Yamb now, five sixes for 80
    move = choose(game, "hard")
    assert isinstance(move, WriteMove)
    assert game.layout.grid.rows[move.row].id == "yamb"
    assert game.score_of(move.column, move.row) == 80
    # and in a whole game on six dice it never rerolls holding all six (`apply` checks each
    # reroll), writing every box
    game = _yamb(2, dice=6)
    writes = play(game, ("hard",), seed=6)
    assert game.finished and len(writes) == game.layout.rows_per_column * len(game.layout.columns)


def test_levels_ranked_by_strength_over_seeded_games() -> None:
    # given 40 seeded solo games of Yamb preset 1, the same dice for every level
    def average(level: str) -> float:
        totals = []
        for seed in range(40):
            game = _yamb(1)
            play(game, (level,), seed=1000 + seed)
            totals.append(game.sheets[0].total())
        return sum(totals) / len(totals)

    # when each level plays them
    easy, medium, hard = average("easy"), average("medium"), average("hard")

    # then each level scores clearly more than the one below (bench: 177, 317, 413)
    assert easy + 50 < medium < hard - 30
