"""The web client's shell in a real browser (issue 28): every screen has an address of its own
(links, back and reload work), the sign-in is the browser's (a new tab is signed in), the theme
is kept, and the page names its manifest and icons so that a phone can install it."""

import json
import re
import urllib.request

from playwright.sync_api import expect

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, create_game, sign_in, unique


def test_shell_a_game_has_an_address_that_reload_and_back_keep(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a local player in the lobby, at the lobby's address
    page = new_page()
    sign_in(page, web_stack, unique("shell"))
    expect(page.locator("#nav")).to_be_visible()

    # when they create a table
    game_id = create_game(page)

    # then the address names the game, and a reload shows that game again
    assert page.url.endswith(f"#/game/{game_id}")
    page.reload()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#game-head")).to_contain_text(game_id)
    # and back goes to the lobby, at its own address
    page.go_back()
    expect(page.locator("#lobby")).to_be_visible()
    expect(page).to_have_url(re.compile(r"#/$|/\?undoMs=0$"))
    # and forward to the game again
    page.go_forward()
    expect(page.locator("#game")).to_be_visible()
    assert not page.errors


def test_shell_an_unknown_address_lands_in_the_lobby_and_a_new_tab_is_signed_in(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a signed-in local player
    page = new_page()
    sign_in(page, web_stack, unique("tabs"))

    # when they open an address no screen has
    page.goto(f"{web_stack.web_url}#/no-such-screen")

    # then the lobby shows, at its own address
    expect(page.locator("#lobby")).to_be_visible()
    expect(page).to_have_url(re.compile(r"#/$"))

    # when they open the client in a second tab of the same browser
    second = page.context.new_page()
    second.goto(web_stack.web_url)

    # then that tab is signed in too: the lobby, not the sign-in form
    expect(second.locator("#lobby")).to_be_visible()
    expect(second.locator("#signin")).to_be_hidden()
    assert not page.errors


def test_shell_the_theme_chosen_is_kept_for_the_next_visit(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a page in a light system theme
    page = new_page(color_scheme="light")
    sign_in(page, web_stack, unique("theme"))
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")

    # when the player chooses the dark theme
    page.click("#theme")

    # then the page turns dark, and stays dark after a reload
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    dark = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert dark != background
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("#theme")).to_have_text("Light theme")
    assert not page.errors


def test_shell_names_an_installable_manifest_with_its_icons(web_stack: LocalStack) -> None:
    # given the page as served
    with urllib.request.urlopen(web_stack.web_url, timeout=10) as answer:
        page = answer.read().decode()
    assert '<link rel="manifest" href="manifest.webmanifest">' in page

    # when the manifest is read
    with urllib.request.urlopen(f"{web_stack.web_url}manifest.webmanifest", timeout=10) as answer:
        assert answer.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(answer)

    # then it opens standalone at the lobby, with icons of 192 and 512 pixels that are served
    assert (manifest["display"], manifest["start_url"]) == ("standalone", "./#/")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with urllib.request.urlopen(f"{web_stack.web_url}{icon['src']}", timeout=10) as answer:
            assert answer.headers["Content-Type"] == icon["type"]
            body = answer.read()
        if icon["type"] == "image/png":
            width, height = int.from_bytes(body[16:20]), int.from_bytes(body[20:24])
            assert f"{width}x{height}" == icon["sizes"]
