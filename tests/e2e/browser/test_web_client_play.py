"""The web client's game features beyond play, in a real browser against the local stack: the
verifiable dice (P5: the commitment before the start, one's own seed sealed and revealed by
the page, and the dice checked in the page with WebCrypto after the end; at a bot table too),
a scorekeeping table's history and its correction (P6),
editing a waiting table, the rematch, 2 vs 2 proposals and the list of running slow games (G4)."""

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from yamb import fair_dice

from devstack.stack import LocalStack
from tests.e2e.browser.accessibility import assert_accessible
from tests.e2e.browser.test_web_client import (
    NewPage,
    create_game,
    game_row,
    play_one_turn,
    sign_in,
    unique,
)


def play_solo_yacht(page: Page) -> None:
    """Plays a whole solo Yacht game (12 turns), writing the first box each turn."""
    page.click("#start")
    for played in range(1, 13):
        expect(page.locator("td.legal button").first).to_be_visible()
        page.locator("td.legal button").first.click()
        expect(page.locator("td.written")).to_have_count(played)
    expect(page.locator("#game-status")).to_have_attribute("data-status", "finished")


def test_web_client_checks_a_finished_games_dice_in_the_page(
    web_stack: LocalStack, new_page: NewPage, screenshot_dir: Path
) -> None:
    # given ana's waiting solo Yacht table, which shows its dice commitment before the start
    ana = new_page()
    sign_in(ana, web_stack, unique("fair"))
    game_id = create_game(ana, grid="yacht", players="1")
    commitment = ana.locator("#dice-commitment").inner_text()
    assert len(commitment) == 64, commitment
    # and compares it with the game's public page, the one every reader sees (issue 32)
    expect(ana.locator("#public-commitment")).to_have_attribute("data-ok", "true")
    link = ana.locator("#public-commitment-link")
    expect(link).to_have_attribute("href", re.compile(rf"/games/{game_id}/fairness$"))

    # and the page has sealed a random seed of her own already, its commitment shown
    expect(ana.locator("#own-seed")).to_have_attribute("data-state", "sealed")
    expect(ana.locator("#seed-commitments li")).to_have_count(1)
    random_commitment = ana.locator("#seed-commitments code").inner_text()
    assert len(random_commitment) == 64

    # when she chooses a seed with a space in it (an advanced option), the page says why not
    ana.click("#seed-own summary")
    ana.fill("#seed-input", "two words")
    ana.click("#seed-add")
    expect(ana.locator("#seed-error")).not_to_be_empty()

    # and when she chooses a seed of her own, its SHA-256 replaces the random one's, the seed
    # itself shown nowhere
    ana.fill("#seed-input", "ana-lucky-7")
    ana.click("#seed-add")
    chosen = hashlib.sha256(b"ana-lucky-7").hexdigest()
    expect(ana.locator("#seed-commitments code")).to_have_text(chosen)
    expect(ana.locator("#seed-error")).to_be_empty()
    expect(ana.locator("#client-seeds")).to_have_count(0)
    expect(ana.locator("#check-dice")).to_have_count(0)  # nothing to check before the end

    # when she plays the whole game and checks the dice
    play_solo_yacht(ana)
    expect(ana.locator("#dice-commitment")).to_have_text(commitment)
    seed = ana.locator("#dice-seed").inner_text()
    ana.click("#check-dice")

    # then every turn matches, and so does the commitment shown at the start (and the public
    # page's, read again now that the seed shows there)
    expect(ana.locator("#public-commitment")).to_have_attribute("data-ok", "true")
    verdict = ana.locator("#dice-verdict")
    expect(verdict).to_have_attribute("data-ok", "true")
    expect(verdict).to_contain_text("All 12 turns match")
    expect(ana.locator("#dice-commitment-check")).to_have_attribute("data-ok", "true")
    expect(ana.locator("#dice-turns tbody tr[data-ok=true]")).to_have_count(12)
    # and her seed, revealed after the start by the page itself, is in the dice and checks
    expect(ana.locator("#client-seeds")).to_contain_text("ana-lucky-7")
    expect(ana.locator("#own-seed")).to_have_attribute("data-state", "in")
    expect(ana.locator("#dice-seeds-check")).to_have_attribute("data-ok", "true")
    expect(ana.locator("#dice-own-seed")).to_have_attribute("data-ok", "true")
    # (the page's seed is the one committed to: its SHA-256, computed here too)
    assert fair_dice.commitment(seed) == commitment
    ana.click("#dice-turns summary")
    assert_accessible(ana, "game (fair dice checked)")
    ana.locator("#fairness").screenshot(path=str(screenshot_dir / "game-fair-dice.png"))
    # (and on a phone the panel, its seeds and its table fit the width: no sideways scroll)
    ana.set_viewport_size({"width": 390, "height": 844})
    expect(ana.locator("#dice-turns table")).to_be_visible()
    assert ana.evaluate("document.documentElement.scrollWidth") <= 390
    ana.set_viewport_size({"width": 1280, "height": 800})

    _tampered_records_fail(ana, game_id)


