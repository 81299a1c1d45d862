"""Weekly tasks on moto (E6), driven week by week with a chosen "now": the week's choice, progress
from finished games (counted once), claims and the all-tasks bonus through the wallet, the week
rolling over at Monday 00:00 UTC, new players' stand-ins; then the same through the functions:
the weekly job, the results function on the stream, the HTTP routes, with a real finished game."""

import gc
import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from yamb.accounts.profile import AccountStatus, Profile
from yamb.progression.errors import ProgressionError
from yamb.progression.tasks import Catalogue, WeekTasks, catalogue, choose, parse_catalogue
from yamb.results.periods import week_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock
from yamb_service.common.dynamo import player_key
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.progression.tasks.dynamo import DynamoTasksStore
from yamb_service.progression.tasks.service import TaskService

from tests.integration.test_boards_http import forget_wiring, stream_event
from tests.integration.test_handlers import CONTEXT, load_function

ROOT = Path(__file__).resolve().parents[2]
MONDAY = datetime(2026, 12, 7, 0, 0, tzinfo=UTC)  # 2026-W50 starts
BOOK = parse_catalogue(
    json.dumps(
        {
            "tasks": [
                {"id": "play-2", "group": "engagement", "title": "Play 2", "counter": "games",
                 "target": 2},
                {"id": "meet-2", "group": "social", "title": "Meet 2", "counter": "opponents",
                 "target": 2},
                {"id": "win-1", "group": "skill", "title": "Win", "counter": "wins", "target": 1},
                {"id": "presets-2", "group": "breadth", "title": "Two presets",
                 "counter": "presets", "target": 2},
                {"id": "preset-5", "group": "breadth", "title": "Preset 5",
                 "counter": "games_of_preset:5", "target": 1, "premium": True},
                # A group whose only task needs a feature to come: never chosen, so these
                # weeks have four tasks (the club group's task: tests/integration/test_clubs.py).
                {"id": "club-3", "group": "club", "title": "Club", "counter": "club_games",
                 "target": 3, "requires": ["tournaments"]},
            ]
        }
    )
)  # fmt: skip


def week_where(premium: bool) -> datetime:
    """A Monday from MONDAY on whose breadth task needs premium (or not)."""
    for n in range(60):
        start = MONDAY + timedelta(weeks=n)
        breadth = choose(week_of(start), BOOK).chosen[-1]
        if breadth.task.premium == premium:
            return start
    raise AssertionError("no such week in 60")  # pragma: no cover


class Tasks:
    def __init__(self, item: Any, book: Catalogue = BOOK) -> None:
        self.item = item
        self.now = week_where(premium=False) + timedelta(days=2)
        self.store = DynamoTasksStore(item)
        self.accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        self.wallets = DynamoWalletStore(item, sleep=lambda _: None)
        self.service = TaskService(
            self.store, self.wallets, self.accounts, book=lambda: book, now=lambda: self.now
        )
        self.games = 0

    def player(self, name: str, *, signed_up: datetime | None = None) -> str:
        self.accounts.create(
            Profile(
                player_id=f"id-{name}",
                nickname=name,
                email=f"{name}@example.com",
                status=AccountStatus.ACTIVE,
                created_at=signed_up or datetime(2026, 1, 5, tzinfo=UTC),
            )
        )
        return f"id-{name}"

    def game(
        self, *players: str, winner: str, preset: int = 1, bots: tuple[str, ...] = ()
    ) -> GameResult:
        """A finished game of `players` ended now."""
        self.games += 1
        return GameResult(
            game_id=f"g{self.games:04d}",
            settings=GameSettings(players=len(players), preset=preset, turn_seconds=60),
            ended_at=self.now,
            winners=[winner],
            players=[
                PlayerResult(
                    player_id=p,
                    total=600,
                    full=True,
                    left=False,
                    turns=26,
                    bot="easy" if p in bots else None,
                )
                for p in players
            ],
            outcome="completed",
        )

    def play(self, *players: str, winner: str, preset: int = 1) -> GameResult:
        game = self.game(*players, winner=winner, preset=preset)
        self.service.record_game(game)
        return game

    def refusal(self, player: str, task_id: str, week: str | None = None) -> str:
        with pytest.raises(ProgressionError) as refused:
            self.service.claim(player, task_id, week)
        return refused.value.code

    def challenge_count(self, player: str) -> int:
        try:
            return int(self.item.get(player_key(player), "COUNT#weekly_challenge").tally or 0)
        except self.item.DoesNotExist:
            return 0


