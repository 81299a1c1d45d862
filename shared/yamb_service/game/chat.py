"""A chat message to everyone at the table: checked, counted against the sender's connection,
then sent; the game item is not written."""

from datetime import datetime

from yamb import chat
from yamb.protocol import Chat, ChatFrame
from yamb.session.effects import GameActionError

from yamb_service.common.observability import MetricUnit, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext


def send(ctx: GameContext, caller: Caller, action: Chat, now: datetime) -> None:
    text = chat.validate_message(action.text)
    loaded = ctx.games.load(action.game_id)
    session = loaded.session
    seat = session.seat_of(caller.player_id)
    watching = caller.connection_id in loaded.spectators
    if seat is None and not watching:
        raise GameActionError("sit at this game or watch it to chat", code="not_seated")
    if seat is not None and session.seats[seat].left:
        raise GameActionError("you have left this game", code="not_seated")
    rate, version = ctx.games.chat_rate(caller.connection_id)
    rate.check(now)
    rate.record(now)
    if not ctx.games.save_chat_rate(caller.connection_id, rate, version, now):
        raise chat.ChatRefused(
            "another message of yours was being sent: wait a second", code="chat_too_fast"
        )
    metrics.add_metric(name="ChatSent", unit=MetricUnit.Count, value=1)
    message = ChatFrame(
        game_id=session.game_id,
        sender=caller.player_id,
        nickname=caller.nickname,
        spectator=seat is None,
        text=text,
        sent_at=now,
    )
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
