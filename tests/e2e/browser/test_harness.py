"""The browser harness itself: Chromium reaches the local stack's web server (the one serving the
real client/web) and reads its generated config.json."""

import json
from typing import Any

from devstack.stack import LocalStack


def test_harness_reads_the_stacks_config_json(web_stack: LocalStack, new_page: Any) -> None:
    # given a fresh page
    page = new_page()
    # when it opens the stack's config.json
    response = page.goto(web_stack.web_url + "config.json")
    # then the browser got the stack's addresses, not cached, and saw no error
    assert response is not None and response.status == 200
    assert response.headers["cache-control"] == "no-store"
    config = json.loads(page.locator("body").inner_text())
    assert config == response.json()
    assert config["webSocketUrl"] == web_stack.url
    assert config["httpApiUrl"] == web_stack.gateway.http_url
    assert config["cognito"]["endpoint"] == web_stack.aws.endpoint_url
    assert config["local"] is True
    assert page.errors == []
