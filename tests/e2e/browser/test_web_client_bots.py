"""The web client with bots (product G11) in a real browser against the local stack: the creator
seats and removes bots at a waiting table, a bot plays its turns on its own while the page
follows, a player alone with bots asks for a hint and sees it on the dice or the sheet, a
refused bot is shown beside its control, and a replay shows each turn's regret."""

import re
import time

from playwright.sync_api import Page, expect

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, create_game, sign_in, unique

# A bot moves about every 1.2 s (yamb.session.bot_turns) on the stack's real clock: a turn of
# up to three rolls and a write takes a few seconds.
BOT_TURN_MS = 20_000


def hurry_bot(stack: LocalStack, page: Page, bot_id: str, written: int) -> None:
    """Lets the bot's next moments come at once until the page shows `written` boxes on its
    sheet: the stack's clock moves 2 s (a bot's step is 1.2 s), the page gets a moment to show
    what the bot did."""
    deadline = time.monotonic() + BOT_TURN_MS / 1000
    while bot_sheet_written(page, bot_id) < written:
        assert time.monotonic() < deadline, "the bot did not move on"
        stack.aws.advance(seconds=2)
        page.wait_for_timeout(100)


def add_bot(page: Page, level: str) -> None:
    page.select_option("#bot-level", level)
    page.click("#add-bot")


def bot_sheet_written(page: Page, bot_id: str) -> int:
    return page.locator(f'.sheet[data-player="{bot_id}"] td.written').count()


