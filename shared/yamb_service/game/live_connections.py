"""The one live connection of a player (A2), as the account service closes it."""

from typing import Literal

from yamb.i18n import DEFAULT_LANGUAGE, Plural, Text
from yamb.protocol import DisconnectedFrame, sentence

from yamb_service.edge.notifier import Notifier
from yamb_service.game.ports import PlayerRepository


class PlayerConnections:
    def __init__(self, players: PlayerRepository, notifier: Notifier) -> None:
        self._players = players
        self._notifier = notifier

    def close(
        self,
        player_id: str,
        *,
        reason: Text | Plural | str,
        code: Literal["signed_out", "signed_in_elsewhere"] = "signed_out",
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        connection_id = self._players.get(player_id).connection_id
        if connection_id is None:
            return
        # Its $disconnect then runs as for any closed connection (presence, seat away).
        if self._notifier.send(
            connection_id, DisconnectedFrame(code=code, reason=sentence(reason, language))
        ):
            self._notifier.close(connection_id)