def _tampered_records_fail(ana: Page, game_id: str) -> None:
    """The checker fed the game's record with one die changed, a player's seed swapped, and
    another server seed: each fails where it should, and the page says so."""
    verdict = ana.locator("#dice-verdict")
    # when the checker is fed the same record with one die changed (a unit check in the page)
    record: dict[str, Any] = ana.evaluate(
        "async (id) => (await import('./js/game/fairness.js')).recordOf(id)", game_id
    )
    assert record["gameId"] == game_id and len(record["turns"]) == 12
    tampered = dict(record)
    first = tampered["turns"][4]
    changed = str(7 - int(first.split(":")[2][0]))  # the first die of turn 5's roll 1, flipped
    tampered["turns"] = [*record["turns"]]
    tampered["turns"][4] = (
        first[: first.index(":", first.index(":") + 1) + 1]
        + changed
        + (first[first.index(":", first.index(":") + 1) + 2 :])
    )
    result = ana.evaluate(
        """async (record) => {
            const checker = await import('./js/game/dicecheck.js');
            const result = await checker.checkRecord(record);
            return {ok: result.ok, bad: result.turns.filter((t) => !t.ok).map((t) => t.index),
                    commitment: result.commitment.matches};
        }""",
        tampered,
    )

    # then that turn, and only that one, fails, while the commitment still matches
    assert result == {"ok": False, "bad": [5], "commitment": True}

    # and a record whose player's seed is not the committed one fails on it
    swapped = {**record, "clientSeeds": {k: "another" for k in record["clientSeeds"]}}
    seeds_ok = ana.evaluate(
        """async (record) => {
            const checker = await import('./js/game/dicecheck.js');
            const result = await checker.checkRecord(record);
            return [result.ok, result.seeds.map((seed) => seed.ok)];
        }""",
        swapped,
    )
    assert seeds_ok == [False, [False]]

    # and a record with another seed fails on its commitment, and the page says so
    other = {**record, "seed": "00" * 32}
    ana.evaluate(
        """async ([id, record]) => {
            const fairness = await import('./js/game/fairness.js');
            await fairness.checkAndShow(window.yamb.state.games.get(id), record);
        }""",
        [game_id, other],
    )
    expect(verdict).to_have_attribute("data-ok", "false")
    expect(ana.locator("#dice-commitment-check")).to_have_attribute("data-ok", "false")
    expect(ana.locator("#dice-verdict")).to_contain_text("Does not match")
    assert json.loads(json.dumps(record))["seedMatchesCommitment"] is True
    assert ana.errors == []  # type: ignore[attr-defined]


