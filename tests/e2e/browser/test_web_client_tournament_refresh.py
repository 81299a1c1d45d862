"""A tournament's page refreshing itself (issue 32), in a real browser: an answer that comes
after the player left the page is dropped (the page on show now stays as it is, and the page
left is asked for no more), and a failed refresh is said on the page and tried again, the
page refreshing as before once it passes. The API's answers are held or failed with
Playwright's `page.route`."""

from collections.abc import Callable
from datetime import timedelta

from playwright.sync_api import Page, Route, expect
from yamb_tools.moderation import grant

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique
from tests.e2e.test_tournaments_e2e import ONE_COLUMN, call

REFRESH_MS = 5_000  # the page's refresh period (client/web/js/screens/tournaments.js)


class Polls:
    """The page's reads of one tournament, counted. While `hold` is set each is kept unanswered
    (in `held`) until `release()`; `fail` answers that many of the next ones with a 503."""

    def __init__(self, page: Page, tournament_id: str) -> None:
        self.count = 0
        self.hold = False
        self.fail = 0
        self.held: list[Route] = []
        suffix = f"/tournaments/{tournament_id}"
        page.route(lambda url: url.endswith(suffix), self._answer)

    def _answer(self, route: Route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        self.count += 1
        if self.hold:
            self.held.append(route)
        elif self.fail:
            self.fail -= 1
            route.fulfill(
                status=503,
                json={"error": {"code": "busy", "message": "busy"}},
                headers={"Access-Control-Allow-Origin": "*"},
            )
        else:
            route.continue_()

    def release(self) -> None:
        self.hold = False
        while self.held:
            self.held.pop().continue_()


def wait_until(page: Page, test: Callable[[], object], ms: int = REFRESH_MS + 3_000) -> None:
    for _ in range(ms // 100):
        if test():
            return
        page.wait_for_timeout(100)
    raise AssertionError("not seen in time")


def arenas(stack: LocalStack, *names: str) -> list[str]:
    """Arenas of an operator's, open for entries (so their pages refresh), starting in an hour."""
    operator = unique("t-op")
    token = stack.player_token(operator)
    grant(local_nickname(operator), stack.aws.physical_ids["GameTable"],
          stack.aws.region, stack.aws.endpoint_url, True)  # fmt: skip
    made = []
    for name in names:
        plan = {"kind": "arena", "name": name, "minutes": 10, "rules": ONE_COLUMN,
                "ranked": False,
                "startsAt": (stack.aws.clock.now() + timedelta(hours=1)).isoformat()}  # fmt: skip
        status, created = call(stack, "POST", "/tournaments", token, plan)
        assert status == 201, created
        made.append(created["tournamentId"])
    return made


def test_a_refresh_answered_after_the_player_left_the_page_is_dropped(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana on the page of arena A
    first, second = arenas(web_stack, "Arena Alpha", "Arena Bravo")
    page = new_page()
    sign_in(page, web_stack, unique("t-ana"))
    polls_a, polls_b = Polls(page, first), Polls(page, second)
    page.goto(f"{web_stack.web_url}#/tournaments/{first}")
    head = page.locator("#tournament-head")
    expect(head).to_contain_text("Arena Alpha")

    # when A's next refresh is held unanswered while she opens arena B's page
    polls_a.hold = True
    wait_until(page, lambda: polls_a.held)
    page.evaluate("(target) => { location.hash = target; }", f"#/tournaments/{second}")
    expect(head).to_contain_text("Arena Bravo")
    polls_a.release()
    asked = polls_a.count
    page.wait_for_timeout(REFRESH_MS + 1_500)

    # then B's page stays B's, and A is asked for no more
    expect(head).to_contain_text("Arena Bravo")
    expect(head).not_to_contain_text("Arena Alpha")
    assert page.title() == "Arena Bravo · Yamb"
    assert polls_a.count == asked
    assert polls_b.count >= 2  # B's page refreshes itself

    # and when B's refresh is held while she goes to the Tournaments screen, then answered
    polls_b.hold = True
    wait_until(page, lambda: polls_b.held)
    page.click('#nav a[data-screen="tournaments"]')
    expect(page.locator(f'#tournaments-coming li[data-tournament="{second}"]')).to_be_visible()
    polls_b.release()
    asked = polls_b.count
    page.wait_for_timeout(REFRESH_MS + 1_500)

    # then the Tournaments screen is still the one on show, and B is asked for no more
    expect(page.locator("#tournaments")).to_be_visible()
    expect(page.locator("#tournament")).to_be_hidden()
    assert page.title() == "Tournaments · Yamb"
    assert polls_b.count == asked
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_failed_refresh_is_said_and_tried_again_until_it_passes(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given ana on an arena's page
    (arena,) = arenas(web_stack, "Arena Charlie")
    page = new_page()
    sign_in(page, web_stack, unique("t-ana"))
    polls = Polls(page, arena)
    page.goto(f"{web_stack.web_url}#/tournaments/{arena}")
    expect(page.locator("#tournament-head")).to_contain_text("Arena Charlie")

    # when its next refresh fails
    polls.fail = 1
    notice = page.locator("#tournament-refresh-failed")

    # then the page says so, keeps what it showed, and tries again later
    expect(notice).to_be_visible(timeout=REFRESH_MS + 3_000)
    expect(notice).to_contain_text("trying again in 10 seconds")
    expect(page.locator("#tournament-head")).to_contain_text("Arena Charlie")
    failed_at = polls.count

    # and once a refresh passes the notice goes, and the page refreshes as before
    expect(notice).to_be_hidden(timeout=2 * REFRESH_MS + 3_000)
    assert polls.count == failed_at + 1
    wait_until(page, lambda: polls.count >= failed_at + 2)
    expect(page.locator("#tournament-head")).to_contain_text("Arena Charlie")
