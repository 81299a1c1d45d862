"""The web client in the player's language (issue 29).

A pseudo-localised page (`?pseudoLocale`: every word that went through the catalogue or the
browser's Intl comes bracketed) is walked screen by screen: any visible word outside brackets is
a sentence written into the code and not into the catalogue."""

import html
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from yamb.i18n import Text, render

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import (
    NewPage,
    confirm_and_sign_in,
    create_game,
    unique,
    verification_link,
)
from tests.e2e.browser.test_web_client_game import NO_SIDEWAYS_SCROLL

# The verification mail's subject, as the mail's catalogue message has it.
VERIFY_SUBJECT = "Yamb: confirm your e-mail address"
VERIFY_BODY = "Confirm your e-mail address to start playing."

# What a screen may show that is no sentence of ours: the product's name, what players typed
# (their nicknames), and words the server wrote (marked `data-server-words`: the server says
# them in the reader's language itself).
UNMARKED_TEXT = r"""
(root) => {
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || !element.checkVisibility()) continue;
    if (element.closest("script, style, [data-server-words], [lang]:not(html)")) continue;
    texts.push(node.textContent);
  }
  for (const element of root.querySelectorAll("[aria-label], [placeholder], [title]")) {
    if (!element.checkVisibility() || element.closest("[data-server-words]")) continue;
    for (const name of ["aria-label", "placeholder", "title"]) {
      if (element.hasAttribute(name)) texts.push(element.getAttribute(name));
    }
  }
  return texts;
}
"""
BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")
# A digest (the dice's commitment, a seed) is no word.
DIGEST = re.compile(r"\b[0-9a-f]{16,}\b")
LETTERS = re.compile(r"[^\W\d_]{2,}")


def words_outside_the_catalogue(page: Page, allowed: set[str]) -> list[str]:
    found = []
    for text in page.locator("body").evaluate(UNMARKED_TEXT):
        rest = DIGEST.sub(" ", text)
        while BRACKETED.search(rest):
            rest = BRACKETED.sub(" ", rest)
        words = [word for word in LETTERS.findall(rest) if word not in allowed]
        if words:
            found.append(text.strip())
    return found


