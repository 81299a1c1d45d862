"""The badges' rules, pure (E8): the catalogue, levels and thresholds, what is due, what a
finished game and the prize awards count, and the sheet facts Poker and Aces read."""

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest
from yamb.layout import layout_for
from yamb.progression import badges
from yamb.progression.badges import (
    BADGE_IDS,
    CATALOGUE_FILE,
    Due,
    award_counts,
    catalogue,
    due,
    game_tallies,
    level_of,
    parse_catalogue,
)
from yamb.results.facts import SheetFacts, facts_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb.sheet import Sheet

AT = datetime(2026, 12, 3, 23, 59, tzinfo=UTC)
FREE = GameSettings(preset=1, players=2)


def _game(
    players: list[PlayerResult],
    settings: GameSettings = FREE,
    winners: list[str] | None = None,
    outcome: str = "completed",
) -> GameResult:
    return GameResult.model_validate(
        {
            "game_id": "g1",
            "settings": settings,
            "ended_at": AT,
            "winners": winners if winners is not None else [players[0].player_id],
            "players": players,
            "outcome": outcome,
            "recorded": True,
        }
    )


def _player(
    player_id: str, *, bot: str | None = None, turns: int = 26, facts: SheetFacts | None = None
) -> PlayerResult:
    return PlayerResult(
        player_id=player_id, total=500, full=True, left=False, turns=turns, bot=bot, facts=facts
    )


def _catalogue_data() -> dict[str, Any]:
    return dict(json.loads(CATALOGUE_FILE.read_text(encoding="utf-8")))


# ---------------------------------------------------------------- the catalogue


def test_badge_catalogue_level_one_is_the_products_description() -> None:
    # given the catalogue as shipped / when each badge's first level is read
    first = {rule.id: (rule.thresholds[0], rule.rewards[0]) for rule in catalogue().badges}

    # then level 1 is what the product says: the count and the tokens
    assert first == {
        "weekly_challenge": (1, 10),
        "champion": (1, 10),
        "veteran": (3, 10),
        "collector": (1, 10),
        "sociable": (3, 10),
        "benefactor": (100, 10),
        "master": (1, 10),
        "poker": (1, 10),
        "aces": (1, 10),
        "premium_seniority": (3, 10),
        "recruiter": (1, 10),
        "monthly_first": (1, 30),
        "monthly_second": (1, 20),
        "monthly_third": (1, 10),
        "pairs_of_the_month": (1, 30),
    }
    assert catalogue().levels[0] == "bronze" and catalogue().levels[-1] == "obsidian"
    assert catalogue().pioneer.places == 100


def test_badge_catalogue_every_rule_grows_level_by_level() -> None:
    # given the catalogue as shipped / then each threshold and reward grows
    for rule in catalogue().badges:
        assert len(rule.thresholds) == len(rule.rewards) == 10
        assert all(a < b for a, b in zip(rule.thresholds, rule.thresholds[1:], strict=False))
        assert all(a < b for a, b in zip(rule.rewards, rule.rewards[1:], strict=False))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["badges"][0].update(thresholds=[1, 1, 4, 8, 12, 20, 30, 40, 52, 104]), "inc"),
        (
            lambda d: d["badges"][0].update(rewards=[10, 5, 30, 40, 50, 60, 80, 100, 120, 150]),
            "dec",
        ),
        (lambda d: d["badges"][0].update(thresholds=[1, 2, 3]), "10"),
        (lambda d: d["badges"].pop(), "once"),
        (lambda d: d["badges"].append(dict(d["badges"][0])), "once"),
        (lambda d: d["badges"][0].update(id="hero"), "weekly_challenge"),
        (lambda d: d["levels"].pop(), "10"),
    ],
)
def test_badge_catalogue_refuses_a_bad_table(change: Any, message: str) -> None:
    # given the shipped catalogue with one mistake
    data = _catalogue_data()
    change(data)

    # when it is parsed / then it is refused, saying what is wrong
    with pytest.raises(ValueError, match="bad badge catalogue") as refused:
        parse_catalogue(data)
    assert message in str(refused.value)


# ---------------------------------------------------------------- levels and what is due


