"""The load test of `make bench` (bench/load_test.py), small: two games over real WebSockets
with a lost connection at every fifth action, checked move by move (issue 9, "Load").

It keeps the benchmark honest (a load test that no longer finishes its games, or that counts
wrong, fails here) and is itself a test of reconnects: an action re-sent after its answer was
lost is applied once.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_load_test_two_games_with_lost_connections_lose_and_double_no_move() -> None:
    # given the load test of two games, a connection lost at one action in five
    command = [sys.executable, "bench/load_test.py", "--games", "2", "--think", "0.02"]
    command += ["--reconnect", "0.2", "--seed", "7"]

    # when it runs
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )

    # then both games finished and were checked, after reconnects; no move was lost or doubled
    report = done.stdout
    assert done.returncode == 0, report + done.stderr
    assert "games finished and checked: 2/2" in report
    assert "moves lost: 0, doubled: 0" in report
    reconnects = re.search(r"reconnects: (\d+)", report)
    assert reconnects is not None
    assert int(reconnects.group(1)) > 0
    assert "errors by code: none" in report
    # and no client waited for a frame that never came (a quiet sync finding a newer game)
    assert "found a newer game" not in report or "(0 found a newer game)" in report
