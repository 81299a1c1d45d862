"""Games of own turns (rules.md 7, 8): simultaneous rounds, each for themself, slow games; a
clock per seat, hidden dice, and the end."""

from datetime import UTC, datetime, timedelta

import pytest
from yamb import fair_dice
from yamb.dice import SeededDice
from yamb.session import leaving, lobby, presence, turns
from yamb.session.deadlines import apply_due, pending
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession
from yamb.session.views import dice_record, game_view
from yamb.settings import validate_settings
from yamb.snapshot import dump_game, load_game

START = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
DICE = SeededDice(0)
PLAYERS = ("ana", "ben", "cy", "dee")


def _table(turn_type: str, players: int = 2, **extra: object) -> GameSession:
    settings = validate_settings(
        {"players": players, "columns": ["free"], "turnType": turn_type, **extra}
    )
    session = lobby.create("own", "ana", "c-ana", settings, START, server_seed="cd" * 32)
    for player in PLAYERS[1:players]:
        lobby.join(session, player, f"c-{player}")
    lobby.start(session, "ana", START, DICE)
    return session


def _write(session: GameSession, player: str, now: datetime = START) -> None:
    """The player writes the first cell open to them."""
    game = session.game()
    seat = session.seat_of(player)
    assert seat is not None
    game.focus(seat)
    column, row, _ = game.legal_cells()[0]
    layout = game.layout
    turns.write(
        session,
        player,
        layout.columns[column].id,
        layout.grid.rows[row].id,
        None,
        now=now,
        dice=DICE,
    )


