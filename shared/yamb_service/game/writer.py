"""The write path of every change to a game: read, apply the deadlines already passed, decide,
plan its timers, write on the version, and on a lost race do it all again on fresh state (where
the change is checked again), so that two concurrent changes never both apply and none is lost
silently. What follows a write (heartbeats, stops) never fails the change it follows."""

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from yamb.dice import DiceSource
from yamb.errors import YambError
from yamb.session import bot_turns
from yamb.session.cooldown import next_cooldown
from yamb.session.deadlines import apply_due, merged
from yamb.session.effects import Effects
from yamb.session.endings import records_result
from yamb.session.model import GameSession
from yamb.session.replays import header_of
from yamb.session.results import GameResult, result_of, with_skill
from yamb.session.timers import TimerPlan, lane_lost, plan, wake_second

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.game.ports import (
    DiceChunk,
    GameRepository,
    LaneToken,
    PlayerRepository,
    StaleGameError,
    Timers,
)

SAVE_ATTEMPTS = 3
DICE_TURNS_KEPT = 12
# Simultaneous, each-for-themself and slow games: up to four players write the game item at
# the same moment (bench/game_types_bench.py measures the races). An own-turn action depends on
# nobody else's change (it is checked again on the fresh game anyway), so a lost race is the
# server's to retry, not the player's: enough attempts that four players acting back to back
# never see `conflict`, spread out by a backoff that grows with how long an attempt takes.
OWN_TURNS_SAVE_ATTEMPTS = 12
RETRY_JITTER_SECONDS = 0.01
# The longest pause between two attempts: 12 attempts stay well within the function's 10 s.
RETRY_BACKOFF_CAP_SECONDS = 0.4


def retry_pause(attempt: int, window: float) -> float:
    """How long a writer that lost its `attempt`-th race waits before reading again: full
    jitter over a span that doubles at each attempt, from the time one read-decide-write took
    (`window`: racers that take longer to write need to spread out further), capped."""
    span = max(RETRY_JITTER_SECONDS, window) * 2 ** (attempt - 1)
    return random.uniform(0, min(RETRY_BACKOFF_CAP_SECONDS, span))


WAKE_ID_BITS = 48

# A change returns what it asks of the application, or None when it changes nothing.
type Change = Callable[[GameSession], Effects | None]


@dataclass(slots=True)
class Applied:
    session: GameSession
    effects: Effects = field(default_factory=Effects)
    timers: TimerPlan = field(default_factory=TimerPlan)
    # The change (or a deadline passed before it) did something; else at most the game's own
    # record of its timers was written.
    changed: bool = True
    written: bool = True
    # The change was refused, after the deadlines passed before it were written: the caller
    # shows the table those, then answers the refusal.
    refusal: YambError | None = None
    # The connections watching the game, as read with it, and whom they follow.
    spectators: list[str] = field(default_factory=list)
    follows: dict[str, str] = field(default_factory=dict)


def _dice_chunk(session: GameSession) -> DiceChunk | None:
    """Once the game item holds DICE_TURNS_KEPT finished turns of its record, they move to an
    item of their own in the same write: the game item, written at every action, keeps a
    bounded share of the record (a 4-player 9-column game's is about 10 KB of JSON). When the
    game has ended, the rest moves, with the replay header: the record outlives the game item."""
    fair = session.fair
    if fair is None or not fair.turns:
        return None
    if session.in_play and len(fair.turns) <= DICE_TURNS_KEPT:
        return None
    if session.in_play:
        finished, fair.turns = fair.turns[:-1], fair.turns[-1:]
        header = None
    else:
        finished, fair.turns = fair.turns, []
        header = header_of(session)
    chunk = DiceChunk(fair.archived_chunks, finished, header)
    fair.archived_chunks += 1
    return chunk


def _measured(
    session: GameSession, lines: list[str]
) -> tuple[dict[str, float], dict[str, float]] | None:
    """Each finished player's (regret, luck) over the record; None where the game cannot be
    judged here, or the function has no numpy (only those that play bots ship it)."""
    began = time.perf_counter()
    try:
        from yamb.session import regret  # noqa: PLC0415 - the solver or the bots, numpy

        measured = regret.measure(session.settings, session.player_ids, lines)
    except ImportError:  # pragma: no cover - a function without the bots' layer
        return None
    except Exception:  # a figure for the statistics never stops a game's end
        logger.exception("skill and luck not measured", game_id=session.game_id)
        metrics.add_metric(name="SkillNotMeasured", unit=MetricUnit.Count, value=1)
        return None
    metrics.add_metric(
        name="SkillMeasuredMs",
        unit=MetricUnit.Milliseconds,
        value=round(1000 * (time.perf_counter() - began), 1),
    )
    if measured is None or measured.luck is None:
        return None
    lucks = dict(measured.luck.luck)
    return {p: measured.totals[p] for p in lucks if p in measured.totals}, lucks


