"""Chats in a real browser (issue 30, S3): a private message from a player's page reaches the
other page live, counted on its Chats link until read; a message to a player who is away waits
for their next sign-in; the general chat's line reaches every page that has it open."""

import re

from playwright.sync_api import Page, expect

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique


def signed_in(new_page: NewPage, stack: LocalStack, name: str) -> Page:
    page = new_page()
    sign_in(page, stack, name)
    expect(page.locator("#no-games, .game-row").first).to_be_visible()  # the socket is open
    return page


def test_web_client_private_messages_live_and_waiting_for_the_next_sign_in(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana and ben signed in on their own pages
    ana_name, ben_name = unique("msga"), unique("msgb")
    ana = signed_in(new_page, web_stack, ana_name)
    ben = signed_in(new_page, web_stack, ben_name)

    # when ana opens ben's page and writes to him
    ana.goto(f"{web_stack.web_url}#/players/{ben_name}")
    ana.click("#player-message")
    expect(ana).to_have_url(re.compile(rf"#/chats/{ben_name}$"))
    ana.fill("#message-text", "fancy a game?")
    ana.click("#message-send")
    expect(ana.locator("#conversation-lines")).to_contain_text("fancy a game?")

    # then ben's page counts one unread message on its Chats link
    expect(ben.locator("#chats-unread")).to_have_text("1")
    # and his conversations list names ana; her conversation shows the message
    ben.click('#nav a[data-screen="chats"]')
    ben.locator("#conversations").get_by_role("link", name=ana_name).click()
    expect(ben.locator("#conversation-lines")).to_contain_text("fancy a game?")
    expect(ben.locator("#chats-unread")).to_have_count(0)

    # when he answers, ana reads it live
    ben.fill("#message-text", "yes, give me a minute")
    ben.click("#message-send")
    expect(ana.locator("#conversation-lines")).to_contain_text("yes, give me a minute")

    # when ben's page is closed and ana writes again (a second later: one message a second)
    ben.close()
    ana.wait_for_timeout(1_100)
    ana.fill("#message-text", "I am at the table")
    ana.click("#message-send")
    expect(ana.locator("#conversation-lines")).to_contain_text("I am at the table")

    # then the message waits: his next sign-in shows it unread
    again = signed_in(new_page, web_stack, ben_name)
    expect(again.locator("#chats-unread")).to_have_text("1")
    again.goto(f"{web_stack.web_url}#/chats/{ana_name}")
    expect(again.locator("#conversation-lines")).to_contain_text("I am at the table")

    # when he closes the conversation, it is gone from his list, still in hers
    again.click("#conversation-close")
    expect(again).to_have_url(re.compile(r"#/chats$"))
    expect(again.locator(f'#conversations li[data-nickname="{ana_name}"]')).to_have_count(0)
    ana.reload()
    expect(ana.locator("#conversation-lines")).to_contain_text("I am at the table")


def test_web_client_general_chat_line_reaches_every_open_page(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given two players with the general chat open
    cy = signed_in(new_page, web_stack, unique("genc"))
    dee = signed_in(new_page, web_stack, unique("gend"))
    for page in (cy, dee):
        page.click('#nav a[data-screen="chats"]')
        expect(page.locator("#general-chat")).to_be_visible()
    # when cy says hello to everyone
    cy.fill("#general-text", "hello everyone")
    cy.click("#general-send")
    # then her line shows at once, and in dee's page with the next batch
    expect(cy.locator("#general-lines")).to_contain_text("hello everyone")
    expect(dee.locator("#general-lines")).to_contain_text("hello everyone", timeout=15_000)
    # and an indecent line is refused beside the box, shown to nobody
    cy.wait_for_timeout(1_100)
    cy.fill("#general-text", "fuck you all")
    cy.click("#general-send")
    expect(cy.locator("#general-error")).not_to_be_empty()
    expect(dee.locator("#general-lines")).not_to_contain_text("fuck")
