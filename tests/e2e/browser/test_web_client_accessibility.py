"""The screens of the web client checked by axe-core in a real browser (issue 28: no serious or
critical violation on any screen), in the light theme on a wide window and the dark one on a
phone. tests/e2e/browser/accessibility.py is the check: any screen's test calls
``assert_accessible(page, "wallet")`` once the screen is drawn."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from yamb_tools.moderation import grant

from devstack.stack import PROJECT_ROOT, LocalStack, local_nickname
from testkit.clubs import founded_club
from tests.e2e.browser.accessibility import assert_accessible
from tests.e2e.browser.screenshots import ROUTED, finished_game, screen_drawn
from tests.e2e.browser.test_web_client import NewPage, create_game, sign_in, unique
from tests.e2e.test_tournaments_e2e import call

# (theme, viewport): both themes and both widths, without running every pair.
LOOKS = [("light", (1280, 800)), ("dark", (390, 844))]
STYLE = Path(PROJECT_ROOT) / "client" / "web" / "style.css"


@pytest.mark.parametrize(("theme", "viewport"), LOOKS, ids=["light-wide", "dark-phone"])
def test_accessibility_sign_in_screen_has_no_serious_violation(
    web_stack: LocalStack, new_page: NewPage, theme: str, viewport: tuple[int, int]
) -> None:
    # given a visitor not signed in
    page = new_page(color_scheme=theme, viewport=viewport)

    # when the page opens on the sign-in forms
    page.goto(web_stack.web_url)
    expect(page.locator("#signin")).to_be_visible()

    # then axe-core finds no serious or critical violation
    assert_accessible(page, "sign-in")
    assert not page.errors


@pytest.mark.parametrize(("theme", "viewport"), LOOKS, ids=["light-wide", "dark-phone"])
def test_accessibility_lobby_has_no_serious_violation(
    web_stack: LocalStack, new_page: NewPage, theme: str, viewport: tuple[int, int]
) -> None:
    # given another player's open table
    host = new_page()
    sign_in(host, web_stack, unique("a11y-host"))
    create_game(host, players="2", preset="1")

    # when a player signs in and the lobby is drawn (the game list, the form; the week's tasks
    # are on #/tasks, checked with the routed screens)
    page = new_page(color_scheme=theme, viewport=viewport)
    sign_in(page, web_stack, unique("a11y-lobby"))
    expect(page.locator(".game-row").first).to_be_visible()
    expect(page.locator("#create-form select").first).to_be_visible()

    # then axe-core finds no serious or critical violation
    assert_accessible(page, "lobby")
    assert not page.errors


@pytest.mark.parametrize(("theme", "viewport"), LOOKS, ids=["light-wide", "dark-phone"])
def test_accessibility_game_has_no_serious_violation(
    web_stack: LocalStack, new_page: NewPage, theme: str, viewport: tuple[int, int]
) -> None:
    # given a player at their waiting table, checked as it is
    page = new_page(color_scheme=theme, viewport=viewport)
    sign_in(page, web_stack, unique("a11y-game"))
    create_game(page, players="1", preset="1")
    assert_accessible(page, "game (a waiting table)")

    # when they start it, roll, keep a die and say something in the chat
    page.click("#start")
    expect(page.locator("#roll")).to_be_enabled()
    before = int(re.findall(r"roll (\d)/3", page.locator(".turn-head").inner_text())[0])
    page.click("#roll")
    expect(page.locator(".turn-head")).to_contain_text(f"roll {before + 1}/3")
    page.locator('.die[data-index="0"]').click()
    expect(page.locator('.die[data-index="0"]')).to_have_class(re.compile(r"\blocked\b"))
    page.fill("#chat-input", "good luck")
    page.click("#chat-send")
    expect(page.locator("#chat-messages li")).to_have_count(1)

    # then axe-core finds no serious or critical violation on the table in play (the cells one
    # may write included: their scores are short text, which axe alone leaves undecided)
    expect(page.locator("td.legal button").first).to_be_visible()
    assert_accessible(page, "game (in play)")
    assert not page.errors


@pytest.fixture(scope="module")
def routed_player(web_stack: LocalStack) -> tuple[str, dict[str, str]]:
    """A player with a ranked game played to the end over the protocol and a club of theirs:
    the player, and the routes' parameters (their nickname, the game's id, the club's id)."""
    player = "a11y-routed-ana"
    game_id = finished_game(web_stack, "a11y-routed")
    club_id = founded_club(web_stack, player, "Accessible Aces")
    # and an arena of theirs, an operator's (its page is a routed screen too)
    grant(local_nickname(player), web_stack.aws.physical_ids["GameTable"],
          web_stack.aws.region, web_stack.aws.endpoint_url, True)  # fmt: skip
    plan = {"kind": "arena", "name": "Accessible arena", "minutes": 30,
            "startsAt": "2099-01-01T10:00:00Z"}  # fmt: skip
    status, made = call(web_stack, "POST", "/tournaments", web_stack.player_token(player), plan)
    assert status == 201, made
    return player, {
        "nickname": local_nickname(player),
        "gameId": game_id,
        "clubId": club_id,
        "tournamentId": made["tournamentId"],
    }


