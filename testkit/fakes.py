"""Fakes of the service's ports for tests: they record what they are asked, and the timers play
Step Functions' semantics on the test's clock (a lane's heartbeat, one-shot wakes, stops)."""

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from yamb.protocol import MAX_FRAME_BYTES, Frame, encode
from yamb_service.edge.notifier import FrameTooLargeError
from yamb_service.game.timers import lane_name, wake_name


class RecordingNotifier:
    """Keeps every frame per connection; connections in `gone` answer Gone."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.closed: list[str] = []
        self.gone: set[str] = set()

    def send(self, connection_id: str, frame: Frame) -> bool:
        data = encode(frame)
        if len(data.encode()) > MAX_FRAME_BYTES:
            raise FrameTooLargeError(f"{frame.__class__.__name__} is {len(data)} bytes")
        if connection_id in self.gone:
            return False
        self.sent.append((connection_id, json.loads(data)))
        return True

    def close(self, connection_id: str) -> None:
        self.closed.append(connection_id)

    def frames_to(self, connection_id: str) -> list[dict[str, Any]]:
        return [frame for target, frame in self.sent if target == connection_id]


@dataclass
class SimulatedLane:
    game_id: str
    lane: int
    seconds: int
    token: str | None = None
    fires_at: datetime | None = None
    # When an arming lane's task gets to store its token and start its heartbeat wait.
    arms_at: datetime | None = None
    state: str = "arming"  # arming, waiting, woken, ended, stopped


@dataclass
class SimulatedWake:
    game_id: str
    at: datetime
    state: str = "waiting"  # waiting, woken, stopped


@dataclass
class TimerLog:
    lanes_started: int = 0
    beats: int = 0
    beats_refused: int = 0
    lane_stops: int = 0
    wakes_started: int = 0
    wake_stops: int = 0
    lane_wakes: int = 0
    wakes_fired: int = 0


# Stores a lane's heartbeat token as the lane's first state does: (game id, lane, token).
type TokenStore = Callable[[str, int, str], None]
# The clock function: (game id, lane or None) -> the lane's next input as a dict, or None.
type ClockFunction = Callable[[str, int | None], dict[str, Any] | None]


@dataclass
class SimulatedTimers:
    """Step Functions' lanes and wakes on a test clock. A lane arms when started (it stores its
    token through `store_token`), unless `arm_lanes` is False: then `arm_pending()` arms them.
    `advance` moves the clock and fires, in time order, every timer due on the way. A lane's
    task arms `arm_delay` after its start, or after the clock function answered it to arm again
    (Step Functions' own latency, and the broadcast the clock function made first)."""

    now: Callable[[], datetime]
    store_token: TokenStore
    arm_lanes: bool = True
    arm_delay: timedelta = timedelta(0)
    # Heartbeats to refuse, as if the task had just timed out (counted down).
    refuse_beats: int = 0
    lanes: dict[str, SimulatedLane] = field(default_factory=dict)
    wakes: dict[str, SimulatedWake] = field(default_factory=dict)
    log: TimerLog = field(default_factory=TimerLog)
    _tokens: "itertools.count[int]" = field(default_factory=itertools.count)

    # -- the port

    def start_lane(self, game_id: str, lane: int, seconds: int) -> None:
        name = lane_name(game_id, lane)
        if name in self.lanes:
            return  # the same execution: Step Functions returns the running one
        self.log.lanes_started += 1
        started = self.lanes[name] = SimulatedLane(game_id, lane, seconds)
        if self.arm_lanes:
            self._arm_later(started, seconds)

    def beat(self, token: str) -> bool:
        if self.refuse_beats:
            self.refuse_beats -= 1
            self.log.beats_refused += 1
            return False
        for lane in self.lanes.values():
            if lane.token == token and lane.state == "waiting":
                lane.fires_at = self.now() + timedelta(seconds=lane.seconds)
                self.log.beats += 1
                return True
        self.log.beats_refused += 1
        return False

    def stop_lane(self, game_id: str, lane: int) -> None:
        found = self.lanes.get(lane_name(game_id, lane))
        if found is not None and found.state in ("arming", "waiting"):
            found.state = "stopped"
            self.log.lane_stops += 1

    def start_wake(self, game_id: str, second: int, wake_id: int) -> None:
        name = wake_name(game_id, second, wake_id)
        if name in self.wakes:
            return
        self.log.wakes_started += 1
        self.wakes[name] = SimulatedWake(game_id, datetime.fromtimestamp(second, self.now().tzinfo))

    def stop_wake(self, game_id: str, second: int, wake_id: int) -> None:
        found = self.wakes.get(wake_name(game_id, second, wake_id))
        if found is not None and found.state == "waiting":
            found.state = "stopped"
            self.log.wake_stops += 1

    # -- playing Step Functions

    def _arm_later(self, lane: SimulatedLane, seconds: int) -> None:
        lane.seconds, lane.state = seconds, "arming"
        if not self.arm_delay:
            self._arm(lane, seconds)
        else:
            lane.arms_at = self.now() + self.arm_delay

    def _arm(self, lane: SimulatedLane, seconds: int) -> None:
        lane.seconds, lane.arms_at = seconds, None
        lane.token = f"token-{lane.game_id}-{lane.lane}-{next(self._tokens)}"
        lane.fires_at = self.now() + timedelta(seconds=seconds)
        lane.state = "waiting"
        self.store_token(lane.game_id, lane.lane, lane.token)

    def arm_pending(self) -> None:
        for lane in self.lanes.values():
            if lane.state == "arming":
                self._arm(lane, lane.seconds)

    def running_lanes(self, game_id: str | None = None) -> list[SimulatedLane]:
        return [
            lane
            for lane in self.lanes.values()
            if lane.state in ("arming", "waiting") and game_id in (None, lane.game_id)
        ]

    def waiting_wakes(self, game_id: str | None = None) -> list[SimulatedWake]:
        return [
            wake
            for wake in self.wakes.values()
            if wake.state == "waiting" and game_id in (None, wake.game_id)
        ]

    def next_due(self) -> datetime | None:
        moments = [lane.fires_at for lane in self.lanes.values() if lane.state == "waiting"]
        moments += [lane.arms_at for lane in self.lanes.values() if lane.state == "arming"]
        moments += [wake.at for wake in self.waiting_wakes()]
        return min((m for m in moments if m is not None), default=None)

    def fire_due(self, clock_function: ClockFunction) -> int:
        """Fires every timer due by now, earliest first; how many fired."""
        fired = 0
        while True:
            now = self.now()
            for arming in self.lanes.values():
                if (
                    arming.state == "arming"
                    and arming.arms_at is not None
                    and arming.arms_at <= now
                ):
                    self._arm(arming, arming.seconds)
            due_lanes = [
                lane
                for lane in self.lanes.values()
                if lane.state == "waiting" and lane.fires_at is not None and lane.fires_at <= now
            ]
            due_wakes = [wake for wake in self.waiting_wakes() if wake.at <= now]
            if not due_lanes and not due_wakes:
                return fired
            fired += 1
            lane_first = due_lanes and (
                not due_wakes
                or min(lane.fires_at or now for lane in due_lanes)
                <= min(wake.at for wake in due_wakes)
            )
            if lane_first:
                lane = min(due_lanes, key=lambda item: item.fires_at or now)
                lane.state = "woken"
                self.log.lane_wakes += 1
                decision = clock_function(lane.game_id, lane.lane)
                if decision is not None and decision.get("rearm"):
                    self._arm_later(lane, int(decision["seconds"]))
                else:
                    lane.state = "ended"
            else:
                wake = min(due_wakes, key=lambda item: item.at)
                wake.state = "woken"
                self.log.wakes_fired += 1
                clock_function(wake.game_id, None)
