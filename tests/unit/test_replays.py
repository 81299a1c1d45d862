"""Replays (product G8): the game's record keeps every roll with its kept dice, the
announcement and the write of every turn, and replays it in frames under 32 KB."""

import contextlib
import random
from datetime import UTC, datetime, timedelta

import pytest
from yamb.dice import SeededDice
from yamb.errors import YambError
from yamb.protocol import MAX_FRAME_BYTES
from yamb.session import leaving, lobby, turns
from yamb.session.deadlines import apply_due
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession
from yamb.session.replay_frames import replay_frames
from yamb.session.replays import header_of, replay_turns
from yamb.session.views import dice_record, game_view
from yamb.settings import validate_settings

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
DICE = SeededDice(0)
PLAYERS = ("ana", "ben", "cy", "dee")


def _table(players: int, **settings: object) -> GameSession:
    chosen = validate_settings({"players": players, **settings})
    session = lobby.create("replayed", "ana", "c-ana", chosen, NOW, server_seed="ef" * 32)
    for player in PLAYERS[1:players]:
        lobby.join(session, player, f"c-{player}")
    lobby.start(session, "ana", NOW, DICE)
    return session


def _play_turn(session: GameSession, rng: random.Random) -> None:
    """Rolls again up to twice keeping random dice, announces now and then, writes a legal
    cell (the announced one, if any)."""
    game = session.game()
    player = game.players[game.seat]
    layout = game.layout
    for _ in range(rng.randint(0, 2)):
        if not game.can_reroll():
            break
        keep = sorted(rng.sample(range(layout.dice_count), rng.randint(0, 4)))
        turns.roll(session, player, keep, None, DICE)
        game = session.game()
    cells = game.legal_cells()
    announceable = [
        (c, r) for c, r, _ in cells if layout.columns[c].type.announce_by_roll is not None
    ]
    if announceable and game.announcement is None and rng.random() < 0.5:
        column, row = rng.choice(announceable)
        with contextlib.suppress(YambError):  # announced too late: the write is free
            turns.announce(
                session, player, layout.columns[column].id, layout.grid.rows[row].id, None
            )
        game = session.game()
        cells = game.legal_cells()
    column, row, _ = rng.choice(cells)
    turns.write(
        session,
        player,
        layout.columns[column].id,
        layout.grid.rows[row].id,
        None,
        now=NOW,
        dice=DICE,
    )


def _played(players: int, seed: int, **settings: object) -> GameSession:
    session = _table(players, **settings)
    rng = random.Random(seed)
    while session.status == "running":
        _play_turn(session, rng)
    return session


def test_replay_turns_rebuild_every_write_and_roll_of_the_game() -> None:
    # given a two-player game with the announced column, played to the end
    session = _played(2, 7, preset=3)
    header = header_of(session)
    assert session.fair is not None

    # when its record is replayed
    replayed = replay_turns(header, session.fair.turns)

    # then every turn is there, and writing the replayed scores rebuilds both sheets
    assert len(replayed) == session.turn
    sheets = {sheet.player_id: sheet.cells for sheet in game_view(session).sheets}
    rebuilt: dict[str, dict[str, dict[str, int]]] = {p: {} for p in sheets}
    for turn in replayed:
        assert turn.write is not None
        rebuilt[turn.player_id].setdefault(turn.write.column, {})[turn.write.row] = turn.write.score
    assert rebuilt == sheets
    # and its rolls are those of the dice record, with the dice kept
    record = dice_record(session, "r")
    for turn, line in zip(replayed, record.turns, strict=True):
        assert line.count(";") == len(turn.rolls) - 1
        for before, after in zip(turn.rolls, turn.rolls[1:], strict=False):
            assert all(after.dice[k] == before.dice[k] for k in after.kept)
    # and announcements were recorded, after roll 1 or 2, each in the cell then written
    announced = [turn for turn in replayed if turn.announcement is not None]
    assert announced
    for turn in announced:
        assert turn.announcement is not None and turn.write is not None
        assert turn.announcement.after_roll in (1, 2)
        assert (turn.announcement.column, turn.announcement.row) == (
            turn.write.column,
            turn.write.row,
        )


def test_replay_marks_a_write_made_when_the_clock_ran_out() -> None:
    # given a game whose first turn runs out of time
    session = _table(2, columns=["free"])
    apply_due(session, NOW + timedelta(seconds=60), DICE)

    # when replayed / then its first turn is an auto write
    assert session.fair is not None
    (first,) = replay_turns(header_of(session), session.fair.turns[:1])
    assert first.write is not None and first.write.auto is True


def test_replay_turn_ended_by_leaving_has_no_write() -> None:
    # given ana resigns in her first turn of a three-player game, the others play on to the end
    session = _table(3, columns=["free"])
    leaving.resign(session, "ana", NOW, DICE)
    rng = random.Random(3)
    while session.status == "running":
        _play_turn(session, rng)

    # when replayed / then her turn is there without a write
    assert session.fair is not None
    turns_played = replay_turns(header_of(session), session.fair.turns)
    assert turns_played[0].player_id == "ana" and turns_played[0].write is None
    assert all(turn.write is not None for turn in turns_played[1:])


def test_replay_frames_of_a_long_game_each_stay_under_32_kb() -> None:
    # given a four-player nine-column game played to the end (468 turns)
    session = _played(4, 11, preset=7)
    assert session.fair is not None
    assert session.turn == 4 * 9 * 13

    # when replayed
    frames = replay_frames(header_of(session), session.fair.turns, "r1")

    # then it takes several frames, each under API Gateway's limit, and together all turns
    assert len(frames) > 1
    for frame in frames:
        encoded = frame.model_dump_json(by_alias=True).encode()
        assert len(encoded) < MAX_FRAME_BYTES
    assert [turn.number for frame in frames for turn in frame.turns] == list(range(1, 469))
    assert {(frame.part, frame.parts) for frame in frames} == {
        (index, len(frames)) for index in range(1, len(frames) + 1)
    }


def test_replay_of_a_record_that_lost_turns_is_refused() -> None:
    # given a finished game's record with a turn missing
    session = _played(2, 5, columns=["free"])
    assert session.fair is not None

    # when replayed / then refused: a partial record does not replay
    with pytest.raises(GameActionError) as refused:
        replay_frames(header_of(session), session.fair.turns[1:], "r2")
    assert refused.value.code == "not_allowed"


def test_turn_view_carries_the_roll_history_of_the_turn() -> None:
    # given ana rolled twice more keeping dice
    session = _table(2, columns=["free"])
    turns.roll(session, "ana", [0, 1], None, DICE)
    turns.roll(session, "ana", [0, 1, 2], None, DICE)

    # when the game is viewed / then the turn shows its three rolls with the dice kept
    turn = game_view(session).turn
    assert turn is not None
    assert [roll.kept for roll in turn.rolls] == [[], [0, 1], [0, 1, 2]]
    assert turn.rolls[-1].dice == turn.dice
