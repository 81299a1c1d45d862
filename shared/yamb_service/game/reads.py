"""The answers that write nothing: a game's dice record, a scorekeeping history, a replay, a
hint, and `sync` (the player's game as it is now)."""

from yamb import bots
from yamb.i18n import Text
from yamb.protocol import (
    CorrectedTurn,
    DiceRecordFrame,
    GameFrame,
    Hint,
    HintFrame,
    History,
    HistoryFrame,
    Replay,
    Verify,
)
from yamb.session import deals, hints, scorekeeping
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession
from yamb.session.replay_frames import replay_frames
from yamb.session.replays import header_of
from yamb.session.views import dice_record, game_view

from yamb_service.common.observability import MetricUnit, metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.context import GameContext
from yamb_service.game.ports import GameNotFoundError
from yamb_service.game.presence import needs_rejoin, rejoin


def dice_record_or_history(ctx: GameContext, caller: Caller, action: Verify | History) -> None:
    session = ctx.games.load(action.game_id).session
    frame: DiceRecordFrame | HistoryFrame
    if isinstance(action, Verify):
        if not session.in_play:  # a game in play is refused as such (dice_record)
            deals.require_shown(session, ctx.tournaments.over)
        archived = (
            ctx.games.archived_record(session.game_id).turns
            if session.fair is not None and session.fair.archived_chunks and not session.in_play
            else []
        )
        frame = dice_record(session, action.request_id, archived)
    else:
        page = scorekeeping.history_page(session, action.start)
        frame = HistoryFrame(
            request_id=action.request_id,
            game_id=session.game_id,
            start=action.start,
            total=len(session.history),
            turns=[CorrectedTurn.model_validate(line) for line in page],
        )
    ctx.delivery.send(caller, frame)


def hint(ctx: GameContext, caller: Caller, action: Hint) -> None:
    """The strongest bot's advice to a player practising alone (no write)."""
    session = ctx.games.load(action.game_id).session
    level, game, move = hints.hint(session, caller.player_id, action.turn)
    layout = game.layout
    strongest = bots.levels_for(game.layout.grid.id)[-1]
    frame = HintFrame(
        request_id=action.request_id,
        game_id=session.game_id,
        level=level,
        weaker_than=strongest if level != strongest else None,
        move="roll",
    )
    match move:
        case bots.RollMove(keep=keep):
            frame = frame.model_copy(update={"keep": sorted(keep)})
        case bots.AnnounceMove(column=column, row=row) | bots.WriteMove(column=column, row=row):
            frame = frame.model_copy(
                update={
                    "move": "announce" if isinstance(move, bots.AnnounceMove) else "write",
                    "column": layout.columns[column].id,
                    "row": layout.grid.rows[row].id,
                }
            )
    metrics.add_metric(name="HintGiven", unit=MetricUnit.Count, value=1)
    ctx.delivery.send(caller, frame)


def replay(ctx: GameContext, caller: Caller, action: Replay) -> None:
    """An ended game turn by turn, from its record; once the game item has expired, from
    the record's own items, which keep the replay header. A duplicate tournament's game waits
    for the tournament's end (yamb.session.deals); its game item outlives that by far (kept
    30 days after the game, a duplicate's window is a day at most), so a replay from the
    record's items alone is of a tournament over."""
    try:
        session: GameSession | None = ctx.games.load(action.game_id).session
    except GameNotFoundError:
        session = None
    if session is None:
        archived = ctx.games.archived_record(action.game_id)
        if archived.header is None:
            raise GameNotFoundError(Text("no game {game_id}", game_id=action.game_id))
        header, lines, nicknames = archived.header, archived.turns, None
    else:
        if session.in_play or session.status == "deleted":
            raise GameActionError(
                Text("a game replays once it has been played to its end"), code="wrong_status"
            )
        if session.fair is None:
            raise GameActionError(
                Text(
                    "this game keeps no record of its turns (a scorekeeping table's turns are in "
                    "its history)"
                ),
                code="not_allowed",
            )
        deals.require_shown(session, ctx.tournaments.over)
        archived_turns = (
            ctx.games.archived_record(session.game_id).turns if session.fair.archived_chunks else []
        )
        header, lines = header_of(session), [*archived_turns, *session.fair.turns]
        by_player = {seat.player_id: seat.nickname for seat in session.seats}
        nicknames = [by_player.get(player_id) for player_id in header.players]
    for frame in replay_frames(header, lines, action.request_id, nicknames):
        ctx.delivery.send(caller, frame)


def sync(ctx: GameContext, caller: Caller, request_id: str, game_id: str | None = None) -> None:
    """The player's game (or the one named, such as a slow game played beside it), with
    the slow games they sit at; a seat that does not hold this connection yet (its
    handshake lost a race) takes it now."""
    session = None
    record = ctx.players.get(caller.player_id)
    if game_id is not None:
        session = ctx.games.load(game_id).session
        if session.seat_of(caller.player_id) is None:
            raise GameActionError(Text("you do not play in this game"), code="not_seated")
    elif record.game_id is not None:
        try:
            session = ctx.games.load(record.game_id).session
        except GameNotFoundError:
            session = None
    if session is not None and needs_rejoin(session, caller):
        session = rejoin(ctx, session.game_id, caller, skip=caller.connection_id) or session
    view = game_view(session, caller.player_id) if session is not None else None
    frame = GameFrame(request_id=request_id, game=view, slow_games=sorted(record.slow_games))
    ctx.delivery.send(caller, frame)
