"""The write path of a client's action: one conditional write of one game (idempotent on the
action's requestId), then the answer to the actor and the new game to everyone at the table."""

from collections.abc import Callable
from datetime import datetime

from yamb.i18n import Text
from yamb.protocol import Ack, ClientAction, GameDeletedFrame
from yamb.session.effects import Effects, GameActionError
from yamb.session.model import GameSession, action_fingerprint

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.broadcasting import broadcast, follow_fair_play
from yamb_service.game.context import GameContext
from yamb_service.game.ports import SeatTakenError
from yamb_service.game.seating import freed_stale_seat
from yamb_service.game.writer import Applied

type ActionChange = Callable[[GameSession], Effects | None]


def fingerprint(action: ClientAction) -> str:
    return action_fingerprint(action.model_dump_json(exclude={"request_id"}))


def mutate(  # noqa: PLR0917 - each call names its game and change in the same order
    ctx: GameContext,
    caller: Caller,
    action: ClientAction,
    game_id: str,
    change: ActionChange,
    now: datetime,
) -> None:
    """A client's change of one game: idempotent on its requestId, answered with the new
    game (a repeat of an applied request: with an ack of the version it stored)."""
    player, request_id = caller.player_id, action.request_id
    printed = fingerprint(action)
    repeated: list[int] = []

    def guarded(session: GameSession) -> Effects | None:
        recalled = session.recalled(player, request_id)
        if recalled is not None:
            check_same_action(recalled[0], printed)
            repeated[:] = [recalled[1]]
            return None
        effects = change(session) or Effects()
        session.remember(player, request_id, printed)
        return effects

    for attempt in (1, 2):
        try:
            applied = ctx.writer.apply(game_id, guarded, now)
        except SeatTakenError:
            slow = ctx.games.load(game_id).session.settings.turn_type == "slow"
            if attempt == 2 or not freed_stale_seat(ctx, player, now, slow=slow):
                raise
            continue
        break
    if applied.refusal is not None or repeated:
        # A deadline that passed before this action was written with it: the table sees it.
        if applied.changed:
            carry_out(applied)
            broadcast(ctx, applied)
            follow_fair_play(ctx, applied, now)
        if applied.refusal is not None:
            raise applied.refusal
        ack(ctx, caller, action, game_id, repeated[0])
        if not applied.changed:
            # The first time's invocation may have died after its write, before telling
            # the table: a repeat tells it (the request was lost, so this is rare).
            broadcast(ctx, applied)
        return
    metrics.add_metric(name="ActionApplied", unit=MetricUnit.Count, value=1)
    logger.info("action applied", version=applied.session.version)
    _deliver(ctx, applied, caller, action)
    follow_fair_play(ctx, applied, now)


def _deliver(ctx: GameContext, applied: Applied, caller: Caller, action: ClientAction) -> None:
    session = applied.session
    if applied.effects.removed:
        ack(ctx, caller, action, session.game_id, session.version)
        deleted = GameDeletedFrame(game_id=session.game_id)
        for seat in session.seats:
            if seat.connection_id is not None:
                ctx.notifier.send(seat.connection_id, deleted)
        return
    carry_out(applied)
    if session.seat_of(caller.player_id) is None:
        # The actor left the table: an ack for them, the game for those still there.
        ack(ctx, caller, action, session.game_id, session.version)
        broadcast(ctx, applied)
        return
    broadcast(ctx, applied, answer=(caller, action))


def answer_repeat(
    ctx: GameContext, caller: Caller, action: ClientAction, session: GameSession, printed: str
) -> None:
    recalled = session.recalled(caller.player_id, action.request_id)
    if recalled is not None:
        check_same_action(recalled[0], printed)
    version = recalled[1] if recalled is not None else session.version
    ack(ctx, caller, action, session.game_id, version)


def ack(ctx: GameContext, caller: Caller, action: ClientAction, game_id: str, version: int) -> None:
    answer = Ack(
        request_id=action.request_id, action=action.action, game_id=game_id, version=version
    )
    ctx.delivery.send(caller, answer)


def carry_out(applied: Applied) -> None:
    """What a write did beyond the table, counted: disappearances, endings, timeouts."""
    effects = applied.effects
    if effects.disappeared:
        metrics.add_metric(
            name="PlayerDisappeared", unit=MetricUnit.Count, value=len(effects.disappeared)
        )
    if effects.ended:
        metrics.add_metric(name="GameEnded", unit=MetricUnit.Count, value=1)
    if effects.turns_timed_out:
        metrics.add_metric(
            name="TurnTimedOut", unit=MetricUnit.Count, value=effects.turns_timed_out
        )
    if effects.returns_missed:
        metrics.add_metric(name="ReturnMissed", unit=MetricUnit.Count, value=effects.returns_missed)
    if effects.bot_moves_failed:
        logger.error("a bot's move failed: the clock's auto-move was played instead")
        metrics.add_metric(
            name="BotMoveFailed", unit=MetricUnit.Count, value=effects.bot_moves_failed
        )


def check_same_action(recorded: str, printed: str) -> None:
    if recorded != printed:
        raise GameActionError(
            Text("this requestId was already used for another action; use a new one"),
            code="request_reused",
        )
