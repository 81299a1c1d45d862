"""The time bonus tie-break (rules.md 9, product P3): measured by the server, away time left out."""

from datetime import UTC, datetime, timedelta

from yamb.dice import SeededDice
from yamb.session import decisions, lobby, presence, turns
from yamb.session.model import GameSession
from yamb.session.views import game_view
from yamb.settings import validate_settings

START = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
DICE = SeededDice(0)


def _twin_game(*, time_bonus: bool) -> GameSession:
    """Ana and ben at a same-dice table of one free column: writing the same cells without
    rolling again, their sheets and totals are equal."""
    settings = validate_settings(
        {"players": 2, "columns": ["free"], "sameDice": True, "timeBonus": time_bonus}
    )
    session = lobby.create("twins", "ana", "c-ana", settings, START, server_seed="ab" * 32)
    lobby.join(session, "ben", "c-ben")
    lobby.start(session, "ana", START, DICE)
    return session


def _write_first_legal(session: GameSession, now: datetime) -> None:
    game = session.game()
    column, row, _ = game.legal_cells()[0]
    layout = game.layout
    player = game.players[game.seat]
    column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
    turns.write(session, player, column_id, row_id, None, now=now, dice=DICE)


def _play(session: GameSession, seconds: dict[str, float]) -> datetime:
    """Each player writes the first legal cell after their number of seconds."""
    now = START
    while session.status == "running":
        game = session.game()
        now += timedelta(seconds=seconds[game.players[game.seat]])
        _write_first_legal(session, now)
    return now


def test_time_bonus_equal_totals_go_to_the_faster_player() -> None:
    # given twins' sheets, ana deciding in 2 s a turn and ben in 5 s
    session = _twin_game(time_bonus=True)

    # when the game is played to the end
    _play(session, {"ana": 2, "ben": 5})

    # then the totals are equal, and ana alone wins on the time she spent: 26 s against 65 s
    view = game_view(session)
    assert view.sheets[0].total == view.sheets[1].total
    assert [seat.decision_ms for seat in view.seats] == [26_000, 65_000]
    assert session.winners == ["ana"]


def test_without_the_time_bonus_equal_totals_share_the_win() -> None:
    # given the same twins without the time bonus / when played / then both win, and no time shows
    session = _twin_game(time_bonus=False)
    _play(session, {"ana": 2, "ben": 5})
    assert session.winners == ["ana", "ben"]
    assert [seat.decision_ms for seat in game_view(session).seats] == [None, None]


def test_time_bonus_leaves_out_the_time_away() -> None:
    # given ana's first turn, 10 s in
    session = _twin_game(time_bonus=True)
    presence.disconnect(session, "ana", "c-ana", START + timedelta(seconds=10))

    # when she is away 40 s, comes back and writes 3 s later
    presence.reconnect(session, "ana", "c-ana-2", START + timedelta(seconds=50))
    _write_first_legal(session, START + timedelta(seconds=53))

    # then 13 s are counted, not 53
    assert session.seats[0].decision_ms == 13_000


def test_time_bonus_of_a_turn_run_out_counts_the_clock_not_the_late_timer() -> None:
    # given ana's 60 s clock ran out, and the timer woke the game 4 s late
    session = _twin_game(time_bonus=True)
    late = START + timedelta(seconds=64)

    # when the auto-move is played
    assert turns.expire_turn(session, late, DICE) is not None

    # then her 60 s are counted
    assert session.seats[0].decision_ms == 60_000


def test_time_bonus_beyond_a_thousand_seconds_separates_no_more() -> None:
    # given two tied players who both spent over 1000 s deciding
    session = _twin_game(time_bonus=True)
    session.seats[0].decision_ms, session.seats[1].decision_ms = 1_200_000, 3_000_000
    # when the tie is broken / then both keep the win
    assert decisions.break_tie(session, ["ana", "ben"]) == ["ana", "ben"]
    assert decisions.bonus(999_999) == 1 and decisions.bonus(0) == 1000
