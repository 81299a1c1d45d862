"""Weekly tasks' rules (E6), pure: the catalogue as data, the week's choice, what a game counts,
new players' stand-ins, and which claims are refused."""

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from yamb.progression.errors import ProgressionError
from yamb.progression.tasks import (
    GROUPS,
    REWARDS,
    Catalogue,
    catalogue,
    choose,
    contribution,
    counts,
    is_new,
    parse_catalogue,
    progress,
    task_to_claim,
)
from yamb.results.facts import SheetFacts
from yamb.results.periods import week_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings

MONDAY = datetime(2026, 12, 7, 0, 0, tzinfo=UTC)  # 2026-W50 starts


def weeks(count: int) -> list[datetime]:
    return [MONDAY + timedelta(weeks=n) for n in range(count)]


def ended(*players: str, bots: tuple[str, ...] = (), **settings: object) -> GameResult:
    seats = [
        PlayerResult(
            player_id=p,
            total=500 + index,
            full=True,
            left=False,
            turns=26,
            bot="easy" if p in bots else None,
            facts=SheetFacts(bonuses=2, yambs=1),
        )
        for index, p in enumerate(players)
    ]
    return GameResult(
        game_id="g1",
        settings=GameSettings(players=len(players), **settings),  # type: ignore[arg-type]
        ended_at=MONDAY + timedelta(hours=5),
        winners=[players[-1]],
        players=seats,
    )


def book(*tasks: dict[str, object]) -> str:
    return json.dumps({"tasks": list(tasks)})


TASK = {"id": "play-3", "group": "engagement", "title": "Play", "counter": "games", "target": 3}


def test_catalogue_shipped_is_valid_and_has_an_available_task_in_every_group() -> None:
    # given the catalogue kept as data
    shipped = catalogue()

    # then every group can be chosen (the club group's tasks since clubs exist)
    assert {g for g in GROUPS if shipped.of(g)} == set(GROUPS)
    assert [t.id for t in shipped.of("club")]


@pytest.mark.parametrize(
    ("task", "complaint"),
    [
        ({**TASK, "counter": "jumps"}, "unknown counter"),
        ({**TASK, "counter": "games_of_preset:9"}, "preset is 1 to 7"),
        ({**TASK, "counter": "games_of_preset"}, "takes a parameter"),
        ({**TASK, "counter": "games:2"}, "takes no parameter"),
        ({**TASK, "group": "luck"}, "group"),
        ({**TASK, "target": 0}, "target"),
        ({**TASK, "id": "Play 3"}, "id"),
        ({**TASK, "premium": True}, "needs a task without premium"),
        ({**TASK, "colour": "red"}, "colour"),
    ],
)
def test_catalogue_refuses_a_bad_task_with_what_is_wrong(
    task: dict[str, object], complaint: str
) -> None:
    # when a catalogue with the bad task is read, then it is refused, saying why
    with pytest.raises(ValueError, match="not valid") as refused:
        parse_catalogue(book(task))
    assert complaint in str(refused.value)


def test_catalogue_refuses_two_tasks_of_one_id() -> None:
    with pytest.raises(ValueError, match="unique"):
        parse_catalogue(book(TASK, {**TASK, "title": "Again"}))


def test_catalogue_takes_a_task_of_a_feature_to_come_and_never_offers_it() -> None:
    # given a task that needs a feature that does not exist yet
    future = {**TASK, "id": "cup-1", "group": "club", "requires": ["tournaments"]}

    # when read, then it is kept, and never offered
    read = parse_catalogue(book(TASK, future))
    assert read.task("cup-1") is not None and read.of("club") == []


def test_choose_same_week_same_tasks_and_weeks_differ() -> None:
    # given the shipped catalogue and twelve weeks
    shipped = catalogue()

    # when each week's tasks are chosen twice
    choices = [choose(week_of(w), shipped) for w in weeks(12)]
    again = [choose(week_of(w), shipped) for w in weeks(12)]

    # then a week always gets the same, one task per group, and not every week alike
    assert choices == again
    for chosen in choices:
        assert [c.task.group for c in chosen.chosen] == [
            "engagement",
            "social",
            "skill",
            "breadth",
            "club",
        ]
    assert len({tuple(c.task.id for c in chosen.chosen) for chosen in choices}) > 1


def test_choose_premium_task_gets_a_standin_of_its_group_without_premium() -> None:
    # given the weeks whose breadth task needs premium
    shipped = catalogue()
    premium = [c for w in weeks(40) for c in choose(week_of(w), shipped).chosen if c.task.premium]

    # then each has a stand-in of its group that does not need premium; the others have none
    assert premium
    for chosen in premium:
        assert chosen.standin is not None
        assert chosen.standin.group == chosen.task.group and not chosen.standin.premium
        assert chosen.for_player(new=True) == chosen.standin
        assert chosen.for_player(new=False) == chosen.task
    others = [
        c for w in weeks(40) for c in choose(week_of(w), shipped).chosen if not c.task.premium
    ]
    assert all(c.standin is None for c in others)