@pytest.mark.parametrize(
    ("badge", "count", "level"),
    [
        ("veteran", 0, 0),
        ("veteran", 2, 0),
        ("veteran", 3, 1),
        ("veteran", 6, 1),
        ("veteran", 7, 2),
        ("veteran", 730, 10),
        ("veteran", 10_000, 10),
        ("benefactor", 99, 0),
        ("benefactor", 100, 1),
        ("champion", 1, 1),
    ],
)
def test_badge_level_of_counts_thresholds_reached(badge: Any, count: int, level: int) -> None:
    assert level_of(badge, count) == level


def test_badge_next_threshold_is_none_at_the_last_level() -> None:
    rule = catalogue().rule("veteran")
    assert (rule.next_threshold(0), rule.next_threshold(1), rule.next_threshold(10)) == (3, 7, None)


def test_badge_due_every_level_reached_above_the_level_paid() -> None:
    # given a player at 5 wins with level 1 paid, 3 days played with nothing paid, and 1 Yamb
    # whose level is paid
    counts: dict[Any, int] = {"champion": 5, "veteran": 3, "master": 1}
    paid = {"champion": 1, "master": 1}

    # when what is due is worked out
    owed = due(counts, paid)

    # then Champion's level 2 (5 wins) and Veteran's level 1, each with its reward and key
    assert owed == [Due("champion", 2, 20), Due("veteran", 1, 10)]
    assert owed[0].key("p1") == "badge:champion:2:p1"


def test_badge_due_several_levels_at_once_lowest_first() -> None:
    owed = due({"champion": 10}, {})
    assert [(d.level, d.tokens) for d in owed] == [(1, 10), (2, 20), (3, 30)]


def test_badge_due_nothing_below_a_paid_level_when_a_threshold_rose() -> None:
    # given level 3 paid and a count that now reaches only level 1 / then nothing is due
    assert due({"champion": 1}, {"champion": 3}) == []


def test_badge_due_nothing_for_a_player_with_no_counts() -> None:
    assert due({}, {}) == []


# ---------------------------------------------------------------- finished games


def test_badge_game_tallies_count_a_fair_win_the_day_and_the_opponents() -> None:
    # given a free 2-player game ana won, she wrote a Yamb, a top poker and full aces
    facts = SheetFacts(yambs=2, top_pokers=1, full_aces=1)
    game = _game([_player("ana", facts=facts), _player("ben")])

    # when its tallies are read
    ana, ben = game_tallies(game)

    # then ana's win, her Yambs (5 dice), poker and aces, the UTC day and the opponent count
    assert (ana.champion, ana.master, ana.poker, ana.aces) == (1, 2, 1, 1)
    assert ana.day == date(2026, 12, 3) and ana.opponents == frozenset({"ben"})
    assert (ben.champion, ben.master, ben.day, ben.opponents) == (0, 0, date(2026, 12, 3), {"ana"})


@pytest.mark.parametrize(
    ("players", "settings"),
    [
        ([_player("ana")], GameSettings(preset=1, players=1)),  # solo
        ([_player("ana"), _player("bot-1", bot="easy")], FREE),  # a bot at the table
    ],
)
def test_badge_game_tallies_solo_and_bot_games_count_for_nothing(
    players: list[PlayerResult], settings: GameSettings
) -> None:
    assert game_tallies(_game(players, settings)) == []


def test_badge_game_tallies_a_tie_of_the_whole_table_is_no_win() -> None:
    game = _game([_player("ana"), _player("ben")], winners=["ana", "ben"])
    assert [t.champion for t in game_tallies(game)] == [0, 0]


def test_badge_game_tallies_a_pairs_win_counts_for_both_partners() -> None:
    pairs = GameSettings(preset=1, players=4, pairs=True)
    game = _game([_player(p) for p in ("a", "b", "c", "d")], pairs, winners=["a", "c"])
    tallies = {t.player_id: t for t in game_tallies(game)}
    assert {p: t.champion for p, t in tallies.items()} == {"a": 1, "b": 0, "c": 1, "d": 0}
    assert tallies["a"].opponents == frozenset({"b", "c", "d"})


def test_badge_game_tallies_no_day_without_a_turn_played() -> None:
    game = _game([_player("ana"), _player("ben", turns=0)])
    assert [t.day for t in game_tallies(game)] == [date(2026, 12, 3), None]


