"""Fair play (S7; docs/social.md, "Fair play"): the two signals, the check, the yellow cards, and
how a game measures each person's decisions and puts a check to them."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from yamb import bots
from yamb.dice import SeededDice
from yamb.session import bot_seats, fairplay, lobby, regret, turns
from yamb.session.fairplay import FairplayCheckPendingError
from yamb.session.model import GameSession
from yamb.settings import validate_settings
from yamb.social.fairplay import (
    AGREEMENT,
    CARDS_TO_BAN,
    CHECK_SECONDS,
    DECISION_TIMES,
    FairplayRecord,
    GameAgreement,
    agreement_signal,
    decision_times_signal,
    new_check,
)

START = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
DICE = SeededDice(0)
WINDOW = DECISION_TIMES.window


# ------------------------------------------------------------------ decision times


def test_decision_times_a_script_with_a_fixed_pause_is_too_regular() -> None:
    # given a script that waits 1.5 s give or take 40 ms before each move, forty times
    jitter = random.Random(1)
    script = [1500 + jitter.randint(-40, 40) for _ in range(WINDOW)]

    # when judged / then it is too regular
    assert decision_times_signal(script) == "too_regular"


def test_decision_times_a_quarter_second_median_is_too_fast() -> None:
    # given a script answering in 100-300 ms (irregular, but below any person's floor)
    pace = random.Random(2)
    script = [pace.randint(100, 300) for _ in range(WINDOW)]

    # when judged / then it is too fast
    assert decision_times_signal(script) == "too_fast"


def test_decision_times_a_short_run_is_not_judged() -> None:
    # given 39 decisions of a script: fewer than the window
    # when judged / then nothing fires: a pattern must hold for the whole window
    assert decision_times_signal([1000] * (WINDOW - 1)) is None


def test_decision_times_one_long_pause_does_not_hide_a_script() -> None:
    # given a script whose forty decisions include a ten-minute pause
    script = [1200] * (WINDOW - 1) + [600_000]

    # when judged / then the pause, capped at a minute, hides nothing... of the median; the
    # spread it adds leaves the other 39 equal: the CV is high, so the script passes once
    # (and is judged again at its next forty decisions)
    assert decision_times_signal(script) is None
    assert decision_times_signal([*script, *[1200] * WINDOW]) == "too_regular"


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    median_ms=st.integers(min_value=1_000, max_value=10_000),
    spread=st.floats(min_value=0.45, max_value=1.0),
)
def test_decision_times_varied_human_play_is_never_flagged(
    seed: int, median_ms: int, spread: float
) -> None:
    # given a person's decisions: log-normal around a median of 1-10 s (a quick player to a
    # thoughtful one: reading the dice, choosing, moving the pointer), as spread as people's are
    pace = random.Random(seed)
    human = [int(pace.lognormvariate(0, spread) * median_ms) for _ in range(WINDOW * 2)]

    # when judged / then nothing fires
    assert decision_times_signal(human) is None


# ------------------------------------------------------------------ agreement


def _games(matched: int, moves: int, count: int) -> list[GameAgreement]:
    return [GameAgreement(game_id=f"g{i}", matched=matched, moves=moves) for i in range(count)]


def test_agreement_every_move_optimal_over_three_games_fires() -> None:
    # given three Yahtzee games of 33 choices each, every one the optimal player's
    # when judged / then it fires
    assert agreement_signal(_games(33, 33, 3))


def test_agreement_needs_enough_games_and_moves() -> None:
    # given two perfect games, or three short ones (fewer choices than the rule's minimum)
    # when judged / then nothing fires
    assert not agreement_signal(_games(33, 33, 2))
    assert not agreement_signal(_games(20, 20, 3))


def test_agreement_a_strong_human_is_not_flagged() -> None:
    # given five games of a strong player: 85-95% of their choices the optimal one
    games = [GameAgreement(game_id=f"g{i}", matched=28 + i, moves=33) for i in range(5)]

    # when judged / then nothing fires
    assert not agreement_signal(games)


@given(
    rates=st.lists(st.floats(min_value=0.0, max_value=0.95), min_size=1, max_size=8),
    moves=st.integers(min_value=1, max_value=40),
)
def test_agreement_below_the_rate_never_fires(rates: list[float], moves: int) -> None:
    # given any games whose match rate stays at or below 95%
    games = [
        GameAgreement(game_id=f"g{i}", matched=int(rate * moves), moves=moves)
        for i, rate in enumerate(rates)
    ]

    # when judged / then nothing fires (the rule asks 97%)
    assert AGREEMENT.match_rate > 0.95
    assert not agreement_signal(games)


def _optimal_classic_game() -> GameSession:
    """A solo Classic (Yahtzee) game played start to end by the optimal player's choices."""
    settings_ = validate_settings({"players": 1, "grid": "classic"})
    session = lobby.create("robot", "rob", "c-rob", settings_, START, server_seed="cd" * 32)
    lobby.start(session, "rob", START, DICE)
    level = bots.check_level("optimal", "classic")
    now = START
    while session.status == "running":
        game = session.game()
        now += timedelta(milliseconds=1500)
        match bots.choose(game, level):
            case bots.RollMove(keep=keep):
                turns.roll(session, "rob", list(keep), None, DICE, now=now)
            case bots.WriteMove(column=column, row=row):
                layout = game.layout
                column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
                turns.write(session, "rob", column_id, row_id, None, now=now, dice=DICE)
            case _:  # pragma: no cover - no announcement on a family grid
                raise AssertionError
    return session


