"""The lobby's progress panel in a real browser (E6-E8): the week's tasks with the countdown, a
done task claimed by clicking, the referral link, the badges."""

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

from devstack.stack import LocalStack
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique


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


def test_web_client_lobby_shows_the_weeks_tasks_a_claim_the_referral_and_badges(
    web_stack: LocalStack, new_page: NewPage, screenshot_dir: Path
) -> None:
    # given a local player in the lobby
    page = new_page()
    sign_in(page, web_stack, unique("tasks"))

    # then the progress panel shows the week's tasks and the time left, the referral link to
    # this web client, and the badges: Pioneer, as one of the stack's first verified players
    expect(page.locator("#task-list .task")).to_have_count(4)
    expect(page.locator("#tasks-countdown")).to_contain_text("left")
    link = page.locator("#referral-link")
    expect(link).to_have_attribute("href", re.compile(r"/\?ref=[A-Z0-9]{8}$"))
    expect(page.locator("#badge-list")).to_contain_text(re.compile(r"Pioneer #\d+"))

    # when the week's first task is done by finished games, and the player opens the lobby
    me = page.evaluate("window.yamb.state.me")
    done = finish_games_until_done(me)
    page.reload()
    row = page.locator(f'#task-list .task[data-task="{done.id}"]')
    expect(row.locator("button.claim")).to_be_visible()
    row.locator("button.claim").click()

    # then its tokens are paid and shown, and the task shows claimed
    expect(page.locator("#progress-error")).to_contain_text(f"+{done.reward} tokens")
    expect(row).to_contain_text("claimed")
    page.locator("#progress").screenshot(path=str(screenshot_dir / "lobby-progress.png"))
