"""Luck told apart from skill on Yamb (issue 32, yamb.bots.judge through yamb.session.regret):
against the hard bot's choices, a total is what the hard bot expects turn by turn from the
player's sheets, less the player's regret, plus the dice's luck; the hard bot's own regret is 0
on every decision, and luck averages 0 whoever plays."""

import statistics
from datetime import UTC, datetime, timedelta
from typing import Any

from yamb import bots
from yamb.bots import judge
from yamb.dice import SeededDice
from yamb.session import lobby, regret, turns
from yamb.session.model import GameSession
from yamb.settings import validate_settings

START = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def _played(level: bots.Level, number: int, **settings: Any) -> GameSession:
    """A solo Yamb game played start to end by a bot level's choices (announcements too), its
    dice seeded by `number`."""
    chosen = validate_settings({"players": 1, **settings})
    session = lobby.create(
        f"g{number}", "rob", "c-rob", chosen, START, server_seed=f"{number:064x}"
    )
    dice = SeededDice(number)
    lobby.start(session, "rob", START, dice)
    now = START
    while session.status == "running":
        game = session.game()
        layout = game.layout
        now += timedelta(milliseconds=1500)
        match bots.choose(game, level):
            case bots.RollMove(keep=keep):
                turns.roll(session, "rob", list(keep), None, dice, now=now)
            case bots.WriteMove(column=column, row=row):
                cell = layout.columns[column].id, layout.grid.rows[row].id
                turns.write(session, "rob", *cell, None, now=now, dice=dice)
            case bots.AnnounceMove(column=column, row=row):
                cell = layout.columns[column].id, layout.grid.rows[row].id
                turns.announce(session, "rob", *cell, None)
    return session


def _measured(session: GameSession) -> regret.Measured:
    assert session.fair is not None
    measured = regret.measure(session.settings, session.player_ids, session.fair.turns)
    assert measured is not None
    return measured


def test_the_hard_bot_loses_nothing_on_any_decision() -> None:
    # given the hard bot's games on one Down column and on preset 3 (with announcements)
    for number, settings in ((1, {"preset": None, "columns": ["down"]}), (2, {"preset": 3})):
        session = _played("hard", number, **settings)
        assert session.fair is not None

        # when they are judged against the hard bot's choices
        judged = judge.judge(session.settings, session.player_ids, session.fair.turns)

        # then every hold and every box was the best one: zero loss on every decision
        assert judged and all(turn is not None for turn in judged)
        for turn in judged:
            assert turn is not None
            for best, chosen in turn.choices:
                assert abs(best - chosen) < 1e-9
        assert _measured(session).totals["rob"] == 0


def test_a_yamb_total_is_the_expected_score_less_regret_plus_luck() -> None:
    # given a preset 2 game of the easy bot
    session = _played("easy", 3, preset=2)
    measured = _measured(session)
    told = measured.luck
    assert told is not None and told.expected_by is not None
    total = session.game().sheets[0].total()

    # then the three figures make the total, against the hard bot; the easy bot lost points
    assert measured.against == "hard"
    lost = measured.totals["rob"]
    assert abs(told.expected_by["rob"] - lost + told.luck["rob"] - total) < 0.02
    assert lost > 100
    # and each turn's regret is in the replay's turns, adding up to the total
    assert abs(sum(r for r in measured.regrets if r is not None) - lost) < 0.5
    # and a full sheet's expected total is its total: the writes' values add up to it
    layout = session.game().layout
    assert judge.par_total(layout, session.game().sheets[0].values) == total


def test_yamb_luck_averages_zero_for_a_weak_and_the_hard_player() -> None:
    # given 40 seeded preset 2 games of the easy bot, and 40 of the hard bot
    for level, first in (("easy", 100), ("hard", 200)):
        lucks = []
        for n in range(40):
            told = _measured(_played(level, first + n, preset=2)).luck  # type: ignore[arg-type]
            assert told is not None
            lucks.append(told.luck["rob"])

        # then the mean luck is within three standard errors of 0 (the dice favour no one)
        mean = statistics.fmean(lucks)
        error = statistics.stdev(lucks) / len(lucks) ** 0.5
        assert abs(mean) < 3 * error, (level, mean, error)
        # and the luck spreads wide: it is the dice, not a constant
        assert statistics.stdev(lucks) > 20


def test_no_yamb_luck_with_a_directed_column_or_in_pairs() -> None:
    # a Directed column's cells are opened by the previous player; a pair shares its choices
    for settings in ({"players": 1, "preset": 7}, {"players": 4, "preset": 2, "pairs": True}):
        chosen = validate_settings(settings)
        assert not judge.judged(chosen)
        assert regret.measure(chosen, ["a", "b", "c", "d"][: chosen.players], []) is None
