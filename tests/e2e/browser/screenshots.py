"""Screenshots of every screen of the web client, only when asked (`make screenshots`): the
sign-in, the lobby, a game in play and each routed screen of client/web/js/screens/ (read from
its index.js in the page, so a new screen is walked without a change here), at a phone's and a
desktop's width, light and dark, on a local stack of its own.

    .venv/bin/python -m tests.e2e.browser.screenshots [--out docs/screenshots/screens]
        [--widths 390 1280] [--themes light dark] [--only lobby game ...]

Each file is ``<screen>-<width>-<theme>.png``, the whole page. A screen whose address takes a
parameter gets the walker's player (``:nickname``) or a finished ranked game (``:gameId``, its
replay), played over the protocol first. A normal test run writes nothing into the tree: the
browser tests' own screenshots go to a temporary folder (conftest.py's ``screenshot_dir``).
"""

import argparse
import re
import shutil
import sys
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

from devstack.stack import PROJECT_ROOT, LocalStack, local_nickname
from testkit.clubs import founded_club
from tests.e2e.conftest import Player

OUT = Path(PROJECT_ROOT) / "docs" / "screenshots" / "screens"
WIDTHS = (390, 1280)
THEMES = ("light", "dark")
HEIGHTS = {390: 844}  # a phone's; wider windows are 800 high
SETTLE_MS = 400  # after a change of width or theme: the dice's roll animation, a reflow
ROUTED = """() => import("./js/screens/index.js").then((index) =>
  index.screens.map((screen) => ({ id: screen.id, path: screen.path })))"""


def finished_game(stack: LocalStack, prefix: str) -> str:
    """A ranked preset-1 game of `<prefix>-ana` (the walker's player) and `<prefix>-ben`, played
    to the end over the protocol (for the replay, the boards and the player's page); its id."""
    from tests.e2e.test_results_e2e import play_a_ranked_game  # the e2e helpers, when needed

    opened: list[Player] = []

    def player(player_name: str) -> Player:
        opened.append(Player(stack, player_name))
        return opened[-1]

    try:
        _, _, game, _ = play_a_ranked_game(player, prefix)
    finally:
        for each in opened:
            each.close()
    return str(game["gameId"])


def _route_params(stack: LocalStack, name: str, player: str, paths: list[str]) -> dict[str, str]:
    """The routes' parameters the screens to take need: the walker's nickname, a finished
    ranked game, a club of theirs."""
    params = {"nickname": local_nickname(player)}
    if any(":gameId" in path for path in paths):
        params["gameId"] = finished_game(stack, name)
    if any(":clubId" in path for path in paths):
        params["clubId"] = founded_club(stack, player, f"{name} club")
    if any(":tournamentId" in path for path in paths):
        params["tournamentId"] = an_arena(stack, name, player)
    return params


def an_arena(stack: LocalStack, name: str, player: str) -> str:
    """An operator's arena starting in an hour, the walker entered: its id."""
    from yamb_tools.moderation import grant

    from tests.e2e.test_tournaments_e2e import ONE_COLUMN, call

    operator = f"{name}-op"
    token = stack.player_token(operator)  # the account, before it is made an operator
    grant(local_nickname(operator), stack.aws.physical_ids["GameTable"],
          stack.aws.region, stack.aws.endpoint_url, True)  # fmt: skip
    plan = {"kind": "arena", "name": "Sunday arena", "minutes": 60, "rules": ONE_COLUMN,
            "ranked": False, "prizes": [50, 30, 20],
            "startsAt": (stack.aws.clock.now() + timedelta(hours=1)).isoformat()}  # fmt: skip
    status, created = call(stack, "POST", "/tournaments", token, plan)
    assert status == 201, created
    tournament_id = str(created["tournamentId"])
    path = f"/tournaments/{tournament_id}/entry"
    assert call(stack, "POST", path, stack.player_token(player))[0] == 201
    return tournament_id


