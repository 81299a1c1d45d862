"""Frames to clients: the answer to the one who acted, the game to everyone at the table, and
forgetting connections that are gone."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from yamb.protocol import ClientAction, Frame, GameFrame
from yamb.session.model import GameSession
from yamb.session.views import game_view

from yamb_service.caller import Caller
from yamb_service.notifier import Notifier
from yamb_service.observability import MetricUnit, logger, metrics
from yamb_service.ports import PlayerRepository

# Longer than API Gateway lets a $connect run (29 s): a connection bound earlier is open or gone.
HANDSHAKE = timedelta(seconds=30)


@dataclass(slots=True)
class Undelivered:
    """Who a broadcast found gone: seats (to mark away) and spectators (to forget)."""

    seats: list[Caller] = field(default_factory=list)
    spectators: list[str] = field(default_factory=list)


class Delivery:
    def __init__(self, notifier: Notifier, players: PlayerRepository) -> None:
        self.notifier = notifier
        self.players = players

    def send(self, caller: Caller, frame: Frame) -> bool:
        """True when delivered; a connection found gone is forgotten."""
        if self._sent(caller.connection_id, frame):
            return True
        self.players.unbind_connection(caller.player_id, caller.connection_id)
        return False

    def _sent(self, connection_id: str, frame: Frame) -> bool:
        """Sends one frame; a failure (throttled, unreachable) is logged and counted, and the
        others are still sent: the change is stored, and the client can sync."""
        try:
            return self.notifier.send(connection_id, frame)
        except Exception:
            logger.exception("frame not delivered", frame=frame.__class__.__name__)
            metrics.add_metric(name="FrameNotDelivered", unit=MetricUnit.Count, value=1)
            return True  # not known to be gone

    def broadcast(
        self,
        session: GameSession,
        spectators: list[str],
        *,
        now: datetime,
        answer: tuple[Caller, ClientAction] | None = None,
        skip: str | None = None,
    ) -> "Undelivered":
        """The game to every present seat and spectator; `answer` (the caller and their
        action) gets it with the action's requestId and name: its answer. Returns the seats and
        spectators whose connections are gone. A seat's connection bound less than HANDSHAKE
        ago may still be in its handshake, which API Gateway answers Gone too: it is left for
        the client, which syncs once open (or for its $disconnect)."""
        view = game_view(session)
        frame = GameFrame(game=view)
        gone = Undelivered()
        answered = None
        if answer is not None:
            caller, action = answer
            answered = caller.connection_id
            reply = GameFrame(request_id=action.request_id, action=action.action, game=view)
            self.send(caller, reply)
        for seat in session.seats:
            connection = seat.connection_id
            if connection is None or connection in (skip, answered) or seat.left:
                continue
            if not seat.present:
                continue
            if not self._sent(connection, frame) and self.players.unbind_connection(
                seat.player_id, connection, bound_before=now - HANDSHAKE
            ):
                gone.seats.append(Caller(seat.player_id, connection))
        gone.spectators = [
            connection
            for connection in spectators
            if connection not in (skip, answered) and not self._sent(connection, frame)
        ]
        return gone
