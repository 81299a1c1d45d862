"""The `yamb` command: `yamb check` on recorded games and `yamb score` on one cell; the core's
commands import nothing outside the core."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yamb
import yamb_client.cli
from yamb_tools.cli import main

RECORDS = Path(__file__).parent / "records"
EXAMPLE = RECORDS / "example.json"
EXIT_ILLEGAL = 2
ZERO_COLUMN = {"upper": 0, "bonus": 0, "middle": 0, "lower": 0, "extra": 0, "total": 0}

# A whole Down column, top to bottom, with one roll a turn: (row, dice, score).
DOWN_COLUMN = (
    ("ones", [1, 1, 1, 1, 2], 4),
    ("twos", [2, 2, 2, 2, 1], 8),
    ("threes", [3, 3, 3, 3, 1], 12),
    ("fours", [4, 4, 4, 4, 1], 16),
    ("fives", [5, 5, 5, 5, 1], 20),
    ("sixes", [6, 6, 6, 6, 1], 24),
    ("max", [6, 6, 6, 6, 5], 29),
    ("min", [1, 1, 1, 1, 2], 6),
    ("three_of_a_kind", [6, 6, 6, 1, 2], 38),
    ("straight", [1, 2, 3, 4, 5], 66),
    ("full_house", [6, 6, 6, 5, 5], 58),
    ("four_of_a_kind", [6, 6, 6, 6, 1], 64),
    ("yamb", [6, 6, 6, 6, 6], 80),
)
# upper 84 (bonus 30 at 60), middle (29 - 6) x 4 = 92, lower 38 + 66 + 58 + 64 + 80 = 306.
DOWN_COLUMN_TOTALS = {"upper": 84, "bonus": 30, "middle": 92, "lower": 306, "extra": 0}
DOWN_COLUMN_TOTAL = 84 + 30 + 92 + 306


def turn(
    player: str,
    rolls: list[list[int]],
    column: str | None,
    row: str,
    announce: tuple[str, str, int] | None = None,
) -> dict[str, Any]:
    """One recorded turn; `column` None for a family grid's write."""
    write = {"row": row} if column is None else {"column": column, "row": row}
    recorded: dict[str, Any] = {"player": player, "rolls": rolls, "write": write}
    if announce is not None:
        column_id, row_id, after_roll = announce
        recorded["announce"] = {"column": column_id, "row": row_id, "after_roll": after_roll}
    return recorded


def yamb_record(
    columns: list[str], turns: list[dict[str, Any]], players: tuple[str, ...] = ("ana",)
) -> dict[str, Any]:
    return {"grid": "yamb", "dice": 5, "columns": columns, "players": list(players), "turns": turns}


def family_record(
    grid: str, turns: list[dict[str, Any]], players: tuple[str, ...] = ("ana",)
) -> dict[str, Any]:
    return {"grid": grid, "players": list(players), "turns": turns}


def down_column_turns(player: str) -> list[dict[str, Any]]:
    return [turn(player, [dice], "down", row) for row, dice, _ in DOWN_COLUMN]


def interleave(*turn_lists: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for round_ in zip(*turn_lists, strict=True) for t in round_]


def run_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *records: Any
) -> tuple[int, list[dict[str, Any]]]:
    """Runs `yamb check` on records (dicts, raw text, or paths); its status and parsed lines."""
    paths = []
    for number, record in enumerate(records):
        if isinstance(record, Path):
            paths.append(str(record))
            continue
        path = tmp_path / f"record{number}.json"
        text = record if isinstance(record, str) else json.dumps(record)
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    status = main(["check", *paths])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return status, [json.loads(line) for line in captured.out.splitlines()]


def assert_turn_error(result: dict[str, Any], turn_index: int | None, fragment: str) -> None:
    assert list(result) == ["error"]
    assert set(result["error"]) == {"turn", "message"}
    assert result["error"]["turn"] == turn_index
    assert fragment in result["error"]["message"]


# -- valid records ---------------------------------------------------------------------------


