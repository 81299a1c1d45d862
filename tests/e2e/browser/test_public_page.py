"""The public page (R5) in a real browser: Chromium applies its Content-Security-Policy, so the
page's own style (allowed by its hash) shows, nothing is refused, and no script can run in it."""

import uuid

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.conftest import NewPage


def test_public_page_shows_its_style_and_runs_no_script(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player, whose public page is on (the default)
    name = f"page-{uuid.uuid4().hex[:6]}"
    web_stack.player_token(name)
    url = f"{web_stack.gateway.http_url}/pages/{local_nickname(name)}"

    # when a visitor's browser opens it, and something tries to run a script in it
    page = new_page()
    answer = page.goto(url)
    assert answer is not None and answer.status == 200
    width = page.evaluate("() => getComputedStyle(document.body).maxWidth")
    ran = page.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.injected = true";
            document.body.append(script);
            return window.injected === true;
        }"""
    )

    # then the page's style applies (its hash is the policy's), nothing was refused, and the
    # script did not run: the browser enforces the policy the answer carries
    assert width == "640px"
    assert ran is False
    assert answer.headers["x-content-type-options"] == "nosniff"
    refused = [e for e in page.errors if "Content Security Policy" in e and "script" not in e]
    assert refused == []
