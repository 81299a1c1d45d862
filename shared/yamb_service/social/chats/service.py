"""The chats' actions of the WebSocket protocol (S3), carried out for the game service (which
checks the connection, its rate and answers refusals: yamb_service.game.service.ROUTES).

Private messages are written on both sides in one transaction, then sent to the recipient's
connection if there is one; otherwise they wait in the conversation, which the page reads once
connected. General-chat lines are added to the window; the sender of the first line after a
delivery waits out the batch (`yamb.social.chats.flush_interval`) and delivers every line since
to every listener, at most BROADCAST_BUDGET frames a second (decision 185)."""

from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from yamb import chat
from yamb.clubs.tag import TagView
from yamb.errors import YambError
from yamb.i18n import Plural, Text
from yamb.protocol import (
    CloseConversation,
    CloseGeneralChat,
    ConversationFrame,
    ConversationsFrame,
    ConversationView,
    GeneralChatFrame,
    ListConversations,
    MessageFrame,
    MessageView,
    OpenGeneralChat,
    ReadConversation,
    SayInGeneralChat,
    SendMessage,
)
from yamb.social import chats
from yamb.social.chats import ChatLine, Conversation

from yamb_service.clubs.tags import MainTags
from yamb_service.common.errors import ServiceBusyError
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.chat import count_against_rate
from yamb_service.game.context import GameContext
from yamb_service.social.stores import SocialStores

WINDOW_ATTEMPTS = 5
# A batch whose deliverer has not cleared it after this long is taken over by the next line.
STALE_BATCH = timedelta(seconds=30)
# Frames posted at once within a batch's second.
POSTERS = 16


def stores_of(ctx: GameContext) -> SocialStores:
    if ctx.social is None:
        raise RuntimeError("the social stores are not wired into this service")
    return ctx.social


def player_named(ctx: GameContext, nickname: str) -> tuple[str, str]:
    """The id and the nickname as kept of the active player called `nickname`."""
    stores = stores_of(ctx)
    owner = stores.profiles.nickname_owner(nickname)
    profile = stores.profiles.get(owner) if owner else None
    if profile is None or profile.status != "active":
        raise YambError(
            Text("no player is called {nickname}", nickname=nickname), code="unknown_player"
        )
    return profile.player_id, profile.nickname


def own_nickname(ctx: GameContext, caller: Caller) -> str:
    if caller.nickname:
        return caller.nickname
    profile = stores_of(ctx).profiles.get(caller.player_id)
    return profile.nickname if profile else caller.player_id


def own_tag(ctx: GameContext, caller: Caller) -> TagView | None:
    """The caller's main club's tag, beside their lines (C1); a failed read sends the line
    without it (a tag never stops a message)."""
    clubs = stores_of(ctx).clubs
    if clubs is None:
        return None
    try:
        return MainTags(clubs)([caller.player_id]).get(caller.player_id)
    except Exception:
        logger.exception("club tag not read")
        return None


def _view(line: ChatLine, reader: str) -> MessageView:
    return MessageView(
        id=line.id,
        sender=line.nickname,
        text=line.text,
        sent_at=line.sent_at,
        mine=line.sender == reader,
        club=line.club,
    )


# ------------------------------------------------------------------------ private messages


