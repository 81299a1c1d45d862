"""The `yamb` console script: the core's commands (yamb_tools.cli) and `yamb play`.

`yamb play` needs the terminal client (websockets) and, to find the local stack, devstack (and
boto3); the core commands import neither. Both are imported only when
`yamb play` runs, so that `yamb check` and the others start as fast as before.
"""

import argparse
import getpass
import os
import sys
from collections.abc import Sequence
from functools import partial

from yamb.i18n import negotiate
from yamb_tools.cli import CORE_COMMANDS, EXIT_ILLEGAL, Command
from yamb_tools.cli import main as core_main

DESCRIPTION = (
    "The `yamb` command: check recorded games, score one cell, watch a demo game, play one."
)
PLAY_DESCRIPTION = """\
Create or join a game and play it by typing commands; the sheet, the dice, the legal cells with
their scores and the clock are shown after every change.

Without --url and --token it plays on the local stack started by `make dev`, as the player --name
(created if new). Commands are read from the terminal, or from a pipe until its end:
  printf 'new preset 1 seconds unlimited\\nstart\\nroll\\nwrite 1\\n' | yamb play

Commands: new [preset N] [players N] [seconds N|unlimited], list, join GAMEID, watch GAMEID,
start, roll [positions to keep], announce N, select N, write N (N: a legal cell's number, or
COLUMN ROW), resign, finish yes|no, leave, delete, sync, show, help, quit."""


def _login_name() -> str:
    try:
        return getpass.getuser() or "player"
    except OSError:
        return "player"


def _play(url: str | None, token: str | None, name: str, language: str | None = None) -> int:
    """Plays in the terminal, in `language` (else the locale's); without a URL or token, on
    the running local stack as `name` (signed in again whenever the short-lived token
    expires)."""
    from yamb_client.words import from_environment, use_language  # noqa: PLC0415

    use_language(negotiate(language) if language else from_environment())
    renew_token = None
    if url is None or token is None:
        # Only the local stack needs devstack (and boto3): imported for this alone.
        from botocore.exceptions import BotoCoreError, ClientError  # noqa: PLC0415

        from devstack.stack import LocalStackNotRunningError, local_token, read_state  # noqa: PLC0415

        try:
            url = url or str(read_state()["url"])
            if token is None:
                token = local_token(name)
                renew_token = partial(local_token, name)
        except LocalStackNotRunningError as error:
            print(f"yamb play: {error}, or give --url and --token", file=sys.stderr)
            return EXIT_ILLEGAL
        except (BotoCoreError, ClientError) as error:
            print(f"yamb play: the local stack does not answer ({error})", file=sys.stderr)
            return EXIT_ILLEGAL
    from yamb_client.session import play  # noqa: PLC0415 - websockets, for `yamb play` alone

    return play(url, token, renew_token=renew_token)


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url",
        metavar="WS_URL",
        default=os.environ.get("YAMB_URL"),
        help="the service's WebSocket URL (default: $YAMB_URL, else the running local stack's)",
    )
    parser.add_argument(
        "--token",
        default=os.environ.get("YAMB_TOKEN"),
        help="a Cognito ID token (default: $YAMB_TOKEN, else one for --name on the local stack)",
    )
    parser.add_argument(
        "--name",
        default=_login_name(),
        help="the local stack's player to log in as (default: your login name)",
    )
    parser.add_argument(
        "--language",
        choices=("en", "fr", "da", "hr"),
        default=None,
        help="the language the client speaks (default: the locale's, from $LANG, else English)",
    )


PLAY = Command(
    "play",
    "play in the terminal, on the local stack or a deployed one",
    _play_arguments,
    lambda args: _play(args.url, args.token, args.name, args.language),
    description=PLAY_DESCRIPTION,
)
COMMANDS = (*CORE_COMMANDS, PLAY)


def main(argv: Sequence[str] | None = None) -> int:
    return core_main(argv, COMMANDS, DESCRIPTION)


if __name__ == "__main__":
    sys.exit(main())
