"""`make dev`: run the whole backend locally until interrupted.

python -m devstack [--port 8765] [--web-port 8766]
                                            start the stack; prints its URLs and players' tokens
                                            (ana and ben hold premium; other local players are
                                            free accounts: presets 1 and 2)
                                            (the web client on --web-port, by default --port + 1)
python -m devstack token NAME               a token for a (new) local player of the running stack
python -m devstack mail [--to ADDRESS] [--last N]
                                            the running stack's latest mails, with their links
python -m devstack job NAME [--now ISO]     run a scheduled job (e.g. AccountJobsFunctionDaily) on
                                            the running stack, as of `--now` (2027-01-05T03:15:00Z)
python -m devstack job --list               the scheduled jobs

Ctrl-C (or SIGTERM) stops it within about two seconds, a second one at once. The stack says
where it is in .devstack.json at the project's root, or in the file $YAMB_DEVSTACK_STATE names
(`token`, `mail`, `job` and `yamb play` read the same), removed when it stops.
"""

import argparse
import json
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

from devstack import stack as devstack_stack
from devstack.gateway import iso8601_utc
from devstack.stack import (
    LOCAL_PASSWORD,
    PROJECT_ROOT,
    LocalCallError,
    LocalStack,
    LocalStackNotRunningError,
    local_jobs,
    local_mails,
    local_run_job,
    local_token,
    write_state,
)
from devstack.template import Template
from devstack.ticker import Ticker

DEMO_PLAYERS = ("ana", "ben")


def _forget_state() -> None:
    devstack_stack.STATE_FILE.unlink(missing_ok=True)


def _print_started(stack: LocalStack) -> None:
    print("Yamb local stack up.")
    print(f"  Web client: {stack.web_url}")
    print(f"  WebSocket: {stack.url}?token=<ID token>")
    print(f"  HTTP API: {stack.gateway.http_url}  (Authorization: <ID token>)")
    print(f"  OpenAPI: {stack.gateway.openapi_url}")
    print(f"  Mailbox: {stack.gateway.mailbox_url}  (python -m devstack mail)")
    jobs = ", ".join(schedule.name for schedule in stack.schedules())
    if jobs:
        print(f"  Jobs: {jobs}  (python -m devstack job NAME [--now ISO])")
    print(f"  Embedded AWS: {stack.aws.endpoint_url}")


def serve(port: int, web_port: int | None = None) -> int:
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
        with LocalStack(port=port, web_port=web_port) as stack:
            write_state(stack)
            _print_started(stack)
            for name in DEMO_PLAYERS:
                print(f"  token for {name}: {stack.player_token(name, LOCAL_PASSWORD)}")
                # The demo players can try every preset; others are free accounts.
                print(f"  {name} holds premium until {iso8601_utc(stack.grant_premium(name))}")
            print("  More players: python -m devstack token NAME   (Ctrl-C stops the stack)")
            sys.stdout.flush()
            # The rate jobs (the tournaments' minute) run by themselves, as EventBridge's would.
            ticker = Ticker(stack.schedules(), stack.run_job).start()
            # Not one blocking wait: a signal the kernel hands to another thread runs its
            # handler only once the main thread runs Python again.
            while not stop.wait(0.2):
                pass
            print("Stopping the local stack.", flush=True)
            ticker.stop()
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


def _print_mail(mail: dict[str, Any]) -> None:
    recipients = ", ".join([*mail.get("to", []), *mail.get("cc", []), *mail.get("bcc", [])])
    print(f"{mail.get('sentAt') or '-'}  {mail.get('from')} -> {recipients}")
    print(f"  {mail.get('subject') or '(no subject)'}")
    if mail.get("error"):
        print(f"  ! {mail['error']}")
    for link in mail.get("links") or []:
        print(f"  {link}")


def mail(to: str | None, last: int) -> int:
    """The `last` newest mails (to `to`), oldest of them first: the newest ends next to the
    prompt."""
    try:
        mails = local_mails(to=to, last=last)
    except (LocalStackNotRunningError, LocalCallError) as error:
        print(error, file=sys.stderr)
        return 2
    if not mails:
        print("No mail" + (f" to {to}." if to else "."))
        return 0
    for index, item in enumerate(reversed(mails)):
        if index:
            print()
        _print_mail(item)
    return 0


def _print_jobs(jobs: list[dict[str, Any]]) -> None:
    for job in jobs:
        state = "" if job.get("enabled", True) else "  (disabled)"
        timezone = f" {job['timezone']}" if job.get("timezone") else ""
        print(f"{job['name']}  {job['expression']}{timezone}  input {json.dumps(job['input'])}")
        print(f"  -> {job['function']}{state}")


def job(name: str | None, now: str | None, list_only: bool) -> int:
    if list_only:
        try:
            jobs = local_jobs()
        except LocalStackNotRunningError:  # the template says the same
            jobs = [
                {
                    "name": s.name,
                    "function": s.function,
                    "expression": s.expression,
                    "timezone": s.timezone,
                    "input": s.input,
                    "enabled": s.enabled,
                }
                for s in Template(PROJECT_ROOT / "template.yaml").schedules()
            ]
        _print_jobs(jobs)
        return 0
    if name is None:
        print("name a job (python -m devstack job --list)", file=sys.stderr)
        return 2
    try:
        stamp = None if now is None else iso8601_utc(now)
        result = local_run_job(name, stamp)
    except ValueError as error:
        print(f"--now: {error}", file=sys.stderr)
        return 2
    except LocalStackNotRunningError as error:
        print(error, file=sys.stderr)
        return 2
    except LocalCallError as error:
        if error.status != 500:  # no such job, a bad moment
            print(error, file=sys.stderr)
            return 2
        print(json.dumps(error.detail, indent=2), file=sys.stderr)  # the job's own failure
        return 1
    print(json.dumps(result, indent=2))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m devstack",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--web-port",
        type=int,
        default=None,
        help="the web client's port (default: --port + 1, a free one when --port is 0)",
    )
    commands = parser.add_subparsers(dest="command")
    token_parser = commands.add_parser("token", help="an ID token for a local player")
    token_parser.add_argument("name")
    mail_parser = commands.add_parser("mail", help="the latest mails of the local mailbox")
    mail_parser.add_argument("--to", help="only the mails to this address")
    mail_parser.add_argument("--last", type=int, default=5, help="how many (default 5)")
    job_parser = commands.add_parser("job", help="run a scheduled job of the running stack")
    job_parser.add_argument("name", nargs="?", help="the schedule, e.g. AccountJobsFunctionDaily")
    job_parser.add_argument("--now", help="run it as of this moment (ISO 8601, UTC)")
    job_parser.add_argument("--list", action="store_true", help="list the scheduled jobs")
    args = parser.parse_args()
    if args.command == "token":
        return token(args.name)
    if args.command == "mail":
        return mail(args.to, args.last)
    if args.command == "job":
        return job(args.name, args.now, args.list)
    return serve(args.port, args.web_port)


if __name__ == "__main__":
    sys.exit(main())
