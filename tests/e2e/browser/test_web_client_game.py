"""The game screen's defects of issue 28, in a real browser: a double click on Roll is one roll,
the lobby fits a phone and a desktop window without sideways scrolling, a game is titled by its
grid and players and its status and outcome are words; and (webgame) a dead network is noticed and
the page connects again, the chat survives a reload, the lobby is live, the dice are drawn and
named for screen readers, a watcher's are not faded, Roll stays beside the cells on a phone, and an
ended game leaves no empty panel nor comes back by itself."""

import json
import re
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game import presence

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
    expect(page.locator("#seed-commitments li")).to_have_count(1)  # her page sealed her seed
    ben.act("start_game", gameId=game["gameId"])
    expect(page.locator("#game-status")).to_have_attribute("data-status", "running")
    expect(page.locator("#own-seed")).to_have_attribute("data-state", "in")  # the seeds are in

    # then her own sheet comes first, its nine columns scroll inside their box with the row names
    # kept in place, the dice and Roll stay in view (a bar), and the page itself is no
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


NO_SIDEWAYS_SCROLL = "document.scrollingElement.scrollWidth <= window.innerWidth"


def started_solo_game(page: Page, preset: str = "1") -> str:
    game_id = create_game(page, players="1", preset=preset)
    page.click("#start")
    expect(page.locator("#turn-who")).to_have_text("Your turn")
    return game_id