def test_turn_matches_counts_every_choice_of_the_optimal_player() -> None:
    # given a whole Classic game played by the optimal player's choices
    session = _optimal_classic_game()
    assert session.fair is not None

    # when its choices are compared with the optimal player's
    matches = regret.turn_matches(session.settings, session.player_ids, session.fair.turns)

    # then every one of its 13 turns matched on every keep and box
    assert matches is not None and len(matches) == 13
    assert all(turn is not None and turn[0] == turn[1] >= 1 for turn in matches)


def test_turn_matches_first_legal_box_misses_some() -> None:
    # given a Classic game where the player writes the first legal box after the first roll
    settings_ = validate_settings({"players": 1, "grid": "classic"})
    session = lobby.create("care", "ana", "c-ana", settings_, START, server_seed="ef" * 32)
    lobby.start(session, "ana", START, DICE)
    while session.status == "running":
        game = session.game()
        column, row, _ = game.legal_cells()[0]
        layout = game.layout
        column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
        turns.write(session, "ana", column_id, row_id, None, now=START, dice=DICE)
    assert session.fair is not None

    # when compared / then far from every choice matched
    matches = regret.turn_matches(session.settings, session.player_ids, session.fair.turns)
    assert matches is not None
    matched = sum(turn[0] for turn in matches if turn is not None)
    made = sum(turn[1] for turn in matches if turn is not None)
    assert made == 26  # each turn: the keep of all five dice (writing early), then the box
    assert matched < 0.8 * made


# ------------------------------------------------------------------ the check and the cards


@given(seed=st.integers(min_value=0, max_value=2**32))
def test_check_asks_for_a_face_shown_and_verifies_it(seed: int) -> None:
    # given a check made with any random draw
    check = new_check("k1", "decision_times", START, random.Random(seed))

    # then the face asked shows on at least one die; those dice pass, the others fail
    assert check.face in check.dice
    for position, die in enumerate(check.dice):
        assert check.passes(position, START + timedelta(seconds=5)) == (die == check.face)
    # and nothing passes at or after the deadline, nor off the dice
    right = check.dice.index(check.face)
    assert not check.passes(right, START + timedelta(seconds=CHECK_SECONDS))
    assert not check.passes(len(check.dice), START)


