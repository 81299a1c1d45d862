"""`make dev`: run the whole backend locally until interrupted.

python -m devstack [--port 8765]     start the stack; prints the URL and players' tokens
python -m devstack token NAME        a token for a (new) local player of the running stack
"""

import argparse
import json
import signal
import sys
import threading

import boto3

from devstack.stack import STATE_FILE, LocalStack, write_state

DEMO_PLAYERS = ("ana", "ben")
PASSWORD = "Password-123"


def serve(port: int) -> int:
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with LocalStack(port=port) as stack:
        write_state(stack)
        print(f"Yamb local stack up.\n  WebSocket: {stack.url}?token=<ID token>")
        print(f"  Embedded AWS: {stack.aws.endpoint_url}")
        for name in DEMO_PLAYERS:
            print(f"  token for {name}: {stack.player_token(name, PASSWORD)}")
        print("  More players: python -m devstack token NAME   (Ctrl-C stops the stack)")
        sys.stdout.flush()
        stop.wait()
    STATE_FILE.unlink(missing_ok=True)
    return 0


def token(name: str) -> int:
    if not STATE_FILE.exists():
        print("no local stack is running: start it with `make dev`", file=sys.stderr)
        return 2
    state = json.loads(STATE_FILE.read_text(encoding="utf-8"))
    cognito = boto3.client(
        "cognito-idp",
        endpoint_url=state["endpoint"],
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    client_id = state["userPoolClientId"]
    try:
        cognito.sign_up(
            ClientId=client_id,
            Username=name,
            Password=PASSWORD,
            UserAttributes=[{"Name": "email", "Value": f"{name}@example.com"}],
        )
        cognito.admin_confirm_sign_up(UserPoolId=state["userPoolId"], Username=name)
    except cognito.exceptions.UsernameExistsException:
        pass
    answer = cognito.initiate_auth(
        ClientId=client_id,
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": name, "PASSWORD": PASSWORD},
    )
    print(answer["AuthenticationResult"]["IdToken"])
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