def test_web_client_every_screen_says_only_words_of_the_catalogue(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a pseudo-localised page: the sign-in screen, then a local player's screens and a
    # started game of theirs
    page = new_page()
    name = unique("words")
    nickname = local_nickname(name)
    allowed = {"Yamb", *re.findall(r"[^\W\d_]+", nickname)}
    page.goto(f"{web_stack.web_url}?pseudoLocale&undoMs=0")
    expect(page.locator("#local-name")).to_be_visible()
    unmarked: dict[str, list[str]] = {"sign-in": words_outside_the_catalogue(page, allowed)}
    page.fill("#local-name", name)
    page.click("#local-play")
    expect(page.locator("#no-games, .game-row").first).to_be_visible()
    routes = [
        "#/",
        "#/games",
        "#/slow",
        "#/boards",
        "#/ratings",
        "#/shop",
        "#/wallet",
        "#/tasks",
        "#/settings",
        "#/clubs",
        f"#/players/{nickname}",
    ]

    # when each screen is shown
    for route in routes:
        page.goto(f"{web_stack.web_url}?pseudoLocale&undoMs=0{route}")
        expect(page.locator("#banner")).to_be_hidden()
        page.wait_for_load_state("networkidle")
        unmarked[route] = words_outside_the_catalogue(page, allowed)
    page.goto(f"{web_stack.web_url}?pseudoLocale&undoMs=0#/")
    create_game(page, players="1", preset="1")
    page.click("#start")
    expect(page.locator("#roll")).to_be_enabled()
    unmarked["game"] = words_outside_the_catalogue(page, allowed)

    # then every word on them came from the catalogue (or Intl)
    leftovers = {screen: texts for screen, texts in unmarked.items() if texts}
    assert not leftovers, json.dumps(leftovers, indent=1, ensure_ascii=False)
    assert not page.errors  # type: ignore[attr-defined]


# What sticks out of the window, where no scrolling box holds it (to say what broke a layout).
WIDER_THAN_THE_WINDOW = """
() => [...document.querySelectorAll("body *")].filter((element) => {
  if (element.getBoundingClientRect().right <= innerWidth + 1) return false;
  for (let box = element.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== "visible") return false;
  }
  return true;
}).map((element) => `${element.tagName}#${element.id}: ${element.textContent.slice(0, 40)}`)
"""

LOCALES = Path(__file__).resolve().parents[3] / "client" / "web" / "locales"


def said(language: str, english: str, **params: Any) -> str:
    """The page's sentence in `language`, as its compiled catalogue holds it (a message the
    catalogue lacks fails the test)."""
    text = str(json.loads((LOCALES / f"{language}.json").read_text())["messages"][english])
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", str(value))
    return text


def signs_up_and_plays(page: Page, stack: LocalStack, language: str) -> str:
    """Signs up from the page as it first opens, confirms the mailed link, signs in and rolls
    once in a started game of one; the address."""
    name = unique(f"lang{language}").replace("-", "")
    email = f"{name}@example.com"
    page.goto(stack.web_url)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#login")).to_have_text(said(language, "Log in"))
    page.fill("#register-nickname", name)
    page.fill("#register-email", email)
    page.fill("#register-password", "Correct-horse-9")
    page.click("#register")
    expect(page.locator("#register-error")).to_contain_text(
        said(language, "Check your mail for the verification link, then log in.")
    )
    # The API's page for the mailed link speaks the browser's language too.
    confirmed = render(Text("E-mail confirmed"), language)
    assert confirmed != "E-mail confirmed"
    confirm_and_sign_in(page, stack, verification_link(stack, email), email, confirmed=confirmed)
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#lobby h2 span").first).to_have_text(said(language, "Open games"))
    # Connected: the game list comes once the socket is open (an action before it is refused).
    expect(page.locator("#no-games, .game-row").first).to_be_visible()
    create_game(page, players="1", preset="1")
    page.click("#start")
    expect(page.locator("#roll")).to_be_enabled()
    page.click("#roll")
    expect(page.locator(".turn-head")).to_contain_text(said(language, "roll {roll}/3", roll=2))
    page.wait_for_timeout(600)  # the dice's roll animation turns them past their boxes
    return email


def test_web_client_a_french_player_signs_up_plays_and_reads_french(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a browser whose language is French
    page = new_page(locale="fr-FR")

    # when its player signs up from the page, confirms the mailed link, signs in and plays
    email = signs_up_and_plays(page, web_stack, "fr")

    # then the page spoke French throughout (above), the account is French, and so is the mail
    token = page.evaluate("localStorage.getItem('yamb.token')")
    assert account(web_stack, token)["preferences"]["language"] == "fr"
    mail = web_stack.aws.mails(email)[0]
    assert mail.subject == render(Text(VERIFY_SUBJECT), "fr") != VERIFY_SUBJECT
    french = render(Text(VERIFY_BODY), "fr")
    assert french in (mail.text or "") and html.escape(french) in (mail.html or "")
    assert VERIFY_BODY not in (mail.text or "")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["da", "hr"])
def test_web_client_danish_and_croatian_on_a_phone_fit_their_long_words(
    web_stack: LocalStack, new_page: NewPage, language: str
) -> None:
    # given a phone whose browser speaks Danish or Croatian
    page = new_page(viewport=(390, 844), locale=language)

    # when its player signs up, signs in and plays a roll
    email = signs_up_and_plays(page, web_stack, language)

    # then the page spoke the language, its long words fit (no sideways scroll), and the
    # verification mail was in the language too
    assert page.evaluate(NO_SIDEWAYS_SCROLL), page.evaluate(WIDER_THAN_THE_WINDOW)
    page.goto(f"{web_stack.web_url}#/")
    expect(page.locator("#lobby")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL), page.evaluate(WIDER_THAN_THE_WINDOW)
    mail = web_stack.aws.mails(email)[0]
    assert mail.subject == render(Text(VERIFY_SUBJECT), language) != VERIFY_SUBJECT
    assert not page.errors  # type: ignore[attr-defined]


def account(stack: LocalStack, token: str) -> Any:
    request = urllib.request.Request(
        f"{stack.gateway.http_url}/me", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())
