"""#/tasks in a real browser (E6-E8): the week's tasks with the countdown, a done task claimed by
clicking, the referral link, a referral code entered later, a scheme chosen for an invitee, the
badges with the progress toward each one's next level."""

import re
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from yamb.results.periods import week_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.common import clock
from yamb_service.progression import wiring as progression_wiring

from devstack.stack import LocalStack, local_nickname
from tests.e2e.browser.test_web_client import NewPage, api, sign_in, unique
from tests.e2e.browser.test_web_client_economy import page_errors


def settings_for(counter: str) -> GameSettings:
    """A table whose end counts towards `counter` for each of its players."""
    base, _, parameter = counter.partition(":")
    if base == "games_of_turn_type" and parameter == "slow":
        return GameSettings(players=2, turn_type="slow", turn_seconds=None)
    if base == "games_of_preset":
        return GameSettings(players=2, preset=int(parameter))
    if base == "games_at_tables_of":
        return GameSettings(players=int(parameter))
    if base == "pairs_games":
        return GameSettings(players=4, pairs=True)
    if base == "six_dice_games":
        return GameSettings(players=2, preset=1, dice=6)
    if base == "family_grid_games":
        return GameSettings(players=2, grid="classic")
    return GameSettings(players=2, preset=1)


def finish_games_until_done(player_id: str) -> Any:
    """Game ends counted for `player_id` (against other people, as the stream hands them to
    the progression) until the first of the week's tasks is done; that task's view."""
    service = progression_wiring.task_service()
    for _ in range(100):
        task = service.view(player_id).tasks[0]
        if task.done:
            return task
        counter = next(
            t.counter
            for c in service.week_tasks(week_of(clock.now())).chosen
            for t in (c.task, c.standin)
            if t is not None and t.id == task.id
        )
        settings = settings_for(counter)
        others = [uuid.uuid4().hex for _ in range(settings.players - 1)]
        service.record_game(
            GameResult(
                game_id=uuid.uuid4().hex[:20],
                settings=settings,
                ended_at=clock.now(),
                winners=[player_id],
                players=[
                    PlayerResult(player_id=p, total=900, full=True, left=False, turns=26)
                    for p in [player_id, *others]
                ],
                outcome="completed",
            )
        )
    raise AssertionError("the week's first task is never done")


def test_web_client_tasks_screen_shows_the_weeks_tasks_a_claim_the_referral_and_badges(
    web_stack: LocalStack, new_page: NewPage, screenshot_dir: Path
) -> None:
    # given a local player, who opens Tasks from the top navigation
    page = new_page()
    sign_in(page, web_stack, unique("tasks"))
    page.click('#nav a[data-screen="tasks"]')
    expect(page).to_have_url(re.compile(r"#/tasks$"))

    # then the screen shows the week's tasks and the time left, the referral link to this web
    # client, and the badges: Pioneer, as one of the stack's first verified players, and each
    # badge's progress toward its next level
    expect(page.locator("#task-list .task")).to_have_count(5)  # one a group, the club's too
    # (Intl words it "in 3 days", "tomorrow" on a Saturday, "in 5 hours" on Sunday night)
    expect(page.locator("#tasks-countdown")).to_contain_text(re.compile(r"^Ends (in \d|tomorrow)"))
    link = page.locator("#referral-link")
    expect(link).to_have_attribute("href", re.compile(r"/\?ref=[A-Z0-9]{8}$"))
    expect(page.locator("#pioneer")).to_contain_text(re.compile(r"Pioneer #\d+"))
    expect(page.locator("#badge-list .badge-item")).to_have_count(15)
    champion = page.locator('#badge-list .badge-item[data-badge="champion"]')
    expect(champion.locator(".badge-next")).to_contain_text(
        re.compile(r"^0/\d+: the next level pays 10 tokens$")
    )
    expect(champion.locator("progress")).to_have_attribute("value", "0")
    # and the lobby no longer carries them
    page.click('#nav a[data-screen="lobby"]')
    expect(page.locator("#lobby #task-list")).to_have_count(0)

    # when the week's first task is done by finished games, and the player opens Tasks again
    me = page.evaluate("window.yamb.state.me")
    done = finish_games_until_done(me)
    page.goto(f"{web_stack.web_url}#/tasks")
    row = page.locator(f'#task-list .task[data-task="{done.id}"]')
    expect(row.locator("button.claim")).to_be_visible()
    row.locator("button.claim").click()

    # then its tokens are paid and shown, and the task shows claimed
    expect(page.locator("#progress-error")).to_contain_text(f"+{done.reward} tokens")
    expect(page.locator(f'#task-list .task[data-task="{done.id}"]')).to_contain_text("claimed")
    page.locator("#tasks").screenshot(path=str(screenshot_dir / "tasks.png"))
    assert not page.errors


