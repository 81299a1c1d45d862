"""The economy in a real browser (product E1-E5) against the local stack: the shop buys premium
with tokens and shows a refusal beside its button, the wallet's ledger names each change, a skin
bought and worn shows on the sheet and the dice of a started game, and a checkout shows the local
stand-in for the payment page, whose simulated payment credits the pack's tokens."""

import re
import uuid
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import Page, expect
from yamb.economy.premium import PREMIUM_PRICES
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, create_game, sign_in, unique


def grant(stack: LocalStack, page: Page, amount: int) -> str:
    """`amount` tokens for the player signed in on `page`, as an operator grants them (reason
    `grant`); their player id."""
    player_id = str(page.evaluate("window.yamb.state.me"))
    aws = stack.aws
    wallets = DynamoWalletStore(
        item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    )
    wallets.apply(f"grant:{uuid.uuid4()}", [Change(player_id, amount, "grant")], datetime.now(UTC))
    return player_id


# How Chromium logs an HTTP request the server refused (a console error of its own).
REFUSED = re.compile(r"status of (\d+) .*\(https?://[^/]+(/[^:?]*)[^)]*:\d+\)$")


def page_errors(page: Page) -> list[str]:
    """The page's errors, a refused request's as "<status> <path>", any other as it came."""
    return [
        f"{found[1]} {found[2]}" if (found := REFUSED.search(error)) else error
        for error in page.errors  # type: ignore[attr-defined]
    ]


def open_shop(page: Page) -> None:
    page.click('#nav a[href="#/shop"]')
    expect(page.locator("#shop-cosmetics")).to_be_visible()


def test_web_client_shop_refuses_then_buys_premium_and_the_wallet_lists_it(
    web_stack: LocalStack, new_page: NewPage, screenshot_dir: Path
) -> None:
    # given a new local player, with no tokens, in the shop
    page = new_page()
    sign_in(page, web_stack, unique("eco-premium"))
    open_shop(page)
    expect(page.locator("#shop-balance")).to_have_text("0")
    expect(page.locator("#premium-status")).to_have_text("You have no premium.")

    # when she tries to buy 7 days of premium
    page.click("#premium-buy-7")

    # then the refusal is shown beside that button, in words, and nothing changed
    refusal = page.locator("#premium-error-7")
    expect(refusal).to_contain_text("token")
    expect(refusal).to_have_class("error")
    expect(page.locator("#shop-balance")).to_have_text("0")

    # when she is granted 150 tokens and buys the 7 days again (the shop drawn anew)
    grant(web_stack, page, 150)
    page.reload()
    expect(page.locator("#shop-balance")).to_have_text("150")
    page.click("#premium-buy-7")

    # then the shop says until when, and her balance is what is left
    price = PREMIUM_PRICES[7]
    expect(page.locator("#premium-error-7")).to_contain_text("your premium runs until")
    expect(page.locator("#shop-balance")).to_have_text(str(150 - price))
    expect(page.locator("#premium-status")).to_contain_text("Your premium runs until")
    page.screenshot(path=str(screenshot_dir / "shop.png"))

    # when she opens her wallet
    page.click('#nav a[href="#/wallet"]')

    # then the ledger names both changes, newest first, with their dates
    rows = page.locator("#ledger-rows tr.entry")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-reason", "premium")
    expect(rows.nth(0).locator(".what")).to_have_text("Premium for 7 days")
    expect(rows.nth(0).locator(".amount")).to_have_text(f"-{price}")
    expect(rows.nth(0).locator(".after")).to_have_text(str(150 - price))
    expect(rows.nth(1).locator(".what")).to_have_text("Granted by the operator")
    expect(rows.nth(1).locator(".amount")).to_have_text("+150")
    expect(rows.nth(0).locator("time")).not_to_be_empty()
    expect(page.locator("#wallet-premium")).to_contain_text("Premium until")
    page.screenshot(path=str(screenshot_dir / "wallet.png"), full_page=True)
    # (the refused request is the only one the browser logs as failed)
    assert page_errors(page) == ["402 /me/premium"]


def test_web_client_worn_skins_show_on_the_sheet_and_dice_of_a_started_game(
    web_stack: LocalStack, new_page: NewPage, screenshot_dir: Path
) -> None:
    # given a player with 200 tokens in the shop
    page = new_page()
    sign_in(page, web_stack, unique("eco-skin"))
    player_id = grant(web_stack, page, 200)
    open_shop(page)

    # when she buys the Slate sheet skin and the Neon dice, and wears both
    for item in ("sheet-slate", "dice-neon"):
        page.click(f"#cosmetic-buy-{item}")
        expect(page.locator(f'.cosmetic[data-item="{item}"] .cosmetic-state')).to_contain_text(
            "Yours until"
        )
        page.click(f"#cosmetic-wear-{item}")
        expect(page.locator(f'.cosmetic[data-item="{item}"]')).to_have_class("cosmetic worn")

    # then the previews show each look, and her balance paid for both
    preview = page.locator('.cosmetic[data-item="sheet-slate"] .preview > div')
    expect(preview).to_have_class("sample-sheet look-sheet-slate")
    expect(page.locator("#shop-balance")).to_have_text(str(200 - 90 - 60))
    page.locator("#shop-cosmetics").screenshot(path=str(screenshot_dir / "shop-cosmetics.png"))

    # when she starts a game with a bot
    page.click('#nav a[data-screen="lobby"]')
    create_game(page, players="2", preset="1")
    page.select_option("#bot-level", "easy")
    page.click("#add-bot")
    expect(page.locator(".seat")).to_have_count(2)  # the bot seated before the start
    page.click("#start")
    expect(page.locator("#game-status")).to_have_attribute("data-status", "running")

    # then her sheet wears the Slate skin (the bot's none), and her dice the Neon skin on her turn
    expect(page.locator(f'.sheet[data-player="{player_id}"]')).to_have_class(
        re.compile(r"(^|\s)look-sheet-slate(\s|$)")
    )
    expect(page.locator(f'.sheet:not([data-player="{player_id}"])')).to_have_class("sheet")
    expect(page.locator("#turn-who")).to_have_text("Your turn", timeout=20_000)
    expect(page.locator("#dice")).to_have_class("dice look-dice-neon")
    page.screenshot(path=str(screenshot_dir / "game-skins.png"), full_page=True)
    assert page.errors == []