def test_counts_only_games_of_two_people_or_more_without_bots() -> None:
    assert counts(ended("ana", "ben"))
    assert counts(ended("ana", "ben", "cleo", "dan", pairs=True))
    assert not counts(ended("ana"))  # solo
    assert not counts(ended("ana", "bot", bots=("bot",)))


def test_contribution_of_each_counter() -> None:
    # given a ranked preset-5 game of ana, ben and cleo that cleo won
    game = ended("ana", "ben", "cleo", ranked=True, preset=5, turn_seconds=60)
    cleo, ana = game.players[2], game.players[0]

    # then each counter adds what the game says
    assert contribution("games", game, ana) == 1
    assert contribution("turns", game, ana) == 26
    assert contribution("wins", game, ana) == 0
    assert contribution("wins", game, cleo) == contribution("ranked_wins", game, cleo) == 1
    assert contribution("opponents", game, ana) == frozenset({"ben", "cleo"})
    assert contribution("presets", game, ana) == frozenset({"5"})
    assert contribution("games_of_preset:5", game, ana) == 1
    assert contribution("games_of_preset:1", game, ana) == 0
    assert contribution("games_at_tables_of:3", game, ana) == 1
    assert contribution("games_at_tables_of:4", game, ana) == 0
    assert contribution("sheets_scoring:501", game, ana) == 0
    assert contribution("sheets_scoring:501", game, cleo) == 1
    assert contribution("yambs", game, ana) == 1 and contribution("bonuses", game, ana) == 2
    assert contribution("six_dice_games", game, ana) == 0
    assert contribution("family_grid_games", game, ana) == 0


def test_is_new_the_signup_week_and_two_more() -> None:
    # given a player who signed up on a Sunday, 23:59 UTC (the last minute of 2026-W49)
    signed_up = datetime(2026, 12, 6, 23, 59, tzinfo=UTC)

    # then W49, W50 and W51 are their first three weeks, W52 is not
    assert [is_new(signed_up, week_of(signed_up + timedelta(weeks=n))) for n in range(4)] == [
        True,
        True,
        True,
        False,
    ]
    assert not is_new(None, week_of(signed_up))


def test_is_new_counts_weeks_in_utc_whatever_the_sign_up_zone() -> None:
    # given a sign-up on Monday 01:00 at UTC+2: still Sunday (2026-W49) in UTC
    signed_up = datetime(2026, 12, 7, 1, 0, tzinfo=timezone(timedelta(hours=2)))

    # then W49 is the first week: W51 is the third, W52 the fourth
    assert is_new(signed_up, week_of(datetime(2026, 12, 14, tzinfo=UTC)))
    assert not is_new(signed_up, week_of(datetime(2026, 12, 21, tzinfo=UTC)))


def test_task_to_claim_refusals() -> None:
    # given a week's tasks
    shipped = catalogue()
    week = choose(week_of(MONDAY), shipped)
    mine = week.tasks_for(new=False)
    other = next(t for t in shipped.tasks if t.id not in {c.task.id for c in week.chosen})

    # then this week's task is found; another week's and an unknown one are refused
    assert task_to_claim(week, mine[0].id, new=False, book=shipped) == mine[0]
    with pytest.raises(ProgressionError) as not_this_week:
        task_to_claim(week, other.id, new=False, book=shipped)
    assert not_this_week.value.code == "task_of_another_week"
    with pytest.raises(ProgressionError) as unknown:
        task_to_claim(week, "fly-to-mars", new=False, book=shipped)
    assert unknown.value.code == "unknown_task"


def test_progress_stops_at_the_target_and_counts_members() -> None:
    task = Catalogue.model_validate({"tasks": [{**TASK, "counter": "opponents"}]}).tasks[0]
    assert progress(task, None) == 0
    assert progress(task, frozenset({"a", "b"})) == 2
    assert progress(task, frozenset({"a", "b", "c", "d"})) == 3


def test_rewards_by_group_as_the_product_says() -> None:
    assert [REWARDS[g] for g in GROUPS] == [5, 10, 15, 20, 15]


def test_a_club_game_counts_when_a_member_of_one_of_the_players_clubs_sat_at_the_table() -> None:
    # given a finished game of ana, ben and cleo, where ben shares a club with ana
    game = GameResult(
        game_id="g1",
        settings=GameSettings(players=3, preset=1, turn_seconds=60),
        ended_at=datetime(2026, 12, 9, tzinfo=UTC),
        winners=["ana"],
        players=[
            PlayerResult(player_id=p, total=500, full=True, left=False, turns=26,
                         facts=SheetFacts())
            for p in ("ana", "ben", "cleo")
        ],
        outcome="completed",
    )  # fmt: skip
    ana, _, cleo = game.players

    # then the club group's counter counts it for ana (ben, a mate, was there), not for cleo
    assert contribution("club_games", game, ana, frozenset({"ben"})) == 1
    assert contribution("club_games", game, cleo, frozenset()) == 0
    # and a mate who was not at the table does not make a game a club game
    assert contribution("club_games", game, ana, frozenset({"dora"})) == 0
