"""The game screen's defects of issue 28, in a real browser: a double click on Roll is one roll,
the lobby fits a phone and a desktop window without sideways scrolling, a game is titled by its
grid and players and its status and outcome are words."""

import json
import re
import urllib.request
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, create_game, game_row, sign_in, unique


def test_web_client_double_click_on_roll_is_one_roll(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player alone at a started table, after her turn's first roll (the server's)
    page = new_page()
    name = unique("double")
    sign_in(page, web_stack, name)
    create_game(page, players="1", preset="1")
    page.click("#start")
    expect(page.locator("#roll")).to_be_enabled()
    expect(page.locator(".turn-head")).to_contain_text("roll 1/3")

    # when she double-clicks Roll
    page.dblclick("#roll")

    # then one roll was spent: the second click found the button off
    expect(page.locator(".turn-head")).to_contain_text("roll 2/3")
    page.wait_for_timeout(500)  # what a second roll's answer would need on this stack
    expect(page.locator(".turn-head")).to_contain_text("roll 2/3")
    # and the game is titled by its grid and player, its status in words
    expect(page.locator("#game-head h2")).to_contain_text(f"Yamb · {local_nickname(name)}")
    expect(page.locator("#game-status")).to_have_text("In play")
    assert not page.errors


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_web_client_lobby_fits_the_window_without_sideways_scroll(
    web_stack: LocalStack, new_page: NewPage, viewport: tuple[int, int]
) -> None:
    # given a player in the lobby, on a phone or a desktop window
    page = new_page(viewport=viewport)
    sign_in(page, web_stack, unique("fits"))

    # when she picks the widest choice of the create form's columns (preset 7's names)
    page.select_option("#setting-preset", "7")

    # then the page is no wider than the window, and neither is any of the form's fields
    width = viewport[0]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    widest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#create-form select, #create-form input')]"
        ".map((e) => e.getBoundingClientRect().right))"
    )
    assert widest <= width, widest
    expect(page.locator("#lobby")).to_be_visible()
    assert re.search(r"#/$|undoMs=0$", page.url)


def with_premium(stack: LocalStack, name: str) -> None:
    """Seven days of premium for the local player `name`, bought with granted tokens."""
    token = stack.player_token(name)

    def call(method: str, path: str, body: Any = None) -> Any:
        request = urllib.request.Request(
            f"{stack.gateway.http_url}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Authorization": token,
                "Content-Type": "application/json",
                "Idempotency-Key": uuid.uuid4().hex,
            },
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    player_id = call("GET", "/me")["playerId"]
    aws = stack.aws
    wallets = DynamoWalletStore(
        item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    )
    wallets.apply(f"grant:{uuid.uuid4()}", [Change(player_id, 1000, "grant")], datetime.now(UTC))
    call("POST", "/me/premium", {"days": 7})


def test_web_client_phone_plays_a_preset_7_game_without_sideways_page_scroll(
    web_stack: LocalStack, new_page: NewPage, players: Any
) -> None:
    # given ben's preset-7 table for two (both have premium: every preset), which ana joins on a
    # phone
    ben_name = unique("wide-ben")
    with_premium(web_stack, ben_name)
    ben = players(ben_name)
    game = ben.act("create_game", settings={"players": 2, "preset": 7})
    page = new_page(viewport=(390, 844))
    ana = unique("wide-ana")
    with_premium(web_stack, ana)
    sign_in(page, web_stack, ana)
    game_row(page, game["gameId"]).locator("button.join").click()
    expect(page.locator("#game")).to_be_visible()
    ben.act("start_game", gameId=game["gameId"])
    expect(page.locator("#game-status")).to_have_attribute("data-status", "running")

    # then her own sheet comes first, its nine columns scroll inside their box with the row names
    # kept in place, the dice and Roll stay at the top of the screen, and the page itself is no
    # wider than the phone
    first = page.locator(".sheet").first
    expect(first.locator("h3")).to_contain_text(local_nickname(ana))
    expect(page.locator(".sheet")).to_have_count(2)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert first.locator("tbody th").first.evaluate("e => getComputedStyle(e).position") == "sticky"
    assert page.locator("#game-turn").evaluate("e => getComputedStyle(e).position") == "sticky"
    box = first.locator(".sheet-scroll")
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")  # nine columns do not fit
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    label = first.locator("tbody th").first.bounding_box()
    sheet = first.bounding_box()
    assert label is not None and sheet is not None
    assert label["x"] - sheet["x"] < 20  # still at the sheet's left edge
    assert not page.errors
