"""`make dev`: run the whole backend locally until interrupted.

python -m devstack [--port 8765]     start the stack; prints the URL and players' tokens
python -m devstack token NAME        a token for a (new) local player of the running stack
"""

import argparse
import signal
import sys
import threading

from devstack.stack import (
    LOCAL_PASSWORD,
    STATE_FILE,
    LocalStack,
    LocalStackNotRunningError,
    local_token,
    write_state,
)

DEMO_PLAYERS = ("ana", "ben")


def serve(port: int) -> int:
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with LocalStack(port=port) as stack:
        write_state(stack)
        print(f"Yamb local stack up.\n  WebSocket: {stack.url}?token=<ID token>")
        print(f"  Embedded AWS: {stack.aws.endpoint_url}")
        for name in DEMO_PLAYERS:
            print(f"  token for {name}: {stack.player_token(name, LOCAL_PASSWORD)}")
        print("  More players: python -m devstack token NAME   (Ctrl-C stops the stack)")
        sys.stdout.flush()
        stop.wait()
    STATE_FILE.unlink(missing_ok=True)
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
