"""A timer woke a game: every deadline due by now applies (turns, returns, slow games, a bot's
move), and a heartbeat lane learns whether to wait again."""

from datetime import datetime

from yamb.push.messages import PushKind, PushRequest
from yamb.session.deadlines import woken

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.game.broadcasting import broadcast, follow_fair_play
from yamb_service.game.context import GameContext
from yamb_service.game.ports import GameNotFoundError
from yamb_service.game.timers import LaneInput, lane_input
from yamb_service.game.writes import carry_out


def wake(
    ctx: GameContext, game_id: str, *, lane: int | None = None, lost: bool = False
) -> LaneInput | None:
    """For a lane, the answer is its next input (`rearm` false ends its execution)."""
    now = ctx.now()
    try:
        applied = ctx.writer.apply(
            game_id,
            lambda s: woken(s, now, ctx.dice),
            now,
            woken_lane=None if lost else lane,
            lost_lane=lane if lost else None,
        )
    except GameNotFoundError:
        logger.info("woken for a game that no longer exists")
        return None if lane is None else _lane_ends(game_id, lane, now)
    if applied.changed:
        carry_out(applied)
        broadcast(ctx, applied)
        follow_fair_play(ctx, applied, now)
        for player_id in applied.effects.reminders:
            # Once per absence: the write above took it, whether the mail goes or not.
            if ctx.reminders.remind(player_id, applied.session):
                metrics.add_metric(name="ReturnReminderSent", unit=MetricUnit.Count, value=1)
            if applied.session.status == "running" and applied.session.settings.turn_type == "slow":
                # The slow game waits for the player's turn: their phone is told too (A8).
                ctx.pusher.push(
                    PushRequest(
                        player_id=player_id,
                        kind=PushKind.YOUR_TURN,
                        game_id=applied.session.game_id,
                    )
                )
    if lane is None or lost:
        return None
    plan = applied.timers
    if not plan.rearm or plan.lane_seconds is None:
        return _lane_ends(game_id, lane, now)
    return lane_input(game_id, lane, plan.lane_seconds, now)


def _lane_ends(game_id: str, lane: int, now: datetime) -> LaneInput:
    return lane_input(game_id, lane, 1, now).model_copy(update={"rearm": False})
