"""Invitations in a real browser (issue 30, S2): a player invites another from the table; the
invitee's page shows the invitation, Yes seats him and opens the table; the inviter starts the
game. An invitation sent while a player is away is offered at their next sign-in, from a
player's page too."""

import re

from playwright.sync_api import expect

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, create_game, sign_in, unique


def test_web_client_invite_from_the_table_yes_seats_the_invitee_and_the_game_starts(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's waiting table of preset 1, and ben on the lobby of his own page
    ana, ben = new_page(), new_page()
    ana_name, ben_name = unique("inva"), unique("invb")
    sign_in(ana, web_stack, ana_name)
    sign_in(ben, web_stack, ben_name)
    game_id = create_game(ana, preset="1")

    # when ana invites ben from the table
    ana.fill("#invite-nickname", ben_name)
    ana.click("#invite-send")
    expect(ana.locator("#invite-note")).to_contain_text(ben_name)

    # then ben's page offers it; he says yes and is at the table
    dialog = ben.locator("#invitation-dialog")
    expect(dialog).to_contain_text(f"{ana_name} invites you to their table.")
    expect(ben.locator("#invitation-yes")).to_be_focused()
    ben.click("#invitation-yes")
    expect(dialog).to_have_count(0)
    expect(ben.locator("#game")).to_be_visible()
    expect(ben).to_have_url(re.compile(rf"#/game/{game_id}$"))

    # and ana is told, sees him seated, and starts the game
    expect(ana.locator("#banner")).to_contain_text(f"{ben_name} accepted your invitation.")
    expect(ana.locator(".seat")).to_have_count(2)
    ana.click("#start")
    for page in (ana, ben):
        expect(page.locator("#game-status")).to_have_attribute("data-status", "running")


def test_web_client_invitation_from_a_players_page_waits_for_the_next_sign_in(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's waiting table of three, and cy, who is not signed in
    ana = new_page()
    ana_name, cy_name = unique("invc"), unique("invd")
    cy = new_page()
    sign_in(cy, web_stack, cy_name)  # an account of his own first
    cy.close()
    sign_in(ana, web_stack, ana_name)
    create_game(ana, preset="1", players="3")

    # when ana invites him from his page
    ana.goto(f"{web_stack.web_url}#/players/{cy_name}")
    ana.click("#player-invite")
    expect(ana.locator("#player-invite-note")).to_contain_text(f"Invitation sent to {cy_name}.")

    # then his next sign-in offers it, and a No tells ana
    again = new_page()
    sign_in(again, web_stack, cy_name)
    expect(again.locator("#invitation-dialog")).to_contain_text(ana_name)
    again.click("#invitation-no")
    expect(again.locator("#invitation-dialog")).to_have_count(0)
    expect(ana.locator("#banner")).to_contain_text(f"{cy_name} declined your invitation.")
