"""The web client as an installed app (issue 28): Chromium itself finds the page installable
(its manifest valid, with icons of 192 and 512 pixels, standalone, and a service worker that
controls the page), and once visited the page opens with no network: the shell from the service
worker's cache, with an "offline" notice, and it goes on when the network is back."""

import json
import time
from typing import Any

from playwright.sync_api import Page, expect

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique

OFFLINE = "You are offline"
CACHE = "yamb-shell-v1"  # sw.js
# The page's own files it loaded that the service worker's cache does not hold (yet).
MISSING_FROM_CACHE = """async (cache) => {
  const kept = new Set((await (await caches.open(cache)).keys()).map((r) => r.url));
  return performance.getEntriesByType("resource").map((entry) => entry.name)
    .filter((url) => new URL(url).origin === location.origin
                     && !new URL(url).pathname.startsWith("/_local/"))
    .filter((url) => !kept.has(url));
}"""


def controlled(page: Page) -> None:
    """Waits until the service worker controls the page and keeps every file the page loaded
    (it is told them once it is active: js/main.js)."""
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    deadline = time.monotonic() + 10
    while True:
        missing: list[str] = page.evaluate(MISSING_FROM_CACHE, CACHE)
        if not missing:
            return
        assert time.monotonic() < deadline, f"the service worker did not keep {missing}"
        page.wait_for_timeout(100)


def network_errors_only(errors: list[str]) -> list[str]:
    """The page's errors but those of requests the browser could not send while offline."""
    return [error for error in errors if "ERR_INTERNET_DISCONNECTED" not in error]


def test_install_chromium_finds_the_page_installable(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given the page opened once, its service worker in control
    page = new_page()
    page.goto(web_stack.web_url)
    expect(page.locator("#signin")).to_be_visible()
    controlled(page)

    # when Chromium is asked what would keep it from installing the page, and what it read
    # of the manifest (the DevTools protocol: what the browser's own install prompt checks)
    devtools = page.context.new_cdp_session(page)
    errors: list[dict[str, Any]] = devtools.send("Page.getInstallabilityErrors")[
        "installabilityErrors"
    ]
    read = devtools.send("Page.getAppManifest")

    # then nothing does (but that Playwright's contexts are incognito ones, as a private
    # window is), and the manifest parsed without a complaint
    assert [e for e in errors if e["errorId"] != "in-incognito"] == [], json.dumps(errors)
    assert read["errors"] == [], json.dumps(read["errors"])
    manifest = json.loads(read["data"])
    assert manifest["name"] == "Yamb" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./#/"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    assert not page.errors


def test_install_the_page_opens_offline_with_a_notice_and_goes_on_online(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a signed-in player whose page the service worker controls
    page = new_page()
    sign_in(page, web_stack, unique("offline"))
    controlled(page)

    # when the network goes and the page is reloaded
    page.context.set_offline(True)
    page.reload()

    # then the shell opens from the service worker's cache: the header, the lobby's frame,
    # and a notice that says the network is gone (not a browser's error page)
    expect(page.locator("header.top h1")).to_have_text("Yamb")
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text(OFFLINE)
    expect(page.locator("#banner")).to_be_visible()
    assert network_errors_only(page.errors) == []

    # when the network is back
    page.context.set_offline(False)

    # then the notice goes and the lobby is live again (its game list drawn)
    expect(page.locator("#banner")).not_to_contain_text(OFFLINE, timeout=20_000)
    expect(page.locator("#no-games, .game-row").first).to_be_visible(timeout=20_000)
    assert network_errors_only(page.errors) == []


def test_install_a_visitor_offline_sees_the_sign_in_shell_with_the_notice(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a visitor who opened the page once (not signed in)
    page = new_page()
    page.goto(web_stack.web_url)
    expect(page.locator("#signin")).to_be_visible()
    controlled(page)

    # when they come back with no network
    page.context.set_offline(True)
    page.reload()

    # then the sign-in forms show from the cache, with the offline notice
    expect(page.locator("#signin")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text(OFFLINE)
    assert network_errors_only(page.errors) == []