def test_check_example_record_prints_the_documented_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the example: ana writes 3 in Down/Ones, ben an announced straight on roll 3

    # When it is checked
    status, lines = run_check(tmp_path, capsys, EXAMPLE)

    # Then one line gives every player's totals per column, no winners yet, incomplete
    assert status == 0
    assert lines == [
        {
            "players": {
                "ana": {
                    "total": 3,
                    "columns": {
                        "down": ZERO_COLUMN | {"upper": 3, "total": 3},
                        "up": ZERO_COLUMN,
                        "free": ZERO_COLUMN,
                        "announced": ZERO_COLUMN,
                    },
                },
                "ben": {
                    "total": 46,
                    "columns": {
                        "down": ZERO_COLUMN,
                        "up": ZERO_COLUMN,
                        "free": ZERO_COLUMN,
                        "announced": ZERO_COLUMN | {"lower": 46, "total": 46},
                    },
                },
            },
            "winners": [],
            "complete": False,
        }
    ]


def test_check_example_record_keeps_the_documented_key_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the example record
    # When it is checked
    _, [result] = run_check(tmp_path, capsys, EXAMPLE)

    # Then the keys come in the documented order
    assert list(result) == ["players", "winners", "complete"]
    assert list(result["players"]) == ["ana", "ben"]
    assert list(result["players"]["ana"]) == ["total", "columns"]
    assert list(result["players"]["ana"]["columns"]) == ["down", "up", "free", "announced"]
    parts = ["upper", "bonus", "middle", "lower", "extra", "total"]
    assert list(result["players"]["ben"]["columns"]["announced"]) == parts


def test_check_complete_solo_record_lists_the_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a solo game that fills its one Down column
    record = yamb_record(["down"], down_column_turns("ana"))

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, record)

    # Then it is complete, ana wins, and the column's parts follow rules.md 2
    assert status == 0
    assert result == {
        "players": {
            "ana": {
                "total": DOWN_COLUMN_TOTAL,
                "columns": {"down": DOWN_COLUMN_TOTALS | {"total": DOWN_COLUMN_TOTAL}},
            }
        },
        "winners": ["ana"],
        "complete": True,
    }


def test_check_complete_two_player_record_lists_the_best_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a full two-player game where ben crosses out his Yamb (0 instead of 80)
    ben = down_column_turns("ben")
    ben[-1] = turn("ben", [[1, 2, 3, 4, 6]], "down", "yamb")
    record = yamb_record(["down"], interleave(down_column_turns("ana"), ben), ("ana", "ben"))

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, record)

    # Then ana alone wins
    assert status == 0
    assert result["complete"] is True
    assert result["players"]["ben"]["total"] == DOWN_COLUMN_TOTAL - 80
    assert result["winners"] == ["ana"]


def test_check_complete_tied_record_lists_every_leader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a full two-player game where both write the same dice in the same cells
    record = yamb_record(
        ["down"], interleave(down_column_turns("ana"), down_column_turns("ben")), ("ana", "ben")
    )

    # When it is checked
    _, [result] = run_check(tmp_path, capsys, record)

    # Then the tied leaders both win
    assert result["winners"] == ["ana", "ben"]


def test_check_partial_record_is_incomplete_without_winners(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a solo game stopped one turn before its sheet is full
    record = yamb_record(["down"], down_column_turns("ana")[:-1])

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, record)

    # Then it is valid but not complete, and nobody has won yet
    assert status == 0
    assert result["complete"] is False
    assert result["winners"] == []
    assert result["players"]["ana"]["total"] == DOWN_COLUMN_TOTAL - 80


def test_check_family_record_writes_rows_of_the_main_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a Classic game: a Yahtzee of sixes (50), then sixes again into the Sixes box
    record = family_record(
        "classic",
        [
            turn("ana", [[6, 6, 6, 6, 6]], None, "yahtzee"),
            turn("ana", [[1, 2, 6, 6, 6], [6, 6, 6, 6, 6]], None, "sixes"),
        ],
    )

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, record)

    # Then the one column is `main`, with the Yahtzee bonus as extra
    assert status == 0
    main_column = {"upper": 30, "bonus": 0, "middle": 0, "lower": 50, "extra": 100, "total": 180}
    assert result["players"] == {"ana": {"total": 180, "columns": {"main": main_column}}}