class GameWriter:
    def __init__(
        self, games: GameRepository, players: PlayerRepository, timers: Timers, dice: DiceSource
    ) -> None:
        self.games = games
        self.players = players
        self.timers = timers
        self.dice = dice
        # The last game's measured skill and luck, kept while its last write is retried.
        self._skill: dict[
            tuple[str, int, int], tuple[dict[str, float], dict[str, float]] | None
        ] = {}

    def apply(
        self,
        game_id: str,
        change: Change,
        now: datetime,
        *,
        woken_lane: int | None = None,
        lost_lane: int | None = None,
        attempts: int = SAVE_ATTEMPTS,
    ) -> Applied:
        unwritten_lane: int | None = None  # started for a write that lost its race
        attempt = 0
        while attempt < attempts:
            attempt += 1
            began = time.monotonic()
            loaded = self.games.load(game_id)
            session = loaded.session
            if session.own_turns:
                # Every player acts at once on the one game item: more races to lose.
                attempts = max(attempts, OWN_TURNS_SAVE_ATTEMPTS)
            logger.append_keys(game_id=game_id)
            if unwritten_lane is not None:
                self._stop_unless_counted_on(session, unwritten_lane)
                unwritten_lane = None
            # A deadline already passed applies before the change, whether or not its timer
            # has come yet: an action after the clock ran out meets the turn that followed.
            due = apply_due(session, now, self.dice, tolerance=timedelta(0))
            refusal: YambError | None = None
            try:
                effects = change(session)
            except YambError as error:
                if due is None:
                    raise
                # Refused (a change checks before it changes anything): the deadlines passed
                # before it are still written, then the refusal is answered.
                refusal, effects = error, None
            if due is not None:
                effects = due if effects is None else merged(due, effects)
            bot_turns.schedule(session, now)  # a bot that may move now gets its moment
            lost = lost_lane is not None and lane_lost(session, lost_lane)
            token = loaded.lane_token
            timer_plan = plan(
                session,
                now,
                token_lane=token.lane if token else None,
                woken_lane=woken_lane,
                wake_id=secrets.randbits(WAKE_ID_BITS),
            )
            changed = effects is not None
            if not changed and not timer_plan.changed and not lost:
                return Applied(
                    session,
                    timers=timer_plan,
                    changed=False,
                    written=False,
                    spectators=loaded.spectators,
                    follows=loaded.follows,
                )
            effects = effects or Effects()
            self._before_write(session, timer_plan)
            try:
                self._write(session, effects, now, watchers=loaded.watchers, links=loaded.links)
            except StaleGameError:
                metrics.add_metric(name="WriteConflict", unit=MetricUnit.Count, value=1)
                self._stop_unwritten_wakes(game_id, timer_plan)
                unwritten_lane = timer_plan.start_lane
                if attempt == attempts:
                    # A lane started for this last attempt stays: at its first timeout the
                    # game, which does not count on it, lets its execution end.
                    raise
                # Writers racing for one game spread out before they read it again.
                time.sleep(retry_pause(attempt, time.monotonic() - began))
                continue
            self._after_write(session, timer_plan, token)
            return Applied(
                session,
                effects,
                timer_plan,
                changed=changed,
                refusal=refusal,
                spectators=loaded.spectators,
                follows=loaded.follows,
            )
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(
        self,
        session: GameSession,
        effects: Effects,
        now: datetime,
        *,
        watchers: int,
        links: str | None = None,
    ) -> None:
        ending = effects.ended or effects.result_changed
        result = result_of(session) if ending and records_result(session) else None
        # Every finished game, recorded or not (a declined finish still pays, rules.md 8), a
        # cancelled one that someone abandoned: it counts in their statistics (rules.md 8), and
        # every tournament game however it ended: its standings wait for it.
        ended = (
            result_of(session)
            if effects.ended
            and (
                session.status == "finished"
                or any(s.abandoned for s in session.seats)
                or session.tournament is not None
            )
            else None
        )
        if ended is not None and session.status == "finished":
            ended = self._with_skill(session, ended)
        dice_chunk = _dice_chunk(session)
        # A disappearance's cooldown is written with the game that records it, or not at all.
        # (No condition on the count read: a player has one regular seat, so one game at a
        # time counts their disappearances.)
        cooldowns = {}
        for player_id in effects.disappeared:
            record = self.players.get(player_id)
            cooldowns[player_id] = next_cooldown(record.cooldown_day, record.disappearances, now)
        bots = session.bot_ids  # a bot has no player record: it sits wherever it is put
        self.games.save(
            session,
            players={p: change for p, change in effects.players.items() if p not in bots},
            cooldowns=cooldowns,
            result=result,
            ended=ended,
            dice_chunk=dice_chunk,
            watchers=watchers,
            links=links,
            now=now,
        )

    def _with_skill(self, session: GameSession, ended: GameResult) -> GameResult:
        """The game's end with each finished player's regret and luck (issue 32), for their
        statistics: measured here, where the solver and the bots are (the results function
        has neither), once per game however often its last write is tried."""
        fair = session.fair
        if fair is None or not any(p.bot is None and p.full for p in ended.players):
            return ended
        key = (session.game_id, fair.archived_chunks, len(fair.turns))
        if key not in self._skill:
            archived = (
                self.games.archived_record(session.game_id).turns if fair.archived_chunks else []
            )
            self._skill.clear()
            self._skill[key] = _measured(session, [*archived, *fair.turns])
        measured = self._skill[key]
        if measured is None:
            return ended
        return with_skill(ended, *measured)

    def _before_write(self, session: GameSession, timer_plan: TimerPlan) -> None:
        """Timers that wake the game earlier start first: none is missing if this function
        dies after the write, and a write that loses leaves one that wakes it for nothing. A
        failure here fails the change, which is not written."""
        game_id = session.game_id
        if timer_plan.start_lane is not None:
            assert timer_plan.lane_seconds is not None
            self.timers.start_lane(game_id, timer_plan.start_lane, timer_plan.lane_seconds)
            metrics.add_metric(name="LaneStarted", unit=MetricUnit.Count, value=1)
        for second, wake_id in timer_plan.start_wakes:
            self.timers.start_wake(game_id, second, wake_id)
            metrics.add_metric(name="WakeStarted", unit=MetricUnit.Count, value=1)

    def _stop_unwritten_wakes(self, game_id: str, timer_plan: TimerPlan) -> None:
        """The write lost its race, so nothing counts on the wakes started for it: each would
        cost a Step Functions execution and a clock call that finds nothing to do. They are
        named by this attempt's wake id, so no other write's wake is stopped. (A lane is named
        by the version it starts at, which the winner may have started too: it stays.)"""
        self._stop_wakes(game_id, timer_plan.start_wakes, "unwritten wake stop")

    def _stop_unless_counted_on(self, session: GameSession, lane: int) -> None:
        """A lane is named by the version whose write starts it, so the write that won the
        race at that version may have started the same one: it is stopped only if the game, as
        read after the loss, does not count on it. Left running, it would arm and take the
        game's token item from the lane that times the turn."""
        timers = session.timers
        if timers.lane == lane and timers.lane_running:
            return
        game_id = session.game_id
        self._quietly(lambda: self.timers.stop_lane(game_id, lane), "unwritten lane stop")

    def _after_write(
        self, session: GameSession, timer_plan: TimerPlan, token: LaneToken | None
    ) -> None:
        """Heartbeats and stops only let the game sleep longer: lost, it wakes early and plans
        again. So none of them may fail the change that is written already."""
        game_id = session.game_id
        if timer_plan.beat:
            assert token is not None
            if not self._quietly(lambda: self.timers.beat(token.token), "heartbeat"):
                # The lane woke the game meanwhile, or the call failed: a wake keeps the turn.
                deadline = session.clock.deadline
                if deadline is not None:
                    self._quietly(
                        lambda: self.timers.start_wake(
                            game_id, wake_second(deadline), secrets.randbits(WAKE_ID_BITS)
                        ),
                        "fallback wake",
                    )
                metrics.add_metric(name="HeartbeatLost", unit=MetricUnit.Count, value=1)
        if timer_plan.stop_lane is not None:
            lane = timer_plan.stop_lane
            self._quietly(lambda: self.timers.stop_lane(game_id, lane), "lane stop")
        self._stop_wakes(game_id, timer_plan.stop_wakes, "wake stop")

    def _stop_wakes(self, game_id: str, wakes: list[tuple[int, int]], what: str) -> None:
        for second, wake_id in wakes:

            def stop(second: int = second, wake_id: int = wake_id) -> None:
                self.timers.stop_wake(game_id, second, wake_id)

            self._quietly(stop, what)

    @staticmethod
    def _quietly(call: Callable[[], object], what: str) -> bool:
        """Runs a timer request after the write; False when it failed or answered False."""
        try:
            return call() is not False
        except Exception:
            logger.exception("timer request failed after the write", request=what)
            metrics.add_metric(name="TimerRequestFailed", unit=MetricUnit.Count, value=1)
            return False
