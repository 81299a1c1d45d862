"""A stored game (yamb.snapshot) loads back as the same game, in any state, and stays small."""

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from yamb.dice import SeededDice, roll_all, roll_unlocked
from yamb.game import Game
from yamb.layout import layout_for
from yamb.rules import COLUMN_TYPES, PRESETS
from yamb.snapshot import dump_game, load_game

PLAYER_NAMES = ("ana", "ben", "cleo", "dan")
FAMILY_GRIDS = ("classic", "scandinavian", "yacht", "generala")

layouts = st.one_of(
    st.builds(
        lambda columns, dice: layout_for("yamb", columns, dice),
        st.one_of(
            st.sampled_from(list(PRESETS.values())),
            st.permutations(list(COLUMN_TYPES)).flatmap(
                lambda order: st.integers(1, len(order)).map(lambda n: tuple(order[:n]))
            ),
        ),
        st.sampled_from((5, 6)),
    ),
    st.sampled_from(FAMILY_GRIDS).map(layout_for),
)


def state(game: Game) -> dict[str, Any]:
    """Everything a game shows, to compare a loaded game with the one stored."""
    return {
        "players": game.players,
        "seat": game.seat,
        "roll": game.roll,
        "dice": game.dice,
        "announcement": game.announcement,
        "obligations": game.obligations,
        "left": game.left,
        "turns_played": game.turns_played,
        "finished": game.finished,
        "values": [sheet.values for sheet in game.sheets],
        "filled": [sheet.filled for sheet in game.sheets],
        "extra": [sheet.extra for sheet in game.sheets],
        "empty": [sheet.empty_cells for sheet in game.sheets],
        "totals": [sheet.total() for sheet in game.sheets],
        "legal": game.legal_cells(),
        "can_reroll": game.can_reroll(),
        "winners": game.winners(),
    }


def stored_and_loaded(game: Game) -> Game:
    return load_game(json.loads(json.dumps(dump_game(game))))


def play_until(game: Game, seed: int, stop: int) -> None:
    """Random legal play for `stop` steps: rolls, announcements, writes, sometimes a leave."""
    dice, choices = SeededDice(seed), random.Random(seed)
    count = game.layout.dice_count
    for _ in range(stop):
        if game.finished:
            return
        if not game.roll:
            if len(game.players) > 1 and choices.random() < 0.01:
                game.leave(choices.randrange(len(game.players)))
                continue
            game.start_turn(roll_all(dice, count))
            continue
        by_roll = [
            (c, r)
            for c, r, _ in game.legal_cells()
            if game.announcement is None
            and (deadline := game.layout.columns[c].type.announce_by_roll) is not None
            and game.roll <= deadline
        ]
        step = choices.random()
        if by_roll and step < 0.2:
            game.announce(*choices.choice(by_roll))
        elif game.can_reroll() and step < 0.6:
            locked = [i for i in range(count) if choices.random() < 0.5]
            game.reroll(roll_unlocked(dice, game.dice, locked))
        else:
            column, row, _ = choices.choice(game.legal_cells())
            game.write(column, row)


@settings(max_examples=60, deadline=None)
@given(
    layout=layouts,
    players=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    stop=st.integers(0, 1500),
)
def test_a_stored_game_loads_back_as_the_same_game(
    layout: Any, players: int, seed: int, stop: int
) -> None:
    # Given a game stopped anywhere: mid-turn, announced, directed, after a leave, over
    game = Game(layout, PLAYER_NAMES[:players])
    play_until(game, seed, stop)

    # When it is stored as JSON and loaded back
    loaded = stored_and_loaded(game)

    # Then it is the same game, stores the same way, and plays on the same way
    assert state(loaded) == state(game)
    assert dump_game(loaded) == dump_game(game)
    play_until(game, seed + 1, 200)
    play_until(loaded, seed + 1, 200)
    assert state(loaded) == state(game)


def test_values_outside_the_one_character_alphabet_round_trip() -> None:
    # Given sheets holding Generala's 100 and values no box scores
    game = Game(layout_for("generala"), ["ana", "ben"])
    game.sheets[0].set(0, 10, 100)
    game.sheets[1].set(0, 0, 89)
    game.sheets[1].set(0, 1, 12345)

    # When stored and loaded
    loaded = stored_and_loaded(game)

    # Then every value is back in its cell
    assert [s.values for s in loaded.sheets] == [s.values for s in game.sheets]
    assert [s.empty_cells for s in loaded.sheets] == [10, 9]


def test_the_first_stored_form_still_loads() -> None:
    # Given a game stored the first way (before the compact form), mid-turn with an announcement
    game = Game(layout_for("yamb", PRESETS[7]), ["ana", "ben"])
    play_until(game, 7, 300)
    while game.finished or not game.roll:
        game = Game(layout_for("yamb", PRESETS[7]), ["ana", "ben"])
        play_until(game, 8, 301)
    first_form = {
        "grid": "yamb",
        "columns": list(PRESETS[7]),
        "dice_count": 5,
        "players": list(game.players),
        "sheets": [
            {"values": [list(c) for c in sheet.values], "extra": list(sheet.extra)}
            for sheet in game.sheets
        ],
        "seat": game.seat,
        "roll": game.roll,
        "dice": list(game.dice),
        "announcement": list(game.announcement) if game.announcement else None,
        "obligations": list(game.obligations),
        "left": sorted(game.left),
        "turns_played": list(game.turns_played),
        "finished": game.finished,
    }

    # When it is loaded
    loaded = load_game(json.loads(json.dumps(first_form)))

    # Then it is the same game
    assert state(loaded) == state(game)


def test_a_finished_four_player_nine_column_game_stores_in_under_900_bytes() -> None:
    # Given the largest game: four players with Cognito-sized ids, all nine columns, finished
    names = [f"{n:08x}-0000-4000-8000-000000000000" for n in range(4)]
    game = Game(layout_for("yamb", PRESETS[7]), names)
    play_until(game, 3, 100_000)
    assert game.finished

    # When it is stored, then it is small: one byte a cell, the ids, a few numbers
    stored = json.dumps(dump_game(game), separators=(",", ":"))
    assert len(stored) < 900
