"""Property-based tests: random legal play through the whole engine, on every kind of sheet.

Each example plays a whole game (or its first turns) with seeded dice and seeded random
decisions: rerolls with random locks, announcements when the rules allow one, any legal cell.
The properties are checked against rules.md, recomputed here without the engine's helpers.
"""

import contextlib
import io
import json
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from hypothesis import example, given, settings
from hypothesis import strategies as st
from yamb.dice import SeededDice, roll_all, roll_unlocked
from yamb.game import Game, WriteResult
from yamb.layout import layout_for
from yamb.replay import check
from yamb.rules import COLUMN_TYPES, PRESETS, row_scores
from yamb_tools import cli

FAMILY_GRIDS = ("classic", "scandinavian", "yacht", "generala")
PLAYER_NAMES = ("ana", "ben", "cleo", "dan")
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None)

# rules.md 2 and 9, written out here so that totals are recomputed independently of the engine.
UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
UPPER_BONUS = {
    "yamb": (60, 30),
    "classic": (63, 35),
    "scandinavian": (63, 50),
    "yacht": (63, 35),
    "generala": None,
}
YAMB_MIDDLE_IDS = ("max", "min")
CLASSIC_YAHTZEE_BONUS = 100


class Setup(NamedTuple):
    grid: str
    columns: tuple[str, ...]
    dice: int


def yamb_setup(columns: tuple[str, ...], dice: int = 5) -> Setup:
    return Setup("yamb", columns, dice)


yamb_setups = st.builds(
    yamb_setup,
    st.one_of(
        st.sampled_from(list(PRESETS.values())),
        # A custom set: any non-empty subset of the nine types, in any order.
        st.tuples(st.permutations(list(COLUMN_TYPES)), st.integers(1, len(COLUMN_TYPES))).map(
            lambda drawn: tuple(drawn[0][: drawn[1]])
        ),
    ),
    st.sampled_from((5, 6)),
)
family_setups = st.sampled_from([Setup(grid, (), 5) for grid in FAMILY_GRIDS])
setups = st.one_of(yamb_setups, family_setups)
player_counts = st.sampled_from((1, 2, 4))
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def every_layout_example(test: Any) -> Any:
    """Adds explicit examples so that each preset, 6 dice and each family grid always run."""
    for preset, players in zip(range(1, 8), (1, 2, 4, 1, 2, 4, 2), strict=True):
        test = example(setup=yamb_setup(PRESETS[preset]), players=players, seed=preset)(test)
    test = example(setup=yamb_setup(PRESETS[7], 6), players=4, seed=6)(test)
    for players, grid in zip((1, 2, 4, 2), FAMILY_GRIDS, strict=True):
        test = example(setup=Setup(grid, (), 5), players=players, seed=len(grid))(test)
    return test


@dataclass
class PlayedGame:
    game: Game
    record: dict[str, Any]
    turns_per_seat: list[int]
    # The Classic Yahtzee bonuses each seat earned per column, counted from the dice.
    expected_extra: list[list[int]]
    announcements: int = 0
    rerolls: int = 0
    moves: list[tuple[int, int, int]] = field(default_factory=list)


def new_game(setup: Setup, players: int) -> Game:
    return Game(layout_for(setup.grid, setup.columns, setup.dice), PLAYER_NAMES[:players])


def empty_record(setup: Setup, players: int) -> dict[str, Any]:
    record: dict[str, Any] = {"grid": setup.grid}
    if setup.grid == "yamb":
        record |= {"dice": setup.dice, "columns": list(setup.columns)}
    return record | {"players": list(PLAYER_NAMES[:players]), "turns": []}


def announceable_cells(game: Game) -> list[tuple[int, int]]:
    """The legal cells that an announcement could claim now."""
    if game.announcement is not None:
        return []
    columns = game.layout.columns
    return [
        (column, row)
        for column, row, _ in game.legal_cells()
        if (by_roll := columns[column].type.announce_by_roll) is not None and game.roll <= by_roll
    ]


def assert_auto_move_is_best(game: Game) -> None:
    """rules.md 8: the auto-move is a legal cell and no legal cell scores more."""
    cells = game.legal_cells()
    move = game.auto_move()
    assert (move.column, move.row, move.score) in cells
    assert move.score == max(score for _, _, score in cells)
    needs_announcement = game.layout.columns[move.column].type.announce_by_roll is not None
    assert move.announces == (game.announcement is None and needs_announcement)