def send_message(ctx: GameContext, caller: Caller, action: SendMessage, now: datetime) -> None:
    stores = stores_of(ctx)
    text = chat.validate_message(action.text, caller.language)
    recipient, recipient_name = player_named(ctx, action.to)
    if recipient == caller.player_id:
        raise YambError(Text("you cannot send a message to yourself"), code="message_self")
    if stores.blocks.blocked_either_way(caller.player_id, recipient):
        raise YambError(
            Text(
                "you cannot message {nickname}: one of you blocked the other",
                nickname=recipient_name,
            ),
            code="blocked",
        )
    count_against_rate(ctx, caller, now)
    sender_name = own_nickname(ctx, caller)
    line = ChatLine(
        id=chats.message_id(now),
        sender=caller.player_id,
        nickname=sender_name,
        text=text,
        sent_at=now,
        club=own_tag(ctx, caller),
    )
    stores.chats.send_private(
        line,
        Conversation(
            owner=caller.player_id,
            other=recipient,
            nickname=recipient_name,
            last_text=text,
            last_at=now,
        ),
        Conversation(
            owner=recipient,
            other=caller.player_id,
            nickname=sender_name,
            last_text=text,
            last_at=now,
        ),
    )
    metrics.add_metric(name="PrivateMessageSent", unit=MetricUnit.Count, value=1)
    logger.info("private message sent", recipient=recipient, message_id=line.id)
    ctx.delivery.send(
        caller,
        MessageFrame(
            request_id=action.request_id,
            nickname=recipient_name,
            message=_view(line, caller.player_id),
        ),
    )
    connection = ctx.players.get(recipient).connection_id
    if connection is not None:
        ctx.delivery.deliver(
            connection, MessageFrame(nickname=sender_name, message=_view(line, recipient))
        )


def _conversations_frame(ctx: GameContext, caller: Caller, request_id: str) -> ConversationsFrame:
    held = stores_of(ctx).chats.conversations(caller.player_id)
    return ConversationsFrame(
        request_id=request_id,
        conversations=[
            ConversationView(
                nickname=c.nickname, last_text=c.last_text, last_at=c.last_at, unread=c.unread
            )
            for c in held
        ],
    )


def conversations(
    ctx: GameContext, caller: Caller, action: ListConversations, _now: datetime
) -> None:
    ctx.delivery.send(caller, _conversations_frame(ctx, caller, action.request_id))


def conversation(
    ctx: GameContext, caller: Caller, action: ReadConversation, _now: datetime
) -> None:
    stores = stores_of(ctx)
    other, other_name = _conversation_partner(ctx, caller, action.nickname)
    page, before = stores.chats.messages(
        caller.player_id, other, action.before, chats.CONVERSATION_PAGE
    )
    if action.before is None:
        stores.chats.mark_read(caller.player_id, other)
    ctx.delivery.send(
        caller,
        ConversationFrame(
            request_id=action.request_id,
            nickname=other_name,
            messages=[_view(line, caller.player_id) for line in page],
            before=before,
        ),
    )


def _conversation_partner(ctx: GameContext, caller: Caller, nickname: str) -> tuple[str, str]:
    """The other side of one of the caller's conversations, by the nickname the conversation
    shows (an account deleted since is still named so), else by the player's nickname now."""
    for held in stores_of(ctx).chats.conversations(caller.player_id):
        if held.nickname.casefold() == nickname.casefold():
            return held.other, held.nickname
    try:
        return player_named(ctx, nickname)
    except YambError:
        raise YambError(
            Text("you have no conversation with {nickname}", nickname=nickname),
            code="conversation_not_found",
        ) from None


def close_conversation(
    ctx: GameContext, caller: Caller, action: CloseConversation, _now: datetime
) -> None:
    other, _ = _conversation_partner(ctx, caller, action.nickname)
    if not stores_of(ctx).chats.close(caller.player_id, other):
        raise YambError(
            Text("you have no conversation with {nickname}", nickname=action.nickname),
            code="conversation_not_found",
        )
    metrics.add_metric(name="ConversationClosed", unit=MetricUnit.Count, value=1)
    ctx.delivery.send(caller, _conversations_frame(ctx, caller, action.request_id))


# ------------------------------------------------------------------------ the general chat


