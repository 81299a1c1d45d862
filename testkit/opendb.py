"""Finished games for the open game database's tests: a yacht table (12 turns a player) played
to its end in-process with random legal moves, as the game service would leave it."""

import random
from datetime import UTC, datetime
from typing import Any

from yamb import fair_dice
from yamb.dice import SeededDice
from yamb.session import lobby, seeds, turns
from yamb.session.model import GameSession
from yamb.settings import validate_settings

SEED = "a7" * 32
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def finished_game(
    game_id: str,
    players: list[str],
    *,
    at: datetime = NOW,
    nicknames: list[str] | None = None,
    seeded: bool = False,
    **settings: Any,
) -> GameSession:
    """The game `game_id` between `players` (the first creates it), ended at `at`; with
    `seeded`, the first player set a seed of their own before the start."""
    names = nicknames or [f"Player{n}" for n in range(len(players))]
    chosen = validate_settings({"players": len(players), "grid": "yacht", **settings})
    session = lobby.create(
        game_id, players[0], "conn-0", chosen, at, server_seed=SEED, nickname=names[0]
    )
    for number, player in enumerate(players[1:], 1):
        lobby.join(session, player, f"conn-{number}", nickname=names[number])
    if seeded:  # committed while the table waits, revealed after the start (yamb-dice/3)
        seeds.commit(session, players[0], fair_dice.seed_commitment("my-own-seed"))
    dice, rng = SeededDice(0), random.Random(game_id)
    lobby.start(session, session.creator, at, dice)
    if seeded:
        seeds.reveal(session, players[0], "my-own-seed", at, dice)
    while session.status == "running":
        game = session.game()
        player = game.players[game.seat]
        if rng.random() < 0.5 and game.can_reroll():
            turns.roll(session, player, sorted(rng.sample(range(5), 2)), None, dice)
            game = session.game()
        column, row, _ = rng.choice(game.legal_cells())
        layout = game.layout
        turns.write(
            session, player, layout.columns[column].id, layout.grid.rows[row].id, None,
            now=at, dice=dice,
        )  # fmt: skip
    return session
