"""Win rewards (yamb.economy.rewards): by columns and game type, ranked double, opponents who
played too few turns not counted, nothing for solo, bot or scorekeeping tables."""

import pytest
from yamb.economy.rewards import Finisher, reward_of, turns_per_sheet, win_rewards
from yamb.settings import GameSettings


def _players(*turns: int) -> list[Finisher]:
    return [Finisher(f"p{index}", count) for index, count in enumerate(turns)]


@pytest.mark.parametrize(
    ("settings", "tokens"),
    [
        ({"preset": 1}, 8),
        ({"preset": 7}, 25),
        ({"preset": 7, "ranked": True}, 50),
        ({"grid": "classic"}, 5),
        ({"preset": 3, "turnType": "each_for_themself"}, 9),
        ({"preset": 3, "turnType": "slow", "turnSeconds": None, "slowDeadlineHours": 24}, 7),
        ({"players": 4, "pairs": True, "columns": ["down", "announced", "directed"]}, 12),
    ],
)
def test_rewards_by_columns_and_type(settings: dict[str, object], tokens: int) -> None:
    # given a table's settings; when its reward is read; then it follows the table
    assert reward_of(GameSettings.model_validate(settings)) == tokens


def test_rewards_winner_paid_when_an_opponent_played_enough() -> None:
    # given a 2-player preset-1 game (26 turns a sheet) won by p0 against p1 who played 13
    settings = GameSettings.model_validate({"preset": 1})
    assert turns_per_sheet(settings) == 26

    # when the rewards are worked out
    # then p0 gets the table's reward; with p1 at 12 turns (under half) nobody is paid
    assert win_rewards(settings, ["p0"], _players(26, 13)) == {"p0": 8}
    assert win_rewards(settings, ["p0"], _players(26, 12)) == {}


def test_rewards_tied_winners_each_paid() -> None:
    settings = GameSettings.model_validate({"preset": 1})
    assert win_rewards(settings, ["p0", "p1"], _players(26, 26)) == {"p0": 8, "p1": 8}


def test_rewards_two_vs_two_partners_are_not_opponents() -> None:
    # given a 2 vs 2 game won by seats 1-2, whose opponents 3-4 left early
    settings = GameSettings.model_validate(
        {"players": 4, "pairs": True, "columns": ["down", "announced", "directed"]}
    )
    # when the rewards are worked out; then the partners do not count as each other's opponent
    assert win_rewards(settings, ["p0", "p1"], _players(39, 39, 3, 3)) == {}
    assert win_rewards(settings, ["p0", "p1"], _players(39, 39, 39, 39)) == {"p0": 12, "p1": 12}


@pytest.mark.parametrize(
    "settings",
    [{"players": 1, "preset": 1}, {"preset": 1, "physicalDice": True, "turnSeconds": None}],
)
def test_rewards_solo_and_scorekeeping_pay_nothing(settings: dict[str, object]) -> None:
    table = GameSettings.model_validate(settings)
    assert win_rewards(table, ["p0"], _players(26, 26)) == {}


def test_rewards_bot_table_pays_nothing() -> None:
    settings = GameSettings.model_validate({"preset": 1})
    players = [Finisher("p0", 26), Finisher("bot", 26, bot=True)]
    assert win_rewards(settings, ["p0"], players) == {}
