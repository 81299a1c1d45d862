"""The web client (client/web) in a real browser against the local stack: two players play a
whole game by clicking while a third watches, a reload mid-game restores it, a hostile or lost
connection does not break the page, refusals are shown where they were caused, and nothing a
player typed becomes markup."""

import itertools
import json
import re
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from devstack.stack import LOCAL_PASSWORD, VERIFY_PATH, LocalStack

NewPage = Callable[..., Page]
NAMES = itertools.count(1)
WHOLE_GAME_MS = 240_000


def unique(name: str) -> str:
    """A local player of its own per test: the module's stack outlives each test."""
    return f"{name}-{next(NAMES)}"


def sign_in(page: Page, stack: LocalStack, name: str, *, undo_ms: int = 0) -> None:
    """Opens the client and signs in as the local player `name` (the lobby is shown)."""
    page.goto(f"{stack.web_url}?undoMs={undo_ms}")
    page.fill("#local-name", name)
    page.click("#local-play")
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#banner")).to_be_hidden()
    # Connected: the game list comes once the socket is open (an action before it is refused).
    expect(page.locator("#no-games, .game-row").first).to_be_visible()


def create_game(page: Page, **choices: str) -> str:
    """Creates a game from the form (`choices`: select name -> value); its id."""
    for name, value in choices.items():
        page.select_option(f"#setting-{name}", value)
    page.click("#create")
    expect(page.locator("#game")).to_be_visible()
    # The game's own address (js/router.js): #/game/<id>.
    expect(page).to_have_url(re.compile(r"#/game/\w+$"))
    # The page seals a seed of the player's own at once (issue 32): its answer is in before the
    # test acts, so that the frame it brings redraws nothing under the test's feet.
    page.wait_for_function(
        "() => !document.querySelector('#fairness') || document.querySelector('#seed-commitments')"
    )
    return page.url.rsplit("/", 1)[1]


def game_row(page: Page, game_id: str) -> Any:
    page.click("#refresh")
    row = page.locator(f'.game-row[data-game="{game_id}"]')
    expect(row).to_be_visible()
    return row


def confirm_and_sign_in(
    page: Page,
    stack: LocalStack,
    link: str,
    email: str,
    password: str = "Correct-horse-9",
    *,
    confirmed: str = "E-mail confirmed",
) -> None:
    """Opens a mailed verification link, confirms (the page says `confirmed`), and signs in
    from the client's form."""
    page.goto(link)
    page.locator("button, input[type=submit]").first.click()
    expect(page.locator("body")).to_contain_text(confirmed)
    page.goto(stack.web_url)
    page.fill("#login-email", email)
    page.fill("#login-password", password)
    page.click("#login")


def my_turn(page: Page) -> bool:
    who = page.locator("#turn-who")
    return who.count() > 0 and who.inner_text() == "Your turn"


def written_cells(page: Page) -> int:
    return page.locator("td.written").count()


def answer_fairplay_check(page: Page) -> None:
    """A fair-play check open on the page (a script clicks faster than the server believes a
    person does) is answered as a person would: the die showing the asked face."""
    dialog = page.locator("#fairplay-dialog")
    if dialog.count() == 0:
        return
    face = page.locator("#fairplay-question").inner_text().rsplit(" ", 1)[1]
    page.locator(f'.fairplay-die[data-face="{face}"]').first.click()
    expect(dialog).to_have_count(0)


def play_one_turn(page: Page) -> None:
    """The player in turn rolls once keeping die 1 (by keyboard), then writes the first legal
    cell by clicking it (a fair-play check asked after their previous write answered first)."""
    answer_fairplay_check(page)
    written = written_cells(page)
    roll_button = page.locator("#roll")
    if roll_button.is_enabled():
        page.keyboard.press("1")
        expect(page.locator('.die[data-index="0"]')).to_have_class(re.compile(r"\blocked\b"))
        page.keyboard.press("r")
        expect(page.locator("#turn-head, .turn-head")).to_contain_text("roll 2/3")
    page.locator("td.legal button").first.click()
    expect(page.locator("td.written")).to_have_count(written + 1)


