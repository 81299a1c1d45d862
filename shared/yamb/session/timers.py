"""Which timers must run so that every deadline of a game wakes it on time, at the lowest cost
(docs/decisions.md, "one heartbeat lane per game").

Two kinds of timer wake a game (yamb_service.game.timers runs them on Step Functions):
- the heartbeat lane: one execution per game waiting in a task whose heartbeat length is the turn
  clock. A turn that starts with a full clock sends it a heartbeat, an API call and no state
  transition, so a turn met in time costs nothing; a missed heartbeat wakes the game.
- one-shot wakes at an instant, for every other deadline (a resumed clock, a return countdown).

Whatever happens to a timer request, the game is woken at or before each deadline (within the
second): a timer that wakes it earlier is started before the write that needs it (if the write
loses its race, the game is woken for nothing), while heartbeats and stops, which only let it
sleep longer, are sent after the write (if one is lost, the game is woken early, and that wake
plans again). A lane counts for a deadline only once a heartbeat sent after the write has set its
moment: a lane that starts, or arms again after waking the game, arms when Step Functions gets
to it (after the clock function has broadcast, for one that woke the game), so the turn it
starts is kept by a wake, stopped at the next heartbeat.
"""

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from yamb.session import clock
from yamb.session.deadlines import pending
from yamb.session.model import GameSession


@dataclass(slots=True)
class TimerPlan:
    # Before the write:
    start_lane: int | None = None
    start_wakes: list[tuple[int, int]] = field(default_factory=list)
    # After the write:
    beat: bool = False
    stop_lane: int | None = None
    stop_wakes: list[tuple[int, int]] = field(default_factory=list)
    # The lane that woke the game arms its task again (else its execution ends).
    rearm: bool = False
    # The heartbeat length of a lane started or armed again.
    lane_seconds: int | None = None
    # The game's record of its timers changed: it must be written even if nothing else did.
    changed: bool = False


def wake_second(moment: datetime) -> int:
    """The Unix second a one-shot wake for `moment` waits until: never before it."""
    return math.ceil(moment.timestamp())


def wake_moment(second: int) -> datetime:
    return datetime.fromtimestamp(second, UTC)


def plan(
    session: GameSession,
    now: datetime,
    *,
    token_lane: int | None,
    woken_lane: int | None = None,
    wake_id: int,
) -> TimerPlan:
    """Updates `session.timers` for the state the coming write stores, and says what to start,
    beat and stop. `token_lane`: the lane whose heartbeat token is stored (None: none is);
    `woken_lane`: the lane whose heartbeat ran out and that waits for this decision; `wake_id`:
    names the wakes this write starts (unique to the write attempt: a wake of a write that lost
    its race may already have run, and must not share a name with the winner's)."""
    timers = session.timers
    before = timers.model_copy(deep=True)
    seconds = clock.turn_seconds(session)
    # Own turns run a clock per seat at once: one-shot wakes serve them all, no lane.
    shared_clock = session.status == "running" and not session.own_turns
    deadline = session.clock.deadline if shared_clock else None
    lane_wanted = seconds is not None and deadline is not None
    result = TimerPlan(lane_seconds=seconds)
    full_clock = lane_wanted and deadline == now + timedelta(seconds=seconds or 0)

    if woken_lane is not None and woken_lane == timers.lane and timers.lane_running:
        # Its task ended when it woke the game: it arms again, or its execution ends.
        if lane_wanted:
            assert seconds is not None
            result.rearm = True
            timers.lane_fires_at = None
        else:
            timers.lane_running, timers.lane_fires_at = False, None
    elif timers.lane_running and not lane_wanted:
        result.stop_lane = timers.lane
        timers.lane_running, timers.lane_fires_at = False, None
    elif full_clock and not timers.lane_running:
        timers.lane, timers.lane_running = session.version + 1, True
        timers.lane_fires_at = None
        result.start_lane = timers.lane
    elif full_clock and token_lane == timers.lane:
        result.beat = True
        timers.lane_fires_at = deadline
    # Otherwise a running lane cannot be reached yet (its token is not stored): a wake covers.

    covered = timers.lane_fires_at if timers.lane_running else None
    wanted = sorted({wake_second(moment) for moment in pending(session) if moment != covered})
    previous = {second: wake_id for second, wake_id in timers.wakes}
    timers.wakes = [(second, previous.get(second, wake_id)) for second in wanted]
    result.start_wakes = [wake for wake in timers.wakes if wake[0] not in previous]
    now_second = now.timestamp()
    result.stop_wakes = [
        (second, wake_id)
        for second, wake_id in previous.items()
        if second not in wanted and second > now_second
    ]
    result.changed = timers != before
    return result


def lane_lost(session: GameSession, lane: int) -> bool:
    """The lane `lane` failed (it cannot arm its task): the game stops counting on it, and the
    next plan covers its deadlines with wakes and starts a new lane at the next full clock.
    False when the game did not count on it anyway."""
    timers = session.timers
    if timers.lane != lane or not timers.lane_running:
        return False
    timers.lane_running, timers.lane_fires_at = False, None
    return True
