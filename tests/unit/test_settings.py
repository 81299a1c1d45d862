"""Game settings and what excludes what (rules.md 5 and 6)."""

import pytest
from yamb.errors import InvalidSettingsError
from yamb.settings import EXCLUSIONS, FREE_ACCOUNT_LIMITS, validate_settings

# For each exclusion, settings that break it and nothing else: (settings named, account, data).
BAD_SETTINGS = [
    (("ranked", "dice"), "premium", {"ranked": True, "preset": 3, "dice": 6}),
    (("ranked", "columns"), "premium", {"ranked": True, "columns": ["down", "up"]}),
    (("ranked", "grid"), "premium", {"ranked": True, "grid": "classic"}),
    (("ranked", "turn_seconds"), "premium", {"ranked": True, "preset": 3, "turn_seconds": None}),
    (
        ("ranked", "turn_type"),
        "premium",
        {
            "ranked": True,
            "preset": 3,
            "turn_type": "slow",
            "turn_seconds": None,
            "slow_deadline_hours": 48,
        },
    ),
    (("ranked", "players"), "premium", {"ranked": True, "preset": 3, "players": 1}),
    (("pairs", "players"), "premium", {"pairs": True, "players": 2, "preset": 1}),
    (
        ("same_dice", "pairs"),
        "premium",
        {"sameDice": True, "pairs": True, "players": 4, "preset": 1},
    ),
    (("same_dice", "players"), "free", {"sameDice": True, "players": 1, "preset": 1}),
    (("pairs", "grid"), "free", {"pairs": True, "players": 4, "grid": "classic"}),
    (
        ("pairs", "time_bonus"),
        "free",
        {"pairs": True, "players": 4, "timeBonus": True, "preset": 1},
    ),
    (("time_bonus", "players"), "free", {"timeBonus": True, "players": 1, "preset": 1}),
    (("physical_dice", "turn_seconds"), "free", {"physicalDice": True, "preset": 1}),
    (
        ("physical_dice", "turn_type"),
        "premium",
        {"physicalDice": True, "turnType": "simultaneous", "turnSeconds": None, "preset": 1},
    ),
    (
        ("physical_dice", "pairs"),
        "premium",
        {"physicalDice": True, "pairs": True, "players": 4, "turnSeconds": None, "preset": 1},
    ),
    (
        ("physical_dice", "same_dice"),
        "free",
        {"physicalDice": True, "sameDice": True, "turnSeconds": None, "preset": 1},
    ),
    (
        ("physical_dice", "time_bonus"),
        "free",
        {"physicalDice": True, "timeBonus": True, "turnSeconds": None, "preset": 1},
    ),
    (
        ("pairs", "turn_type"),
        "premium",
        {"pairs": True, "players": 4, "preset": 1, "turn_type": "simultaneous"},
    ),
    (
        ("turn_type", "turn_seconds"),
        "premium",
        {"turn_type": "slow", "slow_deadline_hours": 48, "preset": 1},
    ),
    (
        ("turn_type", "slow_deadline_hours"),
        "premium",
        {"turn_type": "slow", "turn_seconds": None, "preset": 1},
    ),
    (("slow_deadline_hours", "turn_type"), "premium", {"slow_deadline_hours": 48, "preset": 1}),
    (
        ("columns", "turn_type"),
        "premium",
        {"columns": ["announced", "directed"], "turn_type": "each_for_themself"},
    ),
    (("columns", "directed"), "premium", {"columns": ["down", "directed"]}),
    (("preset", "columns"), "premium", {"preset": 1, "columns": ["down"]}),
    (("grid", "columns"), "premium", {"grid": "generala", "columns": ["down"]}),
    (("grid", "dice"), "premium", {"grid": "yacht", "dice": 6}),
    (("account", "preset"), "free", {"preset": 3}),
    (("account", "columns"), "free", {"columns": ["down", "up", "free", "announced"]}),
]
# A ranked slow game cannot avoid a second problem: slow has no time per turn, ranked needs one.
ALSO_REFUSED = {("ranked", "turn_type"): [("ranked", "turn_seconds")]}