def test_web_client_two_players_play_a_whole_game_while_a_third_watches(
    web_stack: LocalStack, new_page: NewPage, screenshot_dir: Path
) -> None:
    # given ana creates a game of Yamb (preset 1) in her browser, ben joins from his, cy watches
    ana, ben, cy = new_page(), new_page(), new_page()
    names = {page: unique(name) for page, name in ((ana, "ana"), (ben, "ben"), (cy, "cy"))}
    for page, name in names.items():
        sign_in(page, web_stack, name)
    game_id = create_game(ana, preset="1")
    game_row(ben, game_id).locator("button.join").click()
    expect(ben.locator("#game")).to_be_visible()
    expect(ana.locator(".seat")).to_have_count(2)
    ana.click("#start")
    game_row(cy, game_id).locator("button.watch").click()
    expect(cy.locator("#game .badge", has_text="watching")).to_be_visible()
    for page in (ana, ben, cy):
        expect(page.locator("#game-status")).to_have_attribute("data-status", "running")
        expect(page.locator(".sheet")).to_have_count(2)
    ana.screenshot(path=str(screenshot_dir / "game-start.png"))

    # when they play turn after turn by clicking, ana reloading her page halfway
    cells = ana.locator(".sheet").first.locator("td.cell").count()
    turns = 0
    while True:
        status = ana.locator("#game-status").get_attribute("data-status")
        if status != "running":
            break
        player = ana if my_turn(ana) else ben if my_turn(ben) else None
        if player is None:
            ana.wait_for_timeout(50)
            continue
        play_one_turn(player)
        turns += 1
        if turns == cells:  # halfway: ana's page is reloaded and the game comes back
            ana.screenshot(path=str(screenshot_dir / "game-mid.png"))
            ana.reload()
            expect(ana.locator("#game")).to_be_visible()
            expect(ana.locator("td.written")).to_have_count(cells)
            assert ana.locator(".sheet").count() == 2
        assert turns <= 2 * cells, "more turns than cells"

    # then every cell was written, each page shows the result, and the spectator saw it all
    assert turns == 2 * cells
    for page in (ana, ben, cy):
        expect(page.locator("#game-status")).to_have_attribute("data-status", "finished")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("td.written")).to_have_count(2 * cells)
    winners = ana.locator("#winners").inner_text()
    assert names[ana] in winners or names[ben] in winners
    expect(cy.locator("#winners")).to_have_text(winners)
    ana.screenshot(path=str(screenshot_dir / "game-end.png"), full_page=True)

    # and the replay, on a screen of its own, lists every turn; back returns to the game
    ana.click("#replay")
    expect(ana.locator("#replay-title")).to_have_text(f"Replay: {2 * cells} turns")
    ana.go_back()

    # and ana's next 1 vs 1 table shows ben their head-to-head (S4), his own figure first
    ana.click("#to-lobby")
    rematch = create_game(ana, preset="1")
    ben.click("#to-lobby")
    ben_won = names[ben] in winners and names[ana] not in winners
    score = (
        "1-0"
        if ben_won
        else "0-1"
        if names[ana] in winners and names[ben] not in winners
        else "0-0"
    )
    expect(game_row(ben, rematch).locator(".head-to-head")).to_contain_text(
        f"you {score} {names[ana]}", timeout=10_000
    )
    for page in (ana, ben, cy):
        assert page.errors == []  # type: ignore[attr-defined]


