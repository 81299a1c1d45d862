"""The purge's renaming of a player's seats (yamb_service.game.seat_names) on moto: the games
the player's record names are rewritten on their version, a race is read again, a game gone
is skipped, another player's seat is left as it was."""

from datetime import UTC, datetime
from typing import Any

import pytest
from yamb.session import lobby
from yamb.settings import GameSettings
from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
from yamb_service.game.ports import StaleGameError
from yamb_service.game.seat_names import ATTEMPTS, SeatNames

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def _table(games: DynamoGameRepository, game_id: str, players: dict[str, str]) -> None:
    """A waiting table of `players` (id: nickname), each seated there."""
    (creator, nickname), *others = players.items()
    session = lobby.create(
        game_id,
        creator,
        None,
        GameSettings(players=4),
        NOW,
        server_seed="1" * 64,
        nickname=nickname,
    )
    for player_id, name in others:
        lobby.join(session, player_id, None, name)
    games.create(session, players=dict.fromkeys(players, "seat"), now=NOW)


def _names(games: DynamoGameRepository, game_id: str) -> dict[str, str | None]:
    return {s.player_id: s.nickname for s in games.load(game_id).session.seats}


def test_rename_seats_renames_the_players_seat_and_no_other(table: str, item: Any) -> None:
    # given ana and ben at a table under their nicknames
    games, players = DynamoGameRepository(item), DynamoPlayerRepository(item)
    _table(games, "t-1", {"ana": "Ana", "ben": "Ben"})

    # when ana's seats are renamed, twice
    first = SeatNames(games, players).rename_seats("ana", "#0123456789ab", NOW)
    again = SeatNames(games, players).rename_seats("ana", "#0123456789ab", NOW)

    # then her seat shows the id name, ben's is as it was, and the second wrote nothing
    assert _names(games, "t-1") == {"ana": "#0123456789ab", "ben": "Ben"}
    assert (first, again) == (1, 0)


def test_rename_seats_reads_a_game_again_after_a_race(
    table: str, item: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana at a table, and ben joining it between the rename's read and its write
    games, players = DynamoGameRepository(item), DynamoPlayerRepository(item)
    _table(games, "t-2", {"ana": "Ana"})
    load = games.load
    raced: list[str] = []

    def load_then_race(game_id: str) -> Any:
        loaded = load(game_id)
        if not raced:
            raced.append(game_id)
            other = load(game_id).session
            lobby.join(other, "ben", None, "Ben")
            games.save(other, players={"ben": "seat"}, now=NOW)
        return loaded

    monkeypatch.setattr(games, "load", load_then_race)

    # when ana's seats are renamed
    written = SeatNames(games, players).rename_seats("ana", "#0123456789ab", NOW)

    # then the write that lost the race was made again on the game as ben left it
    assert raced == ["t-2"] and written == 1
    assert _names(games, "t-2") == {"ana": "#0123456789ab", "ben": "Ben"}


def test_rename_seats_gives_up_after_its_attempts(
    table: str, item: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a table that changes at every attempt
    games, players = DynamoGameRepository(item), DynamoPlayerRepository(item)
    _table(games, "t-3", {"ana": "Ana"})
    saves: list[int] = []

    def always_stale(*args: Any, **kwargs: Any) -> None:
        saves.append(1)
        raise StaleGameError("changed")

    monkeypatch.setattr(games, "save", always_stale)

    # when ana's seats are renamed / then it fails after ATTEMPTS writes, and nothing changed
    with pytest.raises(StaleGameError):
        SeatNames(games, players).rename_seats("ana", "#0123456789ab", NOW)
    assert len(saves) == ATTEMPTS
    assert _names(games, "t-3") == {"ana": "Ana"}


def test_rename_seats_skips_a_game_gone_and_a_player_without_games(table: str, item: Any) -> None:
    # given a player whose record names a game that no longer exists, and one with no record
    games, players = DynamoGameRepository(item), DynamoPlayerRepository(item)
    _table(games, "t-4", {"ana": "Ana"})
    item("GAME#t-4", "GAME").delete()

    # when their seats are renamed / then nothing is written and nothing fails
    assert SeatNames(games, players).rename_seats("ana", "#0123456789ab", NOW) == 0
    assert SeatNames(games, players).rename_seats("nobody", "#0123456789ab", NOW) == 0


def test_rename_seats_renames_a_game_whose_seat_was_relinked(table: str, item: Any) -> None:
    # given ana and ben at a table, ben's seat relinked to a new connection (no new version)
    games, players = DynamoGameRepository(item), DynamoPlayerRepository(item)
    _table(games, "t-5", {"ana": "Ana", "ben": "Ben"})
    assert games.relink(games.load("t-5"), "ben", "conn-ben-2")

    # when ana's seats are renamed
    written = SeatNames(games, players).rename_seats("ana", "#0123456789ab", NOW)

    # then her seat is renamed, and ben's seat keeps its new connection
    assert written == 1
    assert _names(games, "t-5") == {"ana": "#0123456789ab", "ben": "Ben"}
    assert games.load("t-5").session.seats[1].connection_id == "conn-ben-2"