def test_web_client_bot_is_seated_removed_and_plays_its_turns_on_its_own(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's waiting Yamb table for two
    ana = new_page()
    sign_in(ana, web_stack, unique("solo-bot"))
    create_game(ana, players="2", preset="1")

    # when she seats an easy bot, removes it, and seats it again
    add_bot(ana, "easy")
    bot = ana.locator(".seat.bot")
    expect(bot).to_have_count(1)
    expect(bot.locator(".nickname")).to_have_text("Easy bot 1")
    expect(bot.locator(".badge.bot")).to_have_text("🤖 Easy")
    expect(ana.locator("#add-bot")).to_have_count(0)  # the table is full
    bot.locator("button.remove-bot").click()
    expect(ana.locator(".seat")).to_have_count(1)
    add_bot(ana, "easy")
    expect(ana.locator(".seat.bot")).to_have_count(1)
    bot_id = ana.locator(".seat.bot").get_attribute("data-player")
    assert bot_id

    # then the game starts with the bot, and the Remove buttons are gone
    ana.click("#start")
    expect(ana.locator("#game-status")).to_have_attribute("data-status", "running")
    expect(ana.locator("button.remove-bot")).to_have_count(0)

    # when ana plays three turns, the bot playing its own between them
    for played in range(1, 4):
        expect(ana.locator("#turn-who")).to_have_text("Your turn", timeout=BOT_TURN_MS)
        expect(ana.locator("td.legal button").first).to_be_visible()
        ana.locator("td.legal button").first.click()
        expect(ana.locator(f'.sheet:not([data-player="{bot_id}"]) td.written')).to_have_count(
            played
        )

        # then the page shows the bot's turn: its name, its dice rolled, its box written (the
        # stack's clock hurried on once the first roll is seen)
        expect(ana.locator("#turn-who")).to_have_text("🤖 Easy bot 1's turn")
        expect(ana.locator(".turn-head")).to_contain_text(re.compile(r"roll [123]/3"))
        hurry_bot(web_stack, ana, bot_id, played)
        expect(ana.locator(f'.sheet[data-player="{bot_id}"] td.written')).to_have_count(played)

    # and the turn comes back to ana each time, the page free of errors
    expect(ana.locator("#turn-who")).to_have_text("Your turn", timeout=BOT_TURN_MS)
    assert bot_sheet_written(ana, bot_id) == 3
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_hint_marks_the_dice_to_keep_or_the_cell(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana plays a Yacht table against a hard bot (the optimal player answers hints there)
    ana = new_page()
    sign_in(ana, web_stack, unique("hinted"))
    create_game(ana, grid="yacht", players="2")
    levels = ana.locator("#bot-level option").evaluate_all("options => options.map(o => o.value)")
    assert levels == ["easy", "medium", "hard", "optimal"]
    add_bot(ana, "hard")
    ana.click("#start")
    expect(ana.locator("#turn-who")).to_have_text("Your turn", timeout=BOT_TURN_MS)
    if ana.locator(".turn-head").inner_text().strip().endswith("roll 0/3"):
        expect(ana.locator("#hint")).to_have_count(0)  # nothing rolled yet: nothing to advise
        ana.keyboard.press("r")
    expect(ana.locator(".turn-head")).to_contain_text("roll 1/3")

    # when she presses H after her first roll
    ana.keyboard.press("h")

    # then the hint says what to keep (those dice marked) or which box to write (that cell marked)
    hint = ana.locator("#turn-hint")
    expect(hint).to_contain_text(
        re.compile(r"^Hint: (Keep|Roll all|Write|Announce) .*\(Optimal bot\)$")
    )
    text = hint.inner_text()
    if text.startswith("Hint: Keep"):
        faces = re.findall(r"\d", text.split(",")[0].split(" and ")[0])
        expect(ana.locator(".die.hinted")).to_have_count(len(faces))
        marked = ana.locator(".die.hinted").evaluate_all("dice => dice.map(d => d.dataset.face)")
        assert sorted(marked) == sorted(faces)
        expect(ana.locator("td.hinted")).to_have_count(0)
    elif text.startswith("Hint: Roll all"):
        expect(ana.locator(".die.hinted, td.hinted")).to_have_count(0)
    else:
        expect(ana.locator("td.hinted")).to_have_count(1)
    expect(ana.locator("#hint")).to_be_disabled()

    # when she rolls again, the hint of the roll before is gone, and a new one can be asked
    ana.keyboard.press("r")
    expect(ana.locator(".turn-head")).to_contain_text("roll 2/3")
    expect(hint).to_have_count(0)
    expect(ana.locator(".die.hinted, td.hinted")).to_have_count(0)
    ana.click("#hint")
    expect(hint).to_be_visible()

    # and after the third roll there is no hint to ask for
    ana.keyboard.press("r")
    expect(ana.locator(".turn-head")).to_contain_text("roll 3/3")
    expect(ana.locator("#hint")).to_have_count(0)
    expect(hint).to_have_count(0)
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_refused_bot_is_shown_beside_the_add_button(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's waiting Yamb table for three, whose level list has no optimal bot
    ana = new_page()
    sign_in(ana, web_stack, unique("refused-bot"))
    create_game(ana, players="3", preset="1")
    levels = ana.locator("#bot-level option").evaluate_all("options => options.map(o => o.value)")
    assert levels == ["easy", "medium", "hard"]

    # when a page whose list is out of date asks for the optimal bot all the same
    ana.locator("#bot-level").evaluate(
        "select => { select.append(new Option('Optimal', 'optimal')); select.value = 'optimal'; }"
    )
    ana.click("#add-bot")

    # then the server's refusal is shown beside the button, and no bot sits down
    expect(ana.locator("#bot-error")).to_contain_text("does not play the yamb grid")
    expect(ana.locator(".seat")).to_have_count(1)

    # and a ranked table (people only) offers no bot at all
    ana.click("#delete")
    expect(ana.locator("#lobby")).to_be_visible()
    ana.check("#setting-ranked")
    create_game(ana, players="2", preset="1")
    expect(ana.locator("#start")).to_be_visible()
    expect(ana.locator("#add-bot, #bot-level")).to_have_count(0)
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_replay_shows_each_turns_regret(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana has played a whole solo game of Yacht, writing the first box each turn
    ana = new_page()
    sign_in(ana, web_stack, unique("regret"))
    create_game(ana, grid="yacht", players="1")
    ana.click("#start")
    for played in range(1, 13):
        expect(ana.locator("td.legal button").first).to_be_visible()
        ana.locator("td.legal button").first.click()
        expect(ana.locator("td.written")).to_have_count(played)
    expect(ana.locator("#game-status")).to_have_attribute("data-status", "finished")

    # when she opens the replay, which the game's end offers with skill and luck
    expect(ana.locator("#replay")).to_have_text("Replay, skill and luck")
    ana.click("#replay")

    # then each turn shows its regret, and the total is given for her
    expect(ana.locator("#replay-title")).to_have_text("Replay: 12 turns")
    ana.click("#replay-view summary")
    expect(ana.locator("#replay-turns th", has_text="Regret")).to_have_count(1)
    cells = ana.locator("#replay-turns td.regret")
    expect(cells).to_have_count(12)
    for value in cells.all_inner_texts():
        assert re.fullmatch(r"\d+\.\d\d", value), value
    total = ana.locator("#replay-regret")
    expect(total).to_contain_text(ana.locator("#me").inner_text())
    expect(total).to_contain_text(re.compile(r"\d+\.\d\d"))

    # and skill is told from luck: her total is the optimal player's average, less what her
    # choices lost, plus what the dice gave or took (issue 32)
    luck = ana.locator("#replay-luck")
    expect(luck).to_contain_text("The optimal player scores")
    row = luck.locator("tbody tr")
    expect(row).to_have_count(1)
    lost, dice = (
        float(text.replace("\u2212", "-").replace(",", ""))
        for text in row.locator("td").all_inner_texts()
    )
    expected = float(re.search(r"scores ([\d,.]+)", luck.inner_text())[1].replace(",", ""))  # type: ignore[index]
    sheet_total = int(ana.locator("#replay-view .sheet-total").inner_text())  # Yacht: no bonus
    assert abs(expected + lost + dice - sheet_total) < 0.05
    assert ana.errors == []  # type: ignore[attr-defined]
