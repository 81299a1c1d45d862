"""The `yamb` command's core: check recorded games, score one cell, watch a demo game, build a
solver table, verify dice.

These need nothing but the game core (yamb); they are development tools, not shipped to Lambda.
The `yamb` console script is yamb_client.cli, which adds `yamb play` (the terminal client, and
the local stack) to CORE_COMMANDS; another front end can add its own commands the same way.
"""

import argparse
import gzip
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from yamb import fair_dice
from yamb.replay import check
from yamb.rules import GRIDS, row_scores

EXIT_ILLEGAL = 2


@dataclass(frozen=True, slots=True)
class Command:
    """One `yamb` subcommand: its name and help, its arguments, and what it runs."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    # A longer text for `yamb NAME --help`, printed as written.
    description: str | None = None


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


def _verify(path: str) -> int:
    """Recomputes every die of a dice record (the `verify` action's answer, docs/dice.md) from
    its revealed seed; one JSON line, exit 2 when the seed or a die does not match."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        result = verify_record(record)
    except OSError as error:
        result = {"ok": False, "error": f"{path}: {error.strerror}"}
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        result = {"ok": False, "error": f"{path}: not JSON: {error}"}
    except (KeyError, TypeError, ValueError, RecursionError) as error:
        result = {"ok": False, "error": f"{path}: not a dice record ({error!s:.200})"}
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else EXIT_ILLEGAL


def _verify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        action="store_true",
        help="FILE holds games of the open game database (a month's .jsonl.gz, or lines of it)",
    )
    parser.add_argument("record", metavar="FILE")


def _verify_games(path: str) -> int:
    """Verifies each game of an open database file (gzip or not): one JSON line per game, exit
    2 when one does not verify or the file cannot be read."""
    status = 0
    try:
        data = Path(path).read_bytes()
        if data[:2] == b"\x1f\x8b":  # gzip's magic number
            data = gzip.decompress(data)
        lines = data.decode().splitlines()
    except (OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError) as error:
        print(json.dumps({"ok": False, "error": f"{path}: {error!s:.200}"}), flush=True)
        return EXIT_ILLEGAL
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            result = verify_game_line(json.loads(text))
        except (json.JSONDecodeError, RecursionError) as error:
            result = {"ok": False, "error": f"line {number}: not JSON: {error!s:.200}"}
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            result = {"ok": False, "error": f"line {number}: not a game ({error!s:.200})"}
        if not result["ok"]:
            status = EXIT_ILLEGAL
        print(json.dumps(result), flush=True)
    return status


def verify_game_line(line: dict[str, object]) -> dict[str, object]:
    """What `yamb verify --game` says of one game of the open database: its dice verified
    (verify_record), its record and moves turn for turn, and the record of this very game."""
    if line.get("format") != "yamb-game/1":
        raise ValueError(f"format {line.get('format')!r}, not yamb-game/1")
    game_id, dice, moves = line["id"], line["dice"], line["moves"]
    if not isinstance(dice, dict) or not isinstance(moves, list):
        raise TypeError("dice is not an object or moves not a list")
    if dice.get("gameId") != game_id:
        return {"id": game_id, "ok": False, "error": "the dice record is another game's"}
    turns = dice.get("turns")
    if not isinstance(turns, list) or len(turns) != len(moves):
        return {"id": game_id, "ok": False, "error": "the moves do not match the turns"}
    return {"id": game_id, **verify_record(dice)}


def verify_record(record: dict[str, object]) -> dict[str, object]:
    """What `yamb verify` says of a dice record: ok, or the first thing that does not match."""
    scheme = record.get("scheme")
    if scheme not in fair_dice.SCHEMES:
        raise ValueError(f"scheme {scheme!r}, not one of {', '.join(fair_dice.SCHEMES)}")
    seed, published = str(record["seed"]), str(record["commitment"])
    if not fair_dice.seed_matches(seed, published):
        return {"ok": False, "error": "the seed does not match its commitment"}
    seeds = record.get("clientSeeds") or {}
    commitments = record.get("commitments") or {}
    if not isinstance(seeds, dict) or not isinstance(commitments, dict):
        raise TypeError("clientSeeds or commitments is not an object")
    client_seeds = {str(k): str(v) for k, v in seeds.items()}
    # /3: every player's seed is the one they committed to before the start.
    problem = fair_dice.seeds_problem(
        client_seeds, {str(k): str(v) for k, v in commitments.items()}, str(scheme)
    )
    if problem is not None:
        return {"ok": False, "error": problem}
    # A duplicate tournament's games share a deal: its id is in the key where a game's would be.
    dealt = str(record.get("deal") or record["gameId"])
    key = fair_dice.game_key(seed, dealt, client_seeds, str(scheme))
    turns = record["turns"]
    if not isinstance(turns, list):
        raise TypeError("turns is not a list")
    count = record["diceCount"]
    if count not in (5, 6):
        raise ValueError(f"diceCount {count!r}")
    recorded = [fair_dice.parse_turn(str(t)) for t in turns]
    same_dice = bool(record.get("sameDice", False))
    problem = fair_dice.label_problem(recorded, same_dice)
    if problem is not None:
        return {"ok": False, "error": problem}
    seats = fair_dice.binds_seats(str(scheme), same_dice)
    mismatch = fair_dice.first_mismatch(key, recorded, count, seats=seats)
    if mismatch is None:
        return {"ok": True, "turns": len(turns)}
    return {"ok": False, "mismatch": asdict(mismatch)}


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