def test_check_announcement_after_roll_one_then_rerolls_is_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a Late announced cell announced after roll 2 and written after roll 3
    record = yamb_record(
        ["free", "late_announced"],
        [
            turn(
                "ana",
                [[1, 1, 2, 3, 4], [6, 6, 6, 2, 3], [6, 6, 6, 6, 6]],
                "late_announced",
                "yamb",
                announce=("late_announced", "yamb", 2),
            )
        ],
    )

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, record)

    # Then the write scores the dice of roll 3
    assert status == 0
    assert result["players"]["ana"]["columns"]["late_announced"]["lower"] == 80


# -- illegal turns ---------------------------------------------------------------------------

FREE_ONES = turn("ana", [[1, 1, 1, 2, 3]], "free", "ones")

ILLEGAL_TURNS = {
    "out_of_turn": (
        yamb_record(
            ["free"], [FREE_ONES, turn("ana", [[2, 2, 3, 4, 5]], "free", "twos")], ("ana", "ben")
        ),
        1,
        "out of turn",
    ),
    "dice_value_7": (
        yamb_record(["free"], [FREE_ONES, turn("ana", [[1, 2, 3, 4, 7]], "free", "twos")]),
        1,
        "dice",
    ),
    "dice_value_7_on_reroll": (
        yamb_record(["free"], [turn("ana", [[1, 2, 3, 4, 5], [1, 2, 3, 4, 7]], "free", "ones")]),
        0,
        "dice",
    ),
    "dice_value_0": (
        yamb_record(["free"], [turn("ana", [[0, 2, 3, 4, 5]], "free", "ones")]),
        0,
        "dice",
    ),
    "four_dice": (
        yamb_record(["free"], [turn("ana", [[1, 2, 3, 4]], "free", "ones")]),
        0,
        "dice",
    ),
    "six_dice_in_a_five_dice_game": (
        yamb_record(["free"], [turn("ana", [[1, 2, 3, 4, 5, 6]], "free", "ones")]),
        0,
        "dice",
    ),
    "four_rolls": (
        yamb_record(["free"], [FREE_ONES, turn("ana", [[1, 1, 1, 1, 1]] * 4, "free", "twos")]),
        1,
        "rolls",
    ),
    "no_roll": (
        yamb_record(["free"], [turn("ana", [], "free", "ones")]),
        0,
        "rolls",
    ),
    "cell_already_written": (
        yamb_record(["free"], [FREE_ONES, FREE_ONES]),
        1,
        "already written",
    ),
    "unknown_row": (
        yamb_record(["free"], [FREE_ONES, turn("ana", [[1, 1, 1, 2, 3]], "free", "sevens")]),
        1,
        "unknown row",
    ),
    "unknown_column": (
        yamb_record(["free"], [FREE_ONES, turn("ana", [[1, 1, 1, 2, 3]], "sideways", "ones")]),
        1,
        "unknown column",
    ),
    "column_not_in_the_game": (
        yamb_record(["free"], [turn("ana", [[1, 1, 1, 2, 3]], "down", "ones")]),
        0,
        "unknown column",
    ),
    "down_not_top_first": (
        yamb_record(["down", "free"], [turn("ana", [[6, 6, 6, 6, 6]], "down", "yamb")]),
        0,
        "column order",
    ),
    "down_skips_a_row": (
        yamb_record(
            ["down", "free"],
            [
                turn("ana", [[1, 1, 1, 2, 3]], "down", "ones"),
                turn("ana", [[3, 3, 3, 2, 3]], "down", "threes"),
            ],
        ),
        1,
        "column order",
    ),
    "up_not_bottom_first": (
        yamb_record(["up", "free"], [turn("ana", [[1, 1, 1, 1, 1]], "up", "ones")]),
        0,
        "column order",
    ),
    "announcement_missing_at_roll_2": (
        yamb_record(
            ["free", "announced"],
            [turn("ana", [[1, 2, 3, 4, 6], [1, 2, 3, 4, 5]], "announced", "straight")],
        ),
        0,
        "announcement",
    ),
    "late_announcement_missing_at_roll_3": (
        yamb_record(
            ["free", "late_announced"],
            [turn("ana", [[1, 2, 3, 4, 6]] * 3, "late_announced", "straight")],
        ),
        0,
        "announcement",
    ),
    "announcement_in_a_free_column": (
        yamb_record(
            ["free", "announced"],
            [turn("ana", [[1, 2, 3, 4, 6]], "free", "straight", ("free", "straight", 1))],
        ),
        0,
        "not an announced column",
    ),
    "announcement_after_a_roll_not_made": (
        yamb_record(
            ["free", "announced"],
            [turn("ana", [[1, 2, 3, 4, 5]], "announced", "straight", ("announced", "straight", 2))],
        ),
        0,
        "after roll 2",
    ),
    "announcement_after_roll_2_in_announced": (
        yamb_record(
            ["free", "announced"],
            [
                turn(
                    "ana",
                    [[1, 2, 3, 4, 6], [1, 2, 3, 4, 5]],
                    "announced",
                    "straight",
                    ("announced", "straight", 2),
                )
            ],
        ),
        0,
        "after roll 1",
    ),
    "announcement_after_roll_3_in_late_announced": (
        yamb_record(
            ["free", "late_announced"],
            [
                turn(
                    "ana",
                    [[1, 2, 3, 4, 6]] * 3,
                    "late_announced",
                    "straight",
                    ("late_announced", "straight", 3),
                )
            ],
        ),
        0,
        "after roll 1 or 2",
    ),
    "announcement_of_a_written_cell": (
        yamb_record(
            ["free", "announced"],
            [
                turn("ana", [[1, 1, 1, 2, 3]], "announced", "ones"),
                turn("ana", [[1, 1, 1, 2, 3]], "announced", "ones", ("announced", "ones", 1)),
            ],
        ),
        1,
        "already written",
    ),
    "write_elsewhere_than_announced": (
        yamb_record(
            ["free", "announced"],
            [turn("ana", [[1, 2, 3, 4, 6]], "free", "ones", ("announced", "straight", 1))],
        ),
        0,
        "announced",
    ),
    "directed_obligation_violated_solo": (
        yamb_record(
            ["free", "announced", "directed"],
            [turn("ana", [[1, 1, 1, 2, 3]], "announced", "ones"), FREE_ONES],
        ),
        1,
        "directed",
    ),
    "directed_obligation_violated_by_the_next_player": (
        yamb_record(
            ["free", "announced", "directed"],
            [
                turn("ana", [[1, 1, 1, 2, 3]], "announced", "ones"),
                turn("ben", [[1, 1, 1, 2, 3]], "free", "ones"),
            ],
            ("ana", "ben"),
        ),
        1,
        "directed",
    ),
    "directed_cell_not_opened": (
        yamb_record(
            ["free", "announced", "directed"],
            [turn("ana", [[1, 1, 1, 2, 3]], "directed", "ones")],
        ),
        0,
        "directed",
    ),
    "manual_after_roll_2": (
        yamb_record(
            ["free", "manual"], [turn("ana", [[1, 1, 2, 3, 4], [1, 1, 1, 3, 4]], "manual", "ones")]
        ),
        0,
        "roll 1",
    ),
    "reroll_when_only_manual_cells_are_left": (
        yamb_record(
            ["manual"], [turn("ana", [[1, 1, 2, 3, 4], [1, 1, 1, 3, 4]], "manual", "ones")]
        ),
        0,
        "another roll",
    ),
    "classic_joker_violated": (
        family_record(
            "classic",
            [
                turn("ana", [[6, 6, 6, 6, 6]], None, "yahtzee"),
                turn("ana", [[6, 6, 6, 6, 6]], None, "chance"),
            ],
        ),
        1,
        "joker",
    ),
    "family_write_in_a_yamb_column": (
        family_record("yacht", [turn("ana", [[6, 6, 6, 6, 6]], "down", "yacht")]),
        0,
        "unknown column",
    ),
    "turn_after_the_game_is_over": (
        yamb_record(
            ["down"], [*down_column_turns("ana"), turn("ana", [[1, 1, 1, 2, 3]], "down", "ones")]
        ),
        13,
        "over",
    ),
}


