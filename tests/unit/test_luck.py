"""Luck told apart from skill (issue 32, yamb.session.regret.luck): on a family grid, a total is
the optimal player's expected score, less the player's regret, plus the dice's luck; luck
averages 0 whoever plays, regret is the player's own."""

import statistics
from datetime import UTC, datetime, timedelta

from yamb import bots
from yamb.dice import SeededDice
from yamb.session import lobby, regret, turns
from yamb.session.model import GameSession
from yamb.settings import validate_settings

START = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def _played(grid: str, level: str, number: int) -> GameSession:
    """A solo game on `grid` played start to end by a bot level's choices, its dice seeded by
    `number` (the server's seed and the roll source)."""
    settings = validate_settings({"players": 1, "grid": grid})
    seed = f"{number:064x}"
    session = lobby.create(f"g{number}", "rob", "c-rob", settings, START, server_seed=seed)
    dice = SeededDice(number)
    lobby.start(session, "rob", START, dice)
    chosen = bots.check_level(level, grid)
    now = START
    while session.status == "running":
        game = session.game()
        now += timedelta(milliseconds=1500)
        match bots.choose(game, chosen):
            case bots.RollMove(keep=keep):
                turns.roll(session, "rob", list(keep), None, dice, now=now)
            case bots.WriteMove(column=column, row=row):
                layout = game.layout
                column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
                turns.write(session, "rob", column_id, row_id, None, now=now, dice=dice)
            case _:  # pragma: no cover - no announcement on a family grid
                raise AssertionError
    return session


def _figures(session: GameSession) -> tuple[float, float, float, int]:
    """(expected, regret, luck, total) of the game's one player."""
    assert session.fair is not None
    lines, players = session.fair.turns, session.player_ids
    regrets = regret.turn_regrets(session.settings, players, lines)
    assert regrets is not None
    lost = regret.totals(players, lines, regrets)
    told = regret.luck(session.settings, players, lines, lost)
    assert told is not None
    total = session.game().sheets[0].total()
    return told.expected, lost["rob"], told.luck["rob"], total


def test_a_total_is_the_expected_score_less_regret_plus_luck() -> None:
    # given a Generala game played by the easy bot
    expected, lost, luck, total = _figures(_played("generala", "easy", 1))

    # then the three figures make the total, and the easy bot lost points to its choices
    assert abs(expected - lost + luck - total) < 0.05
    assert lost > 0
    # and the expected score is the optimal player's from an empty sheet
    optimal = _figures(_played("generala", "optimal", 2))
    assert optimal[0] == expected and optimal[1] == 0


def test_luck_averages_zero_for_a_weak_and_an_optimal_player() -> None:
    # given 40 seeded Generala games of the easy bot, and 40 of the optimal player
    for level, first in (("easy", 100), ("optimal", 200)):
        figures = [_figures(_played("generala", level, first + n)) for n in range(40)]
        lucks = [luck for _, _, luck, _ in figures]

        # then the mean luck is within three standard errors of 0 (the dice favour no one)
        mean = statistics.fmean(lucks)
        error = statistics.stdev(lucks) / len(lucks) ** 0.5
        assert abs(mean) < 3 * error, (level, mean, error)
        # and the luck spreads wide: it is the dice, not a constant
        assert statistics.stdev(lucks) > 5


def test_no_luck_where_the_grid_has_no_optimal_player() -> None:
    settings = validate_settings({"players": 1, "preset": 1})
    assert regret.luck(settings, ["rob"], [], {}) is None
