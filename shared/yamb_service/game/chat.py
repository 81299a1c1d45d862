"""A chat message to everyone at the table: checked, counted against the sender's connection,
kept in the game's chat log (its last lines, for a page that opens the game later), then sent;
the game item is not written. `history` answers those last lines."""

from datetime import datetime

from yamb import chat
from yamb.chat import LoggedLine
from yamb.i18n import Text
from yamb.protocol import Chat, ChatFrame, ChatHistory, ChatHistoryFrame, ChatLine
from yamb.session.effects import GameActionError

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.ports import LoadedGame

# Lines written at once by several senders: each reads the log again and adds its own.
LOG_ATTEMPTS = 3


def send(ctx: GameContext, caller: Caller, action: Chat, now: datetime) -> None:
    text = chat.validate_message(action.text, caller.language)
    loaded = ctx.games.load(action.game_id)
    session = loaded.session
    seat = session.seat_of(caller.player_id)
    watching = caller.connection_id in loaded.spectators
    if seat is None and not watching:
        raise GameActionError(Text("sit at this game or watch it to chat"), code="not_seated")
    if seat is not None and session.seats[seat].left:
        raise GameActionError(Text("you have left this game"), code="not_seated")
    count_against_rate(ctx, caller, now)
    metrics.add_metric(name="ChatSent", unit=MetricUnit.Count, value=1)
    message = ChatFrame(
        game_id=session.game_id,
        sender=caller.player_id,
        nickname=caller.nickname,
        spectator=seat is None,
        text=text,
        sent_at=now,
    )
    _log(ctx, message, now)
    ctx.delivery.send(caller, message.model_copy(update={"request_id": action.request_id}))
    for held in session.seats:
        if held.connection_id not in (None, caller.connection_id) and held.present:
            ctx.delivery.send(Caller(held.player_id, held.connection_id), message)
    gone = [
        connection
        for connection in loaded.spectators
        if connection != caller.connection_id and not ctx.delivery.deliver(connection, message)
    ]
    if gone:
        ctx.games.forget_spectators(session.game_id, gone)


def count_against_rate(ctx: GameContext, caller: Caller, now: datetime) -> None:
    """The message counted on the connection's rate (yamb.chat), whatever chat it goes to
    (the game's, a private conversation, the general chat): refused when too fast."""
    rate, version = ctx.games.chat_rate(caller.connection_id)
    rate.check(now)
    rate.record(now)
    if not ctx.games.save_chat_rate(caller.connection_id, rate, version, now):
        raise chat.ChatRefused(
            Text("another message of yours was being sent: wait a second"), code="chat_too_fast"
        )


def _log(ctx: GameContext, message: ChatFrame, now: datetime) -> None:
    """Keeps the line in the game's log; a log that keeps changing under it loses the line
    (logged), never the message, which is sent all the same."""
    line = LoggedLine(
        sender=message.sender,
        nickname=message.nickname,
        spectator=message.spectator,
        text=message.text,
        sent_at=message.sent_at,
    )
    for _ in range(LOG_ATTEMPTS):
        log, version = ctx.games.chat_log(message.game_id)
        log.add(line)
        if ctx.games.save_chat_log(message.game_id, log, version, now):
            return
    metrics.add_metric(name="ChatLineNotKept", unit=MetricUnit.Count, value=1)
    logger.warning("a chat line was sent but not kept", game_id=message.game_id)


def history(ctx: GameContext, caller: Caller, action: ChatHistory, _now: datetime) -> None:
    """The game's last chat lines, to a player seated there (also one who left) or a
    spectator watching it from this connection: what the others at the table have."""
    loaded: LoadedGame = ctx.games.load(action.game_id)
    seated = loaded.session.seat_of(caller.player_id) is not None
    if not seated and caller.connection_id not in loaded.spectators:
        raise GameActionError(
            Text("sit at this game or watch it to read its chat"), code="not_seated"
        )
    log, _version = ctx.games.chat_log(action.game_id)
    lines = [ChatLine.model_validate(line.model_dump()) for line in log.lines]
    frame = ChatHistoryFrame(request_id=action.request_id, game_id=action.game_id, messages=lines)
    ctx.delivery.send(caller, frame)
