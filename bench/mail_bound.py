"""The per-address mail bound under a flood (`make bench`): password resets for one address, sent
straight into the accounts function as the HTTP API passes them, paced at each `--rates` figure
from many threads at once, on the local stack's embedded AWS.

The local stack's own HTTP gateway answers 60-90 requests a second here
(tests/e2e/test_accounts_e2e.py's flood), too few for the question "does the bound hold at 100
a second and beyond?"; this run skips the gateway so the function and its table counter take the
whole rate. Each rate uses an address of its own, verified first (its verification mail is the
hour's first); the bound is 3 mails an hour per address (yamb.accounts.mail.ADDRESS_BOUNDS), so
each address must end the hour with exactly 3 mails however many resets came. It prints, per
rate, the rate reached, the answers and the mails; the exit status is 1 when an address got more
or fewer mails than the bound, or an answer was not the same 202.

    .venv/bin/python bench/mail_bound.py [--rates 100 200 400] [--seconds 5] [--threads 32]
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT)]

from yamb.accounts.mail import ADDRESS_BOUNDS  # noqa: E402

from devstack.stack import LocalStack  # noqa: E402

EVENT = ROOT / "events" / "http_register.json"


def reset_event(email: str) -> dict[str, Any]:
    """`POST /accounts/password-reset` as the HTTP API hands it to the accounts function."""
    event: dict[str, Any] = json.loads(EVENT.read_text(encoding="utf-8"))
    route = "POST /accounts/password-reset"
    event["routeKey"] = event["requestContext"]["routeKey"] = route
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/accounts/password-reset"
    event["requestContext"]["http"]["method"] = "POST"
    event["requestContext"]["requestId"] = uuid.uuid4().hex
    event["body"] = json.dumps({"email": email})
    event["isBase64Encoded"] = False
    return event


def flood(
    stack: LocalStack, email: str, rate: float, seconds: float, threads: int
) -> dict[str, Any]:
    handler = stack._handlers["AccountsFunction"]
    count = int(rate * seconds)
    start = time.monotonic()

    def ask(index: int) -> tuple[int, str]:
        time.sleep(max(0.0, start + index / rate - time.monotonic()))
        answer = handler(reset_event(email), stack.aws.lambda_context("AccountsFunction"))
        return answer["statusCode"], answer.get("body") or ""

    with ThreadPoolExecutor(max_workers=threads) as pool:
        answers = Counter(pool.map(ask, range(count)))
    took = time.monotonic() - start
    return {"requests": count, "reached": count / took, "answers": answers}


def hour_of(stack: LocalStack) -> int:
    return int(stack.aws.clock.now().timestamp() // 3600)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[100.0, 200.0, 400.0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--threads", type=int, default=32)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # a reset logs a line; thousands would bury the figures
    hourly = min(bound.limit for bound in ADDRESS_BOUNDS if bound.window.total_seconds() <= 3600)
    failed = False
    print(f"mail bound: resets for one address, {hourly} mails an hour allowed")
    with LocalStack() as stack:
        for rate in args.rates:
            name = f"mb{uuid.uuid4().hex[:8]}"
            stack.player_token(name)  # registers and verifies: a mail of this hour
            email = f"{name}@example.com"
            verified_in = hour_of(stack)
            result = flood(stack, email, rate, args.seconds, args.threads)
            # the windows are fixed hours: one that began during the flood starts a new count
            before = 1 if hour_of(stack) == verified_in else 0
            mails = len(stack.aws.mails(email)) - 1 + before
            answers = ", ".join(f"{n} x {status}" for (status, _), n in result["answers"].items())
            same = len(result["answers"]) == 1 and next(iter(result["answers"]))[0] == 202
            held = mails == hourly
            failed |= not (same and held)
            print(
                f"  paced at {rate:5.0f}/s: {result['requests']} resets at "
                f"{result['reached']:5.0f}/s reached; answers {answers}; "
                f"{mails} mails ({'held' if held else 'BROKEN'})"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