def _problems(data, account="premium"):
    with pytest.raises(InvalidSettingsError) as caught:
        validate_settings(data, account)
    # the problems' sentences in English (their default rendering)
    return [(names, str(message)) for names, message in caught.value.problems]


def test_settings_bad_cases_cover_every_exclusion():
    # given the exclusions declared by the engine
    declared = {rule.settings for rule in EXCLUSIONS + FREE_ACCOUNT_LIMITS}
    # when
    covered = {names for names, _, _ in BAD_SETTINGS}
    # then
    assert covered == declared


@pytest.mark.parametrize(
    ("names", "account", "data"), BAD_SETTINGS, ids=["-".join(case[0]) for case in BAD_SETTINGS]
)
def test_settings_exclusion_refused_naming_both(names, account, data):
    # given settings breaking one exclusion
    # when
    problems = dict(_problems(data, account))
    # then
    assert sorted(problems) == sorted([names, *ALSO_REFUSED.get(names, [])])
    assert all(name in problems[names] for name in names)


def test_settings_directed_preset_in_simultaneous_refused():
    # given preset 7 (with Directed) for two players, simultaneous
    # when
    problems = _problems({"preset": 7, "turn_type": "simultaneous"})
    # then
    assert len(problems) == 1
    names, message = problems[0]
    assert "turn_type" in names
    assert "directed with more than one player is played turn by turn only" in message


def test_settings_directed_solo_simultaneous_accepted():
    # given Directed in a solo game, not turn by turn
    # when
    settings = validate_settings({"players": 1, "preset": 7, "turn_type": "each_for_themself"})
    # then
    assert settings.column_ids[4] == "directed"


def test_settings_free_account_presets_one_and_two_accepted():
    # given a free account
    # when
    accepted = [validate_settings({"preset": p}, "free").preset for p in (1, 2)]
    # then
    assert accepted == [1, 2]


def test_settings_free_account_custom_three_basic_columns_accepted():
    # given a free account and a custom set of down, up, free
    # when
    settings = validate_settings({"columns": ["free", "up", "down"]}, "free")
    # then
    assert settings.column_ids == ("free", "up", "down")


def test_settings_solo_preset_one_accepted():
    # given a solo game on preset 1
    # when
    settings = validate_settings({"players": 1, "preset": 1})
    # then
    assert (settings.solo, settings.ranked, settings.column_ids) == (True, False, ("down", "up"))


def test_settings_ranked_two_players_preset_three_accepted():
    # given a ranked 2-player game on preset 3 with 60 s a turn
    data = {"players": 2, "preset": 3, "ranked": True, "turn_seconds": 60}
    # when
    settings = validate_settings(data)
    # then
    assert (settings.ranked, settings.turn_seconds, settings.dice) == (True, 60, 5)
    assert settings.column_ids == ("down", "up", "free", "announced")


def test_settings_slow_game_with_deadline_accepted():
    # given a slow game: no time per turn, a deadline in hours
    data = {"turn_type": "slow", "turn_seconds": None, "slow_deadline_hours": 72, "preset": 2}
    # when
    settings = validate_settings(data)
    # then
    assert (settings.turn_type, settings.turn_seconds, settings.slow_deadline_hours) == (
        "slow",
        None,
        72,
    )


def test_settings_two_vs_two_turn_by_turn_accepted():
    # given 2 vs 2, turn by turn
    data = {"pairs": True, "players": 4, "turn_type": "turn_by_turn", "preset": 7}
    # when
    settings = validate_settings(data)
    # then
    assert (settings.pairs, settings.players) == (True, 4)


def test_settings_custom_columns_unranked_accepted():
    # given a custom unranked set with six dice
    data = {"columns": ["manual", "directed", "announced"], "dice": 6, "turn_seconds": None}
    # when
    settings = validate_settings(data)
    # then
    assert (settings.column_ids, settings.dice, settings.turn_seconds) == (
        ("manual", "directed", "announced"),
        6,
        None,
    )


