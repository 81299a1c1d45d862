"""scripts/smoke-check, the deploy guide's smoke check (docs/deploy.md), against the local stack."""

import subprocess
import sys
from pathlib import Path

from devstack.stack import LocalStack

SCRIPT = Path(__file__).parents[2] / "scripts" / "smoke-check"


def _smoke_check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_smoke_check_passes_on_a_running_stack(stack: LocalStack) -> None:
    # given the local stack's URLs and a player's ID token
    token = stack.player_token("smoke")
    # when the smoke check runs against them
    run = _smoke_check(stack.gateway.http_url, stack.url, "--token", token)
    # then its three checks pass: a public route, a refused handshake, list_games answered
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("ok ") == 3
    assert "list_games is answered" in run.stdout


def test_smoke_check_fails_on_a_refused_token(stack: LocalStack) -> None:
    # given a token the authorizer refuses
    # when the smoke check runs with it
    run = _smoke_check(stack.gateway.http_url, stack.url, "--token", "not-a-token")
    # then the first two checks pass, the third fails, and the exit status says so
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAIL  WebSocket: the handshake with the token: HTTP 401" in run.stdout
