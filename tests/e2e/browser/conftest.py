"""Browser tests: Playwright (its synchronous API) driving Debian's headless Chromium against the
web client that the local stack serves (`LocalStack.web_url`).

`make test` installs Chromium first when it can (scripts/ensure-chromium); without it these tests
skip, except under CI=true, where they fail: CI must not pass without them.

    page = new_page()                          # a fresh context (1280x800) and its page
    page.goto(web_stack.web_url)
    assert page.errors == []                   # uncaught exceptions and console errors

The browser is launched once, for every test of this directory. Playwright's synchronous API
marks its event loop as running in the main thread for as long as it is started (`asyncio.run()`
fails there meanwhile), so it is stopped as soon as the run leaves this directory: the tests after
it are not affected. (A browser test run again after that, in an unusual order of the arguments,
fails with a message saying so.)
"""

import os
import shutil
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, sync_playwright

from devstack.stack import PROJECT_ROOT, LocalStack

BROWSER_TESTS = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
DEFAULT_VIEWPORT = (1280, 800)
TIMEOUT_MS = 10_000  # each Playwright action and wait (its default is 30 s)

NewPage = Callable[..., Page]
"""``new_page(*, viewport=(1280, 800), **context_options)``: a page in a fresh context."""


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium; the tests skip without it, or fail under CI=true."""
    found = shutil.which("chromium") or (CHROMIUM if os.access(CHROMIUM, os.X_OK) else None)
    if found is None:
        reason = (
            "chromium is not installed: the browser tests need Debian's package "
            "(`make test` installs it as root; or: apt-get install -y chromium)"
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)
    return found


# What stops the session's Playwright and its browser, once (see the module's docstring).
_STOPS: list[Callable[[], None]] = []


def _stop_playwright() -> None:
    while _STOPS:
        _STOPS.pop()()


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Browser]:
    """One headless Chromium for the session's browser tests."""
    playwright = sync_playwright().start()
    try:
        launched = playwright.chromium.launch(executable_path=chromium_path, headless=True)
    except BaseException:
        playwright.stop()
        raise

    def stop() -> None:
        try:
            launched.close()
        finally:
            playwright.stop()

    _STOPS.append(stop)
    yield launched
    _stop_playwright()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    """After the last browser test in a row (its function and module fixtures torn down),
    Playwright stops: the rest of the session runs without its event loop."""
    try:
        return (yield)
    finally:
        if nextitem is None or BROWSER_TESTS not in nextitem.path.parents:
            _stop_playwright()


@pytest.fixture(scope="module")
def web_stack(stack: LocalStack) -> LocalStack:
    """The local stack (tests/e2e/conftest.py's `stack`, one per module) serving client/web at
    `web_stack.web_url`; the `players` fixture connects to the same stack."""
    return stack


def _recorder(errors: list[str]) -> tuple[Callable[[Any], None], Callable[[ConsoleMessage], None]]:
    def page_error(error: Any) -> None:
        errors.append(f"pageerror: {error}")

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            location = message.location
            if str(location.get("url", "")).endswith("/favicon.ico"):
                return  # Chromium asks for it by itself (a page without an icon link)
            where = f" ({location.get('url')}:{location.get('lineNumber')})" if location else ""
            errors.append(f"console.error: {message.text}{where}")

    return page_error, console


@pytest.fixture
def new_page(browser: Browser) -> Iterator[NewPage]:
    """A factory: ``new_page(viewport=(390, 844))`` opens a fresh browser context (nothing
    shared with another page: storage, cookies) and a page in it. ``page.errors`` lists the
    page's uncaught exceptions and console errors as they happen (but the 404 of the
    ``/favicon.ico`` Chromium asks for by itself). The contexts close at the end of the test."""
    if not browser.is_connected():
        pytest.fail(
            "the session's browser was stopped when the run left tests/e2e/browser: "
            "give the browser tests' paths together",
            pytrace=False,
        )
    contexts: list[BrowserContext] = []

    def open_page(*, viewport: tuple[int, int] = DEFAULT_VIEWPORT, **context_options: Any) -> Page:
        width, height = viewport
        context = browser.new_context(
            viewport={"width": width, "height": height}, **context_options
        )
        contexts.append(context)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        errors: list[str] = []
        page_error, console = _recorder(errors)
        page.on("pageerror", page_error)
        page.on("console", console)
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests save their screenshots: docs/screenshots, which the docs show,
    when YAMB_SCREENSHOTS=docs (`YAMB_SCREENSHOTS=docs make browser` renews them); otherwise a
    temporary folder, so that a test run leaves the working tree as it was."""
    if os.environ.get("YAMB_SCREENSHOTS") == "docs":
        directory = PROJECT_ROOT / "docs" / "screenshots"
        directory.mkdir(parents=True, exist_ok=True)
        return directory
    return tmp_path_factory.mktemp("screenshots")
