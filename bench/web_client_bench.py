"""The web client's figures (`make bench`): its first load on the local stack (bytes
transferred, time to the game list) and the time from a click on Roll to the new dice shown.

Both are timed in a real browser (Debian's Chromium through Playwright, as the browser tests
run it) against a local stack in this process, and each beside a baseline timed in the same run
on the same stack without a browser, so that the ratio says what the page adds (these machines
are noisy; the absolute times are the local stack's, not AWS's):

- first load: a fresh browser context with a signed-in player's token opens the page; timed
  until the game list is drawn. Baseline: the same requests from Python (the page's files over
  HTTP, then a WebSocket handshake, `sync` and `list_games`).
- roll: in a solo game the page's Roll button is clicked and the time until the dice on the
  page change is taken in the page (performance.now() around a MutationObserver). Baseline: the
  same `roll` sent by a Python WebSocket client and its game frame received.

    .venv/bin/python bench/web_client_bench.py [--rolls 30] [--loads 5]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from devstack.stack import LocalStack  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PAGE_FILES = (
    "",
    "style.css",
    "js/main.js",
    "js/api.js",
    "js/connection.js",
    "js/dom.js",
    "js/game.js",
    "js/labels.js",
    "js/lobby.js",
    "js/sheet.js",
    "config.json",
    "catalog.json",
)


class Protocol:
    """A bare WebSocket client: the baseline's side of each figure."""

    def __init__(self, url: str, token: str) -> None:
        self.socket = connect(f"{url}?token={token}").__enter__()
        self.numbers = 0

    def ask(self, action: str, **fields: Any) -> dict[str, Any]:
        self.numbers += 1
        request_id = f"bench-{self.numbers}"
        self.socket.send(json.dumps({"action": action, "requestId": request_id, **fields}))
        while True:
            frame: dict[str, Any] = json.loads(self.socket.recv(timeout=10))
            if frame.get("requestId") == request_id:
                if frame["type"] == "error":
                    raise RuntimeError(frame)
                return frame

    def close(self) -> None:
        self.socket.close()


def baseline_load(stack: LocalStack, token: str) -> tuple[float, int]:
    """Seconds and bytes of the page's requests made without a browser."""
    started = time.perf_counter()
    size = 0
    for name in PAGE_FILES:
        with urllib.request.urlopen(f"{stack.web_url}{name}") as answer:
            size += len(answer.read())
    client = Protocol(stack.url, token)
    client.ask("sync")
    client.ask("list_games")
    client.close()
    return time.perf_counter() - started, size


def browser_load(browser: Any, stack: LocalStack, token: str) -> tuple[float, int]:
    """Seconds to the drawn game list, and bytes transferred, of a first load in a fresh
    context (its session already holding the player's token)."""
    context = browser.new_context()
    context.add_init_script(f"sessionStorage.setItem('yamb.token', {json.dumps(token)})")
    page = context.new_page()
    sizes: list[int] = []
    page.on(
        "requestfinished",
        lambda request: sizes.append(
            request.sizes()["responseBodySize"] + request.sizes()["responseHeadersSize"]
        ),
    )
    started = time.perf_counter()
    page.goto(stack.web_url)
    page.wait_for_selector("#game-list li", state="attached")
    elapsed = time.perf_counter() - started
    page.wait_for_load_state("networkidle")
    context.close()
    return elapsed, sum(sizes)


CLICK_TO_DICE = """
() => new Promise((resolve) => {
  const dice = document.getElementById("game-turn");
  const before = JSON.stringify([...document.querySelectorAll(".die")].map((d) => d.dataset.face));
  const roll = document.querySelector(".turn-head").textContent;
  const started = performance.now();
  const observer = new MutationObserver(() => {
    const head = document.querySelector(".turn-head");
    if (head && head.textContent !== roll) {
      observer.disconnect();
      resolve(performance.now() - started);
    }
  });
  observer.observe(dice, { childList: true, subtree: true, characterData: true });
  document.getElementById("roll").click();
})
"""


