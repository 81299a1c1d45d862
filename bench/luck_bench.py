"""Skill and luck's cost (`make bench`, issue 32): what judging a finished Yamb game against
the hard bot's choices (yamb.bots.judge, through yamb.session.regret.measure) adds to its replay
and to the last write of the game, where it is measured for the statistics. A 4-player game of
preset 6 (8 columns, 416 turns: the largest a judge takes, preset 7's Directed column is not
judged) and of preset 2, played with random holds, announcements and writes; a family grid's
(Classic, 4 players, the solver's regret and luck) beside them. Times are the median of a few
runs in one process, after a first run that loads numpy and the tables; the baseline is the same
replay's frames without the measure, timed in the same run. Prints figures, never fails."""

import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from yamb.dice import SeededDice
from yamb.errors import YambError
from yamb.session import lobby, regret, turns
from yamb.session.model import GameSession
from yamb.session.replay_frames import replay_frames
from yamb.session.replays import header_of
from yamb.settings import validate_settings

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
PLAYERS = ("ana", "ben", "cy", "dee")
RUNS = 5


def played_game(settings: dict[str, Any], seed: int) -> GameSession:
    dice = SeededDice(seed)
    chosen = validate_settings({"players": 4, **settings})
    session = lobby.create("bench", "ana", None, chosen, NOW, server_seed="5e" * 32)
    for player in PLAYERS[1:]:
        lobby.join(session, player, None)
    lobby.start(session, "ana", NOW, dice)
    rng = random.Random(seed)
    while session.status == "running":
        game = session.game()
        player, layout = game.players[game.seat], game.layout
        for _ in range(rng.randint(0, 2)):
            if game.can_reroll():
                keep = sorted(rng.sample(range(5), rng.randint(0, 4)))
                turns.roll(session, player, keep, None, dice)
                game = session.game()
        cells = game.legal_cells()
        column, row, _ = rng.choice(cells)
        if layout.columns[column].type.announce_by_roll is not None and rng.random() < 0.5:
            with contextlib.suppress(YambError):
                turns.announce(
                    session, player, layout.columns[column].id, layout.grid.rows[row].id, None
                )
            game = session.game()
            column, row, _ = rng.choice(game.legal_cells())
        cell = layout.columns[column].id, layout.grid.rows[row].id
        turns.write(session, player, *cell, None, now=NOW, dice=dice)
    return session


def median_ms(work: Callable[[], object]) -> float:
    work()  # numpy, the dice tables, a solver table: loaded once per execution environment
    times = []
    for _ in range(RUNS):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return 1000 * statistics.median(times)


def main() -> None:
    print("Skill and luck (issue 32): judging a finished game")
    for label, settings in (
        ("Yamb preset 6, 4 players", {"preset": 6}),
        ("Yamb preset 2, 4 players", {"preset": 2}),
        ("Classic, 4 players", {"grid": "classic"}),
    ):
        session = played_game(settings, 5)
        assert session.fair is not None
        lines, header = session.fair.turns, header_of(session)
        measured = regret.measure(session.settings, session.player_ids, lines)
        assert measured is not None and measured.luck is not None, label

        def frames(header: Any = header, lines: list[str] = lines) -> object:
            return replay_frames(header, lines, "bench")

        def measure(session: GameSession = session, lines: list[str] = lines) -> object:
            return regret.measure(session.settings, session.player_ids, lines)

        with_measure = median_ms(frames)
        original = regret.measure
        regret.measure = lambda *_: None  # type: ignore[assignment]
        try:
            baseline = median_ms(frames)
        finally:
            regret.measure = original
        alone = median_ms(measure)
        print(
            f"  {label}, {len(lines)} turns: the measure {alone:.0f} ms "
            f"({alone / len(lines):.2f} ms a turn); the replay's frames {with_measure:.0f} ms "
            f"with it, {baseline:.0f} ms without ({with_measure / baseline:.1f}x)"
        )


if __name__ == "__main__":
    main()
