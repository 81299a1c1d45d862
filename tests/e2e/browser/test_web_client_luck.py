"""Luck told apart from skill and ratings where players meet, in a real browser against the
local stack (issue 32): a Yamb game's end offers its skill and luck, measured against the hard
bot's choices; the player's page then shows them per kind of game; the lobby's list shows each
waiting player's rating for the table's pool."""

import re

from playwright.sync_api import expect

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, create_game, game_row, sign_in, unique
from tests.e2e.browser.test_web_client_results import ranked_game_on_the_board

PRESET_1_TURNS = 26


def test_web_client_yamb_skill_and_luck_at_the_end_and_on_the_players_page(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana has played a whole solo game of Yamb preset 1, writing the first box each turn
    ana = new_page()
    sign_in(ana, web_stack, unique("luck"))
    name = ana.locator("#me").inner_text()
    create_game(ana, players="1", preset="1")
    ana.click("#start")
    for played in range(1, PRESET_1_TURNS + 1):
        expect(ana.locator("td.legal button").first).to_be_visible()
        ana.locator("td.legal button").first.click()
        expect(ana.locator("td.written")).to_have_count(played)
    expect(ana.locator("#game-status")).to_have_attribute("data-status", "finished")
    total = int(ana.locator("#game .sheet-total").inner_text())  # bonus and middle part in

    # when she opens the replay her game's end offers with skill and luck
    expect(ana.locator("#replay")).to_have_text("Replay, skill and luck")
    ana.click("#replay")

    # then skill is told from luck against the hard bot's choices: what it expected from her
    # sheets, less what her choices lost, plus what the dice gave or took, is her total
    luck = ana.locator("#replay-luck")
    expect(luck).to_have_attribute("data-against", "hard")
    expect(luck).to_contain_text("Measured against the hard bot\u2019s choices")
    row = luck.locator("tbody tr")
    expect(row).to_have_count(1)
    expected, lost, dice = (
        float(text.replace("\u2212", "-").replace(",", ""))
        for text in row.locator("td").all_inner_texts()
    )
    assert lost < 0  # the first box each turn is seldom the hard bot's
    expect(ana.locator("#replay-regret")).to_contain_text("against the hard bot\u2019s choices")
    assert abs(expected + lost + dice - total) < 0.05

    # when she opens her own page once the game's end has reached her statistics
    ana.goto(f"{web_stack.web_url}#/players/{name}")
    skill = ana.locator('#player-skill tr[data-kind="preset-1/5d/solo"]')
    for _ in range(20):
        if skill.count():
            break
        ana.wait_for_timeout(500)
        ana.reload()
        expect(ana.locator("#player-statistics")).to_be_visible()

    # then the page shows the game's average loss and luck, in her kind of game
    expect(skill).to_have_attribute("data-against", "hard")
    expect(skill.locator("td.regret")).to_have_text(f"\u2212{-lost:,.2f}")
    expect(skill.locator("td.luck")).to_have_text(f"{dice:+,.2f}" if dice else "0.00")
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_lobby_list_shows_each_waiting_players_rating(
    web_stack: LocalStack, players: object, new_page: NewPage
) -> None:
    # given ana, rated in preset 1 after a ranked game, waits at a two-player preset-1 table
    ana_player, _, _ = ranked_game_on_the_board(web_stack, players, "lr")
    ana = new_page()
    sign_in(ana, web_stack, ana_player.name)
    game_id = create_game(ana, players="2", preset="1")

    # when cleo, never rated, looks at the lobby's list
    cleo = new_page()
    sign_in(cleo, web_stack, unique("cleo"))
    row = game_row(cleo, game_id)

    # then ana's name carries her provisional rating in the table's pool, with its "?"
    seat = row.locator(".seat-name", has_text=local_nickname(ana_player.name))
    badge = seat.locator(".rating")
    expect(badge).to_have_text(re.compile(r"^1\d\d\d\?$"))
    expect(badge).to_have_attribute("title", re.compile(r"^Yamb, preset 1 · Provisional"))
    assert badge.inner_text() != "1500?"  # her game moved it
    assert cleo.errors == []  # type: ignore[attr-defined]
