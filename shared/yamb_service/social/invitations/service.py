"""The invitations' actions of the WebSocket protocol (S2), carried out for the game service
(yamb_service.game.service.ROUTES): an invitation to a waiting table is the invitee's one
pending invitation (a conditional put), sent at once when they are connected and read by their
page at login otherwise; a Yes seats them as `join_game` does, with its checks."""

import secrets
from datetime import datetime

from yamb.errors import YambError
from yamb.i18n import Text
from yamb.protocol import (
    AnswerInvitation,
    Frame,
    InvitationAnswerFrame,
    InvitationFrame,
    InvitationsFrame,
    InvitationView,
    InvitationWithdrawnFrame,
    Invite,
    JoinGame,
    ListInvitations,
    WithdrawInvitation,
)
from yamb.session.model import GameSession
from yamb.social import invitations as rules
from yamb.social.invitations import Invitation

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game import lobby
from yamb_service.game.context import GameContext
from yamb_service.social.chats.service import own_nickname, player_named, stores_of

NOT_FOUND = Text("this invitation is no longer open: it was answered, withdrawn or has lapsed")


def _view(invitation: Invitation, session: GameSession | None) -> InvitationView:
    return InvitationView(
        invitation_id=invitation.invitation_id,
        game_id=invitation.game_id,
        by=invitation.inviter_nickname,
        to=invitation.invitee_nickname,
        sent_at=invitation.sent_at,
        expires_at=invitation.expires_at,
        settings=session.settings if session is not None else None,
    )


def _tell(ctx: GameContext, player_id: str, frame: Frame) -> None:
    connection = ctx.players.get(player_id).connection_id
    if connection is not None:
        ctx.delivery.deliver(connection, frame)


def invite(ctx: GameContext, caller: Caller, action: Invite, now: datetime) -> None:
    stores = stores_of(ctx)
    session = ctx.games.load(action.game_id).session
    if session.seat_of(caller.player_id) is None:
        raise YambError(Text("sit at the table to invite a player to it"), code="not_seated")
    if session.status != "waiting":
        raise YambError(
            Text("this table has started: nobody can be invited to it"), code="wrong_status"
        )
    if len(session.seats) >= session.settings.players:
        raise YambError(Text("the table is full"), code="table_full")
    invitee, invitee_name = player_named(ctx, action.nickname)
    if invitee == caller.player_id:
        raise YambError(Text("you cannot invite yourself"), code="invite_self")
    if session.seat_of(invitee) is not None:
        raise YambError(
            Text("{nickname} already sits at this table", nickname=invitee_name),
            code="already_seated",
        )
    if stores.blocks.blocked_either_way(caller.player_id, invitee):
        raise YambError(
            Text(
                "you cannot invite {nickname}: one of you blocked the other", nickname=invitee_name
            ),
            code="blocked",
        )
    if stores.invitations.refused(session.game_id, invitee):
        raise YambError(
            Text("{nickname} refused an invitation to this table already", nickname=invitee_name),
            code="invitation_refused_before",
        )
    invitation = Invitation(
        invitation_id=secrets.token_hex(8),
        game_id=session.game_id,
        inviter=caller.player_id,
        inviter_nickname=own_nickname(ctx, caller),
        invitee=invitee,
        invitee_nickname=invitee_name,
        sent_at=now,
        expires_at=now + rules.LIFETIME,
    )
    if not stores.invitations.put(invitation, now):
        raise YambError(
            Text(
                "{nickname} already has an invitation waiting for an answer: try again later",
                nickname=invitee_name,
            ),
            code="invitation_pending",
        )
    metrics.add_metric(name="InvitationSent", unit=MetricUnit.Count, value=1)
    logger.info("invitation sent", invitee=invitee, game_id=session.game_id)
    view = _view(invitation, session)
    ctx.delivery.send(caller, InvitationFrame(request_id=action.request_id, invitation=view))
    _tell(ctx, invitee, InvitationFrame(invitation=view))


def answer(ctx: GameContext, caller: Caller, action: AnswerInvitation, now: datetime) -> None:
    stores = stores_of(ctx)
    taken = stores.invitations.take(caller.player_id, action.invitation_id)
    if taken is None or not taken.pending(now):
        raise YambError(NOT_FOUND, code="invitation_not_found")
    told = InvitationAnswerFrame(
        invitation_id=taken.invitation_id,
        game_id=taken.game_id,
        nickname=taken.invitee_nickname,
        accepted=action.accept,
    )
    if not action.accept:
        stores.invitations.mark_refused(taken.game_id, caller.player_id, now)
        metrics.add_metric(name="InvitationRefused", unit=MetricUnit.Count, value=1)
        ctx.delivery.send(caller, InvitationsFrame(request_id=action.request_id))
        _tell(ctx, taken.inviter, told)
        return
    # The invitation is gone either way: a table that filled or started meanwhile is said by
    # join_game's own refusal.
    joining = JoinGame(action="join_game", request_id=action.request_id, game_id=taken.game_id)
    lobby.join(ctx, caller, joining, now)
    metrics.add_metric(name="InvitationAccepted", unit=MetricUnit.Count, value=1)
    _tell(ctx, taken.inviter, told)


def withdraw(ctx: GameContext, caller: Caller, action: WithdrawInvitation, now: datetime) -> None:
    stores = stores_of(ctx)
    invitee, _ = player_named(ctx, action.nickname)
    held = stores.invitations.pending(invitee, now)
    if held is None or held.inviter != caller.player_id:
        raise YambError(NOT_FOUND, code="invitation_not_found")
    taken = stores.invitations.take(invitee, held.invitation_id)
    if taken is None:
        raise YambError(NOT_FOUND, code="invitation_not_found")
    frame = InvitationWithdrawnFrame(invitation_id=taken.invitation_id)
    ctx.delivery.send(caller, frame.model_copy(update={"request_id": action.request_id}))
    _tell(ctx, invitee, frame)


def pending(ctx: GameContext, caller: Caller, action: ListInvitations, now: datetime) -> None:
    held = stores_of(ctx).invitations.pending(caller.player_id, now)
    view = None
    if held is not None:
        try:
            session = ctx.games.load(held.game_id).session
        except YambError:
            session = None
        # A table no longer open has nothing to offer: the invitation lapsed with it.
        if session is not None and session.status == "waiting":
            view = _view(held, session)
    ctx.delivery.send(caller, InvitationsFrame(request_id=action.request_id, received=view))
