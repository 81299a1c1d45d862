"""Stopping the local gateway with an invocation that does not end (issue 9, item 8).

A handler stuck in a call (its AWS gone, botocore retrying) must hold neither the stop, which
gives what is under way a grace period and cancels the rest, nor the process at exit.
"""

import json
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from devstack.gateway import LocalGateway
from tests.integration.test_gateway import WAIT, Recorder, allow, open_client

ROOT = Path(__file__).resolve().parents[2]


def test_stop_with_a_stuck_invocation_returns_after_its_grace() -> None:
    # given a gateway whose `stuck` route never ends on its own
    released = threading.Event()
    started = threading.Event()

    def stuck(event: object, _: object) -> None:
        started.set()
        released.wait(30)

    recorder = Recorder()
    handlers = {"stuck": stuck, "$disconnect": recorder.handler("$disconnect")}
    gateway = LocalGateway(handlers, allow()).run_in_thread().start()
    try:
        with open_client(gateway) as ws:
            ws.send(json.dumps({"action": "stuck"}))
            assert started.wait(WAIT)
            # when the gateway stops with a grace of half a second
            began = time.monotonic()
            gateway.stop(grace=0.5)
            elapsed = time.monotonic() - began
    finally:
        released.set()
    # then it stopped soon after the grace, and the connection's $disconnect had run
    assert elapsed < 2.0, f"stopped in {elapsed:.1f} s"
    assert len(recorder.events("$disconnect")) == 1


def test_a_stuck_invocation_does_not_hold_the_process_at_exit() -> None:
    # given a process whose gateway has a handler stuck for a minute when it stops
    script = textwrap.dedent(
        """
        import json, threading, time
        from websockets.sync.client import connect
        from devstack.gateway import LocalGateway

        started = threading.Event()

        def stuck(event, context):
            started.set()
            time.sleep(60)

        gateway = LocalGateway({"stuck": stuck}, identity_source=None).run_in_thread().start()
        with connect(gateway.url) as ws:
            ws.send(json.dumps({"action": "stuck"}))
            assert started.wait(5)
            gateway.stop(grace=0.2)
        print("stopped", flush=True)
        """
    )
    # when it ends / then it exits at once, without waiting for the handler's thread
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    elapsed = time.monotonic() - began
    assert done.returncode == 0, done.stderr
    assert "stopped" in done.stdout
    assert elapsed < 15, f"exited after {elapsed:.0f} s"