@pytest.fixture
def tasks(own_item: Any) -> Tasks:
    return Tasks(own_item)


def test_tasks_a_whole_week_progress_claims_and_the_all_tasks_bonus(tasks: Tasks) -> None:
    # given ana, ben and cleo, in a week whose tasks need no premium
    ana, ben, cleo = tasks.player("ana"), tasks.player("ben"), tasks.player("cleo")
    view = tasks.service.view(ana)
    assert [t.id for t in view.tasks] == ["play-2", "meet-2", "win-1", "presets-2"]
    assert all(t.progress == 0 and not t.done for t in view.tasks)

    # when ana plays ben at preset 1 (ben wins) and cleo at preset 2 (ana wins), each game's end
    # delivered twice, as a stream may
    for game in (
        tasks.game(ana, ben, winner=ben),
        tasks.game(ana, cleo, winner=ana, preset=2),
    ):
        tasks.service.record_game(game)
        tasks.service.record_game(game)

    # then her progress counts each game once, and every task is done
    view = tasks.service.view(ana)
    assert [(t.id, t.progress, t.done) for t in view.tasks] == [
        ("play-2", 2, True),
        ("meet-2", 2, True),
        ("win-1", 1, True),
        ("presets-2", 2, True),
    ]

    # when she claims them one by one
    claims = [tasks.service.claim(ana, t.id) for t in view.tasks]

    # then each pays its group's tokens once; the last one the bonus of 10 and a Weekly
    # challenge level
    assert [(c.tokens, c.bonus) for c in claims] == [(5, 0), (10, 0), (15, 0), (20, 10)]
    assert tasks.wallets.wallet(ana).balance == 60
    assert tasks.challenge_count(ana) == 1
    view = tasks.service.view(ana)
    assert all(t.claimed for t in view.tasks) and view.bonus.claimed
    # and a claim again is refused, nothing paid twice, the bonus not paid again by the view
    assert tasks.refusal(ana, "win-1") == "task_claimed"
    assert tasks.wallets.wallet(ana).balance == 60 and tasks.challenge_count(ana) == 1
    # ben won once against one opponent at one preset: only his win is done
    assert [t.done for t in tasks.service.view(ben).tasks] == [False, False, True, False]


