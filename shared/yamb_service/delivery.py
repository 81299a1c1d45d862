"""Frames to clients: the answer to the one who acted, the game to everyone at the table, and
forgetting connections that are gone."""

from yamb.protocol import ClientAction, Frame, GameFrame
from yamb.session.model import GameSession
from yamb.session.views import game_view

from yamb_service.caller import Caller
from yamb_service.notifier import Notifier
from yamb_service.ports import PlayerRepository


class Delivery:
    def __init__(self, notifier: Notifier, players: PlayerRepository) -> None:
        self.notifier = notifier
        self.players = players

    def send(self, caller: Caller, frame: Frame) -> bool:
        if self.notifier.send(caller.connection_id, frame):
            return True
        self.players.unbind_connection(caller.player_id, caller.connection_id)
        return False

    def broadcast(
        self,
        session: GameSession,
        *,
        answer: tuple[Caller, ClientAction] | None = None,
        skip: str | None = None,
    ) -> list[str]:
        """The game to every present seat and spectator; `answer` (the caller and their
        action) gets it with the action's requestId and name: its answer. Returns the
        spectators gone."""
        view = game_view(session)
        frame = GameFrame(game=view)
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
            if not self.notifier.send(connection, frame):
                self.players.unbind_connection(seat.player_id, connection)
        return [
            connection
            for connection in session.spectators
            if connection not in (skip, answered) and not self.notifier.send(connection, frame)
        ]