def test_web_client_game_dice_are_drawn_and_named_and_kept_by_keyboard(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's solo game at roll 1
    ana = new_page()
    sign_in(ana, web_stack, unique("double"))
    started_solo_game(ana)
    expect(ana.locator(".turn-head")).to_contain_text("roll 1/3")
    first = ana.locator('.die[data-index="0"]')
    expect(first).to_have_attribute("aria-label", re.compile(r"^Die 1 showing [1-6]$"))
    expect(first.locator(".pip.on")).to_have_count(int(first.get_attribute("data-face") or 0))

    # when she keeps die 1 by keyboard and rolls by keyboard
    ana.keyboard.press("1")
    expect(first).to_have_attribute("aria-label", re.compile(r"^Die 1 showing [1-6], kept$"))
    ana.keyboard.press("r")

    # then roll 2 came, die 1 still kept and drawn with its pips, nothing refused
    expect(ana.locator(".turn-head")).to_contain_text("roll 2/3")
    expect(first).to_have_class(re.compile(r"\blocked\b"))
    expect(first.locator(".pip.on")).to_have_count(int(first.get_attribute("data-face") or 0))
    expect(ana.locator("#turn-error")).to_be_empty()
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_game_a_dead_network_is_noticed_and_the_page_connects_again(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's page talks to the server through a route the test holds, with a short
    # heartbeat (3 s of silence instead of 20 s)
    ana = new_page()
    routes: list[dict[str, Any]] = []

    def relay(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        route: dict[str, Any] = {"dead": False}

        def to_server(message: str | bytes) -> None:
            if not route["dead"]:
                server.send(message)

        def to_page(message: str | bytes) -> None:
            if not route["dead"]:
                socket.send(message)

        socket.on_message(to_server)
        server.on_message(to_page)
        routes.append(route)

    ana.route_web_socket(re.compile(r"^ws://"), relay)
    ana.goto(f"{web_stack.web_url}?undoMs=0&heartbeatMs=1000&silentMs=3000")
    ana.fill("#local-name", unique("dead"))
    ana.click("#local-play")
    expect(ana.locator("#no-games, .game-row").first).to_be_visible()
    game_id = started_solo_game(ana)

    # when the network drops every frame both ways, closing nothing
    routes[-1]["dead"] = True

    # then a banner says the server does not answer, and the page connects again on a new
    # socket by itself, back in the game
    expect(ana.locator("#banner")).to_contain_text("No answer from the server", timeout=10_000)
    expect(ana.locator("#banner")).to_be_hidden(timeout=10_000)
    assert len(routes) >= 2
    expect(ana).to_have_url(re.compile(f"#/game/{game_id}$"))
    expect(ana.locator("#turn-who")).to_have_text("Your turn")
    ana.click("#roll")
    expect(ana.locator(".turn-head")).to_contain_text("roll 2/3")


def test_web_client_game_the_opponent_sees_a_player_whose_network_died_away(
    web_stack: LocalStack, new_page: NewPage, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's page behind a route the test holds and ben's, both pinging every second, in
    # a started game (the server's silence shortened from 45 s to 3 s: the stack runs here)
    monkeypatch.setattr(presence, "SILENCE", timedelta(seconds=3))
    routes: list[dict[str, Any]] = []

    def relay(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        route: dict[str, Any] = {"dead": False}
        socket.on_message(lambda message: None if route["dead"] else server.send(message))
        server.on_message(lambda message: None if route["dead"] else socket.send(message))
        routes.append(route)

    ana, ben = new_page(), new_page()
    ana.route_web_socket(re.compile(r"^ws://"), relay)
    names = {}
    for page, who in ((ana, "gone"), (ben, "stays")):
        # The page's own silence is long here: only the server is to notice.
        page.goto(f"{web_stack.web_url}?undoMs=0&heartbeatMs=1000&silentMs=600000")
        names[who] = unique(who)
        page.fill("#local-name", names[who])
        page.click("#local-play")
        expect(page.locator("#no-games, .game-row").first).to_be_visible()
    game_id = create_game(ana, preset="1")
    game_row(ben, game_id).locator("button.join").click()
    expect(ana.locator(".seat", has_text=local_nickname(names["stays"]))).to_be_visible()
    ana.click("#start")
    expect(ben.locator("#turn-who")).to_be_visible()
    # ana's page has pinged on this connection (it pings every second; its first frames, sync
    # and the restored chats and invitations, come first)
    ana.wait_for_timeout(3_000)
    seat = ben.locator(".seat", has_text=local_nickname(names["gone"]))
    expect(seat).not_to_have_class(re.compile(r"\baway\b"))

    # when ana's network drops every frame, closing nothing
    routes[-1]["dead"] = True

    # then ben's page shows her away within seconds, not after API Gateway's 10 minutes
    expect(seat).to_have_class(re.compile(r"\baway\b"), timeout=15_000)
    expect(seat.locator(".badge.away")).to_be_visible()
    assert not ben.errors  # type: ignore[attr-defined]


def test_web_client_game_chat_is_still_there_after_a_reload(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's table that ben joined, and ana said hello
    ana, ben = new_page(), new_page()
    sign_in(ana, web_stack, unique("talk"))
    sign_in(ben, web_stack, unique("listen"))
    game_id = create_game(ana, preset="1")
    game_row(ben, game_id).locator("button.join").click()
    expect(ben.locator("#game")).to_be_visible()
    ana.fill("#chat-input", "hello <b>ben</b>")
    ana.click("#chat-send")
    expect(ben.locator("#chat-messages .text")).to_have_text(["hello <b>ben</b>"])

    # when ben reloads his page
    ben.reload()

    # then he still has the line ana and he saw, as text
    expect(ben.locator("#game")).to_be_visible()
    expect(ben.locator("#chat-messages .text")).to_have_text(["hello <b>ben</b>"])
    assert ben.locator("#chat-messages b").count() == 0
    assert ben.errors == []  # type: ignore[attr-defined]


def test_web_client_game_lobby_is_live(web_stack: LocalStack, new_page: NewPage) -> None:
    # given ana in the lobby on a phone
    ana = new_page(viewport=(390, 844))
    sign_in(ana, web_stack, unique("lobby"))

    # when ben creates a table elsewhere
    ben = new_page()
    sign_in(ben, web_stack, unique("host"))
    game_id = create_game(ben, preset="1")

    # then it appears in ana's lobby without a Refresh
    expect(ana.locator(f'.game-row[data-game="{game_id}"]')).to_be_visible(timeout=15_000)
    assert ana.evaluate(NO_SIDEWAYS_SCROLL)


def test_web_client_game_phone_keeps_roll_beside_the_cells_in_a_game_with_a_bot(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a phone-sized window, a preset-7 table for two (a premium player's) with a bot
    phone = new_page(viewport=(390, 844))
    name = unique("seven")
    web_stack.grant_premium(name)
    sign_in(phone, web_stack, name)
    create_game(phone, players="2", preset="7")
    phone.select_option("#bot-level", "easy")
    phone.click("#add-bot")
    expect(phone.locator(".seat.bot")).to_have_count(1)
    phone.click("#start")
    me = phone.evaluate("window.yamb.state.me")

    # when it is her turn (the bot's turn first, if it has it)
    for _ in range(60):
        if phone.locator("#turn-who").inner_text() == "Your turn":
            break
        web_stack.aws.advance(seconds=2)
        phone.wait_for_timeout(200)
    expect(phone.locator("#turn-who")).to_have_text("Your turn")

    # then her own sheet comes first, and the page never scrolls sideways
    expect(phone.locator(".sheet").first).to_have_attribute("data-player", me)
    assert phone.evaluate(NO_SIDEWAYS_SCROLL)

    # and the sheet scrolls in its own box with its row names kept in view
    sheet = phone.locator(".sheet").first
    label = sheet.locator('tbody tr[data-row] th[scope="row"]').first
    before = label.bounding_box()
    sheet.locator(".sheet-scroll").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    assert sheet.locator(".sheet-scroll").evaluate("box => box.scrollLeft") > 0
    after = label.bounding_box()
    assert before is not None and after is not None and abs(after["x"] - before["x"]) < 1

    # and with the cells on screen, the dice and Roll are on screen too (a bar at the bottom)
    sheet.locator("tbody tr").nth(3).scroll_into_view_if_needed()
    roll = phone.locator("#roll").bounding_box()
    assert roll is not None and roll["y"] >= 0 and roll["y"] + roll["height"] <= 844

    # when she rolls and writes a cell, the page still fits
    phone.click("#roll")
    expect(phone.locator(".turn-head")).to_contain_text("roll 2/3")
    phone.locator(".sheet").first.locator("td.legal button").first.click()
    expect(phone.locator(".sheet").first.locator("td.written")).to_have_count(1)
    assert phone.evaluate(NO_SIDEWAYS_SCROLL)
    assert phone.errors == []  # type: ignore[attr-defined]


def test_web_client_game_is_named_in_words_and_an_ended_game_leaves_no_empty_panel(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's solo game that cy watches
    ana, cy = new_page(), new_page(reduced_motion="reduce")
    name = unique("words")
    sign_in(ana, web_stack, name)
    sign_in(cy, web_stack, unique("eyes"))
    game_id = started_solo_game(ana)
    game_row(cy, game_id).locator("button.watch").click()
    expect(cy.locator(".die")).to_have_count(5)

    # then the game is titled by its grid and player, not its id
    expect(ana.locator("#game-head h2")).to_contain_text(f"Yamb · {local_nickname(name)}")
    assert game_id not in ana.title()

    # and cy's dice are pictures, drawn as brightly as ana's, and do not tumble (reduced motion)
    assert cy.locator("button.die").count() == 0
    assert cy.locator(".die").first.evaluate("d => getComputedStyle(d).opacity") == "1"
    ana.click("#roll")
    expect(cy.locator(".turn-head")).to_contain_text("roll 2/3")
    tumbling = cy.locator(".die.tumble")
    if tumbling.count():
        assert tumbling.first.evaluate("d => getComputedStyle(d).animationName") == "none"

    # when ana resigns
    ana.once("dialog", lambda dialog: dialog.accept())
    ana.click("#resign")

    # then the outcome is said in words, and no empty turn panel is left
    expect(ana.locator("#result")).to_be_visible()
    expect(ana.locator("#result .outcome")).to_have_text("Ended by a resignation.")
    expect(ana.locator("#game-turn")).to_be_hidden()

    # when she goes to the lobby and reloads, the ended game does not come back by itself
    ana.click("#to-lobby")
    ana.reload()
    expect(ana.locator("#lobby")).to_be_visible()
    ana.wait_for_timeout(1_000)
    expect(ana.locator("#lobby")).to_be_visible()
    assert ana.errors == [] and cy.errors == []  # type: ignore[attr-defined]