@pytest.mark.parametrize("grid", ["classic", "scandinavian", "yacht", "generala"])
def test_settings_family_grid_without_columns_accepted(grid):
    # given a family grid, no preset nor columns
    # when
    settings = validate_settings({"grid": grid})
    # then
    assert (settings.grid, settings.column_ids) == (grid, ())


@pytest.mark.parametrize("seconds", [10, 120])
def test_settings_turn_seconds_bounds_accepted(seconds):
    # given a time per turn at a bound
    # when
    settings = validate_settings({"preset": 1, "turn_seconds": seconds})
    # then
    assert settings.turn_seconds == seconds


@pytest.mark.parametrize("seconds", [9, 121, 0, -5])
def test_settings_turn_seconds_out_of_range_refused(seconds):
    # given a time per turn outside 10-120 s
    # when
    problems = _problems({"preset": 1, "turn_seconds": seconds})
    # then
    assert problems == [(("turn_seconds",), "time per turn is 10-120 s, or null (unlimited)")]


def test_settings_unknown_column_type_refused():
    # given a custom set naming an unknown type
    # when
    problems = _problems({"columns": ["down", "sideways"]})
    # then
    assert len(problems) == 1
    assert problems[0][0] == ("columns",)
    assert "unknown column type 'sideways'" in problems[0][1]


def test_settings_duplicate_column_type_refused():
    # given a custom set naming a type twice
    # when
    problems = _problems({"columns": ["down", "up", "down"]})
    # then
    assert problems == [(("columns",), "a column type may appear only once")]


def test_settings_empty_custom_set_refused():
    # given an empty custom set
    # when
    problems = _problems({"columns": []})
    # then
    assert problems == [(("columns",), "a custom set needs at least one column")]


@pytest.mark.parametrize(
    ("data", "setting"),
    [
        ({"preset": 1, "players": "2"}, "players"),
        ({"preset": 1, "ranked": "yes"}, "ranked"),
        ({"preset": 1, "turn_seconds": 30.5}, "turn_seconds"),
        ({"preset": "1"}, "preset"),
        ({"preset": 1, "dice": 4}, "dice"),
        ({"preset": 1, "players": 5}, "players"),
        ({"preset": 9}, "preset"),
        ({"grid": "poker"}, "grid"),
        ({"preset": 1, "colour": "red"}, "colour"),
    ],
)
def test_settings_wrong_type_or_value_refused_with_clear_message(data, setting):
    # given a setting of the wrong type or out of its domain
    # when
    problems = _problems(data)
    # then
    assert len(problems) == 1
    names, message = problems[0]
    assert names == (setting,)
    assert message.startswith(f"{setting}: ")


def test_settings_several_problems_reported_at_once():
    # given a ranked solo game with six dice and no time per turn
    data = {"ranked": True, "players": 1, "preset": 3, "dice": 6, "turn_seconds": None}
    # when
    problems = _problems(data)
    # then
    assert [names for names, _ in problems] == [
        ("ranked", "dice"),
        ("ranked", "turn_seconds"),
        ("ranked", "players"),
    ]


def test_settings_several_type_errors_reported_at_once():
    # given two settings of the wrong type
    # when
    problems = _problems({"players": "2", "ranked": "no", "preset": 1})
    # then
    assert sorted(names for names, _ in problems) == [("players",), ("ranked",)]


def test_settings_error_message_joins_problems():
    # given a duplicate column and a bad time per turn
    data = {"columns": ["down", "down"], "turn_seconds": 200}
    # when
    with pytest.raises(InvalidSettingsError) as caught:
        validate_settings(data)
    # then
    assert caught.value.code == "invalid_settings"
    assert str(caught.value) == (
        "a column type may appear only once; time per turn is 10-120 s, or null (unlimited)"
    )


def test_settings_conflict_names_preset_when_the_preset_chose_the_columns() -> None:
    # given a preset with the directed column at a table that does not play turn by turn
    data = {"players": 2, "preset": 7, "turn_type": "simultaneous"}
    # when the settings are validated
    problems = _problems(data)
    # then the problem names the setting the creator chose: the preset
    assert [names for names, _ in problems] == [("preset", "turn_type")]