def test_tasks_bonus_of_a_last_claim_that_died_is_paid_by_the_next_view(
    tasks: Tasks, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana with every task done and all but one claimed
    ana, ben, cleo = tasks.player("ana"), tasks.player("ben"), tasks.player("cleo")
    tasks.play(ana, ben, winner=ana)
    tasks.play(ana, cleo, winner=cleo, preset=2)
    for task_id in ("play-2", "meet-2", "win-1"):
        tasks.service.claim(ana, task_id)

    # when the last claim's call dies after its task is paid, before the bonus
    paying = tasks.service._bonus

    def died(*args: Any) -> int:
        raise TimeoutError("the function ran out of time")

    monkeypatch.setattr(tasks.service, "_bonus", died)
    with pytest.raises(TimeoutError):
        tasks.service.claim(ana, "presets-2")
    monkeypatch.setattr(tasks.service, "_bonus", paying)
    assert tasks.wallets.wallet(ana).balance == 50 and tasks.challenge_count(ana) == 0

    # then her next look at the week pays the bonus, once
    first, again = tasks.service.view(ana), tasks.service.view(ana)
    assert first.bonus.claimed and again.bonus.claimed
    assert tasks.wallets.wallet(ana).balance == 60 and tasks.challenge_count(ana) == 1


def test_tasks_bad_claims_are_refused_and_pay_nothing(tasks: Tasks) -> None:
    # given ana, who played one game with ben and lost it
    ana, ben = tasks.player("ana"), tasks.player("ben")
    tasks.play(ana, ben, winner=ben)
    week = week_of(tasks.now).id

    # when she claims an unfinished task, an unknown one, one not of this week, and this week's
    # task named with another week
    refusals = [
        tasks.refusal(ana, "play-2"),
        tasks.refusal(ana, "fly-to-mars"),
        tasks.refusal(ana, "preset-5"),
        tasks.refusal(ana, "play-2", "2026-W01"),
    ]

    # then each is refused with its reason, and her wallet is untouched
    assert refusals == ["task_not_done", "unknown_task", "task_of_another_week",
                        "task_of_another_week"]  # fmt: skip
    assert tasks.wallets.wallet(ana).balance == 0
    assert week == tasks.service.view(ana).week


def test_tasks_a_player_who_left_before_a_turn_gets_nothing_from_the_game(tasks: Tasks) -> None:
    # given ana, ben, and cleo who left their table of three before her first turn
    ana, ben, cleo = tasks.player("ana"), tasks.player("ben"), tasks.player("cleo")
    game = tasks.game(ana, ben, cleo, winner=ana)
    seats = [p.model_copy(update={"turns": 0, "left": True}) if p.player_id == cleo else p
             for p in game.players]  # fmt: skip

    # when the game's end is counted
    counted = tasks.service.record_game(game.model_copy(update={"players": seats}))

    # then it counts for ana and ben, not for cleo
    assert counted == 2
    assert all(t.progress == 0 for t in tasks.service.view(cleo).tasks)
    assert tasks.service.view(ana).tasks[0].progress == 1


def test_tasks_a_cancelled_game_counts_for_nobody(tasks: Tasks) -> None:
    # given ana and ben, whose game was cancelled by the 50% rule after ben abandoned it (its
    # end reaches the stream for ben's statistics)
    ana, ben = tasks.player("ana"), tasks.player("ben")
    game = tasks.game(ana, ben, winner=ana).model_copy(update={"outcome": "cancelled"})

    # when the game's end is counted
    counted = tasks.service.record_game(game)

    # then it counts for nobody (rules.md 8)
    assert counted == 0
    assert all(t.progress == 0 for t in tasks.service.view(ana).tasks)


def test_tasks_solo_and_bot_games_do_not_count(tasks: Tasks) -> None:
    # given ana
    ana = tasks.player("ana")

    # when she finishes a solo game and a game against a bot
    solo = tasks.service.record_game(tasks.game(ana, winner=ana))
    bot = tasks.service.record_game(tasks.game(ana, "bot-1", winner=ana, bots=("bot-1",)))

    # then neither counts
    assert solo == bot == 0
    assert all(t.progress == 0 for t in tasks.service.view(ana).tasks)


def test_tasks_the_week_rolls_over_at_monday_midnight_utc(tasks: Tasks) -> None:
    # given ana and ben, and the last second of a week
    ana, ben = tasks.player("ana"), tasks.player("ben")
    last_monday = week_where(premium=False)
    tasks.now = last_monday + timedelta(days=7) - timedelta(seconds=1)
    old = week_of(tasks.now)

    # when they finish two games in that second, ana winning one
    tasks.play(ana, ben, winner=ana)
    tasks.play(ana, ben, winner=ben, preset=2)
    before = tasks.service.view(ana)

    # then the week counts them, with one second left
    assert before.week == old.id and before.seconds_left == 1
    assert all(t.done for t in before.tasks if t.id != "meet-2")

    # when the clock passes Monday 00:00 UTC
    tasks.now = last_monday + timedelta(days=7)
    after = tasks.service.view(ana)

    # then a new week starts from nothing, a full week to go; last week's tasks are gone
    assert after.week != old.id and after.seconds_left == 7 * 24 * 3600
    assert all(t.progress == 0 for t in after.tasks)
    assert tasks.refusal(ana, "play-2", old.id) == "task_of_another_week"
    assert tasks.wallets.wallet(ana).balance == 0


def test_tasks_new_players_get_a_standin_for_a_premium_task(tasks: Tasks) -> None:
    # given a week whose breadth task needs premium; ana signed up long ago, nina that week
    start = week_where(premium=True)
    tasks.now = start + timedelta(days=1)
    ana = tasks.player("ana")
    nina = tasks.player("nina", signed_up=start + timedelta(hours=3))
    chosen = tasks.service.week_tasks(week_of(tasks.now)).chosen[-1]
    assert chosen.task.id == "preset-5" and chosen.standin is not None

    # when both look at their tasks, and nina three weeks after she signed up
    ana_tasks = [t.id for t in tasks.service.view(ana).tasks]
    nina_tasks = [t.id for t in tasks.service.view(nina).tasks]

    # then ana has the premium task, nina its stand-in in her first weeks
    assert ana_tasks[-1] == "preset-5" and nina_tasks[-1] == "presets-2"
    assert ana_tasks[:-1] == nina_tasks[:-1]
    # and nina cannot claim the premium task she was not given
    assert tasks.refusal(nina, "preset-5") == "task_of_another_week"


def test_tasks_choice_is_kept_once_for_the_week(tasks: Tasks) -> None:
    # given the week's tasks chosen by the job
    chosen = tasks.service.choose_week(tasks.now)

    # when another instance, with a catalogue changed meanwhile, asks for the week
    changed = BOOK.model_copy(update={"tasks": BOOK.tasks[1:]})
    other = TaskService(
        tasks.store, tasks.wallets, tasks.accounts, book=lambda: changed, now=lambda: tasks.now
    )

    # then it gets the week's choice as kept, and a run again keeps it
    assert other.week_tasks(week_of(tasks.now)) == chosen
    assert other.choose_week(tasks.now) == chosen
    assert "club" not in {c.task.group for c in chosen.chosen}


def test_tasks_concurrent_claims_of_the_last_two_tasks_pay_the_bonus_once(
    tasks: Tasks, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana with every task done and two claimed
    ana, ben, cleo = tasks.player("ana"), tasks.player("ben"), tasks.player("cleo")
    tasks.play(ana, ben, winner=ana)
    tasks.play(ana, cleo, winner=cleo, preset=2)
    tasks.service.claim(ana, "play-2")
    tasks.service.claim(ana, "meet-2")

    # when her claim of win-1 reads her week just before her claim of presets-2 is written
    real = tasks.store.week_of_player
    calls = {"n": 0}

    def racing(player: str, week: str) -> Any:
        read = real(player, week)
        calls["n"] += 1
        if calls["n"] == 1:
            tasks.service.claim(ana, "presets-2")
        return read

    monkeypatch.setattr(tasks.store, "week_of_player", racing)
    tasks.service.claim(ana, "win-1")

    # then both tasks and the bonus are paid, each once
    assert tasks.wallets.wallet(ana).balance == 5 + 10 + 15 + 20 + 10
    assert tasks.challenge_count(ana) == 1


# ---------------------------------------------------------------------- through the functions


def load_quietly(name: str) -> ModuleType:
    enabled = gc.isenabled()
    module = load_function(name)
    if enabled:
        gc.enable()
    return module


@pytest.fixture
def functions(table: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, ModuleType]]:
    for name, value in {
        "TABLE_NAME": table,
        "AWS_REGION": "us-east-1",
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    forget_wiring()
    yield {name: load_quietly(name) for name in ("progression", "progression_jobs", "results")}
    forget_wiring()


def http(function: ModuleType, name: str, player: str, **changes: Any) -> tuple[int, Any]:
    event = json.loads((ROOT / "events" / name).read_text(encoding="utf-8"))
    event["requestContext"]["authorizer"]["lambda"]["playerId"] = player
    event["requestContext"]["requestId"] = uuid.uuid4().hex
    for key, value in changes.items():
        event[key] = value
    answer = function.handler(event, CONTEXT)
    return answer["statusCode"], json.loads(answer["body"])


def monday_with(engagement: str) -> datetime:
    """A Monday from MONDAY on whose shipped engagement task is `engagement`."""
    for n in range(80):
        start = MONDAY + timedelta(weeks=n)
        if choose(week_of(start), catalogue()).chosen[0].task.id == engagement:
            return start
    raise AssertionError("no such week in 80")  # pragma: no cover


def test_progression_functions_a_real_finished_game_counts_and_is_claimed(
    harness: Any, functions: dict[str, ModuleType], item: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given the weekly job run by hand at the start of a week whose engagement task is to
    # finish 3 games, and a game ana and ben played to its end on the game service
    from tests.integration.test_replay_service import finished_game

    monday = monday_with("play-3")
    job = json.loads((ROOT / "events" / "progression_week.json").read_text(encoding="utf-8"))
    job["now"] = monday.isoformat()
    ran = functions["progression_jobs"].handler(job, CONTEXT)
    assert ran["week"] == week_of(monday).id and ran["tasks"][0] == "play-3"
    kept = item.get(f"WEEK#{week_of(monday).id}", "TASKS")
    assert [c.task.id for c in WeekTasks.model_validate_json(kept.entry).chosen] == ran["tasks"]

    game_id = finished_game(harness)
    real = GameResult.model_validate_json(item.get(f"GAME#{game_id}", "ENDED").body)
    during = monday + timedelta(days=3)
    monkeypatch.setattr(clock, "clock", lambda: during)

    # when the table's stream hands the results function its end, twice, and two more games
    # like it (other ids) once each
    ends = [real] + [real.model_copy(update={"game_id": f"{game_id}-{n}"}) for n in (2, 3)]
    for ended in [ends[0], *ends]:
        moved = ended.model_copy(update={"ended_at": during})
        answer = functions["results"].handler(stream_event(moved), CONTEXT)
        assert answer == {"batchItemFailures": []}

    # then ana's week shows three games, and the task is claimed over HTTP once
    status, week = http(functions["progression"], "tasks.json", "ana")
    assert status == 200 and week["week"] == ran["week"]
    assert week["secondsLeft"] == 4 * 24 * 3600
    play = week["tasks"][0]
    assert (play["id"], play["progress"], play["done"]) == ("play-3", 3, True)

    def claim(task_id: str, body: str | None) -> tuple[int, Any]:
        return http(
            functions["progression"],
            "claim_task.json",
            "ana",
            body=body,
            pathParameters={"taskId": task_id},
            rawPath=f"/me/tasks/{task_id}/claim",
        )

    status, paid = claim("play-3", json.dumps({"week": ran["week"]}))
    assert status == 200 and (paid["tokens"], paid["balance"]) == (5, 5)
    # and again, an unknown task, another week, a bad body: clear errors, nothing more paid
    assert claim("play-3", None)[1]["error"]["code"] == "task_claimed"
    assert claim("play-3", None)[0] == 409
    status, unknown = claim("fly-to-mars", None)
    assert status == 404 and unknown["error"]["code"] == "unknown_task"
    status, long_id = claim("x" * 2000, None)
    assert status == 404 and len(long_id["error"]["message"]) < 100
    status, other = claim("play-3", json.dumps({"week": "2026-W01"}))
    assert status == 400 and other["error"]["code"] == "task_of_another_week"
    status, bad = claim("play-3", json.dumps({"weak": 1}))
    assert status == 400 and bad["error"]["code"] == "bad_request"
    assert DynamoWalletStore(item).wallet("ana").balance == 5


def test_progression_function_referral_sample_event_answers_the_players_code_and_link(
    functions: dict[str, ModuleType],
) -> None:
    # given the sample GET /me/referral of events/, for ana
    # when the progression function takes it, twice
    status, first = http(functions["progression"], "referral.json", "ana")
    _, again = http(functions["progression"], "referral.json", "ana")

    # then ana's code is made once, with its link, and she has no referrer nor invitees yet
    assert status == 200 and first["code"] == again["code"] and len(first["code"]) == 8
    assert first["link"].endswith(f"/?ref={first['code']}")
    assert (first["referrer"], first["invitees"]) == (None, [])