def is_classic_joker(game: Game) -> bool:
    sheet_values = game.sheets[game.seat].values[0]
    return (
        game.layout.grid.id == "classic"
        and len(set(game.dice)) == 1
        and sheet_values[game.layout.grid.row_index("yahtzee")] is not None
    )


def assert_listed_scores_are_row_scores(game: Game) -> None:
    """Outside Classic's joker and Generala's double generala, a legal cell scores its row."""
    if is_classic_joker(game):
        return
    scores = row_scores(game.layout.grid, game.dice, game.roll)
    for _, row, score in game.legal_cells():
        if game.layout.grid.rows[row].requires is None:
            assert score == scores[row]


def announcement_of(game: Game, column: int, row: int) -> dict[str, Any]:
    layout = game.layout
    return {
        "column": layout.columns[column].id,
        "row": layout.grid.rows[row].id,
        "after_roll": game.roll,
    }


def classic_yahtzee_bonus(game: Game) -> int:
    """The Classic Yahtzee bonus the current dice earn, from the sheet before the write."""
    if not is_classic_joker(game):
        return 0
    yahtzee_value = game.sheets[game.seat].values[0][game.layout.grid.row_index("yahtzee")]
    return CLASSIC_YAHTZEE_BONUS if yahtzee_value == 50 else 0


class RandomPlayer:
    """Plays and records random legal turns: seeded dice, seeded decisions."""

    def __init__(self, played: PlayedGame, seed: int, *, check_auto_move: bool) -> None:
        self.played = played
        self.game = played.game
        self.dice = SeededDice(seed)
        self.choices = random.Random(f"choices-{seed}")
        self.check_auto_move = check_auto_move

    def roll_phase(self, turn: dict[str, Any]) -> tuple[list[tuple[int, ...]], bool]:
        """Roll 1, then random announcements and rerolls; the rolls, and whether the clock
        runs out (the auto-move writes) instead of the player choosing a cell."""
        game, choices = self.game, self.choices
        rolls = [roll_all(self.dice, game.layout.dice_count)]
        game.start_turn(rolls[0])
        while True:
            assert game.legal_cells(), "a started turn always has a legal cell"
            if self.check_auto_move:
                assert_listed_scores_are_row_scores(game)
                assert_auto_move_is_best(game)
                if choices.random() < 0.15:
                    return rolls, True
            candidates = announceable_cells(game)
            if candidates and choices.random() < 0.3:
                column, row = choices.choice(candidates)
                game.announce(column, row)
                self.played.announcements += 1
                turn["announce"] = announcement_of(game, column, row)
            if not (game.can_reroll() and choices.random() < 0.5):
                return rolls, False
            locked = [i for i in range(game.layout.dice_count) if choices.random() < 0.5]
            rolls.append(roll_unlocked(self.dice, game.dice, locked))
            game.reroll(rolls[-1])
            self.played.rerolls += 1

    def write_phase(self, turn: dict[str, Any], auto: bool) -> WriteResult:
        game = self.game
        if auto:
            move = game.auto_move()
            if move.announces:
                turn["announce"] = announcement_of(game, move.column, move.row)
            result = game.play_auto_move()
            assert (result.column, result.row, result.score) == move[:3]
        else:
            column, row, score = self.choices.choice(game.legal_cells())
            result = game.write(column, row)
            assert (result.column, result.row, result.score) == (column, row, score)
        return result

    def play_turn(self) -> None:
        game, played = self.game, self.played
        layout, seat = game.layout, game.seat
        turn: dict[str, Any] = {"player": game.players[seat]}
        rolls, auto = self.roll_phase(turn)
        yahtzee_bonus = classic_yahtzee_bonus(game)
        empty_before = game.sheets[seat].empty_cells
        result = self.write_phase(turn, auto)
        # Exactly one cell was written, with the listed score, and the bonus the dice earn.
        assert game.sheets[seat].empty_cells == empty_before - 1
        assert game.sheets[seat].values[result.column][result.row] == result.score
        assert result.extra == yahtzee_bonus
        played.expected_extra[seat][result.column] += yahtzee_bonus
        played.turns_per_seat[seat] += 1
        played.moves.append((seat, result.column, result.row))
        turn["rolls"] = [list(dice) for dice in rolls]
        write = {"row": layout.grid.rows[result.row].id}
        if layout.grid.has_column_types:
            write = {"column": layout.columns[result.column].id} | write
        turn["write"] = write
        played.record["turns"].append(turn)


