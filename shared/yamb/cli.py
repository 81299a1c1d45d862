"""The `yamb` command: check recorded games, score one cell, watch a demo game."""

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from yamb.replay import check
from yamb.rules import GRIDS, row_scores

EXIT_ILLEGAL = 2


def _check(paths: Sequence[str]) -> int:
    status = 0
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            result = {"error": {"turn": None, "message": f"{path}: {error.strerror}"}}
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            result = {"error": {"turn": None, "message": f"{path}: not JSON: {error}"}}
        except RecursionError:
            result = {"error": {"turn": None, "message": f"{path}: JSON nested too deeply"}}
        else:
            result = check(data)
        if "error" in result:
            status = EXIT_ILLEGAL
        print(json.dumps(result), flush=True)
    return status


def _dice(text: str) -> tuple[int, ...]:
    try:
        dice = tuple(int(face) for face in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("dice are faces separated by commas: 2,3,4,5,6") from None
    if len(dice) not in (5, 6) or not all(1 <= face <= 6 for face in dice):
        raise argparse.ArgumentTypeError("5 or 6 dice, each from 1 to 6")
    return dice


def _score(grid_id: str, row_id: str, dice: tuple[int, ...], roll: int) -> int:
    grid = GRIDS[grid_id]
    if len(dice) not in grid.dice_counts:
        counts = " or ".join(map(str, grid.dice_counts))
        print(f"yamb score: the {grid_id} grid plays with {counts} dice", file=sys.stderr)
        return EXIT_ILLEGAL
    try:
        row = grid.row_index(row_id)
    except KeyError:
        rows = ", ".join(grid.row_ids)
        print(f"yamb score: no row {row_id!r} in {grid_id}; one of {rows}", file=sys.stderr)
        return EXIT_ILLEGAL
    print(row_scores(grid, dice, roll)[row])
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="yamb", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    check_parser = commands.add_parser(
        "check", help="replay recorded games; one JSON line per file, exit 2 if any is illegal"
    )
    check_parser.add_argument("records", nargs="+", metavar="GAME.json")

    score_parser = commands.add_parser("score", help="the score of one cell for some dice")
    score_parser.add_argument("--grid", choices=sorted(GRIDS), default="yamb")
    score_parser.add_argument("--row", required=True)
    score_parser.add_argument("--dice", type=_dice, required=True, help="e.g. 2,3,4,5,6")
    score_parser.add_argument("--roll", type=int, choices=(1, 2, 3), default=1)

    demo_parser = commands.add_parser("demo", help="watch a game played by the auto-move")
    demo_parser.add_argument("--preset", type=int, choices=range(1, 8), default=7)
    demo_parser.add_argument("--players", nargs="+", default=["ana", "ben"])
    demo_parser.add_argument("--seed", default="yamb")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "check":
        return _check(args.records)
    if args.command == "score":
        return _score(args.grid, args.row, args.dice, args.roll)
    from yamb.demo import play_demo  # noqa: PLC0415 - only the demo needs it

    return play_demo(args.preset, args.players, args.seed)


if __name__ == "__main__":
    sys.exit(main())
