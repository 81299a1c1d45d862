"""The general chat at scale (`make bench`): with 1,000 players connected to the local stack and
listening, how long a line takes to reach them all, how many frames that costs, and what the
same chat costs at 10,000 and 100,000 players (decision 185).

It starts the local stack (`python -m devstack`, in its own process), signs up LISTENERS players,
connects each over a real WebSocket and opens the general chat on it, then one more player says
LINES lines, a second and a half apart. Every listener records when each line arrives; a line's
delivery latency is the time from its sending to its arrival, per listener. The baseline, timed
in the same run on the same stack, is a `ping`'s round trip on the speaker's connection: the
latency is printed as a ratio to it too (these machines are noisy). Frames are counted as the
listeners receive them: the batches, one frame per listener each, whatever the lines in it.

The arithmetic at 10,000 and 100,000 listeners uses the same rules (yamb.social.chats: a batch
every `flush_interval(listeners)`, at most BROADCAST_BUDGET frames a second) and the prices of
bench/prices.json, for a chat that never falls silent (a line at least every batch, all day).

    .venv/bin/python bench/general_chat_bench.py [--listeners 1000] [--lines 5]

Exit status 1 when a listener misses a line; latencies are figures, never a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT / "bench"))

from cost_model import load_prices  # noqa: E402
from load_test import Stack  # noqa: E402
from yamb.social import chats  # noqa: E402

GAP_SECONDS = 1.5
# An answer, or a line, later than this is taken as lost.
WAIT_SECONDS = 60.0


async def _answer(socket: ClientConnection, request_id: str) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), WAIT_SECONDS))
        if frame.get("requestId") == request_id:
            if frame["type"] == "error":
                raise RuntimeError(f"refused: {frame}")
            return frame


async def _listen(socket: ClientConnection, arrived: dict[str, float], frames: list[int]) -> None:
    try:
        while True:
            frame = json.loads(await socket.recv())
            if frame.get("type") == "general_chat" and frame.get("requestId") is None:
                frames[0] += 1
                now = time.monotonic()
                for line in frame["lines"]:
                    arrived.setdefault(line["text"], now)
    except Exception:  # the socket closed at the end
        return


async def _run(
    stack: Stack, tokens: list[str], lines: int
) -> tuple[list[float], list[float], int, int]:
    url = stack.url
    speaker, *listeners = [
        await connect(f"{url}?token={token}", max_queue=None) for token in tokens
    ]
    for number, socket in enumerate(listeners):
        await socket.send(
            json.dumps({"action": "general_chat_open", "requestId": f"open-{number}"})
        )
        await _answer(socket, f"open-{number}")
    arrivals = [dict[str, float]() for _ in listeners]
    frames = [[0] for _ in listeners]
    tasks = [
        asyncio.create_task(_listen(s, a, f))
        for s, a, f in zip(listeners, arrivals, frames, strict=True)
    ]
    # The baseline: a ping's round trip on the speaker's connection, timed in this run.
    pings = []
    for number in range(10):
        began = time.monotonic()
        await speaker.send(json.dumps({"action": "ping", "requestId": f"ping-{number}"}))
        await _answer(speaker, f"ping-{number}")
        pings.append(time.monotonic() - began)
    sent: dict[str, float] = {}
    for number in range(lines):
        text = f"line {number}"
        sent[text] = time.monotonic()
        await speaker.send(
            json.dumps({"action": "general_chat", "requestId": f"say-{number}", "text": text})
        )
        await _answer(speaker, f"say-{number}")
        await asyncio.sleep(GAP_SECONDS)
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and any(len(a) < lines for a in arrivals):
        await asyncio.sleep(0.2)
    latencies = [a[text] - at for a in arrivals for text, at in sent.items() if text in a]
    missed = sum(1 for a in arrivals for text in sent if text not in a)
    for task in tasks:
        task.cancel()
    for socket in [speaker, *listeners]:
        await socket.close()
    return latencies, pings, sum(f[0] for f in frames), missed


def _arithmetic(listeners: int) -> str:
    prices = load_prices()
    interval = chats.flush_interval(listeners)
    per_second = listeners / interval
    per_day = per_second * 86_400
    messages = prices["websocket_messages"].of(per_day)
    # The deliverer's invocation: it waits the batch out, then posts at the budget (512 MB).
    seconds = interval + listeners / chats.BROADCAST_BUDGET
    lambda_cost = prices["lambda_gb_seconds_arm64"].of(86_400 / interval * seconds * 0.5)
    capped = "" if listeners <= chats.MAX_LISTENERS else "  (over MAX_LISTENERS: refused today)"
    return (
        f"{listeners:>7,} listeners: a batch every {interval:>5.0f} s, {per_second:>6,.0f} posts/s "
        f"({per_second / 10_000:.0%} of the account's 10,000 req/s), {per_day / 1e6:>6.1f} M "
        f"frames/day = ${messages:,.0f}/day in messages + ${lambda_cost:,.2f}/day in Lambda{capped}"
    )


def _token(stack: Stack, name: str) -> str:
    """A player's token; a sign-in racing its own sign-up on the local Cognito is tried again."""
    for attempt in range(4):
        try:
            return stack.token(name)
        except Exception:
            if attempt == 3:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=1_000)
    parser.add_argument("--lines", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        stack = Stack(Path(directory))
        try:
            began = time.monotonic()
            with ThreadPoolExecutor(4) as pool:
                tokens = list(
                    pool.map(
                        lambda name: _token(stack, name),
                        [f"gc{n}" for n in range(options.listeners + 1)],
                    )
                )
            print(f"signed up {len(tokens)} players in {time.monotonic() - began:.0f} s")
            latencies, pings, frames, missed = asyncio.run(_run(stack, tokens, options.lines))
        finally:
            stack.stop()
    baseline = statistics.median(pings)
    cuts = (
        statistics.quantiles(latencies, n=100, method="inclusive")
        if len(latencies) > 1
        else latencies * 99
    )
    print(
        f"general chat, {options.listeners:,} listeners, "
        f"{options.lines} lines {GAP_SECONDS} s apart"
    )
    print(f"  baseline (ping round trip, median): {baseline * 1000:.0f} ms")
    print(
        f"  delivery latency p50 {cuts[49] * 1000:.0f} ms "
        f"({cuts[49] / baseline:.1f}x the baseline), p95 {cuts[94] * 1000:.0f} ms "
        f"({cuts[94] / baseline:.1f}x), max {max(latencies) * 1000:.0f} ms"
    )
    print(
        f"  frames received: {frames:,} for {options.lines * options.listeners:,} line deliveries "
        f"({frames / max(1, options.lines * options.listeners):.2f} frames a line and listener); "
        f"missed: {missed}"
    )
    print("the same rules at scale (a chat that never falls silent, all day):")
    for listeners in (1_000, 10_000, 100_000):
        print("  " + _arithmetic(listeners))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
