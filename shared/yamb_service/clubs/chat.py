"""A club's chat (C6), an action of the WebSocket protocol carried out for the game service
(which checks the connection, its rate and answers refusals: yamb_service.game.service.ROUTES).

A line goes at once to every member connected now and is not kept; an announcement (the admin
and deputies) is kept too, for those who are away. Each line is posted to up to 100 members, so
besides each sender's own rate (yamb.chat) a club writes at most `CLUB_LINES_PER_WINDOW` lines
in `CLUB_CHAT_WINDOW_SECONDS` whoever writes them (decision 191)."""

from datetime import datetime

from yamb import chat
from yamb.clubs import rules
from yamb.clubs.model import RIGHTS
from yamb.errors import YambError
from yamb.i18n import Text
from yamb.protocol import ClubChatFrame, MessageView, SayInClub
from yamb.social import chats
from yamb.social.chats import ChatLine

from yamb_service.clubs.ports import ClubStore
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.chat import count_against_rate
from yamb_service.game.context import GameContext
from yamb_service.social.chats.service import own_nickname, own_tag, stores_of


def _clubs(ctx: GameContext) -> ClubStore:
    clubs = stores_of(ctx).clubs
    if clubs is None:
        raise RuntimeError("the clubs' store is not wired into this service")
    return clubs


def _view(line: ChatLine, reader: str) -> MessageView:
    return MessageView(
        id=line.id, sender=line.nickname, text=line.text, sent_at=line.sent_at,
        mine=line.sender == reader, club=line.club,
    )  # fmt: skip


def say_in_club(ctx: GameContext, caller: Caller, action: SayInClub, now: datetime) -> None:
    clubs = _clubs(ctx)
    text = chat.validate_message(action.text, caller.language)
    member = clubs.member(action.club_id, caller.player_id)
    if member is None:
        raise YambError(Text("you are not a member of this club"), code="not_a_club_member")
    if action.announcement and "announce" not in RIGHTS[member.role]:
        raise YambError(Text("announcements are the admin's and the deputies'"), code="not_allowed")
    count_against_rate(ctx, caller, now)
    if not clubs.count_line(action.club_id, now):
        raise chat.ChatRefused(
            Text(
                "the club's chat takes {lines} lines in {seconds} seconds: wait a moment",
                lines=rules.CLUB_LINES_PER_WINDOW,
                seconds=rules.CLUB_CHAT_WINDOW_SECONDS,
            ),
            code="chat_too_fast",
        )
    line = ChatLine(
        id=chats.message_id(now),
        sender=caller.player_id,
        nickname=own_nickname(ctx, caller),
        text=text,
        sent_at=now,
        club=own_tag(ctx, caller),
    )
    if action.announcement:
        clubs.announce(action.club_id, line)
    others = [m.player_id for m in clubs.members(action.club_id) if m.player_id != caller.player_id]
    ctx.delivery.send(
        caller,
        ClubChatFrame(
            request_id=action.request_id,
            club_id=action.club_id,
            announcement=action.announcement,
            line=_view(line, caller.player_id),
        ),
    )
    delivered = 0
    for player, connection in clubs.connections(others).items():
        frame = ClubChatFrame(
            club_id=action.club_id, announcement=action.announcement, line=_view(line, player)
        )
        delivered += ctx.delivery.deliver(connection, frame)
    name = "ClubAnnouncement" if action.announcement else "ClubChatLine"
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=1)
    logger.info("club line", club_id=action.club_id, delivered=delivered, kept=action.announcement)