def test_web_client_seals_and_reveals_its_own_seed_at_a_bot_table(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ben's waiting Yacht table for two with an easy bot (issue 32: with no seed of a
    # player's, the server alone would fix the dice)
    ben = new_page()
    sign_in(ben, web_stack, unique("seedbot"))
    create_game(ben, grid="yacht", players="2")
    ben.select_option("#bot-level", "easy")
    ben.click("#add-bot")
    expect(ben.locator(".seat.bot")).to_have_count(1)
    bot_id = ben.locator(".seat.bot").get_attribute("data-player")

    # then the page sealed a random seed of his own without being asked
    expect(ben.locator("#own-seed")).to_have_attribute("data-state", "sealed")
    expect(ben.locator("#seed-commitments li")).to_have_count(1)

    # when he starts, the page reveals it: the first roll comes with his seed in the dice
    ben.click("#start")
    expect(ben.locator("#own-seed")).to_have_attribute("data-state", "in")
    seed = ben.locator("#client-seeds code").inner_text()
    assert len(seed) == 64 and int(seed, 16) >= 0  # 32 random bytes, in hex

    # and the game, resigned once its first turn is played, verifies with his seed in it
    expect(ben.locator("td.legal button").first).to_be_visible(timeout=20_000)
    ben.locator("td.legal button").first.click()
    expect(ben.locator(f'.sheet:not([data-player="{bot_id}"]) td.written')).to_have_count(1)
    ben.once("dialog", lambda dialog: dialog.accept())
    ben.click("#resign")
    expect(ben.locator("#game-status")).not_to_have_attribute("data-status", "running")
    ben.click("#check-dice")
    expect(ben.locator("#dice-verdict")).to_have_attribute("data-ok", "true")
    expect(ben.locator("#dice-seeds-check")).to_have_attribute("data-ok", "true")
    expect(ben.locator("#dice-own-seed")).to_have_attribute("data-ok", "true")
    assert ben.errors == []  # type: ignore[attr-defined]


def enter_and_write(page: Page, dice: str, row: str, written: int) -> None:
    """Types a roll of the real dice and writes it in `row` (the sheet then has `written`)."""
    page.fill("#enter-dice", dice)
    page.click("#enter")
    page.locator(f'td.legal[data-row="{row}"] button').click()
    expect(page.locator("td.written")).to_have_count(written)


def test_web_client_scorekeeping_history_and_its_correction(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given bo keeps score of a solo Yacht game with real dice, two turns written
    bo = new_page(color_scheme="dark")  # (the panel checked in the dark theme)
    sign_in(bo, web_stack, unique("keeper"))
    bo.check("#setting-physicalDice")
    create_game(bo, grid="yacht", players="1")
    bo.click("#start")
    enter_and_write(bo, "11111", "ones", 1)
    enter_and_write(bo, "22223", "twos", 2)
    expect(bo.locator(".sheet-total")).to_have_text("13")

    # when he opens the turns so far
    bo.click("#history summary")

    # then each turn is a line: its dice and the box written
    lines = bo.locator("#history-lines .history-line")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("11111")
    expect(lines.nth(0)).to_contain_text("wrote 1s")
    expect(lines.nth(1)).to_contain_text("22223")

    # when he corrects the first line: the dice were 11122
    lines.nth(0).locator("button.correct").click()
    assert_accessible(bo, "game (scorekeeping history)")
    bo.fill("#correct-rolls", "11122")
    bo.click("#correct-save")

    # then the history and the sheet are scored again from the corrected turn
    expect(lines.nth(0)).to_contain_text("11122")
    expect(bo.locator('td.written[data-row="ones"]')).to_have_text("3")
    expect(bo.locator(".sheet-total")).to_have_text("11")

    # when a correction breaks a later turn (the second line writes the 1s again)
    lines.nth(1).locator("button.correct").click()
    bo.select_option("#correct-row", "ones")
    bo.click("#correct-save")

    # then the server's refusal is said beside the form, and nothing changed
    expect(bo.locator("#correct-error")).not_to_be_empty()
    expect(bo.locator(".sheet-total")).to_have_text("11")
    expect(lines.nth(1)).to_contain_text("22223")
    assert bo.errors == []  # type: ignore[attr-defined]


def test_web_client_creator_edits_a_waiting_table_in_the_create_forms_fields(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given cy's waiting Yamb table for two, preset 1, 60 s a turn
    cy = new_page()
    sign_in(cy, web_stack, unique("editor"))
    create_game(cy, players="2", preset="1")
    cy.click("#edit-table summary")

    # then the form shows the table's settings
    expect(cy.locator("#edit-players")).to_have_value("2")
    expect(cy.locator("#edit-preset")).to_have_value("1")
    expect(cy.locator("#edit-grid")).to_have_value("yamb")
    assert_accessible(cy, "game (table settings)")

    # when she asks for a clock the server refuses
    cy.fill("#edit-turnSeconds", "1")
    cy.click("#edit-save")

    # then the refusal is said beside the seconds, and the table is unchanged
    refusal = cy.locator('#edit-form [data-field="turnSeconds"] .field-error')
    expect(refusal).not_to_be_empty()
    expect(cy.locator(".game-title .settings")).to_contain_text("2 players")

    # when she makes it a table for three, preset 2, 90 s a turn
    cy.select_option("#edit-players", "3")
    cy.select_option("#edit-preset", "2")
    cy.fill("#edit-turnSeconds", "90")
    cy.click("#edit-save")

    # then the table shows its new settings, and the form holds them
    settings = cy.locator(".game-title .settings")
    expect(settings).to_contain_text("3 players")
    expect(settings).to_contain_text("preset 2")
    expect(settings).to_contain_text("90 s a turn")
    cy.click("#edit-table summary")
    expect(cy.locator("#edit-players")).to_have_value("3")
    expect(refusal).to_be_empty()
    assert cy.errors == []  # type: ignore[attr-defined]


def test_web_client_rematch_invites_the_other_player_who_joins_from_the_page(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given dee and eli's game, ended: dee resigned, eli chose to end it rather than finish
    dee, eli = new_page(), new_page()
    sign_in(dee, web_stack, unique("dee"))
    sign_in(eli, web_stack, unique("eli"))
    game_id = create_game(dee, players="2", preset="2")
    eli.click("#refresh")
    eli.locator(f'.game-row[data-game="{game_id}"] button.join').click()
    expect(dee.locator(".seat")).to_have_count(2)
    dee.click("#start")
    dee.once("dialog", lambda dialog: dialog.accept())
    dee.click("#resign")
    eli.click("#finish-no")
    expect(eli.locator("#game-status")).not_to_have_attribute("data-status", "running")
    expect(eli.locator("#rematch")).to_be_visible()

    # when eli asks for a rematch
    eli.click("#rematch")

    # then eli is at a new waiting table with the same settings
    expect(eli).not_to_have_url(re.compile(f"#/game/{game_id}$"))
    expect(eli.locator("#game-status")).to_have_attribute("data-status", "waiting")
    expect(eli.locator(".game-title .settings")).to_contain_text("preset 2")
    # and dee (who left the game she resigned) is asked, by name, to join it
    invite = dee.locator("#rematch-invite")
    expect(invite).to_contain_text("asks for a rematch")
    expect(invite).to_contain_text(eli.locator("#me").inner_text())

    # (the seat list of a player who left is the game screen's own, greyed below the contrast
    # axe asks: left to that screen's work, not checked here)
    assert_accessible(dee, "game (rematch invitation)")

    # when dee joins from the notice
    dee.click("#rematch-join")

    # then both sit at the new table, each page showing it
    expect(dee.locator("#game-status")).to_have_attribute("data-status", "waiting")
    expect(dee.locator(".seat")).to_have_count(2)
    expect(eli.locator(".seat")).to_have_count(2)
    expect(dee.locator("#banner")).to_be_hidden()
    assert dee.errors == [] and eli.errors == []  # type: ignore[attr-defined]


def test_web_client_slow_games_are_listed_with_the_move_and_deadline_and_open(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given fay's slow game with gus, started, and fay with no other slow game
    fay, gus = new_page(), new_page()
    sign_in(fay, web_stack, unique("fay"))
    sign_in(gus, web_stack, unique("gus"))
    fay.goto(f"{web_stack.web_url}#/slow")
    expect(fay.locator("#no-slow-games")).to_be_visible()
    fay.goto(f"{web_stack.web_url}#/")
    game_id = create_game(fay, players="2", turnType="slow", preset="1")
    gus.click("#refresh")
    gus.locator(f'.game-row[data-game="{game_id}"] button.join').click()
    expect(fay.locator(".seat")).to_have_count(2)
    fay.click("#start")
    expect(fay.locator("#game-status")).to_have_attribute("data-status", "running")

    # when fay opens her slow games from the navigation
    fay.click('#nav a[data-screen="slow"]')

    # then the game is listed: its players, her move to make and its deadline
    row = fay.locator(f'.slow-game[data-game="{game_id}"]')
    expect(row).to_contain_text(gus.locator("#me").inner_text())
    expect(row.locator("[data-yours]")).to_have_attribute("data-yours", "true")
    expect(row).to_contain_text("Your move: 0 of")
    expect(row.locator(".deadline")).to_contain_text("Ends in 2 days")
    assert_accessible(fay, "slow games")

    # when she opens it from the list
    row.locator("a.slow-open").click()

    # then its game is on screen, at its own address
    expect(fay).to_have_url(re.compile(f"#/game/{game_id}$"))
    expect(fay.locator("#game-status")).to_have_attribute("data-status", "running")
    assert fay.errors == [] and gus.errors == []  # type: ignore[attr-defined]


def test_web_client_two_vs_two_partner_sees_and_takes_the_proposal(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a 2 vs 2 table of preset 1: hal and ida against jo and kim
    names = [unique(name) for name in ("hal", "ida", "jo", "kim")]
    pages = [new_page() for _ in names]
    for page, name in zip(pages, names, strict=True):
        sign_in(page, web_stack, name)
    hal, ida, jo, _kim = pages
    hal.check("#setting-pairs")
    game_id = create_game(hal, players="4", preset="1")
    for page in pages[1:]:
        page.click("#refresh")
        page.locator(f'.game-row[data-game="{game_id}"] button.join').click()
    expect(hal.locator(".seat")).to_have_count(4)
    hal.click("#start")

    # when hal rolls and writes a cell: a proposal for his partner, not a write
    expect(hal.locator("#turn-who")).to_have_text("Your turn")
    expect(hal.locator(".turn-head")).to_contain_text("proposes")
    if hal.locator(".turn-head").inner_text().strip().endswith("roll 0/3"):
        hal.keyboard.press("r")
    expect(hal.locator("td.legal button").first).to_be_visible()
    hal.locator("td.legal button").first.click()

    # then ida, his partner, is in turn and is shown the proposal: the cell and its value
    expect(ida.locator("#turn-who")).to_have_text("Your turn")
    expect(ida.locator(".turn-head")).to_contain_text("finishes the team turn")
    note = ida.locator(".proposal-note")
    expect(note).to_contain_text("Proposal: ")
    proposed = ida.locator("td.proposal")
    expect(proposed).to_have_count(1)
    column = proposed.get_attribute("data-column")
    row = proposed.get_attribute("data-row")
    value = int(note.inner_text().rsplit("(", 1)[1].rstrip(")"))
    # and so are their opponents, with the cell left empty on the team's sheet
    expect(jo.locator(".proposal-note")).to_contain_text("Proposal: ")
    expect(hal.locator("td.written")).to_have_count(0)

    # when ida rolls her own dice and takes the proposed cell
    if ida.locator(".turn-head").inner_text().strip().endswith("roll 0/3"):
        ida.keyboard.press("r")
    taken = ida.locator(f'td.legal[data-column="{column}"][data-row="{row}"] button')
    expect(taken).to_be_visible()
    taken.click()

    # then the team's sheet has it at the better of the two values, and the turn is jo's
    cell = hal.locator(f'td.written[data-column="{column}"][data-row="{row}"]')
    expect(cell).to_have_count(1)
    assert int(cell.first.inner_text()) >= value
    expect(jo.locator("#turn-who")).to_have_text("Your turn")
    assert_accessible(ida, "game (2 vs 2)")
    assert all(page.errors == [] for page in pages)  # type: ignore[attr-defined]


def test_web_client_each_for_themself_plays_on_at_each_players_pace(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given lea and max at an each-for-themself table of preset 1, and nat watching it
    lea, mx, nat = new_page(), new_page(), new_page()
    for page, name in ((lea, "lea"), (mx, "max"), (nat, "nat")):
        sign_in(page, web_stack, unique(name))
    game_id = create_game(lea, preset="1", turnType="each_for_themself")
    game_row(mx, game_id).locator("button.join").click()
    expect(lea.locator(".seat")).to_have_count(2)
    lea.click("#start")
    lea_id = lea.locator(".seat", has=lea.locator(".badge.you")).get_attribute("data-player")
    game_row(nat, game_id).locator("button.watch").click()
    expect(nat.locator("#game-status")).to_have_attribute("data-status", "running")

    # when lea plays three turns while max has played none
    for _ in range(3):
        expect(lea.locator("#turn-who")).to_have_text("Your turn")
        play_one_turn(lea)

    # then nobody waits for anybody: lea is in turn again, max still at his first, and every
    # page shows each player's progress
    expect(lea.locator("#turn-who")).to_have_text("Your turn")
    expect(lea.locator("#round-wait")).to_have_count(0)
    expect(mx.locator("#turn-who")).to_have_text("Your turn")
    for page in (lea, mx, nat):
        expect(page.locator(f'.seat[data-player="{lea_id}"] .progress')).to_have_text("3/26")
        expect(page.locator(f'.seat:not([data-player="{lea_id}"]) .progress')).to_have_text("0/26")

    # when the spectator follows lea
    nat.locator(f'.seat[data-player="{lea_id}"] button.follow').click()

    # then he sees her turn, and max plays his own turn meanwhile
    expect(nat.locator(f'.seat[data-player="{lea_id}"] button.follow')).to_have_text("following")
    expect(nat.locator("#turn-who")).to_contain_text(lea.locator("#me").inner_text())
    play_one_turn(mx)
    expect(lea.locator(f'.seat:not([data-player="{lea_id}"]) .progress')).to_have_text("1/26")
    assert_accessible(nat, "game (each for themself, watched)")
    assert all(page.errors == [] for page in (lea, mx, nat))  # type: ignore[attr-defined]