def play_random_game(
    setup: Setup,
    players: int,
    seed: int,
    *,
    max_turns: int | None = None,
    check_auto_move: bool = False,
) -> PlayedGame:
    """Plays random legal turns until the game ends (or `max_turns`), recording them."""
    game = new_game(setup, players)
    played = PlayedGame(
        game=game,
        record=empty_record(setup, players),
        turns_per_seat=[0] * players,
        expected_extra=[[0] * len(game.layout.columns) for _ in range(players)],
    )
    player = RandomPlayer(played, seed, check_auto_move=check_auto_move)
    turn_limit = game.layout.cells_per_sheet * players if max_turns is None else max_turns
    for turn_index in range(turn_limit):
        if game.finished:
            break
        assert game.seat == turn_index % players, "turns go round the table in order"
        player.play_turn()
    return played


def expected_column(setup: Setup, game: Game, seat: int, column: int, extra: int) -> dict[str, int]:
    """A column's parts recomputed from its written values, by rules.md 2 and 9."""
    values = dict(zip(game.layout.grid.row_ids, game.sheets[seat].values[column], strict=True))
    upper = sum(values[row] or 0 for row in UPPER_IDS)
    rule = UPPER_BONUS[setup.grid]
    bonus = rule[1] if rule is not None and upper >= rule[0] else 0
    middle = 0
    if setup.grid == "yamb":
        high, low, ones = values["max"], values["min"], values["ones"]
        if high is not None and low is not None and ones is not None:
            middle = (high - low) * ones
    not_lower = UPPER_IDS + (YAMB_MIDDLE_IDS if setup.grid == "yamb" else ())
    lower = sum(value or 0 for row, value in values.items() if row not in not_lower)
    return {
        "upper": upper,
        "bonus": bonus,
        "middle": middle,
        "lower": lower,
        "extra": extra,
        "total": upper + bonus + middle + lower + extra,
    }


def expected_summary(setup: Setup, played: PlayedGame) -> dict[str, Any]:
    """The `yamb check` answer built from the engine's own sheets."""
    game = played.game
    column_ids = [column.id for column in game.layout.columns]
    players = {}
    for seat, name in enumerate(game.players):
        sheet = game.sheets[seat]
        columns = {cid: sheet.column_totals(c).as_dict() for c, cid in enumerate(column_ids)}
        players[name] = {"total": sheet.total(), "columns": columns}
    complete = all(sheet.is_full() for sheet in game.sheets)
    best = max(sheet.total() for sheet in game.sheets)
    winners = [n for n, s in zip(game.players, game.sheets, strict=True) if s.total() == best]
    return {"players": players, "winners": winners if complete else [], "complete": complete}


# -- (a) random legal play fills every sheet -------------------------------------------------


@PROPERTY_SETTINGS
@every_layout_example
@given(setup=setups, players=player_counts, seed=seeds)
def test_random_play_fills_every_sheet_in_rows_times_columns_turns(
    setup: Setup, players: int, seed: int
) -> None:
    # Given a game on any sheet, for 1, 2 or 4 players
    layout = layout_for(setup.grid, setup.columns, setup.dice)
    cells = layout.rows_per_column * len(layout.columns)

    # When every turn is played at random but legally until the game ends
    played = play_random_game(setup, players, seed)

    # Then each player played exactly rows x columns turns, and every sheet is full
    game = played.game
    assert game.finished
    assert played.turns_per_seat == [cells] * players
    assert game.turns_played == [cells] * players
    assert all(sheet.is_full() for sheet in game.sheets)
    assert all(v is not None for sheet in game.sheets for column in sheet.values for v in column)
    # and every cell was written exactly once
    assert len(set(played.moves)) == len(played.moves) == cells * players
    assert game.legal_cells() == []
    assert set(game.winners()) <= set(game.players)
    assert game.winners()


@PROPERTY_SETTINGS
@given(setup=yamb_setups, seed=seeds)
def test_random_play_announces_and_rerolls_on_announced_sheets(setup: Setup, seed: int) -> None:
    # Given a sheet with all nine columns (announced and late announced among them)
    setup = yamb_setup(PRESETS[7], setup.dice)

    # When a solo game is played at random
    played = play_random_game(setup, 1, seed)

    # Then the random player did use announcements and rerolls, and still filled the sheet
    assert played.announcements > 0
    assert played.rerolls > 0
    assert played.game.finished
    assert played.turns_per_seat == [9 * 13]


# -- (b) totals are the sums of their parts --------------------------------------------------


