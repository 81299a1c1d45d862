"""The `yamb` command: check recorded games, score one cell, watch a demo game, play one."""

import argparse
import getpass
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from yamb.replay import check
from yamb.rules import GRIDS, row_scores

EXIT_ILLEGAL = 2
PLAY_DESCRIPTION = """\
Create or join a game and play it by typing commands; the sheet, the dice, the legal cells with
their scores and the clock are shown after every change.

Without --url and --token it plays on the local stack started by `make dev`, as the player --name
(created if new). Commands are read from the terminal, or from a pipe until its end:
  printf 'new preset 1 seconds unlimited\\nstart\\nroll\\nwrite 1\\n' | yamb play

Commands: new [preset N] [players N] [seconds N|unlimited], list, join GAMEID, watch GAMEID,
start, roll [positions to keep], announce N, select N, write N (N: a legal cell's number, or
COLUMN ROW), resign, finish yes|no, leave, delete, sync, show, help, quit."""


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


def _login_name() -> str:
    try:
        return getpass.getuser() or "player"
    except OSError:
        return "player"


def _play(url: str | None, token: str | None, name: str) -> int:
    """Plays in the terminal; without a URL or token, on the running local stack as `name`."""
    if url is None or token is None:
        # Only the local stack needs devstack (and boto3): imported for this alone.
        from botocore.exceptions import BotoCoreError, ClientError  # noqa: PLC0415

        from devstack.stack import LocalStackNotRunningError, local_token, read_state  # noqa: PLC0415

        try:
            url = url or str(read_state()["url"])
            token = token or local_token(name)
        except LocalStackNotRunningError as error:
            print(f"yamb play: {error}, or give --url and --token", file=sys.stderr)
            return EXIT_ILLEGAL
        except (BotoCoreError, ClientError) as error:
            print(f"yamb play: the local stack does not answer ({error})", file=sys.stderr)
            return EXIT_ILLEGAL
    from yamb_client.session import play  # noqa: PLC0415 - only `yamb play` needs the client

    return play(url, token)


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

    play_parser = commands.add_parser(
        "play",
        help="play in the terminal, on the local stack or a deployed one",
        description=PLAY_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play_parser.add_argument(
        "--url",
        metavar="WS_URL",
        default=os.environ.get("YAMB_URL"),
        help="the service's WebSocket URL (default: $YAMB_URL, else the running local stack's)",
    )
    play_parser.add_argument(
        "--token",
        default=os.environ.get("YAMB_TOKEN"),
        help="a Cognito ID token (default: $YAMB_TOKEN, else one for --name on the local stack)",
    )
    play_parser.add_argument(
        "--name",
        default=_login_name(),
        help="the local stack's player to log in as (default: your login name)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "check":
        return _check(args.records)
    if args.command == "score":
        return _score(args.grid, args.row, args.dice, args.roll)
    if args.command == "play":
        return _play(args.url, args.token, args.name)
    from yamb.demo import play_demo  # noqa: PLC0415 - only the demo needs it

    return play_demo(args.preset, args.players, args.seed)


if __name__ == "__main__":
    sys.exit(main())
