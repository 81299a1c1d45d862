"""Frames to clients: the answer to the one who acted, the game to everyone at the table, and
forgetting connections that are gone."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from yamb.protocol import ClientAction, Frame, GameFrame, GameView
from yamb.session.model import GameSession
from yamb.session.views import game_view

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.edge.caller import Caller
from yamb_service.edge.notifier import Notifier
from yamb_service.game.ports import PlayerRepository

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

    def deliver(self, connection_id: str, frame: Frame) -> bool:
        """Sends one frame to a connection that is no seat's (a spectator); False when gone."""
        return self._sent(connection_id, frame)

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
        follows: Mapping[str, str] | None = None,
    ) -> "Undelivered":
        """The game to every present seat and spectator; `answer` (the caller and their
        action) gets it with the action's requestId and name: its answer. Returns the seats and
        spectators whose connections are gone. A seat's connection bound less than HANDSHAKE
        ago may still be in its handshake, which API Gateway answers Gone too: it is left for
        the client, which syncs once open (or for its $disconnect).

        Where the game type hides dice, each recipient gets a view of its own (views.game_view):
        a player sees their own turn, a spectator the turn of the player it follows."""
        views = _Views(session)
        gone = Undelivered()
        answered = None
        if answer is not None:
            caller, action = answer
            answered = caller.connection_id
            shown = views.shows_for_player(caller.player_id)
            reply = GameFrame(
                request_id=action.request_id, action=action.action, game=views.view(shown)
            )
            self.send(caller, reply)
        for seat in session.seats:
            connection = seat.connection_id
            if connection is None or connection in (skip, answered) or seat.left:
                continue
            if not seat.present:
                continue
            frame = views.frame(views.shows_for_player(seat.player_id))
            if not self._sent(connection, frame) and self.players.unbind_connection(
                seat.player_id, connection, bound_before=now - HANDSHAKE
            ):
                gone.seats.append(Caller(seat.player_id, connection))
        follows = follows or {}
        # A connection that watched the table before taking a seat is a player now: it gets
        # its seat's view only (a spectator's would show another player's hidden dice).
        seated = {seat.connection_id for seat in session.seats if seat.connection_id is not None}
        gone.spectators = [
            connection
            for connection in spectators
            if connection not in (skip, answered)
            and connection not in seated
            and not self._sent(
                connection, views.frame(views.shows_for_spectator(follows.get(connection)))
            )
        ]
        return gone


class _Views:
    """The views of one broadcast, each built once: one for everyone turn by turn; one per
    player whose turn is shown where the type hides dice."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self._frames: dict[str | None, GameFrame] = {}

    def shows_for_player(self, player_id: str) -> str | None:
        return player_id if self.session.own_turns else None

    def shows_for_spectator(self, follows: str | None) -> str | None:
        return spectator_shows(self.session, follows)

    def view(self, shows: str | None) -> GameView:
        return self.frame(shows).game  # type: ignore[return-value]

    def frame(self, shows: str | None) -> GameFrame:
        frame = self._frames.get(shows)
        if frame is None:
            frame = self._frames[shows] = GameFrame(game=game_view(self.session, shows))
        return frame


def spectator_shows(session: GameSession, follows: str | None) -> str | None:
    """Whose own turn a spectator sees: the player it follows while they still play, else the
    first player still playing; None turn by turn (everyone sees the turn being played)."""
    if not session.own_turns:
        return None
    remaining = [session.seats[i].player_id for i in session.remaining_seats()]
    if follows in remaining:
        return follows
    return remaining[0] if remaining else None
