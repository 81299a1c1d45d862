"""Replay size benchmark (`make bench`): a 4-player 9-column game (preset 7, 468 turns) played
to the end with random rolls, announcements and writes; what its record takes in storage, and
how many frames under API Gateway's 32 KB its replay needs. Prints figures, never fails."""

import contextlib
import random
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from yamb.dice import SeededDice
from yamb.errors import YambError
from yamb.protocol import MAX_FRAME_BYTES
from yamb.session import lobby, turns
from yamb.session.model import GameSession
from yamb.session.replays import header_of, replay_frames
from yamb.settings import validate_settings

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
DICE = SeededDice(0)
PLAYERS = ("ana", "ben", "cy", "dee")
# The writer moves the record out of the game item 12 turns at a time (yamb_service.game.writer).
TURNS_PER_CHUNK = 12


def played_game(seed: int) -> GameSession:
    settings = validate_settings({"players": 4, "preset": 7})
    session = lobby.create("bench", "ana", None, settings, NOW, server_seed="5e" * 32)
    for player in PLAYERS[1:]:
        lobby.join(session, player, None)
    lobby.start(session, "ana", NOW, DICE)
    rng = random.Random(seed)
    while session.status == "running":
        game = session.game()
        player, layout = game.players[game.seat], game.layout
        for _ in range(rng.randint(0, 2)):
            if game.can_reroll():
                keep = sorted(rng.sample(range(5), rng.randint(0, 4)))
                turns.roll(session, player, keep, None, DICE)
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
        turns.write(
            session,
            player,
            layout.columns[column].id,
            layout.grid.rows[row].id,
            None,
            now=NOW,
            dice=DICE,
        )
    return session


def main() -> None:
    session = played_game(11)
    assert session.fair is not None
    lines = session.fair.turns
    stored = sum(len(line) + 1 for line in lines)
    frames = replay_frames(header_of(session), lines, "bench")
    sizes = [len(frame.model_dump_json(by_alias=True).encode()) for frame in frames]
    chunks = -(-len(lines) // TURNS_PER_CHUNK)
    print("Replays")
    print(
        f"  4 players, 9 columns, {len(lines)} turns: record {stored / 1024:.1f} KB stored "
        f"in {chunks} chunks ({stored / len(lines):.0f} bytes a turn, dice and moves)"
    )
    print(
        f"  replay: {len(frames)} frames, {sum(sizes) / 1024:.1f} KB of JSON "
        f"({sum(sizes) / stored:.1f}x the record), largest {max(sizes) / 1024:.1f} KB "
        f"of {MAX_FRAME_BYTES / 1024:.0f} KB"
    )


if __name__ == "__main__":
    main()
