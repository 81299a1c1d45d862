"""`make dev`: run the whole backend locally until interrupted.

python -m devstack [--port 8765]     start the stack; prints the URL and players' tokens
python -m devstack token NAME        a token for a (new) local player of the running stack

Ctrl-C (or SIGTERM) stops it within about two seconds, a second one at once. The stack says
where it is in .devstack.json at the project's root, or in the file $YAMB_DEVSTACK_STATE names
(`token` and `yamb play` read the same), removed when it stops.
"""

import argparse
import os
import signal
import sys
import threading
from types import FrameType

from devstack import stack as devstack_stack
from devstack.stack import (
    LOCAL_PASSWORD,
    LocalStack,
    LocalStackNotRunningError,
    local_token,
    write_state,
)

DEMO_PLAYERS = ("ana", "ben")


def _forget_state() -> None:
    devstack_stack.STATE_FILE.unlink(missing_ok=True)


def serve(port: int) -> int:
    """Runs the stack until SIGINT (Ctrl-C) or SIGTERM; a second signal ends the process at once.

    The state file goes whatever happens: a stop, a failed start, an exception, a second signal.
    """
    stop = threading.Event()

    def request_stop(signum: int, _: FrameType | None) -> None:
        if stop.is_set():  # asked again while stopping: out now
            _forget_state()
            os._exit(128 + signum)
        stop.set()

    previous = {
        number: signal.signal(number, request_stop) for number in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        with LocalStack(port=port) as stack:
            write_state(stack)
            print(f"Yamb local stack up.\n  WebSocket: {stack.url}?token=<ID token>")
            print(f"  Embedded AWS: {stack.aws.endpoint_url}")
            for name in DEMO_PLAYERS:
                print(f"  token for {name}: {stack.player_token(name, LOCAL_PASSWORD)}")
            print("  More players: python -m devstack token NAME   (Ctrl-C stops the stack)")
            sys.stdout.flush()
            # Not one blocking wait: a signal the kernel hands to another thread runs its
            # handler only once the main thread runs Python again.
            while not stop.wait(0.2):
                pass
            print("Stopping the local stack.", flush=True)
    finally:
        _forget_state()
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 0


def token(name: str) -> int:
    try:
        print(local_token(name))
    except LocalStackNotRunningError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m devstack", description=__doc__)
    parser.add_argument("--port", type=int, default=8765)
    commands = parser.add_subparsers(dest="command")
    token_parser = commands.add_parser("token", help="an ID token for a local player")
    token_parser.add_argument("name")
    args = parser.parse_args()
    if args.command == "token":
        return token(args.name)
    return serve(args.port)


if __name__ == "__main__":
    sys.exit(main())
