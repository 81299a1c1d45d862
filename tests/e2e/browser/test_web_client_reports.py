"""Reports, their review and the contact form in a real browser (issue 30, S5 and S6): players
report a general-chat line from the chats screen until it is hidden, an operator reviews it on
#/moderation (reached from the settings), a player reports a player from their page, and the
contact form mails the author."""

import json
import re
import urllib.parse
import urllib.request

from playwright.sync_api import Page, expect
from yamb_tools.moderation import grant

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique


def on_chats(new_page: NewPage, stack: LocalStack, name: str) -> Page:
    page = new_page()
    sign_in(page, stack, name)
    page.click('#nav a[data-screen="chats"]')
    expect(page.locator("#general-chat")).to_be_visible()
    return page


def test_web_client_a_reported_line_is_hidden_and_an_operator_reviews_it(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a line in the general chat, seen by three players
    speaker = on_chats(new_page, web_stack, unique("rpts"))
    speaker.fill("#general-text", "my nickname is the best, yours are dull")
    speaker.click("#general-send")
    line = speaker.locator("#general-lines .chat-line").last
    line_id = line.get_attribute("data-id")
    speaker.close()
    readers = [on_chats(new_page, web_stack, unique(f"rpt{n}")) for n in range(3)]

    # when each reports it from the line's own Report form
    said = []
    for page in readers:
        page.click(f"#line-{line_id}-report-open")
        page.select_option(f"#line-{line_id}-report-reason", "abuse")
        page.click(f"#line-{line_id}-report-send")
        done = page.locator(f"#line-{line_id}-report-done")
        expect(done).to_be_visible()
        said.append(done.inner_text())

    # then the third report says it is hidden now
    assert "hidden" in said[2] and "hidden" not in said[0]

    # when an operator opens the review from their settings and hides it for good
    operator_name = unique("oper")
    operator = new_page()
    sign_in(operator, web_stack, operator_name)
    grant(
        local_nickname(operator_name),
        web_stack.aws.physical_ids["GameTable"],
        web_stack.aws.region,
        web_stack.aws.endpoint_url,
        True,
    )
    operator.click('#nav a[data-screen="settings"]')
    operator.click("#moderation-link")
    expect(operator).to_have_url(re.compile(r"#/moderation$"))
    case = operator.locator(f'.moderation-case[data-case="general:{line_id}"]')
    expect(case).to_contain_text("my nickname is the best, yours are dull")
    case.locator(".moderation-hide").click()

    # then the case leaves the queue
    expect(operator.locator(f'.moderation-case[data-case="general:{line_id}"]')).to_have_count(0)


def test_web_client_reports_a_player_and_writes_to_the_author(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given a player with a page
    other = unique("rptp")
    page = new_page()
    sign_in(page, web_stack, other)
    page.close()
    page = new_page()
    sign_in(page, web_stack, unique("rptq"))

    # when she reports him from his page
    page.goto(f"{web_stack.web_url}#/players/{other}")
    page.click("#player-report-open")
    page.select_option("#player-report-reason", "nickname")
    page.fill("#player-report-note", "looks like an insult in Danish")
    page.click("#player-report-send")
    # then the page says a moderator will look at it
    expect(page.locator("#player-report-done")).to_contain_text("a moderator will look at it")

    # when she writes to the author
    page.click('#nav a[data-screen="contact"]')
    page.fill("#contact-subject", "an idea")
    page.fill("#contact-text", "a column of sevens")
    page.click("#contact-send")
    # then it is sent, and the author's mailbox has it
    expect(page.locator("#contact-said")).to_contain_text("Sent")
    query = urllib.parse.urlencode({"to": "author@yamb.example"})
    with urllib.request.urlopen(f"{web_stack.gateway.http_url}/_local/mail.json?{query}") as answer:
        mails = json.load(answer)
    assert any("an idea" in mail.get("subject", "") for mail in mails), mails
