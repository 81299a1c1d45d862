"""Clubs in a real browser (issue 31, C1-C5): a player founds a club by approval from the clubs'
page; another finds it by the first letters of its name and asks to join; the admin accepts
him, gives to the treasury and buys a level; a third player, invited while away, sees the
invitation counted on the Clubs link and joins from it; a name taken is refused in words."""

import re

from playwright.sync_api import Page, expect

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique
from tests.e2e.browser.test_web_client_economy import grant, page_errors


def open_clubs(page: Page) -> None:
    page.click('#nav a[data-screen="clubs"]')
    expect(page).to_have_url(re.compile(r"#/clubs$"))
    expect(page.locator("#clubs-mine-title")).to_be_visible()


def found_club(page: Page, name: str, entry: str) -> str:
    """Founds a club from the clubs' page (tag KG); its page's address."""
    open_clubs(page)
    page.fill("#club-found-name", name)
    page.fill("#club-found-tag", "KG")
    page.select_option("#club-found-entry", entry)
    page.fill("#club-found-description", "Friday evenings.")
    page.click("#club-found-submit")
    expect(page).to_have_url(re.compile(r"#/clubs/\w+$"))
    return page.url


def test_web_client_founds_a_club_accepts_a_request_and_pays_a_level(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana, with tokens, and ben, on a phone
    ana_page, ben_page = new_page(), new_page(viewport=(390, 844))
    ana, ben = unique("founder"), unique("joiner")
    sign_in(ana_page, web_stack, ana)
    sign_in(ben_page, web_stack, ben)
    grant(web_stack, ana_page, 1_000)
    club_name = f"Kings {ana.rsplit('-', 1)[1]}"

    # when ana founds a club by approval from the clubs' page
    found_club(ana_page, club_name, "approval")

    # then its page shows her as its admin, its tag in its colours
    expect(ana_page.locator("#club-name")).to_contain_text(club_name)
    expect(ana_page.locator("#club-tag")).to_have_text("KG")
    expect(ana_page.locator("#club-you")).to_have_text("Your role: Admin")

    # when ben finds it by its first letters, in capitals, and asks to join with a message
    open_clubs(ben_page)
    ben_page.fill("#clubs-search", club_name[:-1].upper())
    ben_page.press("#clubs-search", "Enter")
    ben_page.locator("#clubs-list").get_by_role("link", name=club_name, exact=True).click()
    ben_page.fill("#club-request-message", "I roll every Friday")
    ben_page.click("#club-request")

    # then he waits for a decision, and nothing sideways scrolls on his phone
    expect(ben_page.locator("#club-requested")).to_be_visible()
    assert ben_page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")

    # when ana reads her club again and accepts him
    ana_page.reload()
    request = ana_page.locator(f'.club-request[data-nickname="{local_nickname(ben)}"]')
    expect(request).to_contain_text("I roll every Friday")
    ana_page.click(f"#club-accept-{local_nickname(ben)}")

    # then he is a member
    expect(
        ana_page.locator(f'.club-member[data-nickname="{local_nickname(ben)}"]')
    ).to_contain_text("Member")
    expect(ana_page.locator("#club-requests-empty")).to_be_visible()

    # when she gives 500 tokens to the treasury and buys a level
    ana_page.fill("#club-donate-amount", "500")
    ana_page.click("#club-donate")
    expect(ana_page.locator("#club-treasury-balance")).to_have_text("500 tokens")
    expect(ana_page.locator("#club-top-donors li")).to_have_text(
        [f"{local_nickname(ana)} · 500 tokens"]
    )
    ana_page.click("#club-level")

    # then the club holds 35 and the treasury paid the level's price
    expect(ana_page.locator("#club-facts")).to_contain_text("2 of 35 members")
    expect(ana_page.locator("#club-treasury-balance")).to_have_text("100 tokens")
    ana_page.click("#club-history-show")
    expect(ana_page.locator("#club-history li")).to_have_count(2)
    expect(ana_page.locator("#club-history")).to_contain_text("Level 1 bought")

    # and ben sees it as his main club, with its tag
    open_clubs(ben_page)
    expect(ben_page.locator("#clubs-mine-list")).to_contain_text(club_name)
    expect(ben_page.locator("#clubs-main")).to_be_visible()
    assert page_errors(ana_page) == page_errors(ben_page) == []


def test_web_client_an_invitation_waits_for_a_player_away_and_a_taken_name_is_refused(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's open club
    ana_page = new_page()
    ana = unique("inviter")
    sign_in(ana_page, web_stack, ana)
    club_name = f"Aces {ana.rsplit('-', 1)[1]}"
    club_url = found_club(ana_page, club_name, "open")

    # when she invites cleo, who is away, and cleo signs in later
    cleo = unique("invited")
    cleo_page = new_page()
    sign_in(cleo_page, web_stack, cleo)
    cleo_page.close()
    ana_page.fill("#club-invite-nickname", local_nickname(cleo))
    ana_page.click("#club-invite-send")
    expect(ana_page.locator("#club-invite-said")).to_contain_text("is invited")
    cleo_page = new_page()
    sign_in(cleo_page, web_stack, cleo)

    # then the invitation is counted on her Clubs link, and her yes makes her a member
    expect(cleo_page.locator("#clubs-waiting")).to_have_text("1")
    open_clubs(cleo_page)
    cleo_page.locator("#clubs-invitations button", has_text="Join").click()
    expect(cleo_page).to_have_url(club_url)
    expect(cleo_page.locator("#club-you")).to_have_text("Your role: Member")
    expect(cleo_page.locator("#clubs-waiting")).to_have_count(0)

    # and the players list shows the club's tag beside her nickname
    ana_page.goto(f"{web_stack.web_url}#/players")
    ana_page.fill("#players-search", local_nickname(cleo))
    ana_page.press("#players-search", "Enter")
    row = ana_page.locator(f'.player-row[data-nickname="{local_nickname(cleo)}"]')
    expect(row.locator(".club-tag")).to_have_text("KG")

    # when cleo tries to found one of the same name in small letters
    open_clubs(cleo_page)
    cleo_page.fill("#club-found-name", club_name.lower())
    cleo_page.fill("#club-found-tag", "ZQ")
    cleo_page.click("#club-found-submit")

    # then the refusal says why, and it is the only error either page had
    expect(cleo_page.locator("#club-found-error")).to_contain_text("is called")
    assert page_errors(cleo_page) == ["409 /clubs"]
    assert page_errors(ana_page) == []


def test_web_client_club_chat_is_live_for_members_and_an_announcement_stays(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana's open club, and ben who joins it from its page
    ana_page, ben_page = new_page(), new_page(viewport=(390, 844))
    ana = unique("chatting")
    sign_in(ana_page, web_stack, ana)
    sign_in(ben_page, web_stack, unique("listening"))
    club_url = found_club(ana_page, f"Talkers {ana.rsplit('-', 1)[1]}", "open")
    ben_page.goto(club_url)
    ben_page.click("#club-join")
    expect(ben_page.locator("#club-you")).to_have_text("Your role: Member")

    # when ana writes a line in the club's chat
    ana_page.reload()
    ana_page.fill("#club-chat-text", "who plays tonight?")
    ana_page.click("#club-chat-send")

    # then ben reads it live, and ana has her own line
    expect(ben_page.locator("#club-lines .chat-line")).to_contain_text("who plays tonight?")
    expect(ana_page.locator("#club-lines .chat-line.mine")).to_have_count(1)

    # when ana (the admin) sends an announcement a second later (the chat's own pace: one
    # line a second); ben has no such box
    expect(ben_page.locator("#club-chat-announce")).to_have_count(0)
    ana_page.wait_for_timeout(1_100)
    ana_page.fill("#club-chat-text", "Cup on Friday")
    ana_page.check("#club-chat-announce")
    ana_page.click("#club-chat-send")

    # then ben reads it live as an announcement, and it stays on the club's page
    expect(ben_page.locator("#club-lines .chat-line.announcement")).to_contain_text("Cup on Friday")
    ben_page.reload()
    expect(ben_page.locator("#club-announcements")).to_contain_text("Cup on Friday")
    assert page_errors(ana_page) == page_errors(ben_page) == []


def test_web_client_an_invitation_arrives_live_in_the_notice_bar(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ben in the lobby, and ana's club
    ana_page, ben_page = new_page(), new_page()
    ana, ben = unique("live-inviter"), unique("live-invitee")
    sign_in(ana_page, web_stack, ana)
    sign_in(ben_page, web_stack, ben)
    found_club(ana_page, f"Sparks {ana.rsplit('-', 1)[1]}", "open")
    # when ana invites him from the club's page
    ana_page.fill("#club-invite-nickname", local_nickname(ben))
    ana_page.click("#club-invite-send")
    # then ben's page says so at once, links to his clubs and counts it
    expect(ben_page.locator("#banner")).to_contain_text("invites you to the club Sparks")
    expect(ben_page.locator("#clubs-waiting")).to_have_text("1")
    ben_page.click("#club-invitation-link")
    expect(ben_page.locator("#clubs-invitations")).to_be_visible()
    assert page_errors(ana_page) == page_errors(ben_page) == []