def screen_drawn(page: Page, screen_id: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-screen", screen_id)
    page.wait_for_load_state("networkidle")
    expect(page.locator(f"#{screen_id} .error:not(:empty)")).to_have_count(0)


def shoot(
    page: Page, out: Path, name: str, widths: Iterable[int], themes: Iterable[str]
) -> list[Path]:
    """The page as it is, at each width in each theme (the system's: the page follows it)."""
    saved: list[Path] = []
    for theme in themes:
        page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
        for width in widths:
            page.set_viewport_size({"width": width, "height": HEIGHTS.get(width, 800)})
            page.wait_for_timeout(SETTLE_MS)
            path = out / f"{name}-{width}-{theme}.png"
            page.screenshot(path=str(path), full_page=True, animations="disabled")
            saved.append(path)
    return saved


def walk(
    browser: Browser,
    stack: LocalStack,
    out: Path,
    *,
    widths: Iterable[int] = WIDTHS,
    themes: Iterable[str] = THEMES,
    only: Iterable[str] | None = None,
    name: str = "shots",  # the walker's player is <name>-ana
) -> list[Path]:
    """Takes the screenshots into `out` (made if missing); the files written. `only` names the
    screens to take (their ids: signin, lobby, game, and those of js/screens/)."""
    widths, themes = tuple(widths), tuple(themes)
    wanted = set(only) if only is not None else None
    out.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []

    def take(screen_id: str) -> bool:
        return wanted is None or screen_id in wanted

    context = browser.new_context(viewport={"width": widths[0], "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{stack.web_url}?undoMs=0")
    expect(page.locator("#signin")).to_be_visible()
    if take("signin"):
        saved += shoot(page, out, "signin", widths, themes)
    routed: list[dict[str, str]] = page.evaluate(ROUTED)
    player = f"{name}-ana"  # finished_game's first player
    params = _route_params(stack, name, player, [r["path"] for r in routed if take(r["id"])])

    page.fill("#local-name", player)
    page.click("#local-play")
    screen_drawn(page, "lobby")
    if take("lobby"):
        saved += shoot(page, out, "lobby", widths, themes)
    for route in routed:
        if not take(route["id"]):
            continue
        names = re.findall(r":(\w+)", route["path"])
        if any(each not in params for each in names):
            print(f"skipped {route['id']}: no value for {names}", file=sys.stderr)
            continue
        path = re.sub(r":(\w+)", lambda found: params[found.group(1)], route["path"])
        page.goto(f"{stack.web_url}?undoMs=0#{path}")
        screen_drawn(page, route["id"])
        saved += shoot(page, out, route["id"], widths, themes)
    if take("game"):  # last: a game in play, rolled once with a die kept
        page.goto(f"{stack.web_url}?undoMs=0#/")
        screen_drawn(page, "lobby")
        page.select_option("#setting-players", "1")
        page.select_option("#setting-preset", "1")
        page.click("#create")
        page.click("#start")
        expect(page.locator("#roll")).to_be_enabled()
        before = int(re.findall(r"roll (\d)/3", page.locator(".turn-head").inner_text())[0])
        page.click("#roll")
        expect(page.locator(".turn-head")).to_contain_text(f"roll {before + 1}/3")
        page.locator('.die[data-index="0"]').click()
        page.wait_for_load_state("networkidle")
        saved += shoot(page, out, "game", widths, themes)
    context.close()
    return saved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--widths", type=int, nargs="+", default=list(WIDTHS))
    parser.add_argument("--themes", nargs="+", choices=THEMES, default=list(THEMES))
    parser.add_argument("--only", nargs="+", help="screen ids (default: every screen)")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with LocalStack() as stack, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True)
        saved = walk(
            browser, stack, args.out, widths=args.widths, themes=args.themes, only=args.only
        )
        browser.close()
    for path in saved:
        print(path.relative_to(PROJECT_ROOT) if PROJECT_ROOT in path.parents else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