def test_web_client_pending_choice_is_shown_and_can_be_undone(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana plays a solo game with the default undo delay
    ana = new_page()
    sign_in(ana, web_stack, unique("solo"), undo_ms=1500)
    create_game(ana, players="1", preset="1")
    ana.click("#start")
    expect(ana.locator("#turn-who")).to_have_text("Your turn")

    # when she clicks a legal cell, then Undo before the delay is over
    ana.locator("td.legal button").first.click()
    expect(ana.locator("#pending")).to_be_visible()
    expect(ana.locator("td.pending")).to_have_count(1)
    ana.click("#undo")

    # then nothing is written, and the next click writes once the delay is over
    expect(ana.locator("#pending")).to_be_hidden()
    ana.wait_for_timeout(1700)
    assert written_cells(ana) == 0
    ana.locator("td.legal button").first.click()
    expect(ana.locator("#pending")).to_be_visible()
    expect(ana.locator("td.written")).to_have_count(1, timeout=5000)
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_refused_settings_are_shown_beside_each_setting(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana is in the lobby
    ana = new_page()
    sign_in(ana, web_stack, unique("form"))

    # when she asks for a ranked game with 6 dice
    ana.check("#setting-ranked")
    ana.select_option("#setting-dice", "6")
    ana.click("#create")

    # then the server's message is shown at both settings, and no game was created
    for name in ("ranked", "dice"):
        error = ana.locator(f'[data-field="{name}"] .field-error')
        expect(error).to_contain_text("ranked games use 5 dice")
    expect(ana.locator("#lobby")).to_be_visible()

    # and a setting out of range is shown at its own field only
    ana.uncheck("#setting-ranked")
    ana.fill("#setting-turnSeconds", "5")
    ana.click("#create")
    expect(ana.locator('[data-field="turnSeconds"] .field-error')).to_contain_text("10-120")
    expect(ana.locator('[data-field="dice"] .field-error')).to_have_text("")


def test_web_client_ignores_a_hostile_frame_and_shows_a_lost_connection(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's page talks to the server through a route the test holds
    ana = new_page()
    sockets: list[WebSocketRoute] = []

    def relay(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        sockets.append(socket)

    ana.route_web_socket(re.compile(r"^ws://"), relay)
    sign_in(ana, web_stack, unique("hostile"))
    game_id = create_game(ana, players="1", preset="1")

    # when the "server" sends frames of unknown and broken shapes
    for hostile in (
        {"type": "<img src=x onerror=alert(1)>", "game": {"gameId": 1}},
        {"type": "game", "game": "not a game"},
        [1, 2, 3],
        "not json at all",
    ):
        sockets[-1].send(hostile if isinstance(hostile, str) else json.dumps(hostile))

    # then the page goes on: the game is still shown and its actions still work
    ana.click("#start")
    expect(ana.locator("#turn-who")).to_have_text("Your turn")
    assert ana.locator("img").count() == 0

    # when the connection drops
    sockets[-1].close()

    # then a banner says so, the page connects again by itself and restores the game
    expect(ana.locator("#banner")).to_contain_text("Connection lost")
    expect(ana.locator("#banner")).to_be_hidden(timeout=10_000)
    assert len(sockets) >= 2
    expect(ana).to_have_url(re.compile(f"#/game/{game_id}$"))
    expect(ana.locator("#turn-who")).to_have_text("Your turn")


def test_web_client_chat_and_nicknames_are_text_never_markup(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana and ben sit at one table
    ana, ben = new_page(), new_page()
    sign_in(ana, web_stack, unique("chat"))
    sign_in(ben, web_stack, unique("chat"))
    game_id = create_game(ana, preset="1")
    game_row(ben, game_id).locator("button.join").click()
    expect(ana.locator(".seat")).to_have_count(2)

    # when ben sends markup in the chat
    markup = '<img src=x onerror="document.title=1"><b>bold</b>'
    ben.fill("#chat-input", markup)
    ben.click("#chat-send")

    # then ana reads it as text, and no element was made of it
    message = ana.locator("#chat-messages li .text")
    expect(message).to_have_text(markup)
    assert ana.locator("#chat-messages img, #chat-messages b").count() == 0
    assert ana.title() != "1"  # the markup's onerror never ran

    # and a message that is too long is refused beside the chat box
    ben.fill("#chat-input", "x" * 300)
    ben.click("#chat-send")
    expect(ben.locator("#chat-error")).to_contain_text("200")


def test_web_client_phone_sized_screen_fits_its_width(
    web_stack: LocalStack, new_page: NewPage, screenshot_dir: Path
) -> None:
    # given a phone-sized screen
    phone = new_page(viewport=(390, 844))
    sign_in(phone, web_stack, unique("phone"))

    # when a 7-column game is started and rolled
    create_game(phone, players="1", preset="2")
    phone.click("#start")
    phone.click("#roll")

    # then the page is no wider than the screen (the sheet scrolls in its own box)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    expect(phone.locator(".die")).to_have_count(5)
    phone.screenshot(path=str(screenshot_dir / "game-phone.png"), full_page=True)


def test_web_client_registers_and_logs_in_through_the_account_flows(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a person with no account, who opens a local player's referral link (E7)
    inviter = web_stack.player_token(unique("inviter"))
    link = api(web_stack, "GET", "/me/referral", inviter)["link"]
    balance = api(web_stack, "GET", "/me/wallet", inviter)["balance"]
    assert link.startswith(web_stack.web_url.rstrip("/") + "/?ref=")
    page = new_page()
    page.goto(link)
    name = unique("reg")
    email = f"{name}@example.com"

    # when they register (the link's code filled in), follow the mailed link and log in
    expect(page.locator("#register-referralCode")).to_have_value(link.rpartition("=")[2])
    page.fill("#register-nickname", name.replace("-", ""))
    page.fill("#register-email", email)
    page.fill("#register-password", "Correct-horse-9")
    page.click("#register")
    expect(page.locator("#register-error")).to_contain_text("Check your mail")
    confirm_and_sign_in(page, web_stack, verification_link(web_stack, email), email)

    # then they are in the lobby, connected, and the inviter got the verification's 25 tokens
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#no-games, .game-row").first).to_be_visible()
    assert api(web_stack, "GET", "/me/wallet", inviter)["balance"] == balance + 25
    invitees = api(web_stack, "GET", "/me/referral", inviter)["invitees"]
    assert [i["nickname"] for i in invitees] == [name.replace("-", "")]


def test_web_client_sign_up_with_a_used_address_reads_as_any_sign_up(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a local player's address, and a person who registers with it in the web client
    owner = unique("owner")
    web_stack.player_token(owner)
    email = f"{owner}@example.com"
    page = new_page()
    page.goto(web_stack.web_url)

    # when they register with it, then with a fresh address
    notes = []
    for address in (email, f"fresh-{owner}@example.com"):
        page.fill("#register-nickname", unique("Try").replace("-", ""))
        page.fill("#register-email", address)
        page.fill("#register-password", "Correct-horse-9")
        page.click("#register")
        expect(page.locator("#register-error")).to_contain_text("Check your mail")
        notes.append(page.locator("#register-error").inner_text())
        page.evaluate("document.getElementById('register-error').textContent = ''")

    # then the page says the same both times, and the owner is told by mail instead
    assert notes[0] == notes[1]
    query = urllib.parse.urlencode({"to": email})
    with urllib.request.urlopen(f"{web_stack.gateway.http_url}/_local/mail.json?{query}") as answer:
        subjects = [mail["subject"] for mail in json.load(answer)]
    assert subjects[0] == "Yamb: someone tried to sign up with your address"


def test_web_client_signs_in_by_srp_and_adds_an_authenticator_app(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a registered, verified player who signs in on the page (by SRP: the page posts no
    # password to Cognito, the embedded Cognito checks the SRP signature)
    name = unique("totp")
    email = f"{name}@example.com"
    page = new_page()
    page.goto(web_stack.web_url)
    page.fill("#register-nickname", name.replace("-", ""))
    page.fill("#register-email", email)
    page.fill("#register-password", "Correct-horse-9")
    page.click("#register")
    expect(page.locator("#register-error")).to_contain_text("Check your mail")
    page.goto(verification_link(web_stack, email))
    page.locator("button, input[type=submit]").first.click()
    page.goto(web_stack.web_url)
    posted: list[str] = []
    page.on("request", lambda request: posted.append(request.post_data or ""))
    page.fill("#login-email", email)
    page.fill("#login-password", "Correct-horse-9")
    page.click("#login")
    expect(page.locator("#lobby")).to_be_visible()
    assert any("USER_SRP_AUTH" in body for body in posted)
    assert not any("Correct-horse-9" in body for body in posted)

    # when they add an authenticator app in their settings: its key is shown, and its first
    # code confirms it
    page.click('#nav a[data-screen="settings"]')
    page.click("#totp-add")
    expect(page.locator("#totp-secret")).not_to_be_empty()
    page.fill("#totp-code", "123456")  # moto takes any code (its TOTP check is off)
    page.click("#totp-confirm")
    expect(page.locator("#totp-on")).to_be_visible()

    # then the next sign-in asks for the app's code after the password, and lets them in
    page.click("#sign-out")
    page.fill("#login-email", email)
    page.fill("#login-password", "Correct-horse-9")
    page.click("#login")
    expect(page.locator("#login-code-step")).to_be_visible()
    page.fill("#login-code", "654321")
    page.click("#login-code-confirm")
    # (back where they signed out: the settings' address)
    expect(page.locator("#settings")).to_be_visible()


def api(stack: LocalStack, method: str, path: str, token: str) -> Any:
    """The stack's HTTP API, signed in with `token`: the answer's JSON."""
    request = urllib.request.Request(
        f"{stack.gateway.http_url}{path}",
        method=method,
        headers={"Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize("wrong", ["wrong-password"])
def test_web_client_login_refusal_is_shown_at_the_form(
    web_stack: LocalStack, new_page: NewPage, wrong: str
) -> None:
    # given a registered local player
    name = unique("refused")
    web_stack.player_token(name)
    page = new_page()
    page.goto(web_stack.web_url)

    # when they log in with a wrong password
    page.fill("#login-email", f"{name}@example.com")
    page.fill("#login-password", wrong)
    page.click("#login")

    # then the form says so and they stay on the sign-in screen
    expect(page.locator("#login-error")).not_to_be_empty()
    expect(page.locator("#signin")).to_be_visible()


def verification_link(stack: LocalStack, email: str) -> str:
    """The link of the verification mail to `email`, from the local mailbox."""
    query = urllib.parse.urlencode({"to": email})
    with urllib.request.urlopen(f"{stack.gateway.http_url}/_local/mail.json?{query}") as answer:
        mails = json.load(answer)
    for mail in mails:
        for link in mail.get("links") or []:
            if VERIFY_PATH in link:
                return str(link)
    raise AssertionError(f"no verification mail to {email}: {mails}")


def test_web_client_absent_player_countdown_and_the_finish_offer(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana and ben play a started game in their browsers
    ana, ben = new_page(), new_page()
    sign_in(ana, web_stack, unique("stay"))
    sign_in(ben, web_stack, unique("go"))
    game_id = create_game(ana, preset="1")
    game_row(ben, game_id).locator("button.join").click()
    expect(ana.locator(".seat")).to_have_count(2)
    ana.click("#start")
    expect(ben.locator("#game-status")).to_have_attribute("data-status", "running")

    # when ben's page goes away
    ben.context.close()

    # then ana sees him away, with the return countdown running
    away = ana.locator(".seat.away")
    expect(away).to_have_count(1)
    expect(away.locator(".countdown.return")).to_have_text(re.compile(r"^[23]:\d\d$"))

    # when the return deadline passes (the stack's clock moves past it)
    web_stack.aws.advance(seconds=181)

    # then ana, the last player left, is offered to finish her sheet, told before she answers
    # that the game will be cancelled either way (no turn played: under half), and finishing
    # goes on
    expect(ana.locator("#finish-offer")).to_be_visible(timeout=15_000)
    expect(ana.locator("#finish-uncounted")).to_contain_text("will be cancelled")
    ana.click("#finish-yes")
    expect(ana.locator("#finish-offer")).to_be_hidden()
    expect(ana.locator(".seat.left")).to_have_count(1)
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_simultaneous_game_shows_each_players_progress(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana and ben play a simultaneous game
    ana, ben = new_page(), new_page()
    sign_in(ana, web_stack, unique("sim"))
    sign_in(ben, web_stack, unique("sim"))
    game_id = create_game(ana, preset="1", turnType="simultaneous")
    game_row(ben, game_id).locator("button.join").click()
    expect(ana.locator(".seat")).to_have_count(2)
    ana.click("#start")

    # when ana plays her turn of the round and ben has not (no hints between people)
    for page in (ana, ben):
        expect(page.locator("#turn-who")).to_have_text("Your turn")
        expect(page.locator("#hint")).to_have_count(0)
    play_one_turn(ana)

    # then ana waits for ben, whom the table waits for, and each sees the progress
    expect(ana.locator("#round-wait")).to_contain_text(ben.locator("#me").inner_text())
    expect(ana.locator(".seat .progress", has_text="1/26")).to_have_count(1)
    expect(ben.locator(".badge.waiting")).to_have_count(1)

    # when ben plays his, the next round starts for both
    play_one_turn(ben)
    for page in (ana, ben):
        expect(page.locator("#turn-who")).to_have_text("Your turn")
        expect(page.locator(".progress", has_text="1/26")).to_have_count(2)


def test_web_client_signed_in_elsewhere_is_told_why_and_does_not_reconnect(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player logged in with their password on one device, connected
    name = unique("two-devices")
    web_stack.player_token(name)
    page = new_page()
    page.goto(web_stack.web_url)
    page.fill("#login-email", f"{name}@example.com")
    page.fill("#login-password", LOCAL_PASSWORD)
    page.click("#login")
    expect(page.locator("#no-games, .game-row").first).to_be_visible()
    handshakes: list[str] = []
    page.on("websocket", lambda socket: handshakes.append(socket.url))

    # when they sign in on another device
    web_stack.player_token(name)

    # then this page says why, shows the sign-in, and does not connect again
    expect(page.locator("#banner")).to_contain_text("signed in on another device")
    expect(page.locator("#signin")).to_be_visible()
    page.wait_for_timeout(3_000)
    assert handshakes == []
    expect(page.locator("#signin")).to_be_visible()


def test_web_client_pause_and_resume_the_turn_clock(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana and ben play a started game, ana in turn
    ana, ben = new_page(), new_page()
    sign_in(ana, web_stack, unique("pause"))
    sign_in(ben, web_stack, unique("wait"))
    game_id = create_game(ana, preset="1")
    game_row(ben, game_id).locator("button.join").click()
    expect(ana.locator(".seat")).to_have_count(2)
    ana.click("#start")
    expect(ana.locator("#turn-who")).to_have_text("Your turn")

    # when she pauses
    ana.click("#pause")

    # then her clock shows frozen, her roll waits for her to resume, and ben sees her paused
    # with the return countdown
    expect(ana.locator("#resume")).to_be_visible()
    expect(ana.locator("#paused-note")).to_be_visible()
    expect(ana.locator(".clock.frozen")).to_be_visible()
    expect(ana.locator("#roll")).to_be_disabled()
    paused = ben.locator(".seat", has=ben.locator(".badge.paused"))
    expect(paused).to_have_count(1)
    countdown = paused.locator(".countdown.return")
    expect(countdown).to_have_text(re.compile(r"^\d+:\d\d$"))
    # (the page counts down to the server's deadline by the browser's clock: the stack's clock
    # runs ahead by what earlier tests moved it, so the 3 minutes show that much longer)
    minutes, seconds = countdown.inner_text().split(":")
    ahead = (web_stack.aws.clock.now() - datetime.now(UTC)).total_seconds()
    assert 120 <= int(minutes) * 60 + int(seconds) - ahead <= 181

    # when she resumes, her clock runs again and ben no longer sees the pause
    ana.click("#resume")
    expect(ana.locator("#turn-clock")).to_be_visible()
    expect(ana.locator("#roll")).to_be_enabled()
    expect(ben.locator(".badge.paused")).to_have_count(0)

    # and a second pause in the same turn is refused where she asked for it
    ana.click("#pause")
    expect(ana.locator("#turn-error")).to_contain_text("once a turn")
    play_one_turn(ana)
    assert ana.errors == [] and ben.errors == []  # type: ignore[attr-defined]


def test_web_client_spectator_leaving_stops_watching(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given cy watches ana and ben's game, her page recording the frames it receives
    ana, ben, cy = new_page(), new_page(), new_page()
    received: list[dict[str, Any]] = []
    cy.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived",
            lambda payload: (
                received.append(json.loads(payload)) if isinstance(payload, str) else None
            ),
        ),
    )
    sign_in(ana, web_stack, unique("ana"))
    sign_in(ben, web_stack, unique("ben"))
    sign_in(cy, web_stack, unique("cy"))
    game_id = create_game(ana, preset="1")
    game_row(ben, game_id).locator("button.join").click()
    expect(ana.locator(".seat")).to_have_count(2)
    ana.click("#start")
    expect(ben.locator("#game-status")).to_have_attribute("data-status", "running")
    game_row(cy, game_id).locator("button.watch").click()
    expect(cy.locator("#game .badge", has_text="watching")).to_be_visible()
    play_one_turn(ana)
    expect(cy.locator("td.written")).to_have_count(1)

    # when she goes back to the games list
    cy.click("#to-lobby")
    expect(cy.locator("#lobby")).to_be_visible()
    # (the unwatch is sent as the lobby shows; its ack is awaited)
    for _ in range(100):
        if any(f.get("type") == "ack" and f.get("action") == "unwatch_game" for f in received):
            break
        cy.wait_for_timeout(50)
    else:
        pytest.fail("the page did not stop watching")
    after = len(received)

    # then the next move reaches the players but no longer her page
    play_one_turn(ben)
    expect(ana.locator("td.written")).to_have_count(2)
    ana.wait_for_timeout(300)
    games = [f for f in received[after:] if f.get("type") == "game" and f.get("game")]
    assert [f["game"]["gameId"] for f in games] == []
    assert cy.errors == []  # type: ignore[attr-defined]
