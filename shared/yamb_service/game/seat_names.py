"""A purged player's nickname taken out of the games that still hold it (A7, docs/accounts.md).

A seat keeps the nickname its player sat down with, for the clients to show; a game item is kept
30 days after its end. The games the player's record names (the last one, the seat's, the slow
ones) are the ones that may still be there when the purge comes 30 days after the deletion was
asked (a game that ended before then has expired): each of their seats of that player is renamed
to the purged account's id name, one conditional write on the game's version (a race's loser
reads the game again)."""

from datetime import datetime

from yamb.i18n import Text

from yamb_service.game.ports import (
    GameNotFoundError,
    GameRepository,
    PlayerRepository,
    StaleGameError,
)

ATTEMPTS = 5


class SeatNames:
    def __init__(self, games: GameRepository, players: PlayerRepository) -> None:
        self._games = games
        self._players = players

    def rename_seats(
        self, player_id: str, nickname: str, now: datetime, *, only_in_play: bool = False
    ) -> int:
        """The player's seats, in the games their record names, renamed `nickname`; how many
        games were written. With `only_in_play` (a nickname change, A5) only games still waiting
        or running: a finished game keeps the name it was played under. A game gone is skipped;
        StaleGameError after ATTEMPTS races."""
        record = self._players.get(player_id)
        named = {record.game_id, record.seated_in, *record.slow_games}
        written = 0
        for game_id in sorted(g for g in named if g):
            written += self._rename(game_id, player_id, nickname, now, only_in_play)
        return written

    def _rename(
        self, game_id: str, player_id: str, nickname: str, now: datetime, only_in_play: bool
    ) -> int:
        for _ in range(ATTEMPTS):
            try:
                loaded = self._games.load(game_id)
            except GameNotFoundError:
                return 0
            session = loaded.session
            if only_in_play and not session.in_play:
                return 0
            seats = [s for s in session.seats if s.player_id == player_id]
            if all(seat.nickname == nickname for seat in seats):
                return 0
            for seat in seats:
                seat.nickname = nickname
            try:
                self._games.save(session, watchers=loaded.watchers, links=loaded.links, now=now)
            except StaleGameError:
                continue
            return 1
        raise StaleGameError(
            Text("game {game_id} kept changing while a seat was renamed", game_id=game_id)
        )