def first_ranked_game(invitee_id: str) -> None:
    """A ranked game of `invitee_id` and another person, ended now, as the stream hands it to
    the referral: the invitee's first qualifying game starts their referral."""
    other = uuid.uuid4().hex
    progression_wiring.referral_service().record_game(
        GameResult(
            game_id=uuid.uuid4().hex[:20],
            settings=GameSettings(players=2, preset=1, ranked=True),
            ended_at=clock.now(),
            winners=[invitee_id],
            players=[
                PlayerResult(player_id=p, total=700, full=True, left=False, turns=26)
                for p in (invitee_id, other)
            ],
            outcome="completed",
        )
    )


def test_web_client_tasks_takes_a_referral_code_later_and_the_inviter_chooses_a_scheme(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given an inviter with a code, and a new player (no referrer) on the Tasks screen
    inviter = unique("inviter")
    inviter_token = web_stack.player_token(inviter)
    code = api(web_stack, "GET", "/me/referral", inviter_token)["code"]
    invitee = unique("late")
    page = new_page(viewport=(390, 844))
    sign_in(page, web_stack, invitee)
    page.goto(f"{web_stack.web_url}#/tasks")
    error = page.locator("#referrer-form-error")

    # when they enter a code that is no one's, then their own
    page.fill("#referrer-code", "ZZZZZZZZ")
    page.click("#referrer-form-save")

    # then each refusal is said beside the field, in words
    expect(error).to_contain_text("code")
    unknown = error.inner_text()
    own = page.locator("#referral-code").inner_text()
    page.fill("#referrer-code", own.lower())
    page.click("#referrer-form-save")
    expect(error).not_to_have_text(unknown)
    expect(error).not_to_be_empty()

    # when they enter the inviter's code
    page.fill("#referrer-code", code)
    page.click("#referrer-form-save")

    # then the screen names the inviter, and the inviter lists them
    expect(page.locator("#referrer")).to_contain_text(local_nickname(inviter))
    expect(page.locator("#referrer-form")).to_have_count(0)
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    invitee_nickname = local_nickname(invitee)
    (listed,) = api(web_stack, "GET", "/me/referral", inviter_token)["invitees"]
    assert (listed["nickname"], listed["canChoose"]) == (invitee_nickname, False)

    # when the invitee's first ranked game against another person ends, and the inviter opens
    # Tasks
    first_ranked_game(page.evaluate("window.yamb.state.me"))
    inviter_page = new_page()
    sign_in(inviter_page, web_stack, inviter)
    inviter_page.goto(f"{web_stack.web_url}#/tasks")
    row = inviter_page.locator(f'#invitees .invitee[data-nickname="{invitee_nickname}"]')

    # then the row offers the two schemes, the default chosen, with the date to choose by
    form = row.locator("form.scheme-form")
    expect(form.locator("option")).to_have_count(2)
    expect(form.locator("select")).to_have_value("short")
    expect(form).to_contain_text("Choose by")

    # when the inviter chooses the long scheme
    form.locator("select").select_option("long")
    form.locator("button").click()

    # then the row says it, the form is gone, and the server holds it (asked with the page's
    # sign-in: the page's sign-in ended the earlier one, A2)
    expect(row.locator(".scheme")).to_have_text("Long")
    token = inviter_page.evaluate("localStorage.getItem('yamb.token')")
    (listed,) = api(web_stack, "GET", "/me/referral", token)["invitees"]
    assert (listed["scheme"], listed["canChoose"]) == ("long", False)
    assert page_errors(page) == ["404 /me/referrer", "400 /me/referrer"]
    assert not inviter_page.errors