@pytest.mark.parametrize(("theme", "viewport"), LOOKS, ids=["light-wide", "dark-phone"])
def test_accessibility_every_routed_screen_has_no_serious_violation(
    web_stack: LocalStack,
    new_page: NewPage,
    routed_player: tuple[str, dict[str, str]],
    theme: str,
    viewport: tuple[int, int],
) -> None:
    # given a player with a finished ranked game and a club, signed in
    player, params = routed_player
    page = new_page(color_scheme=theme, viewport=viewport)
    sign_in(page, web_stack, player)

    # when each screen of js/screens/index.js is opened at its address (a screen added there
    # is checked here too, as it first shows; its own tests check its other states)
    routed = page.evaluate(ROUTED)
    assert {"wallet", "shop"} <= {route["id"] for route in routed}
    for route in routed:
        unknown = set(re.findall(r":(\w+)", route["path"])) - set(params)
        assert not unknown, f"{route['path']}: give this test a value for {unknown}"
        path = re.sub(r":(\w+)", lambda found: params[found.group(1)], route["path"])
        page.goto(f"{web_stack.web_url}?undoMs=0#{path}")
        screen_drawn(page, route["id"])

        # then axe-core finds no serious or critical violation on it
        assert_accessible(page, route["id"])
    assert not page.errors


def test_accessibility_check_fails_on_a_nameless_button_and_faint_text(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given the sign-in screen with three defects put in: a button without a name, words too
    # faint to read, and a score as faint (a digit: the short text axe alone leaves undecided)
    page = new_page(color_scheme="light")
    page.goto(web_stack.web_url)
    expect(page.locator("#signin")).to_be_visible()
    page.evaluate(
        """() => {
          const main = document.querySelector("main");
          main.append(document.createElement("button"));
          const words = Object.assign(document.createElement("p"), { textContent: "Faint words" });
          const score = Object.assign(document.createElement("button"), { textContent: "5" });
          score.setAttribute("aria-label", "Ones: 5");
          for (const faint of [words, score]) {
            faint.style.cssText = "color: #bbbbbb; background: #ffffff";
            main.append(faint);
          }
        }"""
    )

    # when the check runs
    with pytest.raises(AssertionError) as failed:
        assert_accessible(page, "sign-in")

    # then it fails, naming the screen, each rule and the elements that break it
    message = str(failed.value)
    assert "the sign-in screen (light theme" in message
    assert "- button-name (critical)" in message
    assert "- color-contrast (serious)" in message and "Faint words" in message
    assert "- color-contrast-short-text (serious)" in message
    assert 'aria-label="Ones: 5"' in message


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_accessibility_every_colour_of_the_theme_resolves(
    web_stack: LocalStack, new_page: NewPage, theme: str
) -> None:
    # given the colours style.css declares for the page (its custom properties)
    names = sorted(set(re.findall(r"(--[\w-]+)\s*:", STYLE.read_text())))
    assert "--tint-good" in names and "--bg" in names

    # when the page shows in the theme
    page = new_page(color_scheme=theme)
    page.goto(web_stack.web_url)
    expect(page.locator("#signin")).to_be_visible()
    values = page.evaluate(
        "(names) => names.map((name) => [name,"
        " getComputedStyle(document.documentElement).getPropertyValue(name).trim()])",
        names,
    )

    # then each has a value (one that names itself, or an unknown one, has none: what it
    # colours, a badge or a panel, would lose its background and its contrast with it)
    assert [name for name, value in values if not value] == []


def test_accessibility_a_turn_is_played_with_the_keyboard_only(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player's solo game, started with the keyboard (Tab to Start, Enter)
    page = new_page()
    sign_in(page, web_stack, unique("a11y-keys"))
    create_game(page, players="1", preset="1")
    page.locator("#start").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#roll")).to_be_enabled()

    # when they roll (R), keep die 1 (1), roll again (Space), and Tab to a cell they may write
    rolled = re.search(r"roll (\d)/3", page.locator(".turn-head").inner_text())
    assert rolled is not None
    before = int(rolled[1])
    page.keyboard.press("r")
    expect(page.locator(".turn-head")).to_contain_text(f"roll {before + 1}/3")
    page.keyboard.press("1")
    expect(page.locator('.die[data-index="0"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(page.locator(".turn-head")).to_contain_text(f"roll {before + 2}/3")
    written = page.locator("td.written").count()
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('td.legal button')"):
            break
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")

    # then the focused cell names its row, column and score, and Enter writes it
    assert re.fullmatch(r".+ in .+: (write )?\d+", label or ""), label
    page.keyboard.press("Enter")
    expect(page.locator("td.written")).to_have_count(written + 1)
    assert not page.errors
