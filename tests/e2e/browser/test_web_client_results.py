"""Results in a real browser (issue 28, R1-R4 and G8): after a ranked game played over the
protocol, the leaderboards screen shows both players and a row's game opens its replay; a
player's page shows their statistics and the head-to-head, whose meeting opens the replay; a
player is followed; a refused filter is said beside the filters."""

import json
import re
import urllib.request
from typing import Any

from playwright.sync_api import expect

from devstack.stack import LocalStack, local_nickname
from devstack.streams import wait_until
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique
from tests.e2e.test_results_e2e import get, play_a_ranked_game

WEEK_BOARD = "#/boards?columns=1&period=week"


def ranked_game_on_the_board(stack: LocalStack, players: Any, prefix: str) -> tuple[Any, Any, str]:
    """A ranked preset-1 game of two new players played to the end over the protocol, on the
    week's board: the winner, the other player and the game's id (a draw is played again)."""
    for attempt in range(3):
        winner, loser, game, _ = play_a_ranked_game(players, f"{prefix}{attempt}")
        if len(game["winners"]) == 1:
            break
    token = stack.player_token(winner.name)

    def on_board() -> bool:
        rows = get(stack, "/boards?columns=1&period=week", token)["rows"]
        return sum(game["gameId"] in row["gameIds"] for row in rows) == 2

    assert wait_until(on_board, timeout=10)
    winner.close()
    loser.close()
    return winner, loser, str(game["gameId"])


