"""Tables made for a tournament's pairings (issue 32): every seat the pairing's, started at
once on the tournament's dice, its players told over their live connection. A player who is not
there when it starts is away, with the return window every started game gives (rules.md): the
game goes on without them and they lose it."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Literal

from yamb.errors import YambError
from yamb.protocol import TournamentGameFrame
from yamb.session import lobby
from yamb.session.effects import Effects
from yamb.session.model import GameSession, Seat
from yamb.session.results import GameResult, result_of
from yamb.settings import GameSettings

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.competition.tournament_ports import TableSeat
from yamb_service.game.broadcasting import broadcast
from yamb_service.game.context import GameContext
from yamb_service.game.ports import GameExistsError, GameNotFoundError, SeatTakenError
from yamb_service.game.seating import freed_stale_seat, seat_refusal
from yamb_service.game.writes import carry_out


class GameTables:
    def __init__(self, ctx: GameContext) -> None:
        self._ctx = ctx

    def present(self, player_ids: Iterable[str], now: datetime) -> set[str]:
        # A seat still held for an ended game does not count: it is freed when the table is made.
        wanted = [p for p in player_ids if self._ctx.players.get(p).connection_id is not None]
        return set(wanted) - self.busy(wanted, now)

    def busy(self, player_ids: Iterable[str], now: datetime) -> set[str]:
        return {p for p in player_ids if seat_refusal(self._ctx, p, now) is not None}

    def outcome(self, game_id: str) -> GameResult | Literal["playing", "gone"]:
        try:
            session = self._ctx.games.load(game_id).session
        except GameNotFoundError:
            return "gone"
        if session.in_play:
            return "playing"
        if session.tournament is None or session.ended_at is None:
            return "gone"
        # What the table's end wrote (the ENDED item) is this same reading of the session.
        return result_of(session)

    def open_table(  # noqa: PLR0917 - a tournament table, spelled out
        self,
        tournament_id: str,
        game_id: str,
        seats: Sequence[TableSeat],
        settings: GameSettings,
        server_seed: str,
        deal: str | None,
        now: datetime,
    ) -> bool:
        ctx = self._ctx
        connections = {
            seat.player_id: ctx.players.get(seat.player_id).connection_id for seat in seats
        }
        first = seats[0]
        session = lobby.create(
            game_id,
            first.player_id,
            connections[first.player_id],
            settings,
            now,
            server_seed=server_seed,
            nickname=first.nickname,
        )
        session.seats.extend(
            Seat(player_id=s.player_id, connection_id=connections[s.player_id], nickname=s.nickname)
            for s in seats[1:]
        )
        for seat in session.seats:
            seat.present = seat.connection_id is not None
        session.tournament = tournament_id
        if deal is not None and session.fair is not None:
            session.fair.deal = deal
        for attempt in (1, 2):
            try:
                ctx.games.create(session, players=dict.fromkeys(connections, "seat"), now=now)
            except SeatTakenError:
                if attempt == 2 or not _freed(ctx, connections, now):
                    logger.info("tournament table not made: a player sits elsewhere",
                                game_id=game_id)  # fmt: skip
                    return False
                continue
            except GameExistsError:
                pass  # made by a run that stopped before it said so: started below if need be
            break
        applied = ctx.writer.apply(game_id, lambda s: _started(s, now, ctx), now)
        carry_out(applied)
        broadcast(ctx, applied)
        for connection_id in connections.values():
            if connection_id is not None:
                ctx.notifier.send(
                    connection_id, TournamentGameFrame(tournament_id=tournament_id, game_id=game_id)
                )
        metrics.add_metric(name="TournamentTableMade", unit=MetricUnit.Count, value=1)
        logger.info("tournament table made", game_id=game_id, players=len(connections))
        return applied.session.status != "deleted"


def _freed(ctx: GameContext, players: Iterable[str], now: datetime) -> bool:
    """Seats still held for games that no longer hold them freed; False when a player sits at
    a game under way (or is cooling down)."""
    freed = False
    for player_id in players:
        try:
            freed = freed_stale_seat(ctx, player_id, now) or freed
        except YambError:
            return False
    return freed


def _started(session: GameSession, now: datetime, ctx: GameContext) -> Effects | None:
    if session.status != "waiting":
        return None  # started before
    lobby.start(session, session.creator, now, ctx.dice)
    return Effects()