def test_web_client_checkout_shows_the_local_stand_in_and_its_simulated_payment_credits_the_pack(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player in the shop
    page = new_page()
    sign_in(page, web_stack, unique("eco-pay"))
    open_shop(page)

    # when she buys the 500 tokens pack
    page.click("#offer-buy-pack-500")

    # then the local stack's stand-in says what the payment page would do, nothing credited
    stand_in = page.locator("#stand-in-pack-500")
    expect(stand_in).to_contain_text("payment provider's page")
    expect(stand_in).to_contain_text("local stack")
    expect(page.locator("#shop-balance")).to_have_text("0")

    # when she simulates the payment
    page.click("#simulate-pack-500")
    expect(page.locator("#offer-error-pack-500")).to_contain_text("500 tokens added")
    expect(page.locator("#shop-balance")).to_have_text("500")

    # then the wallet lists one purchase of 500 tokens
    page.click('#nav a[href="#/wallet"]')
    rows = page.locator("#ledger-rows tr.entry")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator(".what")).to_have_text("Tokens bought")
    expect(rows.nth(0).locator(".amount")).to_have_text("+500")

    # when the payment provider sends her back to the shop (ShopUrl = <web>/#/shop), paid or not
    page.goto(f"{web_stack.web_url}#/shop?checkout=success&session_id=cs_1")

    # then the shop says the tokens come with the provider's confirmation
    expect(page.locator("#checkout-return")).to_contain_text("as soon as the payment provider")
    page.goto(f"{web_stack.web_url}#/shop?checkout=cancelled")
    expect(page.locator("#checkout-return")).to_have_text(
        "The payment was cancelled: nothing was charged."
    )
    assert page_errors(page) == ["503 /me/checkout"]


def test_web_client_gifts_by_nickname_refused_beside_the_field_then_given(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana with 40 tokens in the shop, on a phone-sized screen, and ben, a player
    ben = unique("eco-ben")
    web_stack.player_token(ben)
    page = new_page(viewport=(390, 844))
    sign_in(page, web_stack, unique("eco-ana"))
    grant(web_stack, page, 40)
    open_shop(page)

    # then the shop fits the phone's width
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # when she gives 15 tokens to a nickname nobody has
    page.fill("#gift-nickname", "nobody-at-all")
    page.fill("#gift-amount", "15")
    page.click("#gift-send")

    # then the refusal is shown beside the nickname, and her balance stays
    expect(page.locator("#gift-nickname-error")).not_to_be_empty()
    expect(page.locator("#shop-balance")).to_have_text("40")

    # when she gives them to ben
    page.fill("#gift-nickname", local_nickname(ben))
    page.click("#gift-send")

    # then it says so, the refusal is gone, and 25 tokens are left
    expect(page.locator("#gift-error")).to_have_text(f"15 tokens given to {local_nickname(ben)}.")
    expect(page.locator("#gift-nickname-error")).to_be_empty()
    expect(page.locator("#shop-balance")).to_have_text("25")

    # when she buys a day of premium for a nickname nobody has, then for ben
    page.fill("#premium-gift-to", "nobody-at-all")
    page.click("#premium-buy-1")
    expect(page.locator("#premium-gift-to-error")).not_to_be_empty()
    page.fill("#premium-gift-to", local_nickname(ben))
    page.click("#premium-buy-1")

    # then the refusal was beside the nickname, and the day is ben's: hers stays none
    expect(page.locator("#premium-error-1")).to_contain_text(
        f"Given to {local_nickname(ben)}: their premium runs until"
    )
    expect(page.locator("#premium-status")).to_have_text("You have no premium.")
    expect(page.locator("#shop-balance")).to_have_text(str(25 - PREMIUM_PRICES[1]))
    assert page_errors(page) == ["404 /me/gifts", "404 /me/premium"]


def test_web_client_wallet_pages_the_ledger_newest_first(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player whose wallet has 21 changes (grants of 1, 2, ... 21 tokens)
    page = new_page(viewport=(390, 844))
    sign_in(page, web_stack, unique("eco-ledger"))
    for amount in range(1, 22):
        grant(web_stack, page, amount)

    # when she opens her wallet
    page.click('#nav a[href="#/wallet"]')

    # then the newest 20 are shown, the newest first, and the wallet fits the phone's width
    rows = page.locator("#ledger-rows tr.entry")
    expect(rows).to_have_count(20)
    expect(rows.nth(0).locator(".amount")).to_have_text("+21")
    expect(page.locator("#wallet-balance")).to_have_text(str(sum(range(1, 22))))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # when she asks for the older entries
    page.click("#ledger-more")

    # then the first grant follows, and there is nothing older to ask for
    expect(rows).to_have_count(21)
    expect(rows.nth(20).locator(".amount")).to_have_text("+1")
    expect(page.locator("#ledger-more")).to_be_hidden()
    assert page.errors == []