@pytest.mark.parametrize(
    ("record", "turn_index", "fragment"), ILLEGAL_TURNS.values(), ids=ILLEGAL_TURNS.keys()
)
def test_check_illegal_turn_reports_its_index_and_exits_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    record: dict[str, Any],
    turn_index: int,
    fragment: str,
) -> None:
    # Given a record with one illegal turn

    # When it is checked
    status, lines = run_check(tmp_path, capsys, record)

    # Then one error line names the turn by its 0-based index, and the status is 2
    assert status == EXIT_ILLEGAL
    assert len(lines) == 1
    assert_turn_error(lines[0], turn_index, fragment)


def test_check_turn_missing_a_field_reports_that_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a record whose second turn has no write
    record = yamb_record(["free"], [FREE_ONES, {"player": "ana", "rolls": [[1, 2, 3, 4, 5]]}])

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, record)

    # Then the error names turn 1 and the missing field
    assert status == EXIT_ILLEGAL
    assert_turn_error(result, 1, "write")


# -- malformed records -----------------------------------------------------------------------

MALFORMED_RECORDS = {
    "not_json": ('{"grid": "yamb", "players": [', "JSON"),
    "empty_file": ("", "JSON"),
    "not_an_object": ("[1, 2, 3]", "record"),
    "missing_players": (
        json.dumps({"grid": "yamb", "dice": 5, "columns": ["free"], "turns": []}),
        "players",
    ),
    "missing_turns": (json.dumps({"grid": "yacht", "players": ["ana"]}), "turns"),
    "yamb_without_columns": (
        json.dumps({"grid": "yamb", "dice": 5, "players": ["ana"], "turns": []}),
        "columns",
    ),
    "unknown_grid": (json.dumps({"grid": "chess", "players": ["ana"], "turns": []}), "grid"),
    "unknown_column_type": (
        json.dumps(
            {"grid": "yamb", "dice": 5, "columns": ["sideways"], "players": ["a"], "turns": []}
        ),
        "sideways",
    ),
    "family_grid_with_6_dice": (
        json.dumps({"grid": "classic", "dice": 6, "players": ["ana"], "turns": []}),
        "5 dice",
    ),
    "five_players": (
        json.dumps({"grid": "yacht", "players": ["a", "b", "c", "d", "e"], "turns": []}),
        "players",
    ),
}


