"""The write path of every change to a game: read, decide, plan its timers, write on the
version, and on a lost race do it all again on fresh state (where the change is checked again),
so that two concurrent changes never both apply and none is lost silently."""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from yamb.session.effects import Effects
from yamb.session.endings import records_result
from yamb.session.model import GameSession
from yamb.session.results import result_of
from yamb.session.timers import TimerPlan, lane_lost, plan, wake_second

from yamb_service.observability import MetricUnit, logger, metrics
from yamb_service.ports import GameRepository, LaneToken, StaleGameError, Timers

SAVE_ATTEMPTS = 3

# A change returns what it asks of the application, or None when it changes nothing.
type Change = Callable[[GameSession], Effects | None]


@dataclass(slots=True)
class Applied:
    session: GameSession
    effects: Effects = field(default_factory=Effects)
    timers: TimerPlan = field(default_factory=TimerPlan)
    # The change did something (else only the game's timers may have been written).
    changed: bool = True
    written: bool = True


class GameWriter:
    def __init__(self, games: GameRepository, timers: Timers) -> None:
        self.games = games
        self.timers = timers

    def apply(
        self,
        game_id: str,
        change: Change,
        now: datetime,
        *,
        woken_lane: int | None = None,
        lost_lane: int | None = None,
    ) -> Applied:
        for attempt in range(1, SAVE_ATTEMPTS + 1):
            loaded = self.games.load(game_id)
            session = loaded.session
            logger.append_keys(game_id=game_id)
            effects = change(session)
            lost = lost_lane is not None and lane_lost(session, lost_lane)
            token = loaded.lane_token
            timer_plan = plan(
                session, now, token_lane=token.lane if token else None, woken_lane=woken_lane
            )
            changed = effects is not None
            if not changed and not timer_plan.changed and not lost:
                return Applied(session, timers=timer_plan, changed=False, written=False)
            effects = effects or Effects()
            self._before_write(session, timer_plan)
            try:
                self._write(session, effects, now)
            except StaleGameError:
                metrics.add_metric(name="WriteConflict", unit=MetricUnit.Count, value=1)
                if attempt == SAVE_ATTEMPTS:
                    raise
                continue
            self._after_write(session, timer_plan, token)
            return Applied(session, effects, timer_plan, changed=changed)
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(self, session: GameSession, effects: Effects, now: datetime) -> None:
        if effects.removed:
            self.games.delete(session, players=effects.players)
            return
        result = result_of(session) if effects.ended and records_result(session) else None
        self.games.save(session, players=effects.players, result=result, now=now)

    def _before_write(self, session: GameSession, timer_plan: TimerPlan) -> None:
        """Timers that wake the game earlier start first: none is missing if this function
        dies after the write, and a write that loses leaves one that wakes it for nothing."""
        game_id = session.game_id
        if timer_plan.start_lane is not None:
            assert timer_plan.lane_seconds is not None
            self.timers.start_lane(game_id, timer_plan.start_lane, timer_plan.lane_seconds)
            metrics.add_metric(name="LaneStarted", unit=MetricUnit.Count, value=1)
        for second, wake_id in timer_plan.start_wakes:
            self.timers.start_wake(game_id, second, wake_id)
            metrics.add_metric(name="WakeStarted", unit=MetricUnit.Count, value=1)

    def _after_write(
        self, session: GameSession, timer_plan: TimerPlan, token: LaneToken | None
    ) -> None:
        """Heartbeats and stops only let the game sleep longer: lost, it wakes early."""
        game_id = session.game_id
        if timer_plan.beat:
            assert token is not None
            if not self.timers.beat(token.token):
                # The lane woke the game meanwhile: a wake keeps this turn's deadline.
                deadline = session.clock.deadline
                if deadline is not None:
                    self.timers.start_wake(game_id, wake_second(deadline), session.version)
                metrics.add_metric(name="HeartbeatLost", unit=MetricUnit.Count, value=1)
        if timer_plan.stop_lane is not None:
            self.timers.stop_lane(game_id, timer_plan.stop_lane)
        for second, wake_id in timer_plan.stop_wakes:
            self.timers.stop_wake(game_id, second, wake_id)
