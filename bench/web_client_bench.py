"""The web client's figures (`make bench`): its first load on the local stack (requests, bytes
and the time to the lobby drawn, cold and warm with the service worker, and offline from its
cache) and the time from a click on Roll to the new dice drawn.

Both are timed in a real browser (Debian's Chromium through Playwright, as the browser tests
run it) against a local stack in this process, and each beside a baseline timed in the same run
on the same stack without a browser, so that the ratio says what the page adds (these machines
are noisy; the absolute times are the local stack's, not AWS's):

- first load, cold: a fresh browser context (no cache, no service worker) holding a signed-in
  player's token opens the page; timed in the page (performance.now(), from the navigation's
  start) until the lobby's game list is drawn. Requests and bytes are those that went over the
  network (the page's files, config.json and catalog.json, and the HTTP API's calls).
  Baseline: the same files fetched from Python over HTTP, then a WebSocket handshake, `sync`
  and `list_games`.
- first load, warm: the same context opens the page again once its service worker keeps the
  files. The worker is network first (decision: the page is always the newest), so online the
  files still come from the network; what the worker answers itself is counted apart.
- offline: the same context with no network: the time to the shell drawn from the worker's
  cache, with its "offline" notice.
- roll: in a solo game the page's Roll button is clicked and the time until the dice on the
  page change is taken in the page (performance.now() around a MutationObserver). Baseline: the
  same `roll` sent by a bare WebSocket client and its game frame received, in rounds alternated
  with the page's.

    .venv/bin/python bench/web_client_bench.py [--rolls 30] [--loads 5]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from devstack.stack import LocalStack  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHELL_CACHE = "yamb-shell-v1"  # client/web/sw.js
# In the page from its first script on: when the lobby's game list is drawn, and when the shell
# (the lobby's frame) is, as performance.now() from the navigation's start.
DRAWN = """
window.__drawn = { shell: null, lobby: null };
new MutationObserver((changes, observer) => {
  const lobby = document.getElementById("lobby");
  if (!lobby || lobby.hidden) return;
  window.__drawn.shell ??= performance.now();
  if (document.querySelector("#no-games, .game-row")) {
    window.__drawn.lobby = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


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


def baseline_load(stack: LocalStack, token: str, files: list[str]) -> float:
    """Seconds for the page's files fetched without a browser, then the socket's handshake,
    `sync` and `list_games`: what the lobby needs, with nothing drawn."""
    started = time.perf_counter()
    for url in files:
        with urllib.request.urlopen(url) as answer:
            answer.read()
    client = Protocol(stack.url, token)
    client.ask("sync")
    client.ask("list_games")
    client.close()
    return time.perf_counter() - started


@dataclass
class Load:
    """One load of the page: what went over the network, what the service worker answered from
    itself, and the times to the shell and to the lobby drawn (ms from the navigation's start)."""

    requests: int = 0  # the page's own requests that went over the network
    bytes: int = 0
    worker_requests: int = 0  # the service worker's own fetches (its install, network first)
    worker_bytes: int = 0
    files: list[str] = field(default_factory=list)  # the page's own files fetched
    from_worker: int = 0  # requests the service worker answered (from the network or its cache)
    shell_ms: float = 0.0
    lobby_ms: float | None = None


def token_context(
    browser: Browser, name: str, token: str, *, locale: str | None = None
) -> BrowserContext:
    """A fresh context whose pages hold the local player `name`'s token, as a signed-in browser
    does (with the name, the page signs in again by itself when its socket's handshake is
    refused, as the local stack's page does: the gateway now and then refuses one when busy)."""
    context = browser.new_context(locale=locale) if locale else browser.new_context()
    context.add_init_script(
        f"localStorage.setItem('yamb.token', {json.dumps(token)});"
        f"localStorage.setItem('yamb.local', {json.dumps(name)});"
    )
    context.add_init_script(DRAWN)
    return context


def page_load(context: BrowserContext, url: str, *, lobby: bool = True) -> Load:
    """Opens `url` in a new page of `context`; counted until the lobby is drawn (or, with
    `lobby` false, the shell) and the network is idle."""
    load = Load()
    web_origin = urllib.parse.urlsplit(url).netloc

    def finished(request: Request) -> None:
        response = request.response()
        if response is not None and response.from_service_worker:
            load.from_worker += 1
            return  # the page's side of it: the worker's own fetch, if any, is counted itself
        sizes = request.sizes()
        size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        if request.service_worker is not None:
            load.worker_requests += 1
            load.worker_bytes += size
            return
        load.requests += 1
        load.bytes += size
        where = urllib.parse.urlsplit(request.url)
        if where.netloc == web_origin and not where.path.startswith("/_local/"):
            load.files.append(request.url)

    context.on("requestfinished", finished)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.__drawn.lobby" if lobby else "window.__drawn.shell")
    drawn = page.evaluate("window.__drawn")
    load.shell_ms, load.lobby_ms = drawn["shell"], drawn["lobby"]
    if lobby:
        page.wait_for_load_state("networkidle")
    page.close()
    context.remove_listener("requestfinished", finished)
    return load


def keeps_the_shell(context: BrowserContext, url: str) -> None:
    """Waits until the service worker controls a page of `context` and keeps its files."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    missing = """async (cache) => {
      const kept = new Set((await (await caches.open(cache)).keys()).map((r) => r.url));
      return performance.getEntriesByType("resource").map((entry) => entry.name)
        .filter((u) => new URL(u).origin === location.origin && !u.includes("/_local/"))
        .filter((u) => !kept.has(u)).length;
    }"""
    deadline = time.monotonic() + 20
    while page.evaluate(missing, SHELL_CACHE) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.close()


def first_loads(browser: Browser, stack: LocalStack, loads: int) -> dict[str, list[Any]]:
    """`loads` rounds of: a cold load, a warm one (the worker in control), an offline one, and
    the baseline; alternated, so that noise falls on each alike."""
    rounds: dict[str, list[Any]] = {
        "cold": [],
        "warm": [],
        "offline": [],
        "baseline": [],
        "french": [],
    }
    french = stack.player_token("bench-french", language="fr")
    for _ in range(loads):
        # A French player's page on a French browser: the same, plus its catalogue.
        context = token_context(browser, "bench-french", french, locale="fr-FR")
        rounds["french"].append(page_load(context, stack.web_url))
        context.close()
        context = token_context(browser, "bench-loader", stack.player_token("bench-loader"))
        cold = page_load(context, stack.web_url)
        keeps_the_shell(context, stack.web_url)
        warm = page_load(context, stack.web_url)
        context.set_offline(True)
        offline = page_load(context, stack.web_url, lobby=False)
        context.close()
        rounds["cold"].append(cold)
        rounds["warm"].append(warm)
        rounds["offline"].append(offline)
        token = stack.player_token("bench-baseline")  # a player of its own: no page signs it out
        rounds["baseline"].append(baseline_load(stack, token, sorted(set(cold.files))))
    return rounds


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


def median(values: list[float]) -> float:
    return statistics.median(values)


def print_loads(rounds: dict[str, list[Any]]) -> None:
    cold: list[Load] = rounds["cold"]
    warm: list[Load] = rounds["warm"]
    offline: list[Load] = rounds["offline"]
    base_ms = median(rounds["baseline"]) * 1000
    cold_ms = median([load.lobby_ms or 0.0 for load in cold])
    warm_ms = median([load.lobby_ms or 0.0 for load in warm])
    offline_ms = median([load.shell_ms for load in offline])
    files = len(set(cold[0].files))
    print(f"Web client, first load on the local stack (median of {len(cold)} of each):")
    print(
        f"  cold: {cold[0].requests} requests ({files} of them the page's files), "
        f"{cold[0].bytes:,} bytes; lobby drawn in {cold_ms:.0f} ms; then the service worker, "
        f"installing, fetches {cold[0].worker_requests} ({cold[0].worker_bytes:,} bytes)"
    )
    print(
        f"  warm, the service worker in control: {warm[0].from_worker} of the page's requests "
        f"through it, which fetches {warm[0].worker_requests} ({warm[0].worker_bytes:,} bytes: "
        f"network first), and {warm[0].requests} others ({warm[0].bytes:,} bytes); "
        f"lobby drawn in {warm_ms:.0f} ms"
    )
    print(
        f"  offline, from the worker's cache: {offline[0].from_worker} requests answered by "
        f"the worker, {offline[0].worker_requests + offline[0].requests} over the network; "
        f"shell drawn in {offline_ms:.0f} ms"
    )
    french: list[Load] = rounds["french"]
    french_ms = median([load.lobby_ms or 0.0 for load in french])
    print(
        f"  cold in French: {french[0].requests} requests, {french[0].bytes:,} bytes "
        f"(+{french[0].bytes - cold[0].bytes:,}: its catalogue); lobby drawn in "
        f"{french_ms:.0f} ms, {french_ms / cold_ms:.2f} of the English cold load"
    )
    print(
        f"  baseline (the same files, handshake, sync and list_games from Python): "
        f"{base_ms:.0f} ms; ratios: cold {cold_ms / base_ms:.2f}, warm {warm_ms / base_ms:.2f}, "
        f"offline shell {offline_ms / base_ms:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=30)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    with LocalStack() as stack, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        first_loads(browser, stack, 1)  # warm-up: every function's first call
        print_loads(first_loads(browser, stack, args.loads))

        # Roll: the page's solo game and a protocol client's, alternated in rounds.
        for name in ("bench-roller", "bench-protocol"):
            stack.grant_premium(name)  # preset 7 is premium's
        context = token_context(browser, "bench-roller", stack.player_token("bench-roller"))
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
        print(f"Web client, click on Roll to the new dice drawn ({len(page_ms)} rolls):")
        p90 = statistics.quantiles(page_ms, n=10)[-1]
        ratio = page_median / protocol_median
        print(
            f"  median {page_median:.1f} ms (p90 {p90:.1f}); "
            f"bare WebSocket roll {protocol_median:.1f} ms; ratio {ratio:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