@pytest.mark.parametrize(
    ("text", "fragment"), MALFORMED_RECORDS.values(), ids=MALFORMED_RECORDS.keys()
)
def test_check_malformed_record_gives_an_error_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str
) -> None:
    # Given a file that is not a valid record

    # When it is checked
    status, lines = run_check(tmp_path, capsys, text)

    # Then one error line (no traceback) explains it, not tied to any turn, and the status is 2
    assert status == EXIT_ILLEGAL
    assert len(lines) == 1
    assert_turn_error(lines[0], None, fragment)


def test_check_deeply_nested_json_gives_an_error_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a file nesting arrays deeper than the JSON decoder can recurse
    text = "[" * 100_000 + "]" * 100_000

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, text)

    # Then it is refused as one error line, without a traceback
    assert status == EXIT_ILLEGAL
    assert_turn_error(result, None, "JSON")


def test_check_missing_file_gives_an_error_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a path where there is no file
    missing = tmp_path / "nowhere.json"

    # When it is checked
    status, [result] = run_check(tmp_path, capsys, missing)

    # Then the error line names the file
    assert status == EXIT_ILLEGAL
    assert_turn_error(result, None, "nowhere.json")


# -- several files ---------------------------------------------------------------------------


def test_check_several_files_print_one_line_each_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a valid partial record, an illegal one, a malformed file, and a complete one
    complete = yamb_record(["down"], down_column_turns("ana"))
    illegal = yamb_record(["free"], [FREE_ONES, FREE_ONES])

    # When they are checked in one command
    status, lines = run_check(tmp_path, capsys, EXAMPLE, illegal, "{oops", complete)

    # Then there is one line per file, in order, and the status is 2 for the illegal ones
    assert status == EXIT_ILLEGAL
    assert len(lines) == 4
    assert lines[0]["players"]["ben"]["total"] == 46
    assert_turn_error(lines[1], 1, "already written")
    assert_turn_error(lines[2], None, "JSON")
    assert lines[3]["winners"] == ["ana"]


