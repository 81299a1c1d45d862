"""Connections: a new one replaces the player's previous one and takes their seat back; a
closed one leaves the seat away (yamb.session.presence decides what that means for the game).

Flapping costs the table nothing (issue 27): a closed connection's seat is marked away only
after AWAY_GRACE_SECONDS, and a player back on a new connection while their seat is still
present only relinks the seat (no new version, no frame: nothing the others see changed), so
the away, which then finds the seat on another connection, writes nothing either."""

import time
from datetime import datetime, timedelta

from yamb.i18n import Text
from yamb.protocol import DisconnectedFrame, Ping, Pong, sentence
from yamb.session import presence
from yamb.session.model import GameSession

from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.broadcasting import (
    PRESENCE_ATTEMPTS,
    away,
    broadcast,
    changes,
    follow_fair_play,
)
from yamb_service.game.context import GameContext
from yamb_service.game.ports import GameNotFoundError, HandshakeLimit, StaleGameError

# A player opens at most this many connections a minute (issue 27: 200 handshakes in a row were
# all accepted, each a write of the game for the others to see): a client that reconnects with
# backoff uses a few; the one past the limit is refused (HandshakeLimitError: $connect answers
# 429) and nothing is written.
HANDSHAKE_LIMIT = HandshakeLimit(handshakes=20, window_seconds=60)
# How long a closed connection's seat stays present, for its player to come back unseen. The
# away is written as of the moment the connection closed (the turn clock froze then).
AWAY_GRACE_SECONDS = 2.0
# A connection that has pinged is expected to go on pinging (the web client does every 10 s);
# silent this long while another player of its game pings, it is taken for a dead network and
# its seat goes away, as if API Gateway had closed it (which it does only after its 10-minute
# idle timeout). Three missed heartbeats and some, so that a slow phone is not judged.
SILENCE = timedelta(seconds=45)


def connect(ctx: GameContext, caller: Caller) -> None:
    """A new connection replaces the player's previous one, which is told why and closed;
    a player back in a running game returns to it, to the turn as they left it. A player past
    the handshake limit is refused (HandshakeLimitError) before anything is written."""
    before = ctx.players.bind_connection(
        caller.player_id, caller.connection_id, ctx.now(), limit=HANDSHAKE_LIMIT
    )
    replaced = before.connection_id
    if replaced is not None and replaced != caller.connection_id:
        ctx.notifier.send(
            replaced,
            DisconnectedFrame(
                code="replaced",
                reason=sentence(Text("replaced by a newer connection"), caller.language),
            ),
        )
        ctx.notifier.close(replaced)
        metrics.add_metric(name="ConnectionReplaced", unit=MetricUnit.Count, value=1)
    # $connect cannot post to its own connection: the client syncs once open. The slow games'
    # seats take it too: the player is back there (no return reminder is due, A8).
    for game_id in dict.fromkeys([before.game_id, *sorted(before.slow_games)]):
        if game_id is not None:
            rejoin(ctx, game_id, caller, skip=caller.connection_id)


def rejoin(
    ctx: GameContext, game_id: str, caller: Caller, *, skip: str | None
) -> GameSession | None:
    """The caller's seat takes this connection (and is back, if it was away). A handshake
    never fails for it: if the game keeps changing under it, the client's `sync` does it."""
    now = ctx.now()
    relinked = _relinked(ctx, game_id, caller)
    if relinked is not None:
        return relinked
    try:
        applied = ctx.writer.apply(
            game_id,
            lambda s: changes(presence.reconnect(s, caller.player_id, caller.connection_id, now)),
            now,
            attempts=PRESENCE_ATTEMPTS,
        )
    except GameNotFoundError:  # an ended game's item expired (TTL)
        return None
    except (StaleGameError, ServiceBusyError):
        metrics.add_metric(name="RejoinDeferred", unit=MetricUnit.Count, value=1)
        logger.warning("the seat takes the connection at the next sync", game_id=game_id)
        return None
    if applied.written:
        broadcast(ctx, applied, skip=skip)
        follow_fair_play(ctx, applied, now)  # a deadline passed with it may have ended the game
    return applied.session