def test_badge_game_tallies_six_dice_yambs_are_no_master() -> None:
    # given a 6-dice game where ana wrote a Yamb, a top poker and full aces
    six = GameSettings(preset=1, players=2, dice=6)
    facts = SheetFacts(yambs=1, top_pokers=1, full_aces=1)
    (ana, _) = game_tallies(_game([_player("ana", facts=facts), _player("ben")], six))

    # then Master needs 5 dice; Poker and Aces do not
    assert (ana.master, ana.poker, ana.aces) == (0, 1, 1)


def test_badge_game_tallies_typed_dice_count_no_yamb_poker_or_aces() -> None:
    typed = GameSettings(preset=1, players=2, physical_dice=True, turn_seconds=None)
    facts = SheetFacts(yambs=1, top_pokers=1, full_aces=1)
    (ana, _) = game_tallies(_game([_player("ana", facts=facts), _player("ben")], typed))
    assert (ana.champion, ana.master, ana.poker, ana.aces) == (1, 0, 0, 0)


# ---------------------------------------------------------------- prize awards


def test_badge_award_counts_monthly_places_and_the_pairs_of_the_month() -> None:
    # given awards of two months (one a pairs board's 1st), a week's, and a month's 4th place
    awards = [
        {"board": "individual/main/best/2026-11", "period": "2026-11", "place": 1},
        {"board": "individual/main/best/2026-10", "period": "2026-10", "place": 3},
        {"board": "pairs/3/best/2026-10", "period": "2026-10", "place": 1},
        {"board": "pairs/3/best/2026-09", "period": "2026-09", "place": 2},
        {"board": "individual/main/best/2026-W48", "period": "2026-W48", "place": 1},
        {"board": "individual/main/best/2026-08", "period": "2026-08", "place": 4},
    ]

    # when the monthly badges are counted
    found = award_counts(awards)

    # then firsts (both boards), the second, the third and the pairs' first; no week, no 4th
    assert found == {
        "monthly_first": 2,
        "monthly_second": 1,
        "monthly_third": 1,
        "pairs_of_the_month": 1,
    }


# ---------------------------------------------------------------- sheet facts


def test_facts_of_a_sheet_count_top_pokers_and_full_aces() -> None:
    # given a Yamb sheet: four sixes' poker (64) in one column, a lesser poker (four fives, 60)
    # in another, five ones (5) and four ones (4)
    layout = layout_for("yamb", ("down", "up", "free"), 5)
    grid = layout.grid
    sheet = Sheet(layout)
    poker, ones = grid.row_index("four_of_a_kind"), grid.row_index("ones")
    sheet.set(0, poker, 64)
    sheet.set(1, poker, 60)
    sheet.set(2, poker, 0)
    sheet.set(0, ones, 5)
    sheet.set(1, ones, 4)

    # when its facts are read
    facts = facts_of(sheet)

    # then one top poker and one full aces; the crossed-out poker is neither
    assert (facts.pokers, facts.top_pokers, facts.full_aces) == (2, 1, 1)


def test_facts_of_six_dice_five_ones_are_full_aces() -> None:
    # given a 6-dice Yamb sheet: the ones row scores the best five dice, so six ones write 5
    layout = layout_for("yamb", ("free",), 6)
    sheet = Sheet(layout)
    sheet.set(0, layout.grid.row_index("ones"), 5)
    sheet.set(0, layout.grid.row_index("four_of_a_kind"), 64)

    # then they are full aces, and four sixes the top poker, as with five dice
    facts = facts_of(sheet)
    assert (facts.full_aces, facts.top_pokers) == (1, 1)


def test_facts_of_a_classic_sheet_top_poker_is_five_sixes_sum() -> None:
    # given a Classic sheet: four of a kind scores the dice's sum, at best 30 (sixes all)
    layout = layout_for("classic", (), 5)
    sheet = Sheet(layout)
    sheet.set(0, layout.grid.row_index("four_of_a_kind"), 29)
    assert facts_of(sheet).top_pokers == 0
    sheet.set(0, layout.grid.row_index("four_of_a_kind"), 30)
    assert facts_of(sheet).top_pokers == 1


def test_badge_ids_are_the_catalogues() -> None:
    assert [rule.id for rule in catalogue().badges] == list(BADGE_IDS)
    assert badges.PIONEER == "pioneer"