def test_check_several_valid_files_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given two valid records
    complete = yamb_record(["down"], down_column_turns("ana"))

    # When they are checked together
    status, lines = run_check(tmp_path, capsys, complete, EXAMPLE)

    # Then both lines are summaries, in order, and the status is 0
    assert status == 0
    assert [line["complete"] for line in lines] == [True, False]


def test_check_without_a_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    # Given no record path
    # When `yamb check` runs
    with pytest.raises(SystemExit) as exit_info:
        main(["check"])

    # Then argparse refuses it with status 2
    assert exit_info.value.code == EXIT_ILLEGAL
    assert "GAME.json" in capsys.readouterr().err


# -- yamb score ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (["--grid", "yamb", "--row", "straight", "--dice", "2,3,4,5,6", "--roll", "2"], "56"),
        (["--row", "straight", "--dice", "2,3,4,5,6"], "66"),
        (["--row", "straight", "--dice", "6,5,4,3,1", "--roll", "3"], "0"),
        (["--row", "yamb", "--dice", "6,6,6,6,6,1"], "80"),
        (["--row", "min", "--dice", "1,1,6,6,6,6"], "20"),
        (["--grid", "classic", "--row", "small_straight", "--dice", "1,2,3,4,6"], "30"),
        (["--grid", "scandinavian", "--row", "two_pairs", "--dice", "5,5,3,3,1"], "16"),
        (["--grid", "generala", "--row", "full_house", "--dice", "2,2,3,3,3"], "35"),
    ],
    ids=[
        "yamb_straight_roll_2",
        "default_roll_1",
        "no_straight",
        "six_dice_best_five",
        "six_dice_lowest_five_for_min",
        "classic",
        "scandinavian",
        "generala_servida",
    ],
)
def test_score_prints_the_cell_score(
    capsys: pytest.CaptureFixture[str], args: list[str], printed: str
) -> None:
    # Given dice, a row and a roll
    # When `yamb score` runs
    status = main(["score", *args])

    # Then it prints the score alone and exits 0
    assert status == 0
    assert capsys.readouterr().out == printed + "\n"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--row", "straight", "--dice", "2,3,4"], "5 or 6 dice"),
        (["--row", "straight", "--dice", "2,3,4,5,7"], "from 1 to 6"),
        (["--row", "straight", "--dice", "2,3,x,5,6"], "separated by commas"),
        (["--row", "straight", "--dice", "2,3,4,5,6", "--roll", "4"], "invalid choice"),
        (["--grid", "chess", "--row", "ones", "--dice", "2,3,4,5,6"], "invalid choice"),
        (["--dice", "2,3,4,5,6"], "--row"),
        (["--row", "straight"], "--dice"),
    ],
    ids=["three_dice", "face_7", "not_numbers", "roll_4", "unknown_grid", "no_row", "no_dice"],
)
def test_score_bad_arguments_are_refused_with_a_usage_error(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    # Given bad arguments
    # When `yamb score` runs
    with pytest.raises(SystemExit) as exit_info:
        main(["score", *args])

    # Then it exits 2 with a message saying what is wrong, and prints no score
    captured = capsys.readouterr()
    assert exit_info.value.code == EXIT_ILLEGAL
    assert fragment in captured.err
    assert captured.out == ""


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--row", "sevens", "--dice", "2,3,4,5,6"], "no row 'sevens'"),
        (["--grid", "classic", "--row", "max", "--dice", "2,3,4,5,6"], "no row 'max'"),
        (["--grid", "classic", "--row", "chance", "--dice", "1,2,3,4,5,6"], "5 dice"),
    ],
    ids=["unknown_row", "row_of_another_grid", "six_dice_in_classic"],
)
def test_score_impossible_cell_gives_a_clear_error(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    # Given a row or dice count that the grid does not have
    # When `yamb score` runs
    status = main(["score", *args])

    # Then it exits 2 with a message naming the problem, and prints no score
    captured = capsys.readouterr()
    assert status == EXIT_ILLEGAL
    assert fragment in captured.err
    assert captured.out == ""


# -- layering: the core (the Lambda layer's yamb package) imports no client and no local stack --

OUTSIDE_THE_CORE = ("devstack", "yamb_client", "websockets", "boto3", "botocore")


def test_importing_every_core_module_pulls_in_no_client_local_stack_or_aws_sdk() -> None:
    # Given a fresh interpreter that imports the core's commands, then every module under
    # shared/yamb
    script = f"""
import importlib, pkgutil, sys
import yamb, yamb_tools.cli
after_cli = sorted({{m.split(".")[0] for m in sys.modules}} & set({OUTSIDE_THE_CORE!r}))
names = [m.name for m in pkgutil.walk_packages(yamb.__path__, "yamb.")]
for name in names:
    importlib.import_module(name)
after_all = sorted({{m.split(".")[0] for m in sys.modules}} & set({OUTSIDE_THE_CORE!r}))
print(after_cli, after_all, len(names))
"""
    # When it runs
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()

    # Then none of the outside packages was imported, and the walk did find the modules
    assert out[:2] == ["[]", "[]"]
    assert (
        int(out[2]) == len(list(Path(yamb.__path__[0]).rglob("*.py"))) - 1
    )  # all but yamb/__init__.py


def test_the_shipped_packages_hold_no_command_line_tool() -> None:
    # Given every module of the packages the domain layer ships (shared/: shared/Makefile)
    shared = Path(__file__).parents[2] / "shared"
    modules = sorted(shared.rglob("*.py"))
    assert len(modules) > 100

    # When their text is read
    tools = [
        path.relative_to(shared)
        for path in modules
        for text in [path.read_text(encoding="utf-8")]
        if "import argparse" in text
        or "__main__" in text
        or "import yamb_tools" in text
        or "from yamb_tools" in text
    ]

    # Then none parses a command line, runs as a script or imports the dev tools (yamb_tools)
    assert tools == []


def test_core_command_line_has_no_play_command(capsys: pytest.CaptureFixture[str]) -> None:
    # Given the core's own command line; when asked to play; then argparse refuses the command
    with pytest.raises(SystemExit) as exit_info:
        main(["play"])
    assert exit_info.value.code == EXIT_ILLEGAL
    assert "invalid choice: 'play'" in capsys.readouterr().err


def test_the_yamb_script_is_the_client_entry_with_the_core_commands_and_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given the console script pyproject.toml installs
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert pyproject["project"]["scripts"]["yamb"] == "yamb_client.cli:main"

    # When its help is asked for, then it offers the core's commands and play
    with pytest.raises(SystemExit):
        yamb_client.cli.main(["--help"])
    out = capsys.readouterr().out
    for command in ("check", "score", "demo", "play"):
        assert command in out

    # and a core command runs through it as through the core
    assert yamb_client.cli.main(["score", "--row", "straight", "--dice", "2,3,4,5,6"]) == 0
    assert capsys.readouterr().out == "66\n"
