"""The web client's game features beyond play, in a real browser against the local stack: the
verifiable dice (P5: the commitment before the start, one's own seed, and the dice checked in
the page with WebCrypto after the end), a scorekeeping table's history and its correction (P6),
editing a waiting table, the rematch, 2 vs 2 proposals and the list of running slow games (G4)."""

import json
from typing import Any

from playwright.sync_api import Page, expect

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, create_game, sign_in, unique
from yamb import fair_dice


def play_solo_yacht(page: Page) -> None:
    """Plays a whole solo Yacht game (12 turns), writing the first box each turn."""
    page.click("#start")
    for played in range(1, 13):
        expect(page.locator("td.legal button").first).to_be_visible()
        page.locator("td.legal button").first.click()
        expect(page.locator("td.written")).to_have_count(played)
    expect(page.locator("#game-status")).to_have_attribute("data-status", "finished")


def test_web_client_checks_a_finished_games_dice_in_the_page(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's waiting solo Yacht table, which shows its dice commitment before the start
    ana = new_page()
    sign_in(ana, web_stack, unique("fair"))
    game_id = create_game(ana, grid="yacht", players="1")
    commitment = ana.locator("#dice-commitment").inner_text()
    assert len(commitment) == 64, commitment

    # when she adds a seed with a space in it, the server's refusal is said beside the field
    ana.fill("#seed-input", "two words")
    ana.click("#seed-add")
    expect(ana.locator("#seed-error")).not_to_be_empty()

    # and when she adds a seed of her own, the table lists it
    ana.fill("#seed-input", "ana-lucky-7")
    ana.click("#seed-add")
    expect(ana.locator("#client-seeds")).to_contain_text("ana-lucky-7")
    expect(ana.locator("#seed-error")).to_be_empty()
    expect(ana.locator("#check-dice")).to_have_count(0)  # nothing to check before the end

    # when she plays the whole game and checks the dice
    play_solo_yacht(ana)
    expect(ana.locator("#dice-commitment")).to_have_text(commitment)
    seed = ana.locator("#dice-seed").inner_text()
    ana.click("#check-dice")

    # then every turn matches, and so does the commitment shown at the start
    verdict = ana.locator("#dice-verdict")
    expect(verdict).to_have_attribute("data-ok", "true")
    expect(verdict).to_contain_text("All 12 turns match")
    expect(ana.locator("#dice-commitment-check")).to_have_attribute("data-ok", "true")
    expect(ana.locator("#dice-turns tbody tr[data-ok=true]")).to_have_count(12)
    # (the page's seed is the one committed to: its SHA-256, computed here too)
    assert fair_dice.commitment(seed) == commitment

    # when the checker is fed the same record with one die changed (a unit check in the page)
    record: dict[str, Any] = ana.evaluate(
        "async (id) => (await import('./js/game/fairness.js')).recordOf(id)", game_id
    )
    assert record["gameId"] == game_id and len(record["turns"]) == 12
    tampered = dict(record)
    first = tampered["turns"][4]
    changed = str(7 - int(first.split(":")[2][0]))  # the first die of turn 5's roll 1, flipped
    tampered["turns"] = [*record["turns"]]
    tampered["turns"][4] = first[: first.index(":", first.index(":") + 1) + 1] + changed + (
        first[first.index(":", first.index(":") + 1) + 2 :]
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
