"""The account in a real browser (issue 28, A1-A8): the settings screen changes the nickname
(seen in the header and on the player's page) and says a refusal (a taken name, a wrong
password) beside its field, keeps the notification switches, the country flag and the proud
game, deletes the account, and signing in again cancels the deletion; the sign-in page mails a
reset link, whose screen in the client sets the new password, and the verification link again."""

import json
import re
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, confirm_and_sign_in, sign_in, unique
from tests.e2e.browser.test_web_client_economy import grant, page_errors
from tests.e2e.browser.test_web_client_results import ranked_game_on_the_board


def account(stack: LocalStack, page: Page) -> dict[str, Any]:
    """`GET /me` with the page's own sign-in (a new sign-in would end the page's: A2)."""
    token = page.evaluate("localStorage.getItem('yamb.token')")
    request = urllib.request.Request(
        f"{stack.gateway.http_url}/me", headers={"Authorization": token}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def test_web_client_settings_change_the_nickname_and_say_a_refusal_beside_it(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given two local players, ana in her settings
    ana, taken = unique("nick"), unique("taken")
    web_stack.player_token(taken)
    page = new_page()
    sign_in(page, web_stack, ana)
    page.click('#nav a[data-screen="settings"]')
    expect(page).to_have_url(re.compile(r"#/settings$"))

    # when she asks for a new nickname with no tokens (a change costs 100)
    new_name = f"Renamed{unique('x').split('-')[-1]}"
    page.fill("#settings-nickname", new_name)
    page.click("#nickname-form-save")

    # then the price is refused beside the field
    price_refusal = page.locator('#nickname-form [data-field="nickname"] .field-error')
    expect(price_refusal).to_contain_text("100 tokens")

    # when she has 100 tokens and asks for the other player's nickname
    grant(web_stack, page, 100)
    page.fill("#settings-nickname", local_nickname(taken))
    page.click("#nickname-form-save")

    # then that refusal is said beside the field
    expect(price_refusal).to_contain_text("taken")

    # when she asks for the free one again
    page.fill("#settings-nickname", new_name)
    page.click("#nickname-form-save")

    # then the page says so, the header shows it, and her player page is under the new name
    expect(page.locator("#nickname-form-error")).to_contain_text(new_name)
    expect(page.locator("#me")).to_have_text(new_name)
    page.goto(f"{web_stack.web_url}#/players/{new_name}")
    expect(page.locator("#player-name")).to_contain_text(new_name)
    assert account(web_stack, page)["nickname"] == new_name
    assert page_errors(page) == ["402 /me/nickname", "409 /me/nickname"]


def test_web_client_settings_say_a_wrong_password_beside_its_field(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player in her settings
    name = unique("wrongpw")
    page = new_page()
    sign_in(page, web_stack, name)
    page.goto(f"{web_stack.web_url}#/settings")

    # when she asks for a new e-mail address with a wrong password
    page.fill("#settings-email", f"{name}-new@example.com")
    page.fill("#settings-email-password", "not-my-password-1")
    page.click("#email-form-save")

    # then the refusal is said beside the password field, and the address is unchanged
    expect(page.locator('#email-form [data-field="password"] .field-error')).to_contain_text(
        "password is not right"
    )
    expect(page.locator("#pending-email")).to_have_count(0)

    # when she changes her password giving a wrong current one
    page.fill("#settings-old-password", "not-my-password-1")
    page.fill("#settings-new-password", "Another-long-one-8")
    page.click("#password-form-save")

    # then that refusal is said beside the current password's field, and she stays signed in
    expect(page.locator('#password-form [data-field="oldPassword"] .field-error')).to_contain_text(
        "current password is not right"
    )
    expect(page.locator("#nav")).to_be_visible()
    assert account(web_stack, page)["email"] == f"{name}@example.com"
    assert page_errors(page) == ["403 /me/email", "403 /me/password"]


def test_web_client_settings_keep_the_notification_switches_and_the_profile(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player in her settings
    name = unique("prefs")
    page = new_page(viewport=(390, 844))
    sign_in(page, web_stack, name)
    page.goto(f"{web_stack.web_url}#/settings")

    # when she turns offers by mail off and writes a description, saving each form
    page.uncheck("#notify-email-offers")
    page.click("#notifications-form-save")
    expect(page.locator("#notifications-form-error")).to_have_text("Saved.")
    page.fill("#settings-description", "Yamb since 1979")
    page.select_option("#settings-language", "fr")
    expect(page.locator("#settings-country")).to_have_value("")  # Yamb world, the default
    page.select_option("#settings-country", "HR")
    page.click("#profile-form-save")
    expect(page.locator("#profile-form-error")).to_have_text("Saved.")

    # then the account holds them, and the page shows them after a reload, in French now (the
    # account's language, which the page follows: Intl names the country)
    preferences = account(web_stack, page)["preferences"]
    assert preferences["notifications"]["email"]["offers"] is False
    assert (preferences["description"], preferences["language"]) == ("Yamb since 1979", "fr")
    assert preferences["country"] == "HR"
    page.reload()
    expect(page.locator("#notify-email-offers")).not_to_be_checked()
    expect(page.locator("#settings-description")).to_have_value("Yamb since 1979")
    expect(page.locator("#settings-country")).to_have_value("HR")
    expect(page.locator("#settings-country option:checked")).to_contain_text("Croatie")
    # and the settings fit the phone: no sideways scroll
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    # and her page shows the flag's country and the description
    page.goto(f"{web_stack.web_url}#/players/{local_nickname(name)}")
    expect(page.locator("#player-country")).to_contain_text("Croatie")
    expect(page.locator(".player-description")).to_have_text("Yamb since 1979")
    assert not page.errors


def test_web_client_settings_choose_the_proud_game_shown_on_the_players_page(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a ranked game ana won, and ana in her settings
    ana, _, game_id = ranked_game_on_the_board(web_stack, players, "proud")
    page = new_page()
    sign_in(page, web_stack, ana.name)
    page.goto(f"{web_stack.web_url}#/settings")

    # when she chooses that game, one of her records, as the game she is proud of
    choice = page.locator(f'#settings-proud-game option[value="{game_id}"]')
    expect(choice).to_contain_text("points")
    page.select_option("#settings-proud-game", game_id)
    page.click("#profile-form-save")
    expect(page.locator("#profile-form-error")).to_have_text("Saved.")

    # then her page links to its replay, and the settings show it chosen after a reload
    name = local_nickname(ana.name)
    page.goto(f"{web_stack.web_url}#/players/{name}")
    link = page.locator("#player-proud-game a")
    expect(link).to_have_attribute("href", f"#/replay/{game_id}")
    page.goto(f"{web_stack.web_url}#/settings")
    expect(page.locator("#settings-proud-game")).to_have_value(game_id)
    assert account(web_stack, page)["preferences"]["proudGame"] == game_id
    assert not page.errors


def test_web_client_deleting_the_account_signs_out_and_signing_in_cancels_it(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player in her settings
    name = unique("leaver")
    page = new_page()
    sign_in(page, web_stack, name)
    page.goto(f"{web_stack.web_url}#/settings")

    # when she confirms with a wrong nickname, then with hers
    page.fill("#delete-confirm", "someone else")
    page.click("#delete-form-save")
    expect(page.locator('#delete-form [data-field="confirm"] .field-error')).not_to_be_empty()
    page.fill("#delete-confirm", local_nickname(name))
    page.click("#delete-form-save")

    # then she is signed out, told the date and how to keep the account
    expect(page.locator("#signin")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("sign in again before then")

    # when she signs in again
    sign_in(page, web_stack, name)

    # then the deletion is cancelled: the settings offer the deletion again
    assert account(web_stack, page)["deletion"] is None
    page.goto(f"{web_stack.web_url}#/settings")
    expect(page.locator("#delete-form")).to_be_visible()
    expect(page.locator("#deletion-pending")).to_have_count(0)


def test_web_client_password_reset_by_the_mailed_link_sets_the_password_in_the_client(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a registered player, signed out
    name = unique("forgot")
    web_stack.player_token(name)
    email = f"{name}@example.com"
    page = new_page()
    page.goto(web_stack.web_url)

    # when they ask for a reset link on the sign-in page
    page.fill("#reset-email", email)
    page.click("#reset-send")

    # then the page says a mail is on its way, and the mailbox holds a link to this web
    # client's reset screen (the token in the address's fragment)
    expect(page.locator("#reset-error")).to_contain_text("a mail is on its way")
    (link,) = web_stack.aws.mails(email)[-1].links
    assert link.startswith(f"{web_stack.web_url.rstrip('/')}/#/reset?token=")

    # when they open it and give a password too short
    page.goto(link)
    page.fill("#set-password", "short")
    page.click("#set-password-save")

    # then the refusal is said beside the field
    expect(page.locator("#set-password-field-error")).to_contain_text("12")

    # when they give a good one
    page.fill("#set-password", "Brand-new-dice-7")
    page.click("#set-password-save")

    # then the screen says so, and signing in with it reaches the lobby
    expect(page.locator("#set-password-done")).to_contain_text("sign in with the new one")
    page.click("#set-password-sign-in")
    page.fill("#login-email", email)
    page.fill("#login-password", "Brand-new-dice-7")
    page.click("#login")
    expect(page.locator("#lobby")).to_be_visible()

    # when the link is opened again, then the screen says it no longer works
    page.goto(link)
    expect(page.locator("#set-password-refused")).not_to_be_empty()
    expect(page.locator("#set-password-form")).to_have_count(0)
    refused = ["400 /accounts/password-reset/confirm", "404 /accounts/password-reset"]
    assert page_errors(page) == refused


def test_web_client_sign_in_page_mails_the_verification_link_again(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a person who registered in the page and did not confirm the address
    name = unique("unconfirmed").replace("-", "")
    email = f"{name}@example.com"
    page = new_page()
    page.goto(web_stack.web_url)
    page.fill("#register-nickname", name[:16])
    page.fill("#register-email", email)
    page.fill("#register-password", "Correct-horse-9")
    page.click("#register")
    expect(page.locator("#register-error")).to_contain_text("Check your mail")
    (first,) = [link for mail in web_stack.aws.mails(email) for link in mail.links]

    # when they ask for the verification mail again
    page.fill("#resend-email", email)
    page.click("#resend-send")

    # then the page says a mail is on its way, and the new link (the earlier one ended)
    # confirms the address, after which signing in reaches the lobby
    expect(page.locator("#resend-error")).to_contain_text("a mail is on its way")
    links = [link for mail in web_stack.aws.mails(email) for link in mail.links]
    assert len(links) == 2 and links[0] == first and "/accounts/verify?token=" in links[1]
    ended = page.goto(first)
    assert ended is not None and ended.status == 404
    confirm_and_sign_in(page, web_stack, links[1], email)
    expect(page.locator("#lobby")).to_be_visible()