@PROPERTY_SETTINGS
@every_layout_example
@given(setup=setups, players=player_counts, seed=seeds)
def test_sheet_totals_equal_the_sum_of_their_parts(setup: Setup, players: int, seed: int) -> None:
    # Given a game played to its end at random
    played = play_random_game(setup, players, seed)
    game = played.game

    for seat, sheet in enumerate(game.sheets):
        column_totals = []
        for column in range(len(game.layout.columns)):
            # When a column's totals are asked for
            totals = sheet.column_totals(column)

            # Then each part is what the written values give, and the total their sum
            expected = expected_column(
                setup, game, seat, column, played.expected_extra[seat][column]
            )
            assert totals.as_dict() == expected
            assert totals.total == (
                totals.upper + totals.bonus + totals.middle + totals.lower + totals.extra
            )
            column_totals.append(expected["total"])
        # and the game total is the sum of the column totals
        assert sheet.total() == sum(column_totals)


@PROPERTY_SETTINGS
@given(setup=setups, players=player_counts, seed=seeds, turns=st.integers(0, 60))
def test_partial_sheet_totals_equal_the_sum_of_their_parts(
    setup: Setup, players: int, seed: int, turns: int
) -> None:
    # Given a game stopped after a few random turns (the middle part may not exist yet)
    played = play_random_game(setup, players, seed, max_turns=turns)
    game = played.game

    # When the totals are asked for, then each part is what the written values give
    for seat, sheet in enumerate(game.sheets):
        expected = [
            expected_column(setup, game, seat, c, played.expected_extra[seat][c])
            for c in range(len(game.layout.columns))
        ]
        assert [sheet.column_totals(c).as_dict() for c in range(len(expected))] == expected
        assert sheet.total() == sum(column["total"] for column in expected)


# -- (c) the auto-move -----------------------------------------------------------------------


@PROPERTY_SETTINGS
@every_layout_example
@given(setup=setups, players=player_counts, seed=seeds)
def test_auto_move_is_legal_and_nothing_legal_scores_more(
    setup: Setup, players: int, seed: int
) -> None:
    # Given random games where the clock sometimes runs out and the auto-move plays
    # When the auto-move is asked for after every roll (checked inside the play loop)
    played = play_random_game(setup, players, seed, check_auto_move=True)

    # Then it was always legal and best, and the game still ended with full sheets
    assert played.game.finished
    assert all(sheet.is_full() for sheet in played.game.sheets)


# -- (d) `yamb check` agrees with the engine -------------------------------------------------


@PROPERTY_SETTINGS
@every_layout_example
@given(setup=setups, players=player_counts, seed=seeds)
def test_check_agrees_with_the_engine_on_a_whole_game(
    setup: Setup, players: int, seed: int
) -> None:
    # Given a whole game played by the engine (auto-moves included) and recorded
    played = play_random_game(setup, players, seed, check_auto_move=True)
    record = json.loads(json.dumps(played.record))

    # When the record is checked
    result = check(record)

    # Then totals, winners and completeness are the engine's own
    assert result == expected_summary(setup, played)
    assert result["complete"] is True
    assert result["winners"] == played.game.winners()


@PROPERTY_SETTINGS
@given(setup=setups, players=player_counts, seed=seeds, turns=st.integers(0, 40))
def test_check_agrees_with_the_engine_on_a_partial_game(
    setup: Setup, players: int, seed: int, turns: int
) -> None:
    # Given the first turns of a game played by the engine and recorded, one turn short at most
    layout = layout_for(setup.grid, setup.columns, setup.dice)
    turns = min(turns, layout.cells_per_sheet * players - 1)
    played = play_random_game(setup, players, seed, max_turns=turns)

    # When the record is checked
    result = check(played.record)

    # Then it is valid, not complete, without winners, with the engine's totals
    assert result == expected_summary(setup, played)
    assert result["complete"] is False
    assert result["winners"] == []


@PROPERTY_SETTINGS
@given(setup=setups, seed=seeds, data=st.data())
def test_check_reports_a_repeated_turn_with_its_index(
    setup: Setup, seed: int, data: st.DataObject
) -> None:
    # Given a recorded solo game in which one turn is copied right after itself
    played = play_random_game(setup, 1, seed)
    turns = played.record["turns"]
    index = data.draw(st.integers(0, len(turns) - 1), label="repeated turn")
    record = played.record | {"turns": [*turns[: index + 1], *turns[index:]]}

    # When the record is checked
    result = check(record)

    # Then the copy is the first illegal turn (its cell is written, or the game is over)
    assert set(result) == {"error"}
    assert result["error"]["turn"] == index + 1
    assert isinstance(result["error"]["message"], str)
    assert result["error"]["message"]