def _relinked(ctx: GameContext, game_id: str, caller: Caller) -> GameSession | None:
    """The game with the caller's seat on this connection, when the seat is still present
    (its away not written yet) so that only its connection changes: relinked without a
    version or a frame. None: the seat is away, or gone, or the game changed meanwhile (the
    write path does it then)."""
    try:
        loaded = ctx.games.load(game_id)
    except GameNotFoundError:
        return None
    session = loaded.session
    seat = session.seat_of(caller.player_id)
    if seat is None or not session.in_play:
        return None
    held = session.seats[seat]
    if held.left or not held.present or held.connection_id == caller.connection_id:
        return None
    if not ctx.games.relink(loaded, caller.player_id, caller.connection_id):
        return None
    held.connection_id = caller.connection_id
    metrics.add_metric(name="SeatRelinked", unit=MetricUnit.Count, value=1)
    return session


def wait_away_grace() -> None:
    time.sleep(AWAY_GRACE_SECONDS)


def disconnect(ctx: GameContext, caller: Caller) -> None:
    """The seat is away if its player is not back on another connection within the grace."""
    closed_at = ctx.now()
    before = ctx.players.unbind_connection(caller.player_id, caller.connection_id)
    if before is None:
        return  # a newer connection took over
    # The regular game, and each slow game whose seat this connection held (its away time
    # is when a return reminder is due, A8).
    games = [g for g in dict.fromkeys([before.game_id, *sorted(before.slow_games)]) if g]
    if not games:
        return  # the player is in no game
    ctx.away_grace()
    for game_id in games:
        away(ctx, game_id, caller, at=closed_at)


def needs_rejoin(session: GameSession, caller: Caller) -> bool:
    seat = session.seat_of(caller.player_id)
    if seat is None or not session.in_play or session.seats[seat].left:
        return False
    held = session.seats[seat]
    return held.connection_id != caller.connection_id or not held.present


def heartbeat(ctx: GameContext, caller: Caller, action: Ping) -> None:
    """A `ping`: answered by a `pong`, noted as heard on the caller's connection, and the
    caller's table looked over for a player whose heartbeat stopped (SILENCE): that one's
    connection is dropped and their seat goes away, so the others see who is gone."""
    ctx.delivery.send(caller, Pong(request_id=action.request_id))
    now = ctx.now()
    record = ctx.players.heard(caller.player_id, caller.connection_id, now)
    if record is None or record.seated_in is None:
        return  # a replaced connection, or a player at no table
    try:
        session = ctx.games.load(record.seated_in).session
    except GameNotFoundError:
        return
    if not session.in_play:
        return
    for seat in session.seats:
        if seat.player_id == caller.player_id or seat.bot is not None or seat.left:
            continue
        if seat.present and seat.connection_id is not None:
            _drop_if_silent(ctx, seat.player_id, seat.connection_id, now)


def _drop_if_silent(ctx: GameContext, player_id: str, connection_id: str, now: datetime) -> None:
    peer = ctx.players.get(player_id)
    if peer.connection_id != connection_id or peer.heard_at is None:
        return  # another connection took over, or one with no heartbeat (never judged)
    if now - peer.heard_at < SILENCE:
        return
    before = ctx.players.unbind_connection(player_id, connection_id)
    if before is None:
        return  # closed or replaced meanwhile: its own $disconnect or $connect did it
    logger.info("silent connection dropped", player_id=player_id, connection_id=connection_id)
    metrics.add_metric(name="SilentConnectionDropped", unit=MetricUnit.Count, value=1)
    # API Gateway is told to let it go; its $disconnect then finds it unbound (no second away).
    ctx.notifier.close(connection_id)
    gone = Caller(player_id=player_id, connection_id=connection_id)
    for game_id in dict.fromkeys([before.game_id, *sorted(before.slow_games)]):
        if game_id is not None:
            away(ctx, game_id, gone, at=now)
