"""Social in a real browser (issue 30): the players list finds a player by the first letters of
their nickname and shows where they are; their page follows and blocks them, and sends to the
shop to give them something."""

import re
from typing import Any

from playwright.sync_api import expect

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique


def test_web_client_players_list_finds_a_player_online_follows_and_blocks_him(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given ben, connected and at no table
    ben = players("finds")
    ben_name = local_nickname(ben.name)
    page = new_page(viewport=(390, 844))
    sign_in(page, web_stack, unique("seeker"))

    # when ana opens the players list and searches the first letters of his name, in capitals
    page.click('#nav a[data-screen="players"]')
    expect(page).to_have_url(re.compile(r"#/players$"))
    page.fill("#players-search", ben_name[:-1].upper())
    page.press("#players-search", "Enter")

    # then his row shows him online and free, and nothing sideways scrolls on the phone
    row = page.locator(f'.player-row[data-nickname="{ben_name}"]')
    expect(row).to_contain_text("Online, free to play")
    expect(row).to_have_attribute("data-presence", "free")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")

    # when she opens his page and follows him
    row.get_by_role("link", name=ben_name, exact=True).click()
    expect(page).to_have_url(re.compile(rf"#/players/{ben_name}$"))
    page.click("#follow")
    expect(page.locator("#follow")).to_have_attribute("aria-pressed", "true")

    # then he is among her favourites, online
    page.goto(f"{web_stack.web_url}#/players?kind=favorites")
    expect(page.locator("#players-tab-favorites")).to_have_attribute("aria-selected", "true")
    expect(page.locator(f'.player-row[data-nickname="{ben_name}"]')).to_contain_text(
        "Online, free to play"
    )

    # when he leaves, and she reads her favourites again
    ben.close()
    page.click("#players-tab-all")
    page.click("#players-tab-favorites")

    # then he shows offline
    expect(page.locator(f'.player-row[data-nickname="{ben_name}"]')).to_have_attribute(
        "data-presence", "offline", timeout=15_000
    )

    # when she blocks him from his page
    page.goto(f"{web_stack.web_url}#/players/{ben_name}")
    page.click("#block")

    # then the button says so, and he is in her blocked list
    expect(page.locator("#block")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#block")).to_have_text("Unblock")
    page.goto(f"{web_stack.web_url}#/players?kind=blocked")
    expect(page.locator(f'.player-row[data-nickname="{ben_name}"]')).to_contain_text("blocked")

    # when she unblocks him and opens the gift link
    page.goto(f"{web_stack.web_url}#/players/{ben_name}")
    page.click("#block")
    expect(page.locator("#block")).to_have_attribute("aria-pressed", "false")
    page.click("#player-gift")

    # then the shop's gift form names him
    expect(page).to_have_url(re.compile(rf"#/shop\?gift={ben_name}$"))
    expect(page.locator("#gift-nickname")).to_have_value(ben_name)