def browser_rolls(page: Page, rolls: int) -> list[float]:
    """Milliseconds from a click on Roll to the new roll drawn, `rolls` times (a turn has two
    rerolls; then its first legal cell is written and the next turn rolled)."""
    timings: list[float] = []
    while len(timings) < rolls:
        page.wait_for_selector("#roll:not([disabled])")
        timings.append(float(page.evaluate(CLICK_TO_DICE)))
        if page.locator("#roll[disabled]").count():
            written = page.locator("td.written").count()
            page.locator("td.legal button").first.click()
            page.wait_for_function(f"document.querySelectorAll('td.written').length > {written}")
    return timings


def protocol_rolls(client: Protocol, game_id: str, rolls: int) -> list[float]:
    timings: list[float] = []
    while len(timings) < rolls:
        started = time.perf_counter()
        frame = client.ask("roll", gameId=game_id, keep=[])
        timings.append((time.perf_counter() - started) * 1000)
        turn = frame["game"]["turn"]
        if not turn["canRoll"]:
            cell = turn["legal"][0]
            client.ask("write", gameId=game_id, column=cell["column"], row=cell["row"])
    return timings


def solo_game(client: Protocol) -> str:
    frame = client.ask("create_game", settings={"players": 1, "preset": 7})
    game_id = str(frame["game"]["gameId"])
    client.ask("start_game", gameId=game_id)
    return game_id


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=30)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    with LocalStack() as stack, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        token = stack.player_token("bench-loader")
        browser_load(browser, stack, token)  # warm: every function's first call
        baseline_load(stack, token)
        loads: list[tuple[float, int]] = []
        bases: list[tuple[float, int]] = []
        for _ in range(args.loads):  # alternated, so that noise falls on both alike
            loads.append(browser_load(browser, stack, token))
            bases.append(baseline_load(stack, token))
        load_s = statistics.median(s for s, _ in loads)
        base_s = statistics.median(s for s, _ in bases)
        print("Web client, first load on the local stack (median of", args.loads, "loads):")
        print(f"  bytes transferred: {loads[0][1]:,} (the files alone: {bases[0][1]:,})")
        print(
            f"  time to the game list: {load_s * 1000:.0f} ms; without a browser "
            f"{base_s * 1000:.0f} ms; ratio {load_s / base_s:.2f}"
        )

        # Roll: the page's solo game and a protocol client's, alternated in rounds.
        context = browser.new_context()
        stack.grant_premium("bench-roller")  # preset 7 is premium's
        player_token = stack.player_token("bench-roller")
        context.add_init_script(f"sessionStorage.setItem('yamb.token', {json.dumps(player_token)})")
        page = context.new_page()
        page.goto(f"{stack.web_url}?undoMs=0")
        page.wait_for_selector("#create")
        page.select_option("#setting-players", "1")
        page.select_option("#setting-preset", "7")
        page.click("#create")
        page.wait_for_selector("#start")
        page.click("#start")
        client = Protocol(stack.url, stack.player_token("bench-protocol"))
        game_id = solo_game(client)
        page_ms: list[float] = []
        protocol_ms: list[float] = []
        rounds = 5
        for _ in range(rounds):
            page_ms += browser_rolls(page, args.rolls // rounds)
            protocol_ms += protocol_rolls(client, game_id, args.rolls // rounds)
        client.close()
        context.close()
        browser.close()
        page_median = statistics.median(page_ms)
        protocol_median = statistics.median(protocol_ms)
        print(f"Web client, click on Roll to the new dice shown ({len(page_ms)} rolls):")
        p90 = statistics.quantiles(page_ms, n=10)[-1]
        ratio = page_median / protocol_median
        print(
            f"  median {page_median:.1f} ms (p90 {p90:.1f}); "
            f"protocol round trip {protocol_median:.1f} ms; ratio {ratio:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