def open_general(ctx: GameContext, caller: Caller, action: OpenGeneralChat, now: datetime) -> None:
    stores = stores_of(ctx)
    if len(stores.chats.listeners()) >= chats.MAX_LISTENERS:
        raise YambError(
            Plural(
                "the general chat is full ({count} listener): try again later",
                "the general chat is full ({count} listeners): try again later",
                chats.MAX_LISTENERS,
            ),
            code="general_chat_full",
        )
    stores.chats.listen(caller.connection_id, caller.player_id, now)
    window, _ = stores.chats.window()
    ctx.delivery.send(
        caller,
        GeneralChatFrame(
            request_id=action.request_id,
            lines=[_view(line, caller.player_id) for line in window.recent(now)],
        ),
    )


def close_general(
    ctx: GameContext, caller: Caller, action: CloseGeneralChat, _now: datetime
) -> None:
    stores_of(ctx).chats.stop_listening([caller.connection_id])
    ctx.delivery.send(caller, GeneralChatFrame(request_id=action.request_id, lines=[]))


def say_in_general(
    ctx: GameContext, caller: Caller, action: SayInGeneralChat, now: datetime
) -> None:
    stores = stores_of(ctx)
    text = chat.validate_message(action.text, caller.language)
    count_against_rate(ctx, caller, now)
    line = ChatLine(
        id=chats.message_id(now),
        sender=caller.player_id,
        nickname=own_nickname(ctx, caller),
        text=text,
        sent_at=now,
        club=own_tag(ctx, caller),
    )
    listeners = len(stores.chats.listeners())
    interval = chats.flush_interval(listeners)
    deliverer = False
    for _ in range(WINDOW_ATTEMPTS):
        window, version = stores.chats.window()
        window.add(line, now)
        deliverer = window.flush_due is None or window.flush_due < now - STALE_BATCH
        if deliverer:
            window.flush_due = now + timedelta(seconds=interval)
        if stores.chats.save_window(window, version):
            break
    else:
        raise ServiceBusyError
    metrics.add_metric(name="GeneralChatLine", unit=MetricUnit.Count, value=1)
    ctx.delivery.send(
        caller,
        GeneralChatFrame(request_id=action.request_id, lines=[_view(line, caller.player_id)]),
    )
    if deliverer:
        stores.wait(interval)
        deliver_general(ctx)


def _post(ctx: GameContext, connection: str, frame: GeneralChatFrame) -> bool:
    """False when the connection is gone; a failed post is logged and the listener kept."""
    try:
        return ctx.notifier.send(connection, frame)
    except Exception:
        logger.exception("general chat batch not delivered", connection_id=connection)
        return True


def deliver_general(ctx: GameContext) -> int:
    """Every line not yet delivered, as one frame to each listener, at most BROADCAST_BUDGET
    frames a second; the batch is marked delivered first, so the next line starts the next.
    Returns the frames posted."""
    stores = stores_of(ctx)
    for _ in range(WINDOW_ATTEMPTS):
        window, version = stores.chats.window()
        lines = window.undelivered()
        if lines:
            window.delivered_through = lines[-1].id
        window.flush_due = None
        if stores.chats.save_window(window, version):
            break
    else:
        raise ServiceBusyError
    if not lines:
        return 0
    listeners = stores.chats.listeners()
    frame = GeneralChatFrame(lines=[_view(line, "") for line in lines])
    gone: list[str] = []
    posted = 0
    with ThreadPoolExecutor(max_workers=POSTERS) as posters:
        for start in range(0, len(listeners), chats.BROADCAST_BUDGET):
            began = stores.wall_time()
            chunk = listeners[start : start + chats.BROADCAST_BUDGET]
            delivered = list(posters.map(lambda c: _post(ctx, c, frame), chunk))
            gone += [c for c, ok in zip(chunk, delivered, strict=True) if not ok]
            posted += len(chunk)
            if start + chats.BROADCAST_BUDGET < len(listeners):
                stores.wait(max(0.0, 1.0 - (stores.wall_time() - began)))
    if gone:
        stores.chats.stop_listening(gone)
    metrics.add_metric(name="GeneralChatBatchPosted", unit=MetricUnit.Count, value=posted)
    logger.info("general chat delivered", lines=len(lines), listeners=len(listeners))
    return posted
