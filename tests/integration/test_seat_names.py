"""The purge's renaming of a player's seats (yamb_service.game.seat_names) on moto: the games
the player's record names are rewritten on their version, a race is read again, a game gone
is skipped, another player's seat is left as it was; and a nickname change's (A5) through the
game service: the games still in play show the new name, a finished game keeps the old one."""

from datetime import UTC, datetime
from typing import Any

import pytest
from yamb.session import lobby
from yamb.settings import GameSettings
from yamb_service.edge.caller import Caller
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


# ----------------------------------------------------------------------------- A5 rename

ANA = Caller("ana", "conn-ana", nickname="Ana")
BEN = Caller("ben", "conn-ben", nickname="Ben")
CLEO = Caller("cleo", "conn-cleo", nickname="Cleo")
SLOW = {"turnType": "slow", "turnSeconds": None, "slowDeadlineHours": 48, "preset": None}


def rename(harness: Any, player_id: str, nickname: str) -> int:
    """A nickname change's renaming: the seats of games still in play."""
    names = SeatNames(harness.games, harness.players)
    return names.rename_seats(player_id, nickname, harness.clock(), only_in_play=True)


def nicknames(harness: Any, game_id: str) -> list[str | None]:
    return [seat.nickname for seat in harness.session(game_id).seats]


def test_rename_shows_the_new_nickname_in_running_and_slow_games(harness: Any) -> None:
    # given ana plays a running game with ben and a slow game with cleo
    running = harness.running_game(ANA, BEN)
    slow = harness.running_game(ANA, CLEO, columns=["free"], **SLOW)
    assert nicknames(harness, running)[0] == "Ana"

    # when she is renamed
    renamed = rename(harness, "ana", "Anabel")

    # then both games show her new name, the others' names unchanged
    assert renamed == 2
    assert nicknames(harness, running) == ["Anabel", "Ben"]
    assert nicknames(harness, slow) == ["Anabel", "Cleo"]

    # and the next frame of the table carries it
    harness.write_any(ANA, running)
    assert harness.last_game(BEN)["seats"][0]["nickname"] == "Anabel"


def test_rename_in_a_waiting_table_and_not_in_a_finished_game(harness: Any) -> None:
    # given ana resigned a game with ben (finished), then sat at cleo's waiting table
    finished = harness.running_game(ANA, BEN)
    harness.ack(ANA, harness.act(ANA, "resign", gameId=finished))
    harness.connect(CLEO)
    waiting = harness.create_game(CLEO, players=2)
    harness.ack(ANA, harness.act(ANA, "join_game", gameId=waiting))
    version = harness.session(finished).version

    # when she is renamed
    rename(harness, "ana", "Anabel")

    # then the waiting table shows the new name; the finished game is left as it was played
    assert nicknames(harness, waiting) == ["Cleo", "Anabel"]
    assert nicknames(harness, finished)[0] == "Ana"
    assert harness.session(finished).version == version


def test_rename_losing_a_race_to_a_move_is_written_again(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's game, where another write lands between the rename's read and its save
    game_id = harness.running_game(ANA, BEN)
    real_save = harness.games.save
    raced: list[bool] = []

    def save(session: Any, **write: Any) -> None:
        if not raced:
            raced.append(True)
            real_save(harness.session(game_id), now=harness.clock())
        real_save(session, **write)

    monkeypatch.setattr(harness.games, "save", save)

    # when she is renamed
    rename(harness, "ana", "Anabel")

    # then the rename was read again and written on the new version
    assert raced == [True]
    assert nicknames(harness, game_id)[0] == "Anabel"