def test_web_client_boards_show_the_game_and_a_row_opens_its_replay(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a ranked game of ana's (the winner) and ben's, on the week's board of preset 1
    ana, ben, game_id = ranked_game_on_the_board(web_stack, players, "wb")
    ana_name, ben_name = local_nickname(ana.name), local_nickname(ben.name)
    page = new_page()
    sign_in(page, web_stack, ana.name)

    # when she opens the leaderboards from the navigation and picks the week's board of preset 1
    page.click('#nav a[data-screen="boards"]')
    expect(page.locator("#board-filters")).to_be_visible()
    page.select_option("#board-columns", "1")
    page.select_option("#board-period", "week")

    # then the address names the board, and both players are listed with the game, she first
    # and marked as herself
    expect(page).to_have_url(re.compile(r"#/boards\?columns=1&period=week$"))
    game_link = page.locator(f'a[href="#/replay/{game_id}"]')
    rows = page.locator(".board-table tbody tr", has=game_link)
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(ana_name)
    expect(rows.nth(0)).to_have_class(re.compile(r"\bme\b"))
    expect(rows.nth(1)).to_contain_text(ben_name)

    # when she opens the game of ben's row
    rows.nth(1).locator("a.replay-link").click()

    # then its replay shows, turn by turn: 52 turns, stepping on with the arrow key
    expect(page).to_have_url(re.compile(rf"#/replay/{game_id}$"))
    expect(page.locator("#replay-title")).to_have_text("Replay: 52 turns")
    expect(page.locator("#replay-at")).to_have_text("Turn 52 of 52")
    page.click("#replay-first")
    expect(page.locator("#replay-at")).to_have_text("Turn 0 of 52")
    expect(page.locator("#replay-view td.written")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-at")).to_have_text("Turn 1 of 52")
    expect(page.locator("#replay-view td.written")).to_have_count(1)
    expect(page.locator("#replay-written")).to_contain_text("Wrote")
    # and the names are the table's, hers marked
    expect(page.locator("#replay-view")).to_contain_text(f"{ana_name} (you)")
    expect(page.locator("#replay-view")).to_contain_text(ben_name)

    # and back returns to the board, as it was
    page.go_back()
    expect(rows).to_have_count(2)
    assert not page.errors


def test_web_client_player_page_statistics_head_to_head_and_follow(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a ranked game ana won against ben
    ana, ben, game_id = ranked_game_on_the_board(web_stack, players, "wp")
    ben_name = local_nickname(ben.name)
    page = new_page(viewport=(390, 844))
    sign_in(page, web_stack, ana.name)

    # when she opens ben's page from the board
    page.goto(f"{web_stack.web_url}{WEEK_BOARD}")
    page.locator(".board-table").get_by_role("link", name=ben_name, exact=True).click()

    # then it shows his statistics: one game, lost
    expect(page).to_have_url(re.compile(rf"#/players/{ben_name}$"))
    expect(page.locator("#player-name")).to_contain_text(ben_name)
    facts = page.locator("#player-statistics")
    expect(facts).to_contain_text(re.compile(r"Games\s*1"))
    expect(facts).to_contain_text(re.compile(r"Losses\s*1"))
    # and his record of the kind, named in words
    expect(page.locator("#player-records")).to_contain_text("preset 1 · 5 dice · Individual")
    # and their head-to-head: one game, won by her, which opens its replay
    expect(page.locator("#head-to-head-score")).to_have_text("1 won, 0 lost, 0 tied")
    meeting = page.locator(f'.meeting[data-game="{game_id}"]')
    expect(meeting).to_contain_text("Won")
    # and the page fits the phone: no sideways scroll
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    # and it links to his public page (R5), a page to share that needs no sign-in
    link = page.locator("#player-public-page")
    expect(link).to_have_attribute("href", f"{web_stack.gateway.http_url}/pages/{ben_name}")
    shared = page.request.get(str(link.get_attribute("href")), headers={"Accept": "text/html"})
    assert shared.status == 200 and ben_name in shared.text()

    # when she follows him
    page.click("#follow")

    # then he is a favourite, still after a reload
    expect(page.locator("#follow")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("#follow")).to_have_attribute("aria-pressed", "true")

    # when she opens the meeting
    page.locator(f'.meeting[data-game="{game_id}"] a').click()

    # then the game's replay shows
    expect(page.locator("#replay-title")).to_have_text("Replay: 52 turns")
    assert not page.errors


def test_web_client_boards_refused_filter_is_said_beside_the_filters(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a signed-in player
    page = new_page()
    sign_in(page, web_stack, "wf-filter")

    # when a link names a board that does not exist (preset 9)
    page.goto(f"{web_stack.web_url}#/boards?columns=9")

    # then the refusal is said under the filters, and no table is drawn
    expect(page.locator("#boards-error")).not_to_be_empty()
    expect(page.locator(".board-table")).to_have_count(0)
    # and an unknown player's page says so
    page.goto(f"{web_stack.web_url}#/players/nobody-here-xyz")
    expect(page.locator("#player-error")).not_to_be_empty()


def test_web_client_past_games_list_the_game_and_open_its_replay(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a ranked game ana won against ben
    ana, ben, game_id = ranked_game_on_the_board(web_stack, players, "wg")
    page = new_page(viewport=(390, 844))
    sign_in(page, web_stack, ana.name)

    # when she opens her games from the navigation
    page.click('#nav a[data-screen="games"]')

    # then the game is listed, won, against ben by name
    entry = page.locator(f'.past-game[data-game="{game_id}"]')
    expect(entry).to_contain_text("Won")
    expect(entry.get_by_role("link", name=local_nickname(ben.name))).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")

    # when she opens it
    entry.locator("a.past-game-when").click()

    # then its replay shows
    expect(page).to_have_url(re.compile(rf"#/replay/{game_id}$"))
    expect(page.locator("#replay-title")).to_have_text("Replay: 52 turns")
    assert not page.errors


def test_web_client_player_page_has_no_public_link_while_the_page_is_switched_off(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given ben switched his public page off in his settings
    ben = players("hidden")
    token = web_stack.player_token(ben.name)
    switched = page_settings(web_stack, token, {"publicPage": False})
    assert switched["preferences"]["publicPage"] is False
    ben.close()
    page = new_page()
    sign_in(page, web_stack, unique("looker"))

    # when another player opens his page
    page.goto(f"{web_stack.web_url}#/players/{local_nickname(ben.name)}")

    # then it shows him, with no link to a page that does not exist
    expect(page.locator("#player-name")).to_contain_text(local_nickname(ben.name))
    expect(page.locator("#player-statistics")).to_be_visible()
    expect(page.locator("#player-public-page")).to_have_count(0)
    assert not page.errors


def page_settings(stack: LocalStack, token: str, changes: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        f"{stack.gateway.http_url}/me/settings",
        data=json.dumps(changes).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="PATCH",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_web_client_ratings_board_and_the_players_rating_after_a_ranked_game(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a ranked preset-1 game ana won against ben, rated from the stream
    ana, ben, _ = ranked_game_on_the_board(web_stack, players, "wr")
    ana_name, ben_name = local_nickname(ana.name), local_nickname(ben.name)
    token = web_stack.player_token(ana.name)

    def rated() -> bool:
        rows = get(web_stack, "/ratings?family=yamb-1", token)["rows"]
        return {ana_name, ben_name} <= {row["name"] for row in rows}

    assert wait_until(rated, timeout=10)
    page = new_page()
    sign_in(page, web_stack, ana.name)

    # when she opens the leaderboards, then its skill ratings beside the best scores
    page.click('#nav a[data-screen="boards"]')
    page.click("#boards-tab-ratings")

    # then the preset-1 board lists both, her provisional rating above his and marked as hers
    expect(page).to_have_url(re.compile(r"#/ratings$"))
    expect(page.locator("#ratings-tab-ratings")).to_have_attribute("aria-current", "page")
    mine = page.locator("#rating-board tbody tr.me")
    expect(mine).to_contain_text(ana_name)
    expect(mine.locator(".rating")).to_have_class(re.compile(r"\bprovisional\b"))
    expect(mine.locator(".rating")).to_have_text(re.compile(r"^1[5-9]\d\d\?$"))
    his = page.locator("#rating-board tbody tr", has_text=ben_name)
    expect(his.locator(".rating")).to_have_text(re.compile(r"^1[0-4]\d\d\?$"))

    # when she picks 2 vs 2 on preset 1, nobody is rated there
    page.select_option("#rating-format", "pairs")
    expect(page).to_have_url(re.compile(r"#/ratings\?format=pairs$"))
    expect(page.locator("#rating-empty")).to_be_visible()

    # when she opens her own page, then her rating is there, leading to its board
    page.goto(f"{web_stack.web_url}#/players/{ana_name}")
    rating = page.locator('#player-ratings li[data-pool="individual/yamb-1"]')
    expect(rating).to_contain_text("Yamb, preset 1")
    rating.locator("a").click()
    expect(page).to_have_url(re.compile(r"#/ratings\?family=yamb-1$"))
    expect(page.locator("#rating-board tbody tr.me")).to_contain_text(ana_name)
    assert not page.errors
