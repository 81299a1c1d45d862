"""Property: whatever players, connections, time and the timers do, every deadline of a game is
met within a second, no turn is played twice, and nothing keeps running once the game is over.

Hypothesis drives a two-player game on the game service (moto's DynamoDB) with the simulated
timers of tests/fakes.py, which play Step Functions' semantics on the test clock; faults are the
ones Step Functions really gives: a heartbeat refused (the task had just timed out), a lane whose
task has not stored its token yet, a wake delivered twice, a timer of another game version.
"""

import itertools
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yamb_service.edge.caller import Caller

from testkit.fakes import RecordingNotifier, SimulatedTimers
from testkit.service import Clock, make_service
from testkit.table import lane_token_store
from tests.integration.conftest import Harness

LATE = timedelta(seconds=1)
GAMES = itertools.count(1)

events = st.one_of(
    st.tuples(st.just("advance"), st.floats(min_value=0.2, max_value=200)),
    st.tuples(st.just("write"), st.booleans()),
    st.tuples(st.just("roll"), st.booleans()),
    st.tuples(st.just("lock"), st.booleans()),
    st.tuples(st.just("disconnect"), st.sampled_from([0, 1])),
    st.tuples(st.just("reconnect"), st.sampled_from([0, 1])),
    st.tuples(st.just("refuse_beat"), st.just(True)),
    st.tuples(st.just("slow_arming"), st.just(True)),
    st.tuples(st.just("arm"), st.just(True)),
    st.tuples(st.just("wake_again"), st.booleans()),
    st.tuples(st.just("resign"), st.sampled_from([0, 1])),
    st.tuples(st.just("pause"), st.sampled_from([0, 1])),
    st.tuples(st.just("resume"), st.sampled_from([0, 1])),
)


class Table:
    """One game between two players, and the connection each one has now."""

    def __init__(self, harness: Harness, seconds: int) -> None:
        self.harness = harness
        number = next(GAMES)
        self.players = [f"prop-{number}-a", f"prop-{number}-b"]
        self.connections = [Caller(p, f"{p}-c0") for p in self.players]
        self.online = [True, True]
        self.reconnects = itertools.count(1)
        harness.connect(*self.connections)
        settings = {"preset": None, "columns": ["free"], "turnSeconds": seconds}
        self.game_id = harness.running_game(*self.connections, connect=False, **settings)

    def session(self) -> Any:
        return self.harness.session(self.game_id)

    def in_turn(self) -> int:
        return int(self.session().game().seat)

    def apply(self, kind: str, value: Any) -> None:
        harness, session = self.harness, self.session()
        running = session.status == "running" and session.finish_offer is None
        match kind:
            case "advance":
                harness.advance(seconds=value)
            case "write" | "roll" | "lock" if running and session.engine is not None:
                seat = session.game().seat
                caller = self.connections[seat]
                turn = max(session.turn - 1, 1) if value else session.turn  # True: late
                fields: dict[str, Any] = {"gameId": self.game_id, "turn": turn}
                if kind == "write":
                    column, row = harness.legal_cell(self.game_id)
                    fields |= {"column": column, "row": row}
                if kind == "lock":
                    fields["keep"] = [0, 2]
                harness.act(caller, kind, **fields)
            case "disconnect" if self.online[value]:
                harness.service.disconnect(self.connections[value])
                self.online[value] = False
            case "reconnect":
                caller = Caller(
                    self.players[value], f"{self.players[value]}-c{next(self.reconnects)}"
                )
                harness.service.connect(caller)
                self.connections[value], self.online[value] = caller, True
            case "refuse_beat":
                harness.timers.refuse_beats += 1
            case "slow_arming":
                harness.timers.arm_lanes = False
            case "arm":
                harness.timers.arm_lanes = True
                harness.timers.arm_pending()
            case "wake_again":
                lanes = harness.timers.running_lanes(self.game_id)
                harness.wake(self.game_id, lanes[0].lane if value and lanes else None)
            case "pause" | "resume" if running and self.online[value]:
                harness.act(self.connections[value], kind, gameId=self.game_id)
            case "resign" if running and self.online[value]:
                harness.act(self.connections[value], "resign", gameId=self.game_id)


def _check(table: Table, written_before: int) -> int:
    """The invariants after one event; the number of cells written so far."""
    session = table.session()
    now = table.harness.clock()
    game = session.game()
    written = sum(bin(mask).count("1") for sheet in game.sheets for mask in sheet.filled)
    left = sum(seat.left for seat in session.seats)
    # no turn is played twice: each turn started writes one cell at most, and only a seat
    # leaving ends a turn without one
    assert written_before <= written <= session.turn
    assert written >= session.turn - 1 - left
    if session.status == "running":
        # every deadline is met within a second: none is overdue by more
        if session.clock.deadline is not None:
            assert session.clock.deadline > now - LATE, (session.clock, now)
        for seat in session.seats:
            if seat.return_deadline is not None and seat.away and not seat.left:
                assert seat.return_deadline > now - LATE, (seat, now)
    else:
        # nothing keeps running once the game is over
        timers = table.harness.timers
        assert timers.running_lanes(table.game_id) == []
        assert timers.waiting_wakes(table.game_id) == []
    return written


@pytest.fixture
def fresh_harness(games: Any, players: Any) -> Any:
    def build() -> Harness:
        clock = Clock()
        notifier = RecordingNotifier()
        timers = SimulatedTimers(
            now=clock, store_token=lane_token_store(games._item.Meta.table_name)
        )
        service = make_service(games, players, notifier, timers, clock)
        return Harness(service, notifier, timers, clock)

    return build


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seconds=st.sampled_from([10, 30, 60]),
    arm_delay=st.sampled_from([0.0, 0.3, 2.5]),
    script=st.lists(events, min_size=5, max_size=40),
)
def test_timers_every_deadline_met_once_and_nothing_left_running(
    fresh_harness: Any, seconds: int, arm_delay: float, script: list[tuple[str, Any]]
) -> None:
    # given a started two-player game with a turn clock, whose lane's task arms `arm_delay`
    # after it is started or told to arm again
    harness = fresh_harness()
    harness.timers.arm_delay = timedelta(seconds=arm_delay)
    table = Table(harness, seconds)
    written = 0

    # when players act, connections drop and come back, time passes and timers misbehave
    for kind, value in script:
        table.apply(kind, value)
        # then after every event the invariants hold
        written = _check(table, written)

    # and, left alone, the game runs to its end on its clocks alone (the last player left
    # declines to finish, or does not come back)
    table.apply("arm", True)
    for _ in range(200):
        session = table.session()
        if session.status != "running":
            break
        offered = session.finish_offer
        if offered is not None and table.online[table.players.index(offered)]:
            caller = table.connections[table.players.index(offered)]
            table.harness.act(caller, "finish_sheet", gameId=table.game_id, accept=False)
        table.apply("advance", seconds + 1)
        written = _check(table, written)
    assert table.session().status != "running"
    _check(table, written)
