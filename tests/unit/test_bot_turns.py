"""Bots at a table and their moves as deadlines (yamb.session.bot_seats, bot_turns): pure, no
storage. The service's path is tested in tests/integration/test_bots_service.py."""

from datetime import UTC, datetime, timedelta

import pytest
from yamb.dice import SeededDice
from yamb.session import bot_seats, bot_turns, lobby, turns
from yamb.session.deadlines import apply_due, pending
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession
from yamb.settings import validate_settings

START = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
DICE = SeededDice(3)


def _table(*levels: str, **settings: object) -> GameSession:
    chosen = validate_settings({"players": 1 + len(levels), "columns": ["free"], **settings})
    session = lobby.create("bots", "ana", "c-ana", chosen, START, server_seed="ab" * 32)
    for level in levels:
        bot_seats.add_bot(session, "ana", level)
    return session


def test_bot_seats_numbered_in_the_first_free_number_after_a_removal() -> None:
    # given ana's table with three bots, the second removed
    session = _table("easy", "medium", "hard")
    bot_seats.remove_bot(session, "ana", "bot-2")

    # when she seats another / then it takes the freed number, at the end of the table
    assert bot_seats.add_bot(session, "ana", "hard") == "bot-2"
    assert session.player_ids == ["ana", "bot-1", "bot-3", "bot-2"]
    assert session.people == 1 and session.bot_ids == {"bot-1", "bot-2", "bot-3"}


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        ({"ranked": True, "players": 2, "preset": 1, "columns": None}, "ranked"),
        ({"pairs": True, "players": 4}, "2 vs 2"),
        ({"turnType": "slow", "turnSeconds": None, "slowDeadlineHours": 24}, "slow"),
        ({"physicalDice": True, "turnSeconds": None}, "scorekeeping"),
    ],
)
def test_bot_seats_refused_at_tables_bots_do_not_play(
    settings: dict[str, object], reason: str
) -> None:
    # given settings a bot may not play / when checked / then the refusal says why
    refusal = bot_seats.bots_refused(validate_settings({"players": 2, "preset": 1, **settings}))
    assert refusal is not None and reason in str(refusal)


def test_bot_turns_a_moment_per_move_kept_until_played_then_renewed() -> None:
    # given a started game where the bot plays first
    session = _table("easy")
    lobby.edit(session, "ana", None, ["bot-1", "ana"])
    lobby.start(session, "ana", START, DICE)

    # when the writer schedules, and schedules again a moment later
    bot_turns.schedule(session, START)
    first = session.seats[0].bot_due
    bot_turns.schedule(session, START + timedelta(milliseconds=500))

    # then the bot's moment is a step ahead, not pushed back, and it is a deadline of the game
    assert first == START + bot_turns.BOT_STEP
    assert session.seats[0].bot_due == first
    assert first in pending(session)

    # and when it falls due, the bot moves once; the next moment waits for the next write
    effects = apply_due(session, first, DICE, tolerance=timedelta(0))
    assert effects is not None
    assert session.seats[0].bot_due is None
    assert session.game().roll == 2  # the easy bot rerolled: still its turn
    bot_turns.schedule(session, first)
    assert session.seats[0].bot_due == first + bot_turns.BOT_STEP


def test_bot_turns_no_moment_while_a_person_is_in_turn() -> None:
    # given a started game where ana plays first
    session = _table("hard")
    lobby.start(session, "ana", START, DICE)

    # when the writer schedules / then the bot has no moment: it is not its turn
    bot_turns.schedule(session, START)
    assert session.seats[1].bot_due is None
    with pytest.raises(GameActionError):
        turns.current(session, "bot-1")
