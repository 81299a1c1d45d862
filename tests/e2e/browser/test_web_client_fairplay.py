"""Fair play in a real browser (issue 30, S7): a player whose record shows a signal is put the
"not a robot" check at the table after a write; the dialog takes the focus and reads out its
question, and tapping the die showing the face passes it. A wrong die is a yellow card, said in
a notice and counted on the player's settings."""

from playwright.sync_api import expect
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common.dynamo import item_model
from yamb_service.game.result_dynamo import game_result
from yamb_service.social.fairplay.dynamo import DynamoFairplayStore

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.accessibility import assert_accessible
from tests.e2e.browser.test_web_client import NewPage, create_game, sign_in, unique


def _under_suspicion(stack: LocalStack, name: str) -> None:
    """The local player `name`'s record shows the agreement signal (as after earlier games)."""
    aws = stack.aws
    item = item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    owner = DynamoAccountStore(item, lambda game_id: game_result(item, game_id)).nickname_owner(
        local_nickname(name)
    )
    assert owner is not None
    DynamoFairplayStore(item).update(
        owner, lambda record: record.model_copy(update={"suspect": "agreement"})
    )


def test_web_client_fairplay_check_answered_at_the_table(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana under suspicion at her solo Yacht table
    ana = new_page()
    name = unique("fairp")
    sign_in(ana, web_stack, name)
    _under_suspicion(web_stack, name)
    create_game(ana, grid="yacht", players="1")
    ana.click("#start")

    # when she writes her first box
    expect(ana.locator("td.legal button").first).to_be_visible()
    ana.locator("td.legal button").first.click()

    # then the check opens as a dialog with the focus on its first die, and its question
    dialog = ana.locator("#fairplay-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("role", "alertdialog")
    expect(ana.locator(".fairplay-die").first).to_be_focused()
    question = ana.locator("#fairplay-question").inner_text()
    face = question.rsplit(" ", 1)[1]
    assert question == f"Tap the die showing {face}"
    assert_accessible(ana, "the fair-play check")

    # when she taps a die with the keyboard that shows another face / then a yellow card
    wrong = ana.locator(f'.fairplay-die:not([data-face="{face}"])')
    if wrong.count():
        wrong.first.focus()
        ana.keyboard.press("Enter")
        expect(dialog).to_have_count(0)
        expect(ana.locator("#banner")).to_contain_text("Yellow card")
        expect(ana.locator("#banner")).to_contain_text("1 yellow card")

        # and her settings count it
        ana.click('#nav a[data-screen="settings"]')
        expect(ana.locator("#fairplay-cards")).to_have_text("1 yellow card of 3.")
        return

    # (every die showed the face: any tap passes)
    ana.locator(".fairplay-die").first.click()
    expect(dialog).to_have_count(0)
    expect(ana.locator("#banner")).to_contain_text("check passed")


def test_web_client_fairplay_right_die_passes(web_stack: LocalStack, new_page: NewPage) -> None:
    # given bo under suspicion, put the check after his first write
    bo = new_page()
    name = unique("fairq")
    sign_in(bo, web_stack, name)
    _under_suspicion(web_stack, name)
    create_game(bo, grid="yacht", players="1")
    bo.click("#start")
    expect(bo.locator("td.legal button").first).to_be_visible()
    bo.locator("td.legal button").first.click()
    expect(bo.locator("#fairplay-dialog")).to_be_visible()

    # when he taps a die showing the face asked for
    face = bo.locator("#fairplay-question").inner_text().rsplit(" ", 1)[1]
    bo.locator(f'.fairplay-die[data-face="{face}"]').first.click()

    # then the dialog closes, he is thanked, and he plays on
    expect(bo.locator("#fairplay-dialog")).to_have_count(0)
    expect(bo.locator("#banner")).to_contain_text("Thank you: check passed.")
    expect(bo.locator("td.legal button").first).to_be_visible()
    bo.locator("td.legal button").first.click()
    expect(bo.locator("td.written")).to_have_count(2)