@PROPERTY_SETTINGS
@given(setup=setups, players=st.sampled_from((2, 4)), seed=seeds, data=st.data())
def test_check_reports_a_turn_played_out_of_turn(
    setup: Setup, players: int, seed: int, data: st.DataObject
) -> None:
    # Given a recorded game in which one turn names the wrong player
    played = play_random_game(setup, players, seed, max_turns=3 * players)
    turns = played.record["turns"]
    index = data.draw(st.integers(0, len(turns) - 1), label="turn")
    wrong = PLAYER_NAMES[(PLAYER_NAMES.index(turns[index]["player"]) + 1) % players]
    record = played.record | {
        "turns": [*turns[:index], turns[index] | {"player": wrong}, *turns[index + 1 :]]
    }

    # When the record is checked
    result = check(record)

    # Then that turn is reported, by its 0-based index
    assert result["error"]["turn"] == index
    assert "out of turn" in result["error"]["message"]


@PROPERTY_SETTINGS
@given(setup=setups, players=player_counts, seed=seeds)
def test_cli_check_agrees_with_the_engine(setup: Setup, players: int, seed: int) -> None:
    # Given a whole recorded game in a file
    played = play_random_game(setup, players, seed)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "game.json"
        path.write_text(json.dumps(played.record), encoding="utf-8")

        # When `yamb check` reads it
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli.main(["check", str(path)])

    # Then it prints the engine's summary as one JSON line and exits 0
    assert status == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0]) == expected_summary(setup, played)


def test_cli_check_prints_one_line_per_recorded_game_in_order(tmp_path: Path, capsys: Any) -> None:
    # Given one recorded game per family grid and one Yamb game, each in its own file
    setups_played = [
        (yamb_setup(PRESETS[7], 6), 2),
        *((Setup(grid, (), 5), 2) for grid in FAMILY_GRIDS),
    ]
    paths, expected = [], []
    for number, (setup, players) in enumerate(setups_played):
        played = play_random_game(setup, players, seed=number, check_auto_move=True)
        path = tmp_path / f"{setup.grid}.json"
        path.write_text(json.dumps(played.record), encoding="utf-8")
        paths.append(str(path))
        expected.append(expected_summary(setup, played))

    # When `yamb check` reads them all
    status = cli.main(["check", *paths])

    # Then each file gets its line, in order, with the engine's totals
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert [json.loads(line) for line in lines] == expected


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@PROPERTY_SETTINGS
@given(setup=setups, players=player_counts, seed=seeds, data=st.data())
def test_check_answers_a_corrupted_record_without_raising(
    setup: Setup, players: int, seed: int, data: st.DataObject
) -> None:
    # Given a recorded game with one field of one turn (or of the record) replaced by any JSON
    played = play_random_game(setup, players, seed, max_turns=data.draw(st.integers(1, 20)))
    record, turns = played.record, played.record["turns"]
    index = data.draw(st.integers(0, len(turns) - 1), label="turn")
    if data.draw(st.booleans(), label="corrupt a turn"):
        key = data.draw(st.sampled_from(["player", "rolls", "announce", "write"]), label="key")
        corrupted = turns[index] | {key: data.draw(json_values, label="value")}
        record = record | {"turns": [*turns[:index], corrupted, *turns[index + 1 :]]}
    else:
        key = data.draw(st.sampled_from(["grid", "dice", "columns", "players", "turns"]))
        record = record | {key: data.draw(json_values, label="value")}

    # When it is checked
    result = check(record)

    # Then the answer is a summary or an error, never an exception, and prints as JSON
    assert set(result) in ({"error"}, {"players", "winners", "complete"})
    if "error" in result:
        assert isinstance(result["error"]["message"], str)
        turn = result["error"]["turn"]
        assert turn is None or 0 <= turn < len(record["turns"])
    json.dumps(result)


@PROPERTY_SETTINGS
@given(value=json_values)
def test_check_answers_any_json_value_with_an_error(value: Any) -> None:
    # Given any JSON value that is not a record (a record needs grid, players and turns)
    # When it is checked
    result = check(value)

    # Then the answer is one error, not tied to a turn
    assert list(result) == ["error"]
    assert result["error"]["turn"] is None