def _check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("records", nargs="+", metavar="GAME.json")


def _score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--grid", choices=sorted(GRIDS), default="yamb")
    parser.add_argument("--row", required=True)
    parser.add_argument("--dice", type=_dice, required=True, help="e.g. 2,3,4,5,6")
    parser.add_argument("--roll", type=int, choices=(1, 2, 3), default=1)


def _demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", type=int, choices=range(1, 8), default=7)
    parser.add_argument("--players", nargs="+", default=["ana", "ben"])
    parser.add_argument("--seed", default="yamb")


def _demo(args: argparse.Namespace) -> int:
    from yamb_tools.demo import play_demo  # noqa: PLC0415 - only the demo needs it

    return play_demo(args.preset, args.players, args.seed)


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    family = sorted(grid_id for grid_id, grid in GRIDS.items() if not grid.has_column_types)
    parser.add_argument("grid", choices=family)
    parser.add_argument(
        "--out",
        type=Path,
        help="the directory to write GRID.npz and GRID.npz.sha256 to "
        "(default: .cache/solver, or $YAMB_SOLVER_CACHE)",
    )


def _solve(args: argparse.Namespace) -> int:
    # The solver needs numpy, which only this command loads.
    from yamb_tools.solve import solve  # noqa: PLC0415

    return solve(args.grid, args.out)


CORE_COMMANDS = (
    Command(
        "check",
        "replay recorded games; one JSON line per file, exit 2 if any is illegal",
        _check_arguments,
        lambda args: _check(args.records),
    ),
    Command(
        "score",
        "the score of one cell for some dice",
        _score_arguments,
        lambda args: _score(args.grid, args.row, args.dice, args.roll),
    ),
    Command("demo", "watch a game played by the auto-move", _demo_arguments, _demo),
    Command(
        "solve",
        "solve a family grid's optimal solitaire play and write its table",
        _solve_arguments,
        _solve,
        description=(
            "Backward induction over every state of the grid (a minute for classic and\n"
            "scandinavian, seconds for yacht and generala); prints the build time, the\n"
            "expected score and the table's sizes. Players load it with Solver.load(GRID)."
        ),
    ),
    Command(
        "verify",
        "recompute every die of a dice record from its revealed seed; exit 2 if one differs",
        _verify_arguments,
        lambda args: _verify_games(args.record) if args.game else _verify(args.record),
        description=(
            "FILE: the answer to the `verify` action of an ended game (docs/dice.md); with\n"
            "--game, a file of the open game database (yamb_games_YYYY-MM.jsonl.gz, or lines of\n"
            "it): every game in it, one JSON line each (docs/competition.md)."
        ),
    ),
)


DESCRIPTION = (
    "The `yamb` command: check recorded games, score one cell, watch a demo game, verify dice."
)


def parser(
    commands: Sequence[Command] = CORE_COMMANDS, description: str = DESCRIPTION
) -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="yamb", description=description)
    subcommands = root.add_subparsers(dest="command", required=True)
    for command in commands:
        command.arguments(
            subcommands.add_parser(
                command.name,
                help=command.help,
                description=command.description,
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
        )
    return root


def main(
    argv: Sequence[str] | None = None,
    commands: Sequence[Command] = CORE_COMMANDS,
    description: str = DESCRIPTION,
) -> int:
    """Runs one of `commands` (the core's by default) as the `yamb` command line says."""
    args = parser(commands, description).parse_args(argv)
    by_name = {command.name: command for command in commands}
    return by_name[args.command].run(args)


if __name__ == "__main__":
    sys.exit(main())
