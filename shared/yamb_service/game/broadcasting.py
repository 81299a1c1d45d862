"""Sending a written game to its table, and what a send finds: a connection gone is a seat away.

The two call each other (marking a seat away is a write its table is told of), so they live
together."""

from datetime import datetime

from yamb.protocol import ClientAction
from yamb.push.messages import PushKind, PushRequest
from yamb.session import presence
from yamb.session.effects import Effects
from yamb.session.model import GameSession

from yamb_service.common.observability import logger
from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.ports import GameNotFoundError
from yamb_service.game.writer import Applied

# Connections come and go in bursts (a whole table reconnecting): more tries before giving up.
PRESENCE_ATTEMPTS = 8


def changes(changed: bool) -> Effects | None:
    return Effects() if changed else None


def broadcast(
    ctx: GameContext,
    applied: Applied,
    *,
    answer: tuple[Caller, ClientAction] | None = None,
    skip: str | None = None,
) -> None:
    session = applied.session
    gone = ctx.delivery.broadcast(
        session,
        applied.spectators,
        now=ctx.now(),
        answer=answer,
        skip=skip,
        follows=applied.follows,
    )
    if gone.spectators:
        try:
            ctx.games.forget_spectators(session.game_id, gone.spectators)
        except Exception:
            logger.exception("gone spectators kept for now", gone=len(gone.spectators))
    for caller in gone.seats:
        # A connection found gone is a lost connection, whether its $disconnect came or not.
        try:
            away(ctx, session.game_id, caller)
        except Exception:
            logger.exception("a gone seat was not marked away", player_id=caller.player_id)


def away(ctx: GameContext, game_id: str, caller: Caller, *, at: datetime | None = None) -> None:
    """The caller's connection is gone (since `at`, else now): their seat is away if it still
    holds it."""
    now = ctx.now() if at is None else at
    try:
        applied = ctx.writer.apply(
            game_id,
            lambda s: changes(presence.disconnect(s, caller.player_id, caller.connection_id, now)),
            now,
            attempts=PRESENCE_ATTEMPTS,
        )
    except GameNotFoundError:  # an ended game's item expired (TTL)
        return
    if applied.written:
        broadcast(ctx, applied, skip=caller.connection_id)
        _countdown_pushed(ctx, applied.session, caller.player_id)
        follow_fair_play(ctx, applied, now)  # a deadline passed with it may have ended the game


def _countdown_pushed(ctx: GameContext, session: GameSession, player_id: str) -> None:
    """The away player's return countdown of a running game started: their phone is told
    (Web Push, A8), if the away came from a phone that went to sleep, it is how they learn."""
    seat = session.seat_of(player_id)
    if seat is None or session.status != "running":
        return
    held = session.seats[seat]
    if held.present or held.left or held.return_deadline is None:
        return
    ctx.pusher.push(
        PushRequest(player_id=player_id, kind=PushKind.RETURN_COUNTDOWN, game_id=session.game_id)
    )


def follow_fair_play(ctx: GameContext, applied: Applied, now: datetime) -> None:
    """Fair play's part after the write (yamb_service.social.fairplay, imported on first
    use: that module builds on the game service's)."""
    from yamb_service.social.fairplay.service import follow_up  # noqa: PLC0415

    follow_up(ctx, applied, now)