def test_yellow_cards_one_per_check_and_three_ban() -> None:
    # given a clean record
    record = FairplayRecord()

    # when two checks fail, one of them told twice
    record = record.carded_for("k1").carded_for("k1").carded_for("k2")

    # then two cards, no ban; the third check's card bans
    assert (record.cards, record.banned) == (2, False)
    record = record.carded_for("k3")
    assert (record.cards, record.banned) == (CARDS_TO_BAN, True)


def test_a_passed_check_clears_the_signals_for_a_while() -> None:
    # given a record with a signal and a script's decisions
    record = FairplayRecord(decisions=[1500] * WINDOW, suspect="decision_times")

    # when the check is passed
    cleared = record.passed(START)

    # then no signal shows for the week after, even with more of the same decisions
    later = cleared.with_decisions([1500] * WINDOW)
    assert later.judged(START + timedelta(days=6)).suspect is None
    assert later.judged(START + timedelta(days=8)).suspect == "decision_times"


# ------------------------------------------------------------------ at the table


def _solo(record: FairplayRecord | None = None, player: str = "rob") -> GameSession:
    """A solo game of one free column; with `record`, the player sat down with it (the game
    service reads it then: yamb_service.social.fairplay)."""
    settings_ = validate_settings({"players": 1, "columns": ["free"]})
    session = lobby.create("solo", player, f"c-{player}", settings_, START, server_seed="ab" * 32)
    if record is not None:
        session.seats[0].fairplay = fairplay.seat_state(record, START)
    lobby.start(session, player, START, DICE)
    return session


def _write_first_legal(session: GameSession, player: str, now: datetime) -> None:
    game = session.game()
    column, row, _ = game.legal_cells()[0]
    layout = game.layout
    column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
    turns.write(session, player, column_id, row_id, None, now=now, dice=DICE)


def test_the_table_measures_each_decision_from_the_dice_shown() -> None:
    # given a solo game: a roll after 2 s, then a write 3.5 s after that roll's dice
    session = _solo()
    turns.roll(session, "rob", [], None, DICE, now=START + timedelta(seconds=2))
    _write_first_legal(session, "rob", START + timedelta(seconds=5.5))

    # then the seat holds two decisions: 2,000 and 3,500 ms
    measured = session.seats[0].fairplay
    assert measured is not None
    assert measured.decisions == [2000, 3500]


def test_a_scripted_player_is_checked_and_must_answer_before_moving() -> None:
    # given a record carrying a script's decisions from earlier games, and a game where it
    # writes every 1.5 s
    session = _solo(FairplayRecord(decisions=[1500] * (WINDOW - 1)))
    now = START + timedelta(milliseconds=1500)
    _write_first_legal(session, "rob", now)

    # when it is judged after that write
    effects = fairplay.judge(session, "rob", now, "k1", random.Random(3))

    # then a check is put to it, and its next move is refused until it answers
    assert effects.fairplay_checks == ["rob"]
    check = session.seats[0].fairplay.check  # type: ignore[union-attr]
    assert check is not None and check.signal == "decision_times"
    with pytest.raises(FairplayCheckPendingError) as refused:
        fairplay.guard(session, "rob", now, lambda: None)
    assert refused.value.code == "fairplay_check"

    # and the right die passes it
    passed = fairplay.answer(session, "rob", "k1", check.dice.index(check.face), now)
    assert passed.fairplay_passed == [("rob", "k1")]
    assert session.seats[0].fairplay.check is None  # type: ignore[union-attr]


def test_a_human_pace_is_not_checked() -> None:
    # given a record of varied decisions and a game written at a person's uneven pace
    pace = random.Random(7)
    session = _solo(FairplayRecord(decisions=[pace.randint(900, 9000) for _ in range(WINDOW)]))
    now = START
    for _ in range(5):
        now += timedelta(milliseconds=pace.randint(900, 9000))
        _write_first_legal(session, "rob", now)

        # when judged after each write / then no check
        assert not fairplay.judge(session, "rob", now, "k", random.Random(1)).fairplay_checks


