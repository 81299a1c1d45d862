"""A rematch: after a game has ended, one of its players opens a new table with the same
settings (the same bots seated again) and tells the game's other players, who accept by
joining it."""

from datetime import datetime

from yamb.i18n import Text
from yamb.protocol import Rematch, RematchFrame
from yamb.session.effects import GameActionError

from yamb_service.common.observability import MetricUnit, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.lobby import open_table

ENDED = ("finished", "cancelled")


def rematch(ctx: GameContext, caller: Caller, action: Rematch, now: datetime) -> None:
    ended = ctx.games.load(action.game_id).session
    if ended.seat_of(caller.player_id) is None:
        raise GameActionError(
            Text("only a player of the game asks for its rematch"), code="not_seated"
        )
    if ended.status not in ENDED:
        raise GameActionError(Text("a rematch follows a game that has ended"), code="wrong_status")
    bots = tuple(seat.bot for seat in ended.seats if seat.bot is not None)
    table = open_table(ctx, caller, action, ended.settings, now, bots)
    if table is None:
        return  # a repeat: the others were told the first time
    metrics.add_metric(name="RematchAsked", unit=MetricUnit.Count, value=1)
    invitation = RematchFrame(
        game_id=table.game_id,
        from_game_id=ended.game_id,
        by=caller.player_id,
        nickname=caller.nickname,
    )
    for seat in ended.seats:
        if seat.bot is not None or seat.player_id == caller.player_id:
            continue
        connection = ctx.players.get(seat.player_id).connection_id
        if connection is not None:
            ctx.delivery.deliver(connection, invitation)  # one not connected sees the table listed
