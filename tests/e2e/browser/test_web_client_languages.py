"""The web client in the player's language (issue 29).

A pseudo-localised page (`?pseudoLocale`: every word that went through the catalogue or the
browser's Intl comes bracketed) is walked screen by screen: any visible word outside brackets is
a sentence written into the code and not into the catalogue."""

import json
import re
from playwright.sync_api import Page, expect

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, create_game, unique

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
    routes = ["#/", "#/games", "#/slow", "#/boards", "#/shop", "#/wallet", "#/tasks",
              "#/settings", f"#/players/{nickname}"]

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