def test_a_check_failed_ignored_or_left_at_the_end_is_a_yellow_card() -> None:
    # given a check put to a player
    session = _solo(FairplayRecord(suspect="agreement"))
    measured = session.seats[0].fairplay
    assert measured is not None
    fairplay.judge(session, "rob", START, "k1", random.Random(4))
    check = measured.check
    assert check is not None

    # when they tap a wrong die / then a card
    wrong = next(i for i, die in enumerate([*check.dice, 0]) if die != check.face)
    assert fairplay.answer(session, "rob", "k1", wrong, START).fairplay_cards == [("rob", "k1")]

    # when a second check is ignored past its deadline / then a card at their next move, which
    # goes ahead
    assert measured.suspect is None  # settled by the card: a new signal brings the next check
    measured.suspect = "agreement"
    fairplay.judge(session, "rob", START, "k2", random.Random(5))
    late = START + timedelta(seconds=CHECK_SECONDS + 1)
    moved: list[bool] = []
    effects = fairplay.guard(session, "rob", late, lambda: moved.append(True))
    assert effects is not None and effects.fairplay_cards == [("rob", "k2")] and moved

    # when a third is open as the game ends / then a card too
    measured.suspect = "agreement"
    fairplay.judge(session, "rob", late, "k3", random.Random(6))
    while session.status == "running":
        game = session.game()
        column, row, _ = game.legal_cells()[0]
        layout = game.layout
        ending = turns.write(
            session,
            "rob",
            layout.columns[column].id,
            layout.grid.rows[row].id,
            None,
            now=late,
            dice=DICE,
        )
    assert ending.fairplay_cards == [("rob", "k3")]


def test_bots_are_never_measured_nor_checked() -> None:
    # given a game with a bot seat whose record, were it a person, would bring a check
    settings_ = validate_settings({"players": 2, "grid": "classic"})
    session = lobby.create("b", "ana", "c-ana", settings_, START, server_seed="ab" * 32)
    bot_id = bot_seats.add_bot(session, "ana", "optimal")

    session.seats[1].fairplay = fairplay.seat_state(FairplayRecord(suspect="agreement"), START)

    # when it plays and is judged / then nothing: no measure, no check
    lobby.start(session, "ana", START, DICE)
    fairplay.shown(session, 1, START)
    fairplay.decided(session, 1, START + timedelta(seconds=1))
    assert session.seats[1].fairplay.decisions == []  # type: ignore[union-attr]
    effects = fairplay.judge(session, bot_id, START, "k", random.Random(1))
    assert not effects.fairplay_checks


def test_a_seat_sat_down_without_its_record_is_not_judged() -> None:
    # given a game whose seat has no record read (a failed read, or a game stored before)
    session = _solo()
    now = START + timedelta(milliseconds=1500)
    _write_first_legal(session, "rob", now)
    measured = session.seats[0].fairplay
    assert measured is not None and not measured.judged
    measured.suspect = "agreement"

    # when judged / then no check: nothing bans on what was not read
    assert not fairplay.judge(session, "rob", now, "k", random.Random(1)).fairplay_checks


def test_a_passed_check_clears_the_seat_as_the_record() -> None:
    # given a check put to a scripted seat
    session = _solo(FairplayRecord(decisions=[1500] * WINDOW))
    now = START + timedelta(milliseconds=1500)
    _write_first_legal(session, "rob", now)
    fairplay.judge(session, "rob", now, "k1", random.Random(2))
    check = session.seats[0].fairplay.check  # type: ignore[union-attr]
    assert check is not None

    # when passed
    fairplay.answer(session, "rob", "k1", check.dice.index(check.face), now)

    # then the same pace brings no check for the rest of the game
    for _ in range(5):
        now += timedelta(milliseconds=1500)
        _write_first_legal(session, "rob", now)
        assert not fairplay.judge(session, "rob", now, "k", random.Random(1)).fairplay_checks