def _code(action: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(GameActionError) as refused:
        action(*args, **kwargs)  # type: ignore[operator]
    return refused.value.code


def test_simultaneous_every_seat_starts_its_turn_at_once_with_its_own_clock() -> None:
    # given a simultaneous table of three, just started
    session = _table("simultaneous", 3)

    # then every player has roll 1 and a clock of their own, all running
    for player in ("ana", "ben", "cy"):
        turn = game_view(session, player).turn
        assert turn is not None and turn.player_id == player and turn.roll == 1
        assert turn.deadline == START + timedelta(seconds=60)
    assert game_view(session).waiting_for == ["ana", "ben", "cy"]


def test_simultaneous_next_round_waits_for_every_player() -> None:
    # given a simultaneous table where ana has written her first turn
    session = _table("simultaneous", 3)
    _write(session, "ana")

    # when she tries to roll again before the others have played
    code = _code(turns.roll, session, "ana", None, None, DICE)

    # then she is told to wait, and the table waits for ben and cy
    assert code == "round_not_over"
    assert game_view(session, "ana").turn is None
    assert game_view(session).waiting_for == ["ben", "cy"]
    assert [seat.turns_played for seat in game_view(session).seats] == [1, 0, 0]

    # when ben and cy write theirs / then round 2 starts for all three at once
    _write(session, "ben", START + timedelta(seconds=5))
    assert game_view(session).waiting_for == ["cy"]
    _write(session, "cy", START + timedelta(seconds=9))
    for player in ("ana", "ben", "cy"):
        turn = game_view(session, player).turn
        assert turn is not None and turn.number == 2 and turn.roll == 1
        assert turn.deadline == START + timedelta(seconds=69)


def test_each_for_themself_players_go_at_their_own_pace_and_the_end_waits_for_all() -> None:
    # given an each-for-themself table of two
    session = _table("each_for_themself")
    cells = session.game().layout.cells_per_sheet

    # when ana plays her whole sheet while ben plays one turn
    _write(session, "ben")
    for _ in range(cells):
        _write(session, "ana")

    # then ana's sheet is full and she waits; the game runs on until ben finishes
    assert session.status == "running"
    assert _code(turns.roll, session, "ana", None, None, DICE) == "sheet_full"
    assert game_view(session, "ben").turn is not None
    for _ in range(cells - 1):
        _write(session, "ben")
    assert session.status == "finished"
    totals = {sheet.player_id: sheet.total for sheet in game_view(session).sheets}
    best = max(totals.values())
    assert session.winners == [p for p, total in totals.items() if total == best]


def test_own_turns_hide_the_other_players_dice() -> None:
    # given ben has rolled again and announced nothing, ana is in her turn
    session = _table("simultaneous")
    game = session.game()
    turns.roll(session, "ben", [0], None, DICE)

    # when ana's view is built
    view = game_view(session, "ana")

    # then it shows her own turn only, and ben's dice and locks appear nowhere
    assert view.turn is not None and view.turn.player_id == "ana"
    ben_dice = list(session.game().turn_of(1)[1])
    assert ben_dice and view.turn.dice == list(game.turn_of(0)[1])
    assert '"locks":[0]' not in view.model_dump_json(by_alias=True)
    assert game_view(session, "ben").turn.locks == [0]  # type: ignore[union-attr]


def test_own_turns_clock_runs_out_for_one_player_only() -> None:
    # given a simultaneous table where ana wrote after 10 s and ben did nothing
    session = _table("simultaneous")
    _write(session, "ana", START + timedelta(seconds=10))

    # when ben's 60 s run out
    effects = apply_due(session, START + timedelta(seconds=60), DICE)

    # then ben's turn is written for him and round 2 starts for both
    assert effects is not None and effects.turns_timed_out == 1
    assert [seat.turns_played for seat in game_view(session).seats] == [1, 1]
    assert game_view(session, "ana").turn.number == 2  # type: ignore[union-attr]


def test_own_turns_away_player_freezes_only_their_clock() -> None:
    # given an each-for-themself table; ben loses his connection 20 s in
    session = _table("each_for_themself")
    presence.disconnect(session, "ben", "c-ben", START + timedelta(seconds=20))

    # then his clock is frozen with 40 s left, ana's runs on, and his return is awaited
    assert game_view(session, "ben").turn.frozen_ms == 40_000  # type: ignore[union-attr]
    ana_turn = game_view(session, "ana").turn
    assert ana_turn is not None and ana_turn.deadline == START + timedelta(seconds=60)
    assert pending(session) == [
        START + timedelta(seconds=60),
        START + timedelta(seconds=200),
    ]

    # when he comes back at 50 s / then his clock runs from 40 s
    presence.reconnect(session, "ben", "c-ben-2", START + timedelta(seconds=50))
    ben_turn = game_view(session, "ben").turn
    assert ben_turn is not None and ben_turn.deadline == START + timedelta(seconds=90)


def test_simultaneous_a_player_leaving_ends_the_round_they_held_up() -> None:
    # given a simultaneous table of three where ana and ben have played round 1
    session = _table("simultaneous", 3)
    _write(session, "ana")
    _write(session, "ben")

    # when cy resigns
    leaving.resign(session, "cy", START + timedelta(seconds=5), DICE)

    # then round 2 starts for ana and ben
    assert game_view(session).waiting_for == ["ana", "ben"]
    assert game_view(session, "ana").turn.number == 2  # type: ignore[union-attr]


def test_own_turns_the_last_player_left_is_offered_to_finish_without_a_clock() -> None:
    # given an each-for-themself table of two; ben resigns
    session = _table("each_for_themself")
    leaving.resign(session, "ben", START + timedelta(seconds=5), DICE)
    assert session.finish_offer == "ana"

    # when ana accepts
    leaving.answer_finish_offer(session, "ana", True, START + timedelta(seconds=8), DICE)

    # then she plays on alone, her turn kept, without a clock
    turn = game_view(session, "ana").turn
    assert turn is not None and turn.deadline is None and turn.number == 1
    assert pending(session) == []


def test_slow_game_deadline_passes_with_one_sheet_finished() -> None:
    # given a slow game of two where ana has filled her sheet and ben has not
    session = _table("slow", turnSeconds=None, slowDeadlineHours=48)
    cells = session.game().layout.cells_per_sheet
    for _ in range(cells):
        _write(session, "ana")
    _write(session, "ben")
    assert pending(session) == [START + timedelta(hours=48)]

    # when the deadline passes
    apply_due(session, START + timedelta(hours=48), DICE)

    # then ana wins and ben, unfinished, loses
    assert (session.status, session.outcome, session.winners) == ("finished", "deadline", ["ana"])


def test_slow_game_nobody_finished_is_cancelled() -> None:
    # given a slow game where nobody has filled a sheet / when the deadline passes
    session = _table("slow", turnSeconds=None, slowDeadlineHours=1)
    _write(session, "ana")
    apply_due(session, START + timedelta(hours=1), DICE)

    # then the game is cancelled
    assert (session.status, session.outcome, session.winners) == ("cancelled", "cancelled", [])


def test_slow_game_has_no_clock_and_no_return_deadline() -> None:
    # given a slow game / when ben goes offline
    session = _table("slow", turnSeconds=None, slowDeadlineHours=24)
    presence.disconnect(session, "ben", "c-ben", START + timedelta(hours=1))

    # then nothing but the game's deadline is pending, and ben's return reminder (A8), due
    # halfway through the 23 hours left
    assert game_view(session, "ben").turn.deadline is None  # type: ignore[union-attr]
    assert session.seats[1].return_deadline is None
    reminder = START + timedelta(hours=1) + timedelta(hours=23) / 2
    assert pending(session) == [reminder, START + timedelta(hours=24)]


def test_own_turns_dice_record_is_whole_and_verifies() -> None:
    # given an each-for-themself game played to the end out of step (ana rolling again)
    session = _table("each_for_themself")
    cells = session.game().layout.cells_per_sheet
    _write(session, "ben")
    for _ in range(cells):
        turns.roll(session, "ana", [], None, DICE)
        _write(session, "ana")
    for _ in range(cells - 1):
        _write(session, "ben")

    # when its record is asked for
    record = dice_record(session, "r1")

    # then every turn is in it, every die matches, and the labels are those of a whole game
    assert len(record.turns) == 2 * cells and record.mismatch is None
    parsed = [fair_dice.parse_turn(line) for line in record.turns]
    assert fair_dice.label_problem(parsed, same_dice=False) is None


def test_own_turns_snapshot_keeps_every_seat_turn() -> None:
    # given a game where ben has rolled again and ana's turn waits, unfocused
    session = _table("simultaneous")
    turns.roll(session, "ben", [1, 2], None, DICE)
    game = session.game()
    before = [game.turn_of(seat) for seat in (0, 1)]

    # when stored and loaded
    loaded = load_game(dump_game(game))

    # then both seats' turns come back as they were
    assert [loaded.turn_of(seat) for seat in (0, 1)] == before
    assert loaded.own_turns


def test_own_turns_a_player_with_a_full_sheet_may_be_away_without_leaving() -> None:
    # given ana filled her sheet while ben played one turn, then ana closes the app
    session = _table("each_for_themself")
    cells = session.game().layout.cells_per_sheet
    for _ in range(cells):
        _write(session, "ana")
    _write(session, "ben")
    presence.disconnect(session, "ana", "c-ana", START)

    # when more than the 3-minute return window passes
    effects = apply_due(session, START + timedelta(minutes=4), DICE)

    # then she is still in the game, with no countdown and no penalty
    assert session.seats[0].return_deadline is None and not session.seats[0].left
    assert effects is None or effects.disappeared == []
    assert session.status == "running" and session.finish_offer is None


def test_slow_game_deadline_keeps_the_win_of_the_last_player_left() -> None:
    # given a slow game where ben resigned after half the sheets, and ana finishes alone
    session = _table("slow", turnSeconds=None, slowDeadlineHours=24)
    cells = session.game().layout.cells_per_sheet
    for _ in range(cells // 2 + 1):
        _write(session, "ana")
        _write(session, "ben")
    leaving.resign(session, "ben", START, DICE)
    leaving.answer_finish_offer(session, "ana", True, START, DICE)

    # when the deadline passes before her sheet is full
    apply_due(session, START + timedelta(hours=24), DICE)

    # then her win stands, without a recorded result
    assert (session.status, session.outcome, session.winners) == (
        "finished",
        "declined_finish",
        ["ana"],
    )
