"""Tournaments in a real browser (issue 32): a player finds an operator's arena under
Tournaments, enters it from its page, and when the minute job pairs her the game opens by
itself; the tournament's page then leads back to it, lists the game and shows the dice's
commitment; the season's panel shows her league. A running duplicate's page keeps its games
from being watched or replayed (its entrants play the same dice) until it is over."""

import re
from datetime import timedelta
from typing import Any

from playwright.sync_api import expect
from yamb_tools.moderation import grant

from devstack.stack import LocalStack, local_nickname
from devstack.streams import wait_until
from tests.e2e.browser.test_web_client import NewPage, sign_in, unique
from tests.e2e.test_tournaments_e2e import ONE_COLUMN, RUN, Director, call


def test_web_client_enters_an_arena_and_its_game_opens_when_paired(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given an operator's arena starting in a minute, and ben (a scripted player) entered
    operator = unique("t-op")
    token = web_stack.player_token(operator)
    grant(local_nickname(operator), web_stack.aws.physical_ids["GameTable"],
          web_stack.aws.region, web_stack.aws.endpoint_url, True)  # fmt: skip
    plan = {"kind": "arena", "name": "Browser arena", "minutes": 10, "rules": ONE_COLUMN,
            "ranked": False,
            "startsAt": (web_stack.aws.clock.now() + timedelta(minutes=1)).isoformat()}  # fmt: skip
    status, created = call(web_stack, "POST", "/tournaments", token, plan)
    assert status == 201, created
    tournament_id = created["tournamentId"]
    ben = players(unique("t-ben"))
    ben_token = ben.url.split("token=", 1)[1]
    assert call(web_stack, "POST", f"/tournaments/{tournament_id}/entry", ben_token)[0] == 201

    # when ana opens Tournaments, then the arena's page, and enters
    ana = unique("t-ana")
    page = new_page()
    sign_in(page, web_stack, ana)
    page.click('#nav a[data-screen="tournaments"]')
    listed = page.locator(f'#tournaments-coming li[data-tournament="{tournament_id}"]')
    expect(listed).to_contain_text("Browser arena")
    expect(page.locator("#season-mine")).to_contain_text("Bronze")
    listed.locator("a").click()
    expect(page.locator("#tournament-head")).to_contain_text("Arena")
    expect(page.locator("#tournament-commitment")).to_have_text(created["commitment"])
    page.click("#tournament-enter")

    # then she is in its standings, marked as herself
    expect(page.locator("#tournament-entered")).to_be_visible()
    expect(page.locator("#tournament-standings tr.me")).to_contain_text(local_nickname(ana))

    # and when the minute job starts it and pairs them, her game opens by itself
    web_stack.aws.advance(minutes=1)
    done = web_stack.run_job(RUN)
    assert done["paired"] == 1, done
    expect(page).to_have_url(re.compile(r"#/game/t[0-9a-f]+$"), timeout=10_000)
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#game")).to_be_visible()

    # and the tournament's page leads back to it and lists it, to watch
    page.goto(f"{web_stack.web_url}#/tournaments/{tournament_id}")
    expect(page.locator("#tournament-open-game")).to_have_attribute("href", f"#/game/{game_id}")
    expect(page.locator(f'#tournament-games li[data-game="{game_id}"]')).to_contain_text(
        local_nickname(ana)
    )


def test_web_client_checks_an_ended_tournaments_seed_against_its_commitment(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a duplicate that ben played alone to its end, and the job run past its window
    director = Director(web_stack, players, unique("t-dup"), 1)
    director.create(kind="duplicate", minutes=10, prizes=[5])
    director.enter_all()
    director.run(minutes=1)
    director.play_all()
    director.run(minutes=10)
    assert director.page()["status"] == "paid"

    # when ana opens its page
    page = new_page()
    sign_in(page, web_stack, unique("t-ana"))
    page.goto(f"{web_stack.web_url}#/tournaments/{director.tournament_id}")

    # then the revealed seed is checked against the commitment, in her browser
    check = page.locator("#tournament-seed-check")
    expect(check).to_have_attribute("data-ok", "true")
    expect(check).to_contain_text("✓")
    expect(page.locator("#tournament-standings tbody tr")).to_have_count(1)


def test_web_client_keeps_a_running_duplicates_games_from_view_until_it_is_over(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a duplicate of ben and cid on the same dice: ben's game played to its end, cid's
    # under way
    director = Director(web_stack, players, unique("t-deal"), 2)
    director.create(kind="duplicate", minutes=10, prizes=[5])
    director.enter_all()
    director.run(minutes=1)
    listed = director.page()["games"]
    ended = director.play(listed[0], None)
    assert wait_until(lambda: director.page()["games"][0]["ended"], 30)

    # when ana, who did not enter, opens its page
    page = new_page()
    sign_in(page, web_stack, unique("t-ana"))
    page.goto(f"{web_stack.web_url}#/tournaments/{director.tournament_id}")

    # then the games are listed with no link to watch or replay them, and she is told why
    expect(page.locator("#tournament-deal-kept")).to_contain_text("the same dice")
    expect(page.locator("#tournament-games li")).to_have_count(2)
    expect(page.locator("#tournament-games li a")).to_have_count(0)
    # and the ended game's replay, asked by its address, is refused with the reason
    page.goto(f"{web_stack.web_url}#/replay/{ended['gameId']}")
    expect(page.locator("#replay-error")).to_contain_text("once the tournament is over")

    # and once cid's game has ended and the tournament is over, the replay is there
    director.play(listed[1], None)
    assert wait_until(lambda: all(g["ended"] for g in director.page()["games"]), 30)
    director.run(minutes=10)
    assert director.page()["status"] == "paid"
    page.goto(f"{web_stack.web_url}#/tournaments/{director.tournament_id}")
    link = page.locator(f'#tournament-games li[data-game="{ended["gameId"]}"] a')
    expect(link).to_have_text("Replay")
    expect(page.locator("#tournament-deal-kept")).to_have_count(0)
    link.click()
    expect(page.locator("#replay-title")).to_have_text("Replay: 13 turns")


def test_web_client_an_operator_creates_a_swiss_from_the_tournaments_screen(
    web_stack: LocalStack, new_page: NewPage
) -> None:
    # given an operator signed in
    operator = unique("t-boss")
    page = new_page()
    sign_in(page, web_stack, operator)
    grant(local_nickname(operator), web_stack.aws.physical_ids["GameTable"],
          web_stack.aws.region, web_stack.aws.endpoint_url, True)  # fmt: skip

    # when she opens Tournaments, a start in the past is refused beside the form
    page.click('#nav a[data-screen="tournaments"]')
    form = page.locator("#new-tournament")
    form.locator("#new-tournament-kind").select_option("swiss")
    form.locator("#new-tournament-name").fill("Operators' Swiss")
    form.locator("#new-tournament-start").fill("2020-01-01T10:00")
    form.locator("#new-tournament-create").click()
    expect(page.locator("#new-tournament-error")).not_to_be_empty()

    # and with a start an hour ahead (the form's own) and two prizes, it is made
    page.reload()
    form = page.locator("#new-tournament")
    form.locator("#new-tournament-kind").select_option("swiss")
    form.locator("#new-tournament-name").fill("Operators' Swiss")
    form.locator("#new-tournament-rounds").fill("4")
    form.locator("#new-tournament-prizes").fill("40, 20")
    form.locator("#new-tournament-create").click()

    # then its page shows it, open for entries
    head = page.locator("#tournament-head")
    expect(head).to_contain_text("Operators' Swiss")
    expect(head).to_have_attribute("data-kind", "swiss")
    expect(head).to_have_attribute("data-status", "open")
    expect(head).to_contain_text("40 · 20")


def test_web_client_shows_a_swiss_forfeit_of_a_player_at_another_game(
    web_stack: LocalStack, players: Any, new_page: NewPage
) -> None:
    # given a Swiss of four, one of whom is playing a bot when its first round is paired
    swiss = Director(web_stack, players, unique("t-ff"), 4)
    swiss.create(kind="swiss", rounds=2)
    swiss.enter_all()
    busy = swiss.players[3]
    table = busy.act("create_game", settings={"players": 2, "columns": ["free"]})["gameId"]
    busy.act("add_bot", gameId=table, level="easy")
    assert busy.act("start_game", gameId=table)["status"] == "running"

    # when the minute job pairs the round
    swiss.run(minutes=1)

    # then the tournament's page says who won by forfeit, with nothing to watch or replay
    page_view = swiss.page()
    (forfeit,) = [g for g in page_view["games"] if g["forfeit"]]
    assert local_nickname(busy.name) in forfeit["players"]
    page = new_page()
    sign_in(page, web_stack, unique("t-ff-viewer"))
    page.goto(f"{web_stack.web_url}#/tournaments/{swiss.tournament_id}")
    row = page.locator(f'#tournament-games li[data-game="{forfeit["gameId"]}"]')
    expect(row.locator(".forfeit")).to_contain_text(f"{forfeit['winners'][0]} won")
    expect(row.locator("a")).to_have_count(0)
