"""The game service on moto's DynamoDB: every client action, connection event and deadline, and
every way each can be refused, with recording adapters for frames and deadline timers."""

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from yamb.competition.ratings import Rating
from yamb.session import presence
from yamb.session.effects import Effects
from yamb.session.results import GameResult
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.competition.dynamo import DynamoRatingStore
from yamb_service.edge.caller import Caller
from yamb_service.game.lobby import game_id_for
from yamb_service.game.ports import StaleGameError
from yamb_service.game.service import GameService
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.results.service import ResultsRecorder

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
CLEO = Caller("cleo", "conn-cleo")
DAN = Caller("dan", "conn-dan")

FREE_COLUMN = {"columns": ["free"]}  # 13 cells in any order: short games


def cell_value(view: dict[str, Any], player_id: str, column: str, row: str) -> int | None:
    (sheet,) = [s for s in view["sheets"] if s["playerId"] == player_id]
    value: int | None = sheet["cells"].get(column, {}).get(row)
    return value


def filled_cells(harness: Any, game_id: str, seat: int) -> int:
    game = harness.session(game_id).game()
    return sum(bin(mask).count("1") for mask in game.sheets[seat].filled)


def legal_score(view: dict[str, Any], column: str, row: str) -> int:
    (score,) = [
        c["score"] for c in view["turn"]["legal"] if (c["column"], c["row"]) == (column, row)
    ]
    return int(score)


def lane_fires_at(harness: Any, game_id: str) -> Any:
    """When the game's running lane wakes it, unless a heartbeat comes first."""
    (lane,) = harness.timers.running_lanes(game_id)
    return lane.fires_at


# ============================================================================ the table


def test_game_table_is_created_as_template_declares(table: str) -> None:
    # given the table the fixture created from template.yaml's GameTable
    client = boto3.client("dynamodb", region_name="us-east-1")

    # when it is described
    described = client.describe_table(TableName=table)["Table"]
    ttl = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]

    # then it has the keys, the open-games index and the TTL attribute the repository uses
    assert {k["AttributeName"]: k["KeyType"] for k in described["KeySchema"]} == {
        "pk": "HASH",
        "sk": "RANGE",
    }
    (index,) = described["GlobalSecondaryIndexes"]
    assert index["IndexName"] == "gsi1"
    assert index["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["summary"]}
    assert ttl == {"AttributeName": "expires_at", "TimeToLiveStatus": "ENABLED"}


# ============================================================================ create_game


def test_create_game_valid_settings_acks_and_shows_waiting_table(harness: Any) -> None:
    # given ana is connected and in no game
    harness.connect(ANA)

    # when she creates a two-player game
    request_id = harness.act(ANA, "create_game", settings={"players": 2, "preset": 1})

    # then she gets an ack naming the game, and the waiting table with her seat
    ack = harness.ack(ANA, request_id)
    assert ack["gameId"] == game_id_for("ana", request_id)
    assert ack["version"] == 1
    view = harness.last_game(ANA)
    assert view["status"] == "waiting"
    assert view["creator"] == "ana"
    assert [s["playerId"] for s in view["seats"]] == ["ana"]
    assert harness.players.get("ana").game_id == ack["gameId"]
    assert harness.timers.log.lanes_started == harness.timers.log.wakes_started == 0


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"ranked": True, "dice": 6, "preset": 1}, ("ranked", "dice")),
        ({"players": 2, "pairs": True, "preset": 1}, ("pairs", "players")),
        ({"players": 2, "preset": 1, "colour": "red"}, ("colour",)),
        ({"players": 2}, ("preset", "columns")),
        ({"players": 2, "preset": 1, "turnSeconds": 5}, ("turnSeconds",)),
        ({"players": 2, "preset": 1, "turnType": "slow"}, ("turnType", "slowDeadlineHours")),
    ],
)
def test_create_game_invalid_settings_error_names_settings(
    harness: Any, settings: dict[str, Any], named: tuple[str, ...]
) -> None:
    # given ana is in no game
    # when she creates a game with settings that exclude each other
    request_id = harness.act(ANA, "create_game", settings=settings)

    # then an invalid_settings error names every setting involved, in its message for people
    # and in its fields (camelCase, as sent) for the client to mark, and nothing is stored
    error = harness.error(ANA, request_id)
    assert error["code"] == "invalid_settings"
    for name in named:
        assert name in error["message"] or name in error["fields"]
    assert set(named) <= set(error["fields"])
    assert harness.games.list_open(10) == []
    assert harness.players.get("ana").game_id is None


def test_create_game_when_already_in_game_refused(harness: Any) -> None:
    # given ana sits at a waiting table
    first = harness.create_game(ANA, players=2)

    # when she creates another game
    request_id = harness.act(ANA, "create_game", settings={"players": 2, "preset": 1})

    # then she is told she already plays, and only the first game exists
    assert harness.error(ANA, request_id)["code"] == "already_in_game"
    assert [g.game_id for g in harness.games.list_open(10)] == [first]


def test_create_game_repeated_request_returns_same_game(harness: Any) -> None:
    # given ana created a game with a request whose ack may have been lost
    request_id = harness.act(ANA, "create_game", settings={"players": 2, "preset": 1})
    first = harness.ack(ANA, request_id)

    # when the same request arrives again
    harness.act(ANA, "create_game", settings={"players": 2, "preset": 1}, requestId=request_id)

    # then it is acked with the same game and version, and no second game exists
    acks = harness.answers(ANA, request_id)
    assert [f["type"] for f in acks] == ["game", "ack"], acks
    assert acks[1]["gameId"] == first["gameId"]
    assert acks[1]["version"] == first["version"]
    assert [g.game_id for g in harness.games.list_open(10)] == [first["gameId"]]


# ============================================================================ list_games


def test_list_games_waiting_first_then_running_newest_first(harness: Any) -> None:
    # given two waiting and two running games, created one minute apart
    old_waiting = harness.create_game(ANA, players=2)
    harness.clock.advance(minutes=1)
    old_running = harness.running_game(BEN, players=1)
    harness.clock.advance(minutes=1)
    new_waiting = harness.create_game(CLEO, players=3)
    harness.clock.advance(minutes=1)
    new_running = harness.running_game(DAN, players=1)

    # when anyone lists the games
    request_id = harness.act(ANA, "list_games")

    # then waiting games come first, then running ones, newest first in each
    frame = harness.answer(ANA, request_id)
    assert frame["type"] == "game_list"
    listed = [(g["gameId"], g["status"]) for g in frame["games"]]
    assert listed == [
        (new_waiting, "waiting"),
        (old_waiting, "waiting"),
        (new_running, "running"),
        (old_running, "running"),
    ]
    assert frame["games"][1]["players"] == ["ana"]
    assert frame["games"][1]["seats"] == 2


def test_list_games_shows_each_waiting_players_rating_in_the_tables_pool(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana rated in 3-player preset 2 (established) and in preset 1 (provisional), ben
    # never rated; a preset-2 table of ana and ben, a preset-1 table of cleo's, a solo table
    store = DynamoRatingStore(harness.games._item)
    rated = {
        "individual/yamb-2": Rating(player_id="ana", pool="individual/yamb-2", mu=30, sigma=4),
        "individual/yamb-1": Rating(player_id="ana", pool="individual/yamb-1", mu=26, sigma=7),
    }
    assert store.rate_game("g-old", harness.clock(), {}, {"ana": rated["individual/yamb-2"]})
    assert store.rate_game("g-older", harness.clock(), {}, {"ana": rated["individual/yamb-1"]})
    harness.connect(ANA, BEN, CLEO)
    two = harness.create_game(ANA, players=3, preset=2)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=two))
    harness.clock.advance(minutes=1)
    one = harness.create_game(CLEO, players=2)
    harness.clock.advance(minutes=1)
    harness.create_game(DAN, players=1)
    reads: list[int] = []
    batch_get = harness.games._item.batch_get

    def counted(keys: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(len(keys))
        return batch_get(keys, *args, **kwargs)

    monkeypatch.setattr(harness.games._item, "batch_get", counted)

    # when anyone lists the games
    games = {g["gameId"]: g for g in harness.answer(ANA, harness.act(ANA, "list_games"))["games"]}

    # then each waiting person has their rating in the table's pool, "?" while provisional, a
    # newcomer the starting 1500?; the solo table has no pool; all read in one request
    assert games[two]["pool"] == "individual/yamb-2"
    assert games[two]["ratings"] == {
        "ana": {"rating": 1800, "deviation": 240, "provisional": False, "games": 0},
        "ben": {"rating": 1500, "deviation": 500, "provisional": True, "games": 0},
    }
    assert games[one]["ratings"]["cleo"]["rating"] == 1500
    solo = [g for g in games.values() if g["seats"] == 1]
    assert solo[0]["pool"] is None and solo[0]["ratings"] == {}
    assert reads == [3]


def test_list_games_lists_a_table_that_starts_meanwhile_once_as_running(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a waiting table of ben's alone, which he starts just after the list has read the
    # waiting tables and before it reads the running ones
    game_id = harness.create_game(BEN, players=1)
    index = harness.games._item.gsi1
    query = index.query

    def racing_query(key: str, *args: Any, **kwargs: Any) -> Any:
        answered = list(query(key, *args, **kwargs))
        if key == "OPEN#waiting":
            harness.ack(BEN, harness.act(BEN, "start_game", gameId=game_id))
        return iter(answered)

    monkeypatch.setattr(index, "query", racing_query)

    # when anyone lists the games
    request_id = harness.act(ANA, "list_games")

    # then the table is listed once, as the running game it has become
    listed = [(g["gameId"], g["status"]) for g in harness.answer(ANA, request_id)["games"]]
    assert listed == [(game_id, "running")]


def test_list_games_leaves_out_finished_games(harness: Any) -> None:
    # given a game that ended (its only player resigned)
    game_id = harness.running_game(ANA, players=1)
    harness.ack(ANA, harness.act(ANA, "resign", gameId=game_id))

    # when the games are listed
    request_id = harness.act(BEN, "list_games")

    # then the finished game is not offered
    assert harness.session(game_id).status != "running"
    assert harness.answer(BEN, request_id)["games"] == []


# ============================================================================ join_game


def test_join_game_seats_player_and_tells_table(harness: Any) -> None:
    # given ana waits at a two-player table
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)

    # when ben joins
    request_id = harness.act(BEN, "join_game", gameId=game_id)

    # then both see the two seats, and ben's record points at the game
    assert harness.ack(BEN, request_id)["gameId"] == game_id
    for caller in (ANA, BEN):
        assert [s["playerId"] for s in harness.last_game(caller)["seats"]] == ["ana", "ben"]
    assert harness.players.get("ben").game_id == game_id


def test_join_game_when_table_full_refused(harness: Any) -> None:
    # given a full two-player table
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when cleo tries to join
    request_id = harness.act(CLEO, "join_game", gameId=game_id)

    # then she is refused and the table is unchanged
    assert harness.error(CLEO, request_id)["code"] == "table_full"
    assert harness.session(game_id).player_ids == ["ana", "ben"]
    assert harness.players.get("cleo").game_id is None


def test_join_game_when_already_seated_refused(harness: Any) -> None:
    # given ben sits at ana's waiting three-player table
    game_id = harness.create_game(ANA, players=3)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ben joins again with a new request
    request_id = harness.act(BEN, "join_game", gameId=game_id)

    # then he is refused (he already sits there) and keeps one seat
    assert harness.error(BEN, request_id)["code"] == "already_seated"
    assert harness.session(game_id).player_ids == ["ana", "ben"]


def test_join_game_when_running_refused(harness: Any) -> None:
    # given a running game
    game_id = harness.running_game(ANA, BEN)

    # when cleo tries to join it
    request_id = harness.act(CLEO, "join_game", gameId=game_id)

    # then the game is no longer open
    assert harness.error(CLEO, request_id)["code"] == "wrong_status"


def test_join_game_unknown_game_refused(harness: Any) -> None:
    # when ben joins a game that does not exist
    request_id = harness.act(BEN, "join_game", gameId="no-such-game")

    # then he is told so
    assert harness.error(BEN, request_id)["code"] == "game_not_found"


def test_join_game_during_cooldown_after_disappearance_refused(harness: Any) -> None:
    # given ana disappeared from a running game after playing a turn (not back in 3 minutes)
    game_id = harness.running_game(ANA, BEN)
    harness.write_any(ANA, game_id)
    harness.write_any(BEN, game_id)
    harness.service.disconnect(ANA)
    harness.advance(minutes=3)
    assert harness.session(game_id).seats[0].left
    table = harness.create_game(CLEO, players=2)

    # when she joins another table during her cooldown
    refused = harness.act(ANA, "join_game", gameId=table)

    # then she is refused with a cooldown error, and admitted once the 5 minutes are over
    assert harness.error(ANA, refused)["code"] == "cooldown"
    harness.clock.advance(minutes=5)
    admitted = harness.act(ANA, "join_game", gameId=table)
    assert harness.ack(ANA, admitted)["gameId"] == table


# ============================================================================ leave_game


def test_leave_game_by_creator_passes_creation_to_next_player(harness: Any) -> None:
    # given ana created a table where ben and cleo sit
    harness.connect(ANA, BEN, CLEO)
    game_id = harness.create_game(ANA, players=3)
    harness.act(BEN, "join_game", gameId=game_id)
    harness.act(CLEO, "join_game", gameId=game_id)

    # when ana leaves before the start
    request_id = harness.act(ANA, "leave_game", gameId=game_id)

    # then ben is the creator, ana is free, and the others are told
    harness.ack(ANA, request_id)
    session = harness.session(game_id)
    assert session.creator == "ben"
    assert session.player_ids == ["ben", "cleo"]
    assert harness.players.get("ana").game_id is None
    assert harness.last_game(CLEO)["creator"] == "ben"


def test_leave_game_by_last_player_deletes_game(harness: Any) -> None:
    # given ana waits alone at her table
    game_id = harness.create_game(ANA, players=2)

    # when she leaves
    request_id = harness.act(ANA, "leave_game", gameId=game_id)
    harness.ack(ANA, request_id)

    # then the game is gone: unlisted, kept a day only as deleted, and a repeat of her leave is
    # answered as the first one was
    assert harness.session(game_id).status == "deleted"
    assert harness.games.list_open(10) == []
    assert harness.players.get("ana").game_id is None
    harness.act(ANA, "leave_game", gameId=game_id, requestId=request_id)
    assert [a["type"] for a in harness.answers(ANA, request_id)] == ["ack", "ack"]


def test_leave_game_when_running_refused(harness: Any) -> None:
    # given a running game
    game_id = harness.running_game(ANA, BEN)

    # when ben tries to leave it as if it were waiting
    request_id = harness.act(BEN, "leave_game", gameId=game_id)

    # then he is refused (resigning is the way out)
    assert harness.error(BEN, request_id)["code"] == "wrong_status"


# ============================================================================ edit_game


def test_edit_game_changes_settings_and_player_order(harness: Any) -> None:
    # given ben sits at ana's waiting table
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ana changes the columns and lets ben play first
    request_id = harness.act(
        ANA,
        "edit_game",
        gameId=game_id,
        settings={"players": 2, "preset": 2},
        playerOrder=["ben", "ana"],
    )

    # then the table shows both changes
    harness.ack(ANA, request_id)
    session = harness.session(game_id)
    assert session.settings.column_ids == ("down", "up", "free")
    assert session.player_ids == ["ben", "ana"]
    view = harness.last_game(BEN)
    assert view["settings"]["preset"] == 2
    assert [s["playerId"] for s in view["seats"]] == ["ben", "ana"]


def test_edit_game_by_non_creator_refused(harness: Any) -> None:
    # given ben sits at ana's table
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ben edits the settings
    request_id = harness.act(BEN, "edit_game", gameId=game_id, settings={"players": 2, "preset": 2})

    # then he is refused and nothing changes
    assert harness.error(BEN, request_id)["code"] == "not_creator"
    assert harness.session(game_id).settings.preset == 1


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"settings": {"players": 2, "preset": 1, "dice": 6, "ranked": True}}, "invalid_settings"),
        ({"settings": {"players": 1, "preset": 1}}, "too_many"),
        ({"playerOrder": ["ana", "cleo"]}, "bad_player_order"),
    ],
)
def test_edit_game_invalid_change_refused(harness: Any, fields: dict[str, Any], code: str) -> None:
    # given ben sits at ana's table
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ana makes an impossible change
    request_id = harness.act(ANA, "edit_game", gameId=game_id, **fields)

    # then it is refused with its reason
    assert harness.error(ANA, request_id)["code"] == code
    assert harness.session(game_id).player_ids == ["ana", "ben"]


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 2, "preset": 2},
        {"players": 2, "preset": 1, "dice": 6, "ranked": True},
    ],
)
def test_edit_game_on_a_running_game_is_wrong_status(
    harness: Any, settings: dict[str, Any]
) -> None:
    # given ana and ben's game is running
    game_id = harness.running_game(ANA, BEN)
    stored = harness.session(game_id)

    # when ana edits its settings, whether or not they would be valid
    request_id = harness.act(ANA, "edit_game", gameId=game_id, settings=settings)

    # then she is told the game is no longer waiting, and nothing changes
    error = harness.error(ANA, request_id)
    assert (error["code"], error["message"]) == ("wrong_status", "the game is running")
    assert harness.session(game_id).version == stored.version


def test_edit_game_with_invalid_settings_by_non_creator_is_not_creator(harness: Any) -> None:
    # given ben sits at ana's waiting table
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ben sends settings that are invalid too
    request_id = harness.act(
        BEN,
        "edit_game",
        gameId=game_id,
        settings={"players": 2, "preset": 1, "dice": 6, "ranked": True},
    )

    # then what he is told first is that the table is not his to edit
    assert harness.error(BEN, request_id)["code"] == "not_creator"


# ============================================================================ delete_game


def test_delete_game_by_non_creator_refused(harness: Any) -> None:
    # given ben sits at ana's table
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ben deletes it
    request_id = harness.act(BEN, "delete_game", gameId=game_id)

    # then he is refused and the game stays
    assert harness.error(BEN, request_id)["code"] == "not_creator"
    assert harness.session(game_id).player_ids == ["ana", "ben"]


def test_delete_game_tells_players_game_deleted(harness: Any) -> None:
    # given ben sits at ana's table
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ana deletes the game
    request_id = harness.act(ANA, "delete_game", gameId=game_id)

    # then both are told, both are free, and the game is gone
    harness.ack(ANA, request_id)
    for caller in (ANA, BEN):
        assert {"type": "game_deleted", "gameId": game_id} in harness.frames(caller)
        assert harness.players.get(caller.player_id).game_id is None
    assert harness.session(game_id).status == "deleted"
    assert harness.games.list_open(10) == []


def test_delete_game_repeated_and_late_create_repeat_change_nothing(harness: Any) -> None:
    # given ana created a table and deleted it
    create = harness.act(ANA, "create_game", settings={"players": 2, "preset": 1})
    game_id = harness.ack(ANA, create)["gameId"]
    delete = harness.act(ANA, "delete_game", gameId=game_id)

    # when both requests arrive again (a client retrying late)
    harness.act(ANA, "delete_game", gameId=game_id, requestId=delete)
    harness.act(ANA, "create_game", settings={"players": 2, "preset": 1}, requestId=create)

    # then the delete is acked again, and the table is not created again nor her seat taken
    assert [a["type"] for a in harness.answers(ANA, delete)] == ["ack", "ack"]
    assert harness.answers(ANA, create)[-1]["type"] == "ack"
    assert harness.session(game_id).status == "deleted"
    assert harness.players.get("ana").seated_in is None
    join = harness.act(BEN, "join_game", gameId=game_id)
    assert harness.error(BEN, join)["code"] == "wrong_status"


# ============================================================================ start_game


def test_start_game_when_table_not_full_refused(harness: Any) -> None:
    # given ana waits alone at a two-player table
    game_id = harness.create_game(ANA, players=2)

    # when she starts
    request_id = harness.act(ANA, "start_game", gameId=game_id)

    # then she is refused, the game still waits and no clock runs
    assert harness.error(ANA, request_id)["code"] == "table_not_full"
    assert harness.session(game_id).status == "waiting"
    assert harness.timers.log.lanes_started == harness.timers.log.wakes_started == 0


def test_start_game_by_non_creator_refused(harness: Any) -> None:
    # given a full table created by ana
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ben starts it
    request_id = harness.act(BEN, "start_game", gameId=game_id)

    # then only the creator may
    assert harness.error(BEN, request_id)["code"] == "not_creator"


def test_start_game_rolls_first_roll_and_starts_the_heartbeat_lane(harness: Any) -> None:
    # given a full two-player table with 60 s turns
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2, turn_seconds=60)
    harness.act(BEN, "join_game", gameId=game_id)

    # when ana starts the game
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # then everyone sees ana's turn at roll 1 with its deadline, the game's heartbeat lane runs
    # with the turn clock as its length, and until its first heartbeat a wake keeps the turn
    deadline = harness.clock() + timedelta(seconds=60)
    for caller in (ANA, BEN):
        view = harness.last_game(caller)
        assert view["status"] == "running"
        turn = view["turn"]
        assert (turn["number"], turn["playerId"], turn["roll"]) == (1, "ana", 1)
        assert len(turn["dice"]) == 5
        assert turn["canRoll"] is True
    assert harness.session(game_id).clock.deadline == deadline
    (lane,) = harness.timers.running_lanes(game_id)
    assert (lane.seconds, lane.fires_at) == (60, deadline)
    assert [wake.at for wake in harness.timers.waiting_wakes(game_id)] == [deadline]


# ============================================================================ roll


def test_roll_keeps_locked_dice_and_counts_roll(harness: Any) -> None:
    # given ana's turn at roll 1
    game_id = harness.running_game(ANA, BEN)
    before = harness.session(game_id).game().dice

    # when she locks dice 0 and 2 and rolls
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id, keep=[0, 2]))

    # then the locked dice keep their faces and this was roll 2
    game = harness.session(game_id).game()
    assert game.roll == 2
    assert (game.dice[0], game.dice[2]) == (before[0], before[2])
    assert harness.last_game(BEN)["turn"]["dice"] == list(game.dice)


def test_roll_all_locked_keeps_every_die(harness: Any) -> None:
    # given ana's turn at roll 1
    game_id = harness.running_game(ANA, BEN)
    before = harness.session(game_id).game().dice

    # when she locks all five dice and rolls
    harness.act(ANA, "roll", gameId=game_id, keep=[0, 1, 2, 3, 4])

    # then nothing changes but the roll count
    game = harness.session(game_id).game()
    assert (game.roll, game.dice) == (2, before)


@pytest.mark.parametrize(
    ("rolls_before", "keep", "code"), [(0, [5], "bad_keep"), (2, [], "no_rolls_left")]
)
def test_roll_refused(harness: Any, rolls_before: int, keep: list[int], code: str) -> None:
    # given ana's turn after some rerolls
    game_id = harness.running_game(ANA, BEN)
    for _ in range(rolls_before):
        harness.act(ANA, "roll", gameId=game_id)
    version = harness.session(game_id).version

    # when she rolls with a bad lock or after the third roll
    request_id = harness.act(ANA, "roll", gameId=game_id, keep=keep)

    # then the roll is refused and the game unchanged
    assert harness.error(ANA, request_id)["code"] == code
    assert harness.session(game_id).version == version


def test_roll_asked_at_an_older_count_is_refused_one_click_one_roll(harness: Any) -> None:
    # given ana's turn at roll 1, and her page's roll asked at roll 1 was made (roll 2)
    game_id = harness.running_game(ANA, BEN)
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id, keep=[], roll=1))
    version = harness.session(game_id).version

    # when a second roll asked at that same count arrives (the double click's second click)
    request_id = harness.act(ANA, "roll", gameId=game_id, keep=[], roll=1)

    # then it is refused, the turn stays at roll 2, and a roll at the count she sees now rolls
    assert harness.error(ANA, request_id)["code"] == "already_rolled"
    assert harness.session(game_id).version == version
    assert harness.session(game_id).game().roll == 2
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id, keep=[], roll=2))
    assert harness.session(game_id).game().roll == 3


# ============================================================================ announce


def test_announce_binds_turn_to_announced_cell(harness: Any) -> None:
    # given ana's turn at roll 1 with an announced column (preset 3: premium)
    harness.connect(ANA, BEN)
    harness.grant_premium(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, preset=3)

    # when she announces Yamb in the announced column
    harness.ack(ANA, harness.act(ANA, "announce", gameId=game_id, column="announced", row="yamb"))

    # then everybody sees the announcement, and it is the only legal cell
    turn = harness.last_game(BEN)["turn"]
    assert (turn["announcement"]["column"], turn["announcement"]["row"]) == ("announced", "yamb")
    assert [(c["column"], c["row"]) for c in turn["legal"]] == [("announced", "yamb")]


@pytest.mark.parametrize(
    ("column", "row", "rolls_before", "code"),
    [
        ("announced", "yamb", 1, "bad_announcement"),
        ("down", "ones", 0, "bad_announcement"),
        ("announced", "nines", 0, "unknown_cell"),
    ],
)
def test_announce_refused(
    harness: Any, column: str, row: str, rolls_before: int, code: str
) -> None:
    # given ana's turn with an announced column (preset 3: premium)
    harness.grant_premium(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, preset=3)
    for _ in range(rolls_before):
        harness.act(ANA, "roll", gameId=game_id)

    # when she announces too late, in a column without announcements, or an unknown row
    request_id = harness.act(ANA, "announce", gameId=game_id, column=column, row=row)

    # then the engine's code explains it and nothing is announced
    assert harness.error(ANA, request_id)["code"] == code
    assert harness.session(game_id).game().announcement is None


# ============================================================================ select


def test_select_shows_pending_choice_and_null_takes_it_back(harness: Any) -> None:
    # given ana's turn
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN)

    # when she selects Down/Ones
    harness.ack(ANA, harness.act(ANA, "select", gameId=game_id, column="down", row="ones"))

    # then the pending choice is shown with its score; a null select takes it back
    view = harness.last_game(BEN)
    pending = view["turn"]["pending"]
    assert (pending["column"], pending["row"]) == ("down", "ones")
    assert pending["score"] == legal_score(view, "down", "ones")
    harness.ack(ANA, harness.act(ANA, "select", gameId=game_id))
    assert harness.last_game(BEN)["turn"]["pending"] is None
    assert harness.session(game_id).pending is None


def test_select_illegal_cell_refused_with_engine_code(harness: Any) -> None:
    # given ana's turn with empty Down and Up columns
    game_id = harness.running_game(ANA, BEN)

    # when she selects Down/Yamb (Down is written from the top)
    request_id = harness.act(ANA, "select", gameId=game_id, column="down", row="yamb")

    # then the engine's reason is the error code
    assert harness.error(ANA, request_id)["code"] == "column_order"
    assert harness.session(game_id).pending is None


# ============================================================================ write


def test_write_stores_score_and_starts_next_turn_with_a_heartbeat(harness: Any) -> None:
    # given ana's turn at roll 1
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN)
    score = legal_score(harness.last_game(ANA), "down", "ones")
    harness.clock.advance(seconds=12)

    # when she writes Down/Ones
    harness.ack(ANA, harness.act(ANA, "write", gameId=game_id, column="down", row="ones"))

    # then the score is stored, and ben's turn starts at roll 1 with its own deadline, kept by
    # a heartbeat to the running lane (no new timer)
    view = harness.last_game(BEN)
    assert cell_value(view, "ana", "down", "ones") == score
    turn = view["turn"]
    assert (turn["number"], turn["playerId"], turn["roll"]) == (2, "ben", 1)
    deadline = harness.clock() + timedelta(seconds=60)
    assert harness.session(game_id).clock.deadline == deadline
    assert lane_fires_at(harness, game_id) == deadline
    assert (harness.timers.log.lanes_started, harness.timers.log.beats) == (1, 1)
    assert harness.session(game_id).game().sheets[0].values[0][0] == score


def test_write_when_not_your_turn_refused(harness: Any) -> None:
    # given ana's turn
    game_id = harness.running_game(ANA, BEN)

    # when ben writes, or rolls
    write = harness.act(BEN, "write", gameId=game_id, column="down", row="ones")
    roll = harness.act(BEN, "roll", gameId=game_id)

    # then both are refused
    assert harness.error(BEN, write)["code"] == "not_your_turn"
    assert harness.error(BEN, roll)["code"] == "not_your_turn"
    assert filled_cells(harness, game_id, 1) == 0


@pytest.mark.parametrize(
    ("column", "row", "code"),
    [
        ("down", "yamb", "column_order"),
        ("announced", "ones", "unknown_cell"),
        ("down", "nines", "unknown_cell"),
    ],
)
def test_write_illegal_cell_refused_with_engine_code(
    harness: Any, column: str, row: str, code: str
) -> None:
    # given ana's turn in a Down/Up game
    game_id = harness.running_game(ANA, BEN)

    # when she writes a cell the rules do not allow now
    request_id = harness.act(ANA, "write", gameId=game_id, column=column, row=row)

    # then the engine's code is sent and nothing is written
    assert harness.error(ANA, request_id)["code"] == code
    assert filled_cells(harness, game_id, 0) == 0


def test_write_written_cell_refused(harness: Any) -> None:
    # given ana wrote Free/Ones in a Free-column game, and it is her turn again
    game_id = harness.running_game(ANA, BEN, preset=None, **FREE_COLUMN)
    harness.act(ANA, "write", gameId=game_id, column="free", row="ones")
    harness.write_any(BEN, game_id)

    # when she writes Free/Ones again
    request_id = harness.act(ANA, "write", gameId=game_id, column="free", row="ones")

    # then it is refused as already written
    assert harness.error(ANA, request_id)["code"] == "cell_written"


# ============================================================================ sync


def test_sync_sends_whole_state(harness: Any) -> None:
    # given a running game where ana wrote once
    game_id = harness.running_game(ANA, BEN)
    harness.write_any(ANA, game_id)

    # when ben (reconnected) asks for the state
    request_id = harness.act(BEN, "sync")

    # then he gets the whole game: seats, sheets, the turn
    frame = harness.answer(BEN, request_id)
    assert frame["type"] == "game"
    view = frame["game"]
    assert view["gameId"] == game_id
    assert view["version"] == harness.session(game_id).version
    assert [s["playerId"] for s in view["seats"]] == ["ana", "ben"]
    assert [s["playerId"] for s in view["sheets"]] == ["ana", "ben"]
    assert view["turn"]["playerId"] == "ben"
    assert view["turn"]["legal"]


def test_sync_when_in_no_game_sends_null_game(harness: Any) -> None:
    # given dan plays nowhere
    # when he syncs
    request_id = harness.act(DAN, "sync")

    # then the answer is a game frame without a game
    frame = harness.answer(DAN, request_id)
    assert frame["type"] == "game"
    assert frame.get("game") is None


# ============================================================================ watch_game


def test_watch_game_spectator_receives_broadcasts(harness: Any) -> None:
    # given a running game
    game_id = harness.running_game(ANA, BEN)

    # when dan watches it, and ana then writes
    harness.ack(DAN, harness.act(DAN, "watch_game", gameId=game_id))
    column, row = harness.write_any(ANA, game_id)

    # then dan sees the game and ana's write
    view = harness.last_game(DAN)
    assert cell_value(view, "ana", column, row) is not None
    assert view["turn"]["playerId"] == "ben"


def test_watch_game_a_write_racing_the_watch_reaches_the_spectator(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a full table of ana and ben, and dan about to watch it
    game_id = harness.create_game(ANA, players=2)
    harness.connect(BEN, DAN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    watch = harness.games.watch

    def start_first(*args: Any, **kwargs: Any) -> None:
        # ana's start lands after dan's read of the game, before his spectator item
        monkeypatch.setattr(harness.games, "watch", watch)
        harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
        watch(*args, **kwargs)

    monkeypatch.setattr(harness.games, "watch", start_first)

    # when dan watches
    answer = harness.game_answer(DAN, harness.act(DAN, "watch_game", gameId=game_id))

    # then his answer shows the started game: the start's broadcast could not reach him
    assert answer["status"] == "running"
    assert harness.session(game_id).status == "running"


def test_watch_game_a_write_loaded_before_the_watch_reaches_the_spectator(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a full table of ana and ben, and ana's start read before dan comes to watch
    game_id = harness.create_game(ANA, players=2)
    harness.connect(BEN, DAN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    rival_saves_first(
        monkeypatch,
        harness.service,
        lambda: harness.ack(DAN, harness.act(DAN, "watch_game", gameId=game_id)),
    )

    # when ana's start is written after dan's watch (whose answer shows a waiting game)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # then the start reaches dan all the same: it lost its race to him and went out again
    assert harness.session(game_id).status == "running"
    assert harness.last_game(DAN)["status"] == "running"


def test_watch_game_spectator_cannot_act(harness: Any) -> None:
    # given dan watches a running game
    game_id = harness.running_game(ANA, BEN)
    harness.act(DAN, "watch_game", gameId=game_id)

    # when he rolls or writes
    roll = harness.act(DAN, "roll", gameId=game_id)
    write = harness.act(DAN, "write", gameId=game_id, column="down", row="ones")

    # then he is refused: he does not play here
    assert harness.error(DAN, roll)["code"] == "not_seated"
    assert harness.error(DAN, write)["code"] == "not_seated"
    assert harness.session(game_id).game().roll == 1


def test_watch_game_own_game_refused(harness: Any) -> None:
    # given ana plays a running game
    game_id = harness.running_game(ANA, BEN)

    # when she asks to watch it
    request_id = harness.act(ANA, "watch_game", gameId=game_id)

    # then she is refused
    assert harness.error(ANA, request_id)["code"] == "already_seated"


def test_watch_game_gone_spectator_is_forgotten(harness: Any) -> None:
    # given dan watches a running game, then his connection goes away
    game_id = harness.running_game(ANA, BEN)
    harness.ack(DAN, harness.act(DAN, "watch_game", gameId=game_id))
    harness.notifier.gone.add(DAN.connection_id)

    # when the next change is broadcast
    harness.write_any(ANA, game_id)

    # then the game no longer keeps his connection
    assert harness.games.load(game_id).spectators == []


def test_watch_game_refused_once_the_spectator_seats_are_taken(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a game already watched by as many spectators as it takes
    monkeypatch.setattr("yamb_service.game.lobby.MAX_SPECTATORS", 1)
    game_id = harness.running_game(ANA, BEN)
    harness.ack(DAN, harness.act(DAN, "watch_game", gameId=game_id))

    # when one more connection asks to watch
    eve = Caller("eve", "conn-eve")
    request_id = harness.act(eve, "watch_game", gameId=game_id)

    # then it is refused and the game keeps one spectator
    assert harness.error(eve, request_id)["code"] == "full"
    assert harness.games.load(game_id).spectators == [DAN.connection_id]


def test_watch_game_repeated_changes_nothing(harness: Any) -> None:
    # given a running game
    game_id = harness.running_game(ANA, BEN)
    version = harness.session(game_id).version

    # when a spectator sends watch_game 30 times
    for _ in range(30):
        harness.act(DAN, "watch_game", gameId=game_id)

    # then each is answered with the game, the game's version is the same, and the spectator
    # is kept and counted once
    answers = [f for f in harness.frames(DAN) if f["type"] == "game"]
    assert len(answers) == 30
    assert harness.session(game_id).version == version
    loaded = harness.games.load(game_id)
    assert loaded.spectators == [DAN.connection_id]
    assert loaded.watchers == 1


# ============================================================================ resign / finish


def play_rounds(harness: Any, game_id: str, callers: list[Caller], rounds: int) -> None:
    for _ in range(rounds):
        for caller in callers:
            harness.write_any(caller, game_id)


def test_resign_two_players_opponent_wins_and_is_offered_finish(harness: Any) -> None:
    # given a running two-player game
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN)

    # when ana resigns
    harness.ack(ANA, harness.act(ANA, "resign", gameId=game_id))

    # then ben wins, is offered to finish his sheet, and no clock runs meanwhile; the game is
    # not over yet, so it has no outcome
    session = harness.session(game_id)
    assert session.winners == ["ben"]
    assert session.finish_offer == "ben"
    assert session.outcome is None
    assert session.seats[0].left
    assert session.clock.deadline is None
    assert harness.timers.running_lanes(game_id) == []
    view = harness.last_game(BEN)
    assert view["winners"] == ["ben"]
    assert view["seats"][0]["left"] is True
    refused = harness.act(BEN, "roll", gameId=game_id)
    assert harness.error(BEN, refused)["code"] == "finish_offer"


def test_finish_sheet_accepted_plays_on_without_clock_to_recorded_result(harness: Any) -> None:
    # given ana resigned after seven rounds of a Free-column game (ben played over half)
    game_id = harness.running_game(ANA, BEN, preset=None, **FREE_COLUMN)
    play_rounds(harness, game_id, [ANA, BEN], 7)
    harness.act(ANA, "resign", gameId=game_id)

    # when ben accepts to finish his sheet
    harness.ack(BEN, harness.act(BEN, "finish_sheet", gameId=game_id, accept=True))

    # then he plays on at roll 1 without a turn deadline ...
    session = harness.session(game_id)
    assert session.finish_offer is None
    assert session.game().roll == 1
    assert session.clock.deadline is None
    assert harness.last_game(BEN)["turn"]["deadline"] is None
    assert harness.timers.running_lanes(game_id) == harness.timers.waiting_wakes(game_id) == []

    # ... and once his sheet is full, he wins and the result is recorded
    for _ in range(13 - 7):
        harness.write_any(BEN, game_id)
    session = harness.session(game_id)
    assert (session.status, session.outcome, session.winners) == ("finished", "completed", ["ben"])
    assert harness.timers.running_lanes(game_id) == harness.timers.waiting_wakes(game_id) == []
    result = harness.games.result(game_id)
    assert result is not None
    assert result.winners == ["ben"]


def test_finish_sheet_accepted_before_half_the_turns_still_cancels_the_game(harness: Any) -> None:
    # given ana resigned at the start, and ben accepted to finish his sheet alone
    game_id = harness.running_game(ANA, BEN, preset=None, **FREE_COLUMN)
    harness.act(ANA, "resign", gameId=game_id)
    harness.act(BEN, "finish_sheet", gameId=game_id, accept=True)

    # when he fills his sheet
    for _ in range(13):
        harness.write_any(BEN, game_id)

    # then, as if he had declined, the game counts for nobody: he had played under half of
    # his turns when he won (rules.md 8: the 50% rule still decides)
    session = harness.session(game_id)
    assert (session.status, session.outcome, session.winners) == ("cancelled", "cancelled", [])
    assert harness.games.result(game_id) is None


def test_finish_offer_says_before_the_answer_whether_the_win_can_count(harness: Any) -> None:
    # given two Free-column games: in one ana resigns at the start, in the other after seven
    # rounds (ben has played over half of his turns)
    early = harness.running_game(ANA, BEN, preset=None, **FREE_COLUMN)
    harness.act(ANA, "resign", gameId=early)
    late = harness.running_game(CLEO, DAN, preset=None, **FREE_COLUMN)
    play_rounds(harness, late, [CLEO, DAN], 7)
    harness.act(CLEO, "resign", gameId=late)

    # when the one left reads the offer
    offered_early, offered_late = harness.last_game(BEN), harness.last_game(DAN)

    # then the early offer says the game ends cancelled whatever the answer (decision 31), the
    # late one that the win counts
    assert (offered_early["finishOffer"], offered_early["finishCounts"]) == ("ben", False)
    assert (offered_late["finishOffer"], offered_late["finishCounts"]) == ("dan", True)


def test_finish_sheet_declined_ends_with_declined_finish(harness: Any) -> None:
    # given ana resigns after seven rounds of a Free-column game (ben played over half his turns)
    game_id = harness.running_game(ANA, BEN, preset=None, **FREE_COLUMN)
    play_rounds(harness, game_id, [ANA, BEN], 7)
    harness.act(ANA, "resign", gameId=game_id)

    # when ben declines to finish his sheet
    harness.ack(BEN, harness.act(BEN, "finish_sheet", gameId=game_id, accept=False))

    # then the game ends at once with his win, and no result is recorded
    session = harness.session(game_id)
    assert (session.status, session.outcome, session.winners) == (
        "finished",
        "declined_finish",
        ["ben"],
    )
    assert harness.last_game(BEN)["outcome"] == "declined_finish"
    assert harness.games.result(game_id) is None


def test_finish_sheet_declined_before_half_the_turns_cancels_game(harness: Any) -> None:
    # given ana resigned at the very start
    game_id = harness.running_game(ANA, BEN)
    harness.act(ANA, "resign", gameId=game_id)

    # when ben declines to finish
    harness.act(BEN, "finish_sheet", gameId=game_id, accept=False)

    # then the game counts for nobody: ben played fewer than half of his turns
    session = harness.session(game_id)
    assert (session.status, session.outcome, session.winners) == ("cancelled", "cancelled", [])


def test_finish_sheet_without_offer_refused(harness: Any) -> None:
    # given a running game nobody left
    game_id = harness.running_game(ANA, BEN)

    # when ben answers an offer he never got
    request_id = harness.act(BEN, "finish_sheet", gameId=game_id, accept=True)

    # then he is refused
    assert harness.error(BEN, request_id)["code"] == "no_finish_offer"


def test_resign_three_players_others_play_on(harness: Any) -> None:
    # given a three-player game in ana's turn
    game_id = harness.running_game(ANA, BEN, CLEO)

    # when ana resigns
    harness.act(ANA, "resign", gameId=game_id)

    # then ben's turn starts with a new roll 1 and deadline; nobody has won yet
    session = harness.session(game_id)
    assert session.status == "running"
    assert session.winners == []
    assert session.finish_offer is None
    assert session.game().roll == 1
    assert harness.last_game(CLEO)["turn"]["playerId"] == "ben"
    assert session.clock.deadline == harness.clock() + timedelta(seconds=60)


# ============================================================================ presence


def test_disconnect_in_turn_freezes_clock_and_starts_return_countdown(harness: Any) -> None:
    # given ana's turn, 20 s into her 60 s
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=20)

    # when her connection is lost
    harness.service.disconnect(ANA)

    # then her clock is frozen with 40 s left, a 3-minute return countdown starts with a wake at
    # its end, the lane stops (no turn clock runs), and ben sees her seat absent
    session = harness.session(game_id)
    assert session.clock.deadline is None
    assert session.clock.frozen_ms == 40_000
    returns_at = harness.clock() + timedelta(minutes=3)
    assert session.seats[0].return_deadline == returns_at
    assert [w.at for w in harness.timers.waiting_wakes(game_id)] == [returns_at]
    assert harness.timers.running_lanes(game_id) == []
    view = harness.last_game(BEN)
    assert view["seats"][0]["present"] is False
    assert view["turn"]["frozenMs"] == 40_000
    assert view["turn"]["deadline"] is None
    assert harness.players.get("ana").connection_id is None


def test_disconnect_of_replaced_connection_changes_nothing(harness: Any) -> None:
    # given ana plays and opened a newer connection
    game_id = harness.running_game(ANA, BEN)
    harness.connect(Caller("ana", "conn-ana-2"))
    version = harness.session(game_id).version

    # when the old connection's disconnect arrives
    harness.service.disconnect(ANA)

    # then she is still present and her clock runs
    session = harness.session(game_id)
    assert session.seats[0].present
    assert session.clock.deadline is not None
    assert session.version == version
    assert harness.players.get("ana").connection_id == "conn-ana-2"


def test_disconnect_arriving_after_the_reconnect_changes_nothing(harness: Any) -> None:
    # given ana reconnected, and the old connection's disconnect was delayed past that: the
    # player record already forgot the old connection, but the game is read afterwards
    game_id = harness.running_game(ANA, BEN)
    harness.service.players.unbind_connection("ana", ANA.connection_id)
    harness.connect(Caller("ana", "conn-ana-2"))
    closed: list[bool] = []

    def stale_disconnect(session: Any) -> Effects | None:
        closed.append(presence.disconnect(session, "ana", ANA.connection_id, harness.clock()))
        return Effects() if closed[-1] else None

    # when the stale disconnect is applied to the game
    applied = harness.service.writer.apply(game_id, stale_disconnect, harness.clock())

    # then it changes nothing: the seat bound to the newer connection stays present (a write
    # there may be the timers' own, which the reconnect, relinking the seat without a version,
    # left to the next write)
    session = harness.session(game_id)
    assert closed == [False] and not applied.changed
    assert session.seats[0].present
    assert session.seats[0].connection_id == "conn-ana-2"


def test_relinked_seat_refuses_a_write_loaded_before_it_and_is_folded_into_the_next(
    harness: Any,
) -> None:
    # given a running game, loaded by a writer, then ana's seat relinked to a new connection
    # (she came back before her away was written)
    game_id = harness.running_game(ANA, BEN)
    games = harness.service.games
    stale = games.load(game_id)
    assert games.relink(games.load(game_id), "ana", "conn-ana-2")

    # when the writer saves what it loaded before the relink
    # then it loses the race (its body holds the old connection), and the game keeps the new one
    with pytest.raises(StaleGameError):
        games.save(stale.session, watchers=stale.watchers, links=stale.links, now=harness.clock())
    fresh = games.load(game_id)
    assert fresh.session.seats[0].connection_id == "conn-ana-2"
    assert fresh.session.version == stale.session.version

    # and a write on the fresh load folds the link into the game's body
    games.save(fresh.session, watchers=fresh.watchers, links=fresh.links, now=harness.clock())
    folded = games.load(game_id)
    assert folded.links is None
    assert folded.session.seats[0].connection_id == "conn-ana-2"
    # and a relink on a load older than that write is refused
    assert not games.relink(fresh, "ana", "conn-ana-3")


@pytest.mark.parametrize(("used_s", "resumed_ms"), [(20, 40_000), (58, 5_000)])
def test_reconnect_within_time_keeps_the_turn_and_resumes_clock(
    harness: Any, used_s: int, resumed_ms: int
) -> None:
    # given ana locked two dice, rolled, announced nothing, then lost her connection `used_s`
    # seconds into her turn
    game_id = harness.running_game(ANA, BEN)
    harness.act(ANA, "roll", gameId=game_id, keep=[0, 2])
    before = harness.session(game_id)
    harness.advance(seconds=used_s)
    harness.service.disconnect(ANA)
    harness.advance(minutes=2)
    again = Caller("ana", "conn-ana-2")

    # when she connects again within 3 minutes
    harness.service.connect(again)

    # then her turn goes on as it was (roll 2, the same dice and locks), and her clock resumes
    # with what was left, at least 5 s, kept by a one-shot wake
    session = harness.session(game_id)
    assert session.seats[0].present
    assert session.seats[0].connection_id == "conn-ana-2"
    game = session.game()
    assert (game.roll, game.dice) == (2, before.game().dice)
    assert session.locks == [0, 2]
    deadline = harness.clock() + timedelta(milliseconds=resumed_ms)
    assert session.clock.deadline == deadline
    assert (
        deadline.timestamp()
        <= min(w.at for w in harness.timers.waiting_wakes(game_id)).timestamp()
        < deadline.timestamp() + 1
    )
    assert harness.last_game(BEN)["seats"][0]["present"] is True
    # $connect cannot post to its own connection: the client syncs once open
    assert harness.frames(again) == []


def test_reconnect_several_times_in_one_turn_sees_the_same_turn_each_time(harness: Any) -> None:
    # given ana's turn (premium: an announced column): she announced, locked dice and rolled,
    # 10 s in
    harness.grant_premium(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, preset=3)
    harness.act(ANA, "announce", gameId=game_id, column="announced", row="yamb")
    harness.act(ANA, "lock", gameId=game_id, keep=[1, 3])
    harness.act(ANA, "roll", gameId=game_id)
    harness.advance(seconds=10)
    first = harness.session(game_id)
    connection = ANA
    seen: list[tuple[Any, ...]] = []

    # when she drops and returns four times, 30 s away each time and 5 s back each time
    for attempt in range(4):
        harness.service.disconnect(connection)
        harness.advance(seconds=30)
        connection = Caller("ana", f"conn-ana-back-{attempt}")
        harness.service.connect(connection)
        view = harness.game_answer(connection, harness.act(connection, "sync"))
        turn = view["turn"]
        remaining = (session_deadline(harness, game_id) - harness.clock()).total_seconds()
        seen.append(
            (
                turn["number"],
                turn["roll"],
                turn["dice"],
                turn["locks"],
                turn["announcement"]["row"],
                remaining,
            )
        )
        harness.advance(seconds=5)

    # then every return shows the same turn, dice, locks and announcement, and the clock goes
    # on from where it froze (50 s left, then 5 s less after each 5 s back)
    game = first.game()
    assert [s[:5] for s in seen] == [(1, 2, list(game.dice), [1, 3], "yamb")] * 4
    assert [s[5] for s in seen] == [50.0, 45.0, 40.0, 35.0]
    assert harness.session(game_id).turn == 1


def session_deadline(harness: Any, game_id: str) -> Any:
    deadline = harness.session(game_id).clock.deadline
    assert deadline is not None
    return deadline


def test_reconnect_floor_used_once_per_turn(harness: Any) -> None:
    # given ana came back with 2 s left and got the 5-second floor
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=58)
    harness.service.disconnect(ANA)
    harness.service.connect(Caller("ana", "conn-ana-2"))
    harness.advance(seconds=3)

    # when she drops again with 2 s left and returns
    harness.service.disconnect(Caller("ana", "conn-ana-2"))
    harness.service.connect(Caller("ana", "conn-ana-3"))

    # then the clock resumes with only the 2 s left: the floor is given once per turn
    session = harness.session(game_id)
    assert session.clock.deadline == harness.clock() + timedelta(seconds=2)


def test_return_deadline_two_players_opponent_wins_and_cooldown_recorded(harness: Any) -> None:
    # given ana lost her connection in a two-player game after playing a turn
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    harness.write_any(ANA, game_id)
    harness.write_any(BEN, game_id)
    harness.service.disconnect(ANA)

    # when her return deadline passes
    harness.advance(minutes=3)

    # then she has left, ben wins and is offered to finish, and ana may not join for 5 minutes
    session = harness.session(game_id)
    assert session.seats[0].left
    assert session.winners == ["ben"]
    assert session.finish_offer == "ben"
    assert harness.last_game(BEN)["winners"] == ["ben"]
    assert harness.last_game(BEN)["seats"][0]["returnDeadline"] is None
    record = harness.players.get("ana")
    assert record.disappearances == 1
    assert record.blocked_until == harness.clock() + timedelta(minutes=5)


def test_return_deadline_without_a_turn_played_carries_no_cooldown(harness: Any) -> None:
    # given ana lost her connection before playing any turn
    game_id = harness.running_game(ANA, BEN)
    harness.service.disconnect(ANA)

    # when her return deadline passes
    harness.advance(minutes=3)

    # then she has left the game, without a penalty (rules.md 8)
    assert harness.session(game_id).seats[0].left
    record = harness.players.get("ana")
    assert (record.disappearances, record.blocked_until) == (0, None)


def test_return_deadline_second_disappearance_same_day_blocks_15_minutes(harness: Any) -> None:
    # given ana disappeared once today, served her 5 minutes and plays a new game
    first = harness.running_game(ANA, BEN)
    harness.write_any(ANA, first)
    harness.service.disconnect(ANA)
    harness.advance(minutes=3)
    harness.advance(minutes=6)
    ana_again = Caller("ana", "conn-ana-2")
    harness.connect(ana_again, CLEO)
    second = harness.create_game(CLEO, players=2)
    harness.ack(ana_again, harness.act(ana_again, "join_game", gameId=second))
    harness.act(CLEO, "start_game", gameId=second)
    harness.write_any(CLEO, second)
    harness.write_any(ana_again, second)
    harness.service.disconnect(ana_again)

    # when she does not come back to the second game either
    harness.advance(minutes=3)

    # then she is blocked for 15 minutes
    assert harness.session(second).seats[1].left
    record = harness.players.get("ana")
    assert record.disappearances == 2
    assert record.blocked_until == harness.clock() + timedelta(minutes=15)


def test_return_deadline_three_players_others_play_on(harness: Any) -> None:
    # given ana lost her connection in her turn of a three-player game
    game_id = harness.running_game(ANA, BEN, CLEO)
    harness.service.disconnect(ANA)

    # when her return deadline passes
    harness.advance(minutes=3)

    # then ben's turn starts and the game goes on without a winner, with a new lane
    session = harness.session(game_id)
    assert session.status == "running"
    assert session.winners == []
    assert session.game().seat == 1
    assert session.clock.deadline == harness.clock() + timedelta(seconds=60)
    assert lane_fires_at(harness, game_id) == session.clock.deadline


def test_return_deadline_when_nobody_present_cancels_game(harness: Any) -> None:
    # given both players of a game lost their connections
    game_id = harness.running_game(ANA, BEN)
    harness.service.disconnect(ANA)
    harness.service.disconnect(BEN)

    # when ana's return deadline passes
    harness.advance(minutes=3)

    # then the game is cancelled and no timer is left
    session = harness.session(game_id)
    assert (session.status, session.outcome) == ("cancelled", "cancelled")
    assert harness.timers.running_lanes(game_id) == harness.timers.waiting_wakes(game_id) == []


# ============================================================================ timers


def test_turns_met_in_time_cost_no_timer_but_the_one_lane(harness: Any) -> None:
    # given a two-player game with a 60 s clock
    game_id = harness.running_game(ANA, BEN, preset=None, **FREE_COLUMN)

    # when every turn is written 20 s in, to the end of the game
    while harness.session(game_id).status == "running":
        harness.advance(seconds=20)
        caller = ANA if harness.session(game_id).game().seat == 0 else BEN
        harness.write_any(caller, game_id)

    # then one lane served the whole game: a heartbeat per turn, never woken, stopped at the
    # end; one wake kept the first turn until the first heartbeat, and was stopped unused
    log = harness.timers.log
    assert (log.lanes_started, log.lane_wakes, log.lane_stops) == (1, 0, 1)
    assert log.beats == 2 * 13 - 1
    assert (log.wakes_started, log.wake_stops, log.wakes_fired) == (1, 1, 0)
    assert harness.session(game_id).status == "finished"


def test_turn_deadline_fires_at_its_moment_and_the_lane_arms_again(harness: Any) -> None:
    # given ana's turn with a 60 s clock
    game_id = harness.running_game(ANA, BEN)
    started = harness.clock()

    # when 59.9 s pass, then another 0.2 s
    harness.advance(seconds=59.9)
    before = harness.session(game_id).turn
    harness.advance(seconds=0.2)

    # then nothing happened before the deadline; at it, the auto-move ended her turn, and the
    # lane armed again for ben's turn (the first turn's wake came at the same moment, and found
    # the turn played already)
    assert before == 1
    session = harness.session(game_id)
    assert session.turn == 2
    assert filled_cells(harness, game_id, 0) == 1
    assert (harness.timers.log.lane_wakes, harness.timers.log.wakes_fired) == (1, 1)
    assert session.clock.deadline == started + timedelta(seconds=120)
    assert len(harness.timers.running_lanes(game_id)) == 1
    # and ben's own deadline is kept as well
    harness.advance(seconds=60)
    assert harness.session(game_id).turn == 3
    assert filled_cells(harness, game_id, 1) == 1


def test_lost_heartbeat_wakes_early_and_the_deadline_still_holds(harness: Any) -> None:
    # given ana writes 30 s into her turn, but the heartbeat for ben's turn is lost
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=30)
    harness.timers.refuse_beats = 1
    harness.write_any(ANA, game_id)
    ben_deadline = harness.clock() + timedelta(seconds=60)

    # when time passes up to ben's deadline and a second more
    harness.advance(seconds=59)
    early = harness.session(game_id).turn
    harness.advance(seconds=2)

    # then ben's turn was not ended early (at ana's old deadline), and ended once his own
    # deadline passed, within a second
    assert early == 2
    session = harness.session(game_id)
    assert session.turn == 3
    assert filled_cells(harness, game_id, 1) == 1
    assert harness.timers.log.beats_refused == 1
    assert ben_deadline <= harness.clock()


def test_lane_not_armed_yet_a_wake_keeps_the_deadline(harness: Any) -> None:
    # given a lane whose task has not stored its token yet when the next turn starts
    harness.timers.arm_lanes = False
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=10)

    # when ana writes (no heartbeat can reach the lane)
    harness.write_any(ANA, game_id)
    deadline = session_deadline(harness, game_id)

    # then a one-shot wake covers ben's deadline, and it fires the auto-move on time
    assert [w.at for w in harness.timers.waiting_wakes(game_id)] == [deadline]
    harness.timers.arm_pending()
    harness.advance(seconds=61)
    assert harness.session(game_id).turn >= 3
    assert filled_cells(harness, game_id, 1) == 1


def test_timer_delivered_twice_plays_one_move(harness: Any) -> None:
    # given ana's clock ran out and the clock function ended her turn
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=60)
    (lane,) = harness.timers.running_lanes(game_id)
    assert harness.session(game_id).turn == 2

    # when the same wake is delivered again (a retried invocation)
    decision = harness.wake(game_id, lane.lane)

    # then nothing more is written for either player, and the lane still serves ben's turn
    assert filled_cells(harness, game_id, 0) == 1
    assert filled_cells(harness, game_id, 1) == 0
    assert harness.session(game_id).turn == 2
    assert decision is not None and decision["rearm"] is True


def test_lost_lane_its_deadline_is_kept_by_a_wake(harness: Any) -> None:
    # given ana's turn, whose lane reports 5 s in that its task could not arm (it is gone)
    game_id = harness.running_game(ANA, BEN)
    (lane,) = harness.timers.running_lanes(game_id)
    harness.advance(seconds=5)
    lane.state = "ended"
    harness.service.wake(game_id, lane=lane.lane, lost=True)

    # when her clock runs out
    harness.advance(seconds=56)

    # then a one-shot wake played her turn on time, and ben's full clock has a new lane
    assert harness.session(game_id).turn == 2
    assert filled_cells(harness, game_id, 0) == 1
    assert harness.timers.log.wakes_fired == 1
    assert len(harness.timers.running_lanes(game_id)) == 1


def test_stale_timer_does_nothing(harness: Any) -> None:
    # given ana wrote in time
    game_id = harness.running_game(ANA, BEN)
    harness.write_any(ANA, game_id)
    version = harness.session(game_id).version

    # when a wake arrives for the game (a timer of a past deadline, or a stale lane)
    assert harness.wake(game_id, None) is None
    decision = harness.wake(game_id, 999)

    # then nothing changes, and the stale lane ends
    assert harness.session(game_id).version == version
    assert decision is not None and decision["rearm"] is False


def test_wake_for_a_deleted_game_ends_quietly(harness: Any) -> None:
    # given a game that no longer exists
    # when a timer wakes it
    decision = harness.wake("no-such-game", 3)

    # then the lane is told to end, and nothing fails
    assert decision is not None and decision["rearm"] is False
    assert harness.wake("no-such-game", None) is None


def test_game_end_stops_every_timer(harness: Any) -> None:
    # given ben is away (a return wake waits) during ana's turn of a 3-player game
    game_id = harness.running_game(ANA, BEN, CLEO)
    harness.service.disconnect(BEN)
    assert harness.timers.waiting_wakes(game_id)

    # when the others resign, and ben, offered to finish his sheet, never comes back
    harness.act(ANA, "resign", gameId=game_id)
    harness.act(CLEO, "resign", gameId=game_id)
    assert harness.session(game_id).finish_offer == "ben"
    harness.advance(minutes=3)

    # then the game is over, and no lane runs and no wake waits
    assert harness.session(game_id).status in ("finished", "cancelled")
    assert harness.timers.running_lanes(game_id) == harness.timers.waiting_wakes(game_id) == []


def auto_and_other_cell(harness: Any, game_id: str) -> tuple[tuple[str, str, int], tuple[str, str]]:
    game = harness.session(game_id).game()
    move = game.auto_move()
    names = game.layout.columns, game.layout.grid.rows
    other = next((c, r) for c, r, _ in game.legal_cells() if (c, r) != (move.column, move.row))
    auto = (names[0][move.column].id, names[1][move.row].id, move.score)
    return auto, (names[0][other[0]].id, names[1][other[1]].id)


def test_turn_deadline_with_pending_select_writes_selected_cell(harness: Any) -> None:
    # given ana selected a cell that is not the best one
    game_id = harness.running_game(ANA, BEN)
    _, (column, row) = auto_and_other_cell(harness, game_id)
    harness.act(ANA, "select", gameId=game_id, column=column, row=row)

    # when her clock runs out
    harness.advance(seconds=60)

    # then her choice is written, not the auto-move, and ben's turn starts
    view = harness.last_game(BEN)
    assert cell_value(view, "ana", column, row) is not None
    assert filled_cells(harness, game_id, 0) == 1
    assert view["turn"]["playerId"] == "ben"
    assert session_deadline(harness, game_id) == harness.clock() + timedelta(seconds=60)


def test_turn_deadline_without_select_writes_auto_move(harness: Any) -> None:
    # given ana chose nothing
    game_id = harness.running_game(ANA, BEN)
    (column, row, score), _ = auto_and_other_cell(harness, game_id)

    # when her clock runs out
    harness.advance(seconds=60)

    # then the best-scoring legal cell is written for her
    assert cell_value(harness.last_game(BEN), "ana", column, row) == score
    assert filled_cells(harness, game_id, 0) == 1


# ============================================================================ the end


def test_solo_game_played_to_end_records_result(harness: Any) -> None:
    # given ana's solo game of one Free column
    game_id = harness.running_game(ANA, players=1, preset=None, **FREE_COLUMN)

    # when she writes all 13 cells
    for _ in range(13):
        harness.write_any(ANA, game_id)

    # then the game is finished with her win, and its result is recorded
    session = harness.session(game_id)
    assert (session.status, session.outcome, session.winners) == ("finished", "completed", ["ana"])
    view = harness.last_game(ANA)
    assert view["status"] == "finished"
    assert view["turn"] is None
    result = harness.games.result(game_id)
    assert result is not None
    (player,) = result.players
    assert player.player_id == "ana"
    assert player.full is True
    assert player.turns == 13
    assert player.total == view["sheets"][0]["total"]
    assert result.winners == ["ana"]
    # and she is free to create a new game
    assert harness.create_game(ANA, players=2)


# ============================================================================ races


def test_repository_save_of_stale_copy_raises_stale_game_error(harness: Any) -> None:
    # given two copies of the same game read at the same version
    game_id = harness.create_game(ANA, players=2)
    first, second = harness.session(game_id), harness.session(game_id)
    first.creator, second.creator = "conn-x", "conn-y"

    # when both are saved
    harness.games.save(first, now=harness.clock())

    # then the second save loses, and the first one's change is stored
    with pytest.raises(StaleGameError):
        harness.games.save(second, now=harness.clock())
    stored = harness.session(game_id)
    assert stored.creator == "conn-x"
    assert stored.version == 2
    assert second.version == 1


def rival_write(harness: Any, game_id: str, save: Any) -> None:
    """Another instance writes the game with `save` (the repository's own: tests patch it):
    any change would do, the version moves on."""
    save(harness.session(game_id), now=harness.clock())


def rival_saves_first(
    monkeypatch: pytest.MonkeyPatch, service: GameService, rival_move: Any
) -> None:
    """The next save of `service` happens right after `rival_move` ran to its end: both read
    the game before either saved."""
    real_save = service.games.save

    def save(session: Any, **write: Any) -> None:
        monkeypatch.setattr(service.games, "save", real_save)
        rival_move()
        real_save(session, **write)

    monkeypatch.setattr(service.games, "save", save)


def test_concurrent_writes_exactly_one_wins(harness: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # given ana's turn, and two function instances each about to apply a write of hers
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    rival = harness.other_service()
    rival_request = "rival-write"
    rival_saves_first(
        monkeypatch,
        harness.service,
        lambda: harness.act(
            ANA,
            "write",
            via=rival,
            gameId=game_id,
            column="up",
            row="yamb",
            requestId=rival_request,
        ),
    )

    # when both read the game before either saves
    request_id = harness.act(ANA, "write", gameId=game_id, column="down", row="ones")

    # then the first save wins, the other is checked again on fresh state and refused
    harness.ack(ANA, rival_request)
    assert harness.error(ANA, request_id)["code"] == "not_your_turn"
    assert filled_cells(harness, game_id, 0) == 1
    assert cell_value(harness.last_game(BEN), "ana", "up", "yamb") is not None
    assert cell_value(harness.last_game(BEN), "ana", "down", "ones") is None


def test_concurrent_disconnect_losing_its_write_stops_the_wake_it_started(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's turn, and ana's connection lost while another instance writes her game
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=20)
    rival_saves_first(
        monkeypatch,
        harness.service,
        lambda: rival_write(harness, game_id, harness.games.save),
    )

    # when the disconnect's first write loses and its second attempt wins
    harness.service.disconnect(ANA)

    # then one wake waits for her return deadline: the losing attempt's wake was stopped,
    # not left to wake the game for nothing
    returns_at = harness.clock() + timedelta(minutes=3)
    assert harness.session(game_id).seats[0].return_deadline == returns_at
    assert [w.at for w in harness.timers.waiting_wakes(game_id)] == [returns_at]


def test_concurrent_start_losing_its_write_stops_the_lane_it_started(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a full table, and another instance writing the game while ana starts it
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    rival_saves_first(
        monkeypatch, harness.service, lambda: rival_write(harness, game_id, harness.games.save)
    )

    # when the start's first write (with the lane of its version) loses, and its second wins
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # then one lane runs the turn clock: the one the winning write counts on
    session = harness.session(game_id)
    assert session.status == "running"
    assert [lane.lane for lane in harness.timers.running_lanes(game_id)] == [session.timers.lane]


def test_concurrent_saves_exhausting_retries_answer_conflict(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a game that another instance changes between every read and save of this one
    game_id = harness.running_game(ANA, BEN)
    real_save = harness.games.save

    def save(session: Any, **write: Any) -> None:
        rival_write(harness, game_id, real_save)
        real_save(session, **write)

    monkeypatch.setattr(harness.games, "save", save)

    # when ana rolls
    request_id = harness.act(ANA, "roll", gameId=game_id)

    # then after the last attempt she is told of the conflict; her roll was not applied
    assert harness.error(ANA, request_id)["code"] == "conflict"
    assert harness.session(game_id).game().roll == 1


def test_write_then_turn_deadline_only_write_applies(harness: Any) -> None:
    # given ana wrote just before her deadline
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=59)
    column, row = harness.write_any(ANA, game_id)

    # when the moment of her old deadline passes
    harness.advance(seconds=2)

    # then only her write counts, and ben's turn goes on
    assert filled_cells(harness, game_id, 0) == 1
    assert cell_value(harness.last_game(BEN), "ana", column, row) is not None
    assert harness.session(game_id).turn == 2


def test_turn_deadline_then_write_only_timeout_applies(harness: Any) -> None:
    # given ana's clock ran out and the auto-move was written
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=60)

    # when her late write arrives, naming her turn, and once more without it
    named = harness.act(ANA, "write", gameId=game_id, column="down", row="ones", turn=1)
    unnamed = harness.act(ANA, "write", gameId=game_id, column="down", row="ones")

    # then both are refused: exactly one write for her turn
    assert harness.error(ANA, named)["code"] == "turn_over"
    assert harness.error(ANA, unnamed)["code"] == "not_your_turn"
    assert filled_cells(harness, game_id, 0) == 1


def test_solo_write_for_a_turn_that_timed_out_is_not_applied_to_the_next(harness: Any) -> None:
    # given a solo game whose turn 1 timed out while ana's write was on its way
    game_id = harness.running_game(ANA, players=1)
    column, row = harness.legal_cell(game_id)
    harness.advance(seconds=60)

    # when her write for turn 1 arrives (it is her turn again: turn 2)
    request_id = harness.act(ANA, "write", gameId=game_id, column=column, row=row, turn=1)

    # then it is refused instead of being written with turn 2's dice
    assert harness.error(ANA, request_id)["code"] == "turn_over"
    assert filled_cells(harness, game_id, 0) == 1


def test_write_for_a_turn_still_to_come_is_wrong_turn_not_turn_over(harness: Any) -> None:
    # given turn 1 of ana and ben's game
    game_id = harness.running_game(ANA, BEN)
    stored = harness.session(game_id).version

    # when ana's write names turn 6
    request_id = harness.act(ANA, "write", gameId=game_id, column="down", row="ones", turn=6)

    # then it is refused as the wrong turn, naming the one being played; nothing is written
    error = harness.error(ANA, request_id)
    assert error["code"] == "wrong_turn"
    assert "turn 6 has not started: it is turn 1" in error["message"]
    assert harness.session(game_id).version == stored


@pytest.mark.parametrize("first", ["write", "timer"])
def test_write_racing_turn_deadline_exactly_one_applies(
    harness: Any, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    # given ana's write just in time and the lane's wake a moment early (within its tolerance)
    # read the game at the same time
    game_id = harness.running_game(ANA, BEN)
    (lane,) = harness.timers.running_lanes(game_id)
    harness.clock.advance(seconds=59.8)
    rival = harness.other_service()
    outcome: dict[str, Any] = {}

    def write(via: GameService) -> None:
        outcome["write"] = harness.act(
            ANA, "write", via=via, gameId=game_id, column="down", row="ones", turn=1
        )

    def timer(via: GameService) -> None:
        outcome["timer"] = via.wake(game_id, lane=lane.lane)

    moves = {"write": write, "timer": timer}
    second = "timer" if first == "write" else "write"

    # when `first` saves first, `second` having read before
    rival_saves_first(monkeypatch, harness.service, lambda: moves[first](rival))
    moves[second](harness.service)

    # then exactly one of them applies, and the lane serves ben's turn
    assert filled_cells(harness, game_id, 0) == 1
    write_frame = harness.answer(ANA, outcome["write"])
    if first == "write":
        assert write_frame["type"] == "game"
    else:
        assert write_frame["code"] == "turn_over"
    assert outcome["timer"].rearm is True
    session = harness.session(game_id)
    assert session.turn == 2
    assert session.clock.deadline == harness.clock() + timedelta(seconds=60)


# ============================================================================ connections


def test_gone_connection_in_broadcast_is_unbound_from_player(harness: Any) -> None:
    # given ben's connection, open for a while, went away without a $disconnect yet
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    harness.advance(seconds=31)
    harness.notifier.gone.add(BEN.connection_id)

    # when ana's write is broadcast
    harness.write_any(ANA, game_id)

    # then ben's record no longer holds the gone connection; ana's still does
    assert harness.players.get("ben").connection_id is None
    assert harness.players.get("ana").connection_id == ANA.connection_id


def test_gone_connection_of_caller_is_unbound_from_player(harness: Any) -> None:
    # given ana's connection went away
    harness.connect(ANA)
    harness.notifier.gone.add(ANA.connection_id)

    # when an answer to her request cannot be delivered
    harness.act(ANA, "list_games")

    # then her record forgets the connection
    assert harness.players.get("ana").connection_id is None


def test_connect_new_connection_replaces_old_one(harness: Any) -> None:
    # given ana plays from one connection
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    newer = Caller("ana", "conn-ana-2")

    # when she connects again from elsewhere
    harness.service.connect(newer)

    # then the old connection is told why and closed, and the game talks to the new one
    assert harness.frames(ANA)[-1] == {
        "type": "disconnected",
        "code": "replaced",
        "reason": "replaced by a newer connection",
    }
    assert harness.notifier.closed == [ANA.connection_id]
    assert harness.players.get("ana").connection_id == newer.connection_id
    assert harness.session(game_id).seats[0].connection_id == newer.connection_id
    harness.write_any(newer, game_id)
    assert harness.broadcasts(newer)
    assert harness.frames(ANA)[-1]["type"] == "disconnected"


def test_connect_when_game_item_expired_still_connects(harness: Any) -> None:
    # given ana's record points at a game whose item is gone (TTL deletes ended games)
    harness.connect(ANA)
    game_id = harness.running_game(ANA, players=1, connect=False)
    harness.games._item(f"GAME#{game_id}", "GAME").delete()
    harness.service.disconnect(ANA)

    # when she connects again
    harness.service.connect(Caller("ana", "conn-ana-2"))

    # then the connection is bound, and she may sync and create a game
    assert harness.players.get("ana").connection_id == "conn-ana-2"
    request_id = harness.act(Caller("ana", "conn-ana-2"), "sync")
    assert harness.answer(Caller("ana", "conn-ana-2"), request_id).get("game") is None


# ============================================================================ idempotency


def test_repeated_roll_request_rolls_once(harness: Any) -> None:
    # given ana rolled once
    game_id = harness.running_game(ANA, BEN)
    request_id = harness.act(ANA, "roll", gameId=game_id, keep=[0])
    after_first = harness.session(game_id)
    first_ack = harness.ack(ANA, request_id)

    # when the same roll request arrives again
    harness.act(ANA, "roll", gameId=game_id, keep=[0], requestId=request_id)

    # then it is acked with the same version, and the dice are not rolled again
    acks = harness.answers(ANA, request_id)
    assert [a["type"] for a in acks] == ["game", "ack"]
    assert acks[1]["version"] == first_ack["version"] == after_first.version
    session = harness.session(game_id)
    assert session.version == after_first.version
    assert session.game().roll == 2
    assert session.game().dice == after_first.game().dice


def test_repeated_write_request_writes_once(harness: Any) -> None:
    # given ana wrote, and ben's turn started
    game_id = harness.running_game(ANA, BEN)
    request_id = harness.act(ANA, "write", gameId=game_id, column="down", row="ones")
    version = harness.session(game_id).version

    # when her write request is delivered again
    harness.act(ANA, "write", gameId=game_id, column="down", row="ones", requestId=request_id)

    # then she gets an ack of that version, not a "not your turn" error, and nothing changes
    acks = harness.answers(ANA, request_id)
    assert [a["type"] for a in acks] == ["game", "ack"]
    assert acks[0]["game"]["version"] == acks[1]["version"] == version
    assert harness.session(game_id).version == version


def test_repeated_join_request_joins_once(harness: Any) -> None:
    # given ben joined ana's table
    game_id = harness.create_game(ANA, players=3)
    request_id = harness.act(BEN, "join_game", gameId=game_id)

    # when his join is delivered again
    harness.act(BEN, "join_game", gameId=game_id, requestId=request_id)

    # then he is answered twice with the same version and sits once
    acks = harness.answers(BEN, request_id)
    assert [a["type"] for a in acks] == ["game", "ack"]
    assert acks[0]["game"]["version"] == acks[1]["version"]
    assert harness.session(game_id).player_ids == ["ana", "ben"]


def test_join_that_loses_every_race_leaves_the_player_free(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a waiting table that another instance changes between every read and save
    harness.connect(ANA, BEN, DAN)
    game_id = harness.create_game(ANA, players=2)
    real_save = harness.games.save

    def save(session: Any, **write: Any) -> None:
        rival_write(harness, game_id, real_save)
        real_save(session, **write)

    monkeypatch.setattr(harness.games, "save", save)

    # when ben tries to join
    request_id = harness.act(BEN, "join_game", gameId=game_id)

    # then the seat and the player's current game were written together, or not at all
    assert harness.error(BEN, request_id)["code"] == "conflict"
    assert harness.session(game_id).seat_of("ben") is None
    assert harness.service.players.get("ben").game_id is None


def test_join_records_the_players_game_with_the_seat(harness: Any) -> None:
    # given a waiting table
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)
    # when ben joins
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    # then both the seat and ben's current game are stored
    assert harness.session(game_id).seat_of("ben") == 1
    assert harness.service.players.get("ben").game_id == game_id
    assert harness.service.players.get("ana").game_id == game_id


def test_timers_of_writes_that_lost_their_race_do_nothing(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a start whose every save loses a race (each attempt starts the lane first)
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)
    real_save = harness.games.save

    def save(session: Any, **write: Any) -> None:
        rival_write(harness, game_id, real_save)
        real_save(session, **write)

    monkeypatch.setattr(harness.games, "save", save)
    request_id = harness.act(ANA, "start_game", gameId=game_id)
    assert harness.error(ANA, request_id)["code"] == "conflict"
    orphans = harness.timers.running_lanes(game_id)
    assert orphans
    monkeypatch.setattr(harness.games, "save", real_save)
    version = harness.session(game_id).version

    # when those lanes wake the game
    harness.advance(seconds=61)

    # then nothing happens to it, and the lanes end
    session = harness.session(game_id)
    assert session.status == "waiting"
    assert session.version == version
    assert harness.timers.running_lanes(game_id) == []


def test_request_id_reused_for_another_action_refused(harness: Any) -> None:
    # given ana rolled with a request id
    game_id = harness.running_game(ANA, BEN)
    request_id = harness.act(ANA, "roll", gameId=game_id, keep=[0])
    version = harness.session(game_id).version

    # when she sends another action (a write) under the same request id
    harness.act(ANA, "write", gameId=game_id, column="down", row="ones", requestId=request_id)

    # then it is refused as a reused id, and nothing is written
    answers = harness.answers(ANA, request_id)
    assert [a["type"] for a in answers] == ["game", "error"]
    assert answers[1]["code"] == "request_reused"
    assert harness.session(game_id).version == version


# ============================================================================ locks


def test_lock_is_stored_shown_and_used_by_the_next_roll(harness: Any) -> None:
    # given ana's turn at roll 1
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    before = harness.session(game_id).game().dice

    # when she locks dice 1 and 4, then rolls without naming locks
    harness.ack(ANA, harness.act(ANA, "lock", gameId=game_id, keep=[4, 1]))
    locked_view = harness.last_game(BEN)
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id))

    # then everyone saw the locks, the roll kept those dice, and the locks stand after it
    assert locked_view["turn"]["locks"] == [1, 4]
    game = harness.session(game_id).game()
    assert (game.dice[1], game.dice[4]) == (before[1], before[4])
    assert harness.last_game(BEN)["turn"]["locks"] == [1, 4]


@pytest.mark.parametrize("keep", [[5], [1, 1], [-1]])
def test_lock_bad_positions_refused(harness: Any, keep: list[int]) -> None:
    # given ana's turn
    game_id = harness.running_game(ANA, BEN)

    # when she locks positions that are not dice, or one twice
    request_id = harness.act(ANA, "lock", gameId=game_id, keep=keep)

    # then it is refused and nothing is locked
    assert harness.error(ANA, request_id)["code"] == "bad_keep"
    assert harness.session(game_id).locks == []


def test_locks_are_released_when_the_turn_ends(harness: Any) -> None:
    # given ana locked dice, then wrote
    game_id = harness.running_game(ANA, BEN)
    harness.act(ANA, "lock", gameId=game_id, keep=[0])
    harness.write_any(ANA, game_id)

    # when ben's turn starts / then nothing is locked for him
    assert harness.session(game_id).locks == []
    assert harness.last_game(BEN)["turn"]["locks"] == []


# ============================================================================ faults and edges


def test_seat_whose_connection_closed_at_the_waiting_table_starts_away(harness: Any) -> None:
    # given ben joined, then his connection closed while the table still waited
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.service.disconnect(BEN)

    # when ana starts the game and ben never comes back
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    started = harness.session(game_id)
    harness.advance(minutes=4)

    # then he started away, with his return countdown, and left when it ran out
    assert started.seats[1].present is False
    assert started.seats[1].return_deadline is not None
    assert harness.session(game_id).seats[1].left


def test_seat_whose_connection_is_found_gone_is_away(harness: Any) -> None:
    # given ben's connection, open for a while, went away without a $disconnect
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    harness.advance(seconds=31)
    harness.notifier.gone.add(BEN.connection_id)

    # when a broadcast finds it gone
    harness.write_any(ANA, game_id)

    # then his seat is away, with his return countdown, as after a $disconnect
    seat = harness.session(game_id).seats[1]
    assert (seat.present, seat.connection_id) == (False, None)
    assert seat.return_deadline is not None


def test_seat_whose_new_connection_is_still_in_its_handshake_stays_present(
    harness: Any,
) -> None:
    # given ben's game, and ben connecting again: his $connect has bound the new connection
    # and returned him to his seat, and API Gateway answers Gone until the handshake ends
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    harness.advance(seconds=31)
    newer = Caller("ben", "conn-ben-2")
    harness.service.connect(newer)
    harness.notifier.gone.add(newer.connection_id)

    # when ana's write is broadcast meanwhile
    harness.write_any(ANA, game_id)

    # then ben keeps his seat with the new connection, present, and it is still his: once open,
    # his sync shows him the game and the next broadcasts reach him
    seat = harness.session(game_id).seats[1]
    assert (seat.present, seat.connection_id) == (True, newer.connection_id)
    assert seat.return_deadline is None
    assert harness.players.get("ben").connection_id == newer.connection_id
    harness.notifier.gone.discard(newer.connection_id)
    roll = harness.act(newer, "roll", gameId=game_id)
    assert harness.game_answer(newer, roll)["turn"]["roll"] == 2


def test_disconnect_just_after_the_deadline_meets_the_turn_that_followed(harness: Any) -> None:
    # given ana's clock ran out 0.3 s ago, before any timer came
    game_id = harness.running_game(ANA, BEN)
    deadline = harness.session(game_id).clock.deadline
    harness.clock.set(deadline + timedelta(milliseconds=300))

    # when her connection drops and comes back
    harness.service.disconnect(ANA)
    harness.service.connect(Caller("ana", "conn-ana-2"))

    # then her expired turn was played for her first: no fresh 5 s for it
    session = harness.session(game_id)
    assert session.turn == 2
    assert filled_cells(harness, game_id, 0) == 1


def test_roll_after_the_deadline_before_its_timer_is_refused(harness: Any) -> None:
    # given ana's clock ran out 0.4 s ago, before any timer came
    game_id = harness.running_game(ANA, BEN)
    session = harness.session(game_id)
    harness.clock.set(session.clock.deadline + timedelta(milliseconds=400))

    # when her roll arrives
    request_id = harness.act(ANA, "roll", gameId=game_id, turn=session.turn)

    # then it is refused: the turn ended at its deadline, and the table saw the auto-move
    assert harness.error(ANA, request_id)["code"] == "turn_over"
    assert filled_cells(harness, game_id, 0) == 1
    assert harness.last_game(BEN)["turn"]["playerId"] == "ben"


def test_lane_arming_late_after_a_time_out_misses_no_deadline(harness: Any) -> None:
    # given a lane that arms 1.5 s after the clock function answers it (its broadcast first)
    harness.timers.arm_delay = timedelta(seconds=1.5)
    game_id = harness.running_game(ANA, BEN)
    harness.advance(seconds=62)  # ana timed out; ben's turn started with a full clock
    ben_deadline = harness.session(game_id).clock.deadline
    assert ben_deadline is not None

    # when ben lets his clock run out too
    harness.advance(seconds=(ben_deadline - harness.clock()).total_seconds() + 1)

    # then his turn ended within a second of its deadline
    assert harness.session(game_id).turn == 3


def test_timer_request_failing_after_the_write_loses_nothing(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given the heartbeat call fails (throttled after botocore's retries) when ana writes
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)

    def throttled(token: str) -> bool:
        raise RuntimeError("ThrottlingException")

    monkeypatch.setattr(harness.timers, "beat", throttled)
    before = len(harness.broadcasts(BEN))

    # when she writes
    column, row = harness.write_any(ANA, game_id)

    # then her move stands, everyone got it, and a wake keeps ben's deadline instead
    assert cell_value(harness.last_game(BEN), "ana", column, row) is not None
    assert len(harness.broadcasts(BEN)) == before + 1
    deadline = harness.session(game_id).clock.deadline
    assert any(wake.at >= deadline for wake in harness.timers.waiting_wakes(game_id))


def test_disappearance_cooldown_is_written_with_the_game(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana lost her connection after playing a turn, and the clock function dies right
    # after the write that removes her (before anything else it does)
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    harness.write_any(ANA, game_id)
    harness.write_any(BEN, game_id)
    harness.service.disconnect(ANA)

    def dies(applied: Any) -> None:
        raise RuntimeError("Lambda timed out")

    monkeypatch.setattr("yamb_service.game.wake.carry_out", dies)

    # when her return deadline passes
    with pytest.raises(RuntimeError):
        harness.advance(minutes=3)

    # then she left the game and her cooldown runs: both were one write
    assert harness.session(game_id).seats[0].left
    assert harness.players.get("ana").blocked_until == harness.clock() + timedelta(minutes=5)


def test_transaction_conflict_is_a_lost_race_tried_again(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given DynamoDB answers the first game write with TransactionConflictException (another
    # transaction held the item), as DynamoDB does and moto does not
    from botocore.exceptions import ClientError
    from pynamodb.exceptions import PutError

    game_id = harness.running_game(ANA, BEN)
    item = harness.games._item
    real_save = item.save
    conflict = ClientError(
        {"Error": {"Code": "TransactionConflictException", "Message": "held"}}, "PutItem"
    )
    answers = iter([PutError("conflict", cause=conflict)])

    def save(self: Any, *args: Any, **kwargs: Any) -> Any:
        error = next(answers, None)
        if error is not None:
            raise error
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(item, "save", save)

    # when ana rolls
    request_id = harness.act(ANA, "roll", gameId=game_id)

    # then the roll is applied on the second try
    assert harness.answer(ANA, request_id)["type"] == "game"
    assert harness.session(game_id).game().roll == 2


# ============================================================================ faults AWS gives


def _throttled(operation: str) -> Any:
    """What pynamodb raises when DynamoDB throttled a request past botocore's retries."""
    from botocore.exceptions import ClientError
    from pynamodb.exceptions import PutError

    cause = ClientError(
        {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "slow"}},
        operation,
    )
    return PutError("throttled", cause=cause)


def test_throttled_game_write_answers_busy_and_changes_nothing(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given DynamoDB throttles every write of the game item for a while
    game_id = harness.running_game(ANA, BEN)
    item = harness.games._item
    real_save = item.save
    throttling = [True]

    def save(self: Any, *args: Any, **kwargs: Any) -> Any:
        if throttling[0]:
            raise _throttled("PutItem")
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(item, "save", save)
    before = harness.session(game_id)

    # when ana rolls, and once the throttling is over sends the same request again
    request_id = harness.act(ANA, "roll", gameId=game_id, keep=[0])
    refused = harness.answers(ANA, request_id)
    throttling[0] = False
    harness.act(ANA, "roll", gameId=game_id, keep=[0], requestId=request_id)

    # then she was told to send it again, nothing changed meanwhile, and it applied once
    assert [(a["type"], a.get("code")) for a in refused] == [("error", "busy")]
    assert refused[0]["requestId"] == request_id
    assert harness.session(game_id).version == before.version + 1
    assert harness.session(game_id).game().roll == 2


def test_write_applied_but_answered_with_an_error_is_not_doubled_on_repeat(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given DynamoDB stores ana's write but its answer is lost (a 5xx after the write)
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    item = harness.games._item
    real_save = item.save
    lost = [True]

    def save(self: Any, *args: Any, **kwargs: Any) -> Any:
        answer = real_save(self, *args, **kwargs)
        if lost[0]:
            lost[0] = False
            raise _throttled("PutItem")
        return answer

    monkeypatch.setattr(item, "save", save)
    column, row = harness.legal_cell(game_id)

    # when she writes, is told the server is busy, and sends the same request again
    request_id = harness.act(ANA, "write", gameId=game_id, column=column, row=row)
    first = harness.answer(ANA, request_id)
    harness.act(ANA, "write", gameId=game_id, column=column, row=row, requestId=request_id)

    # then the cell is written once, the repeat is acked, and ben sees the game as it is
    assert first["code"] == "busy"
    assert harness.answers(ANA, request_id)[-1]["type"] == "ack"
    assert filled_cells(harness, game_id, 0) == 1
    assert cell_value(harness.last_game(BEN), "ana", column, row) is not None


def test_throttled_timer_start_before_the_write_answers_busy_and_changes_nothing(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given Step Functions throttles StartExecution (past botocore's retries)
    from yamb_service.common.errors import ServiceBusyError

    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2)
    harness.act(BEN, "join_game", gameId=game_id)

    def throttled(game_id: str, lane: int, seconds: int) -> None:
        raise ServiceBusyError

    monkeypatch.setattr(harness.timers, "start_lane", throttled)

    # when ana starts the game
    request_id = harness.act(ANA, "start_game", gameId=game_id)

    # then she is told to try again, and the game still waits: no clock without its timer
    assert harness.error(ANA, request_id)["code"] == "busy"
    assert harness.session(game_id).status == "waiting"


def test_frame_that_cannot_be_posted_leaves_the_move_and_the_other_frames(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given posting to ben's connection is throttled (past botocore's retries)
    harness.connect(ANA, BEN, DAN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    harness.act(DAN, "watch_game", gameId=game_id)
    real_send = harness.notifier.send

    def send(connection_id: str, frame: Any) -> bool:
        if connection_id == BEN.connection_id:
            raise RuntimeError("LimitExceededException")
        return bool(real_send(connection_id, frame))

    monkeypatch.setattr(harness.notifier, "send", send)

    # when ana writes
    column, row = harness.write_any(ANA, game_id)

    # then her move stands and she and the spectator got it; ben's seat is not marked away
    assert cell_value(harness.last_game(DAN), "ana", column, row) is not None
    assert harness.session(game_id).seats[1].present


def test_expired_sign_in_closes_the_connection_before_any_action(harness: Any) -> None:
    # given ana's connection was opened with a token that has expired since
    game_id = harness.running_game(ANA, BEN)
    expired = Caller("ana", ANA.connection_id, expires_at=int(time.time()) - 1)
    version = harness.session(game_id).version

    # when she rolls
    harness.act(expired, "roll", gameId=game_id)

    # then she is told why and the connection is closed; nothing was done
    assert harness.frames(ANA)[-1]["type"] == "disconnected"
    assert harness.frames(ANA)[-1]["code"] == "session_expired"
    assert ANA.connection_id in harness.notifier.closed
    assert harness.session(game_id).version == version


def test_sign_in_expiry_given_the_game_clock_moved_past_it_then_the_wall_clock_decides(
    harness: Any,
) -> None:
    # given ana's token is valid for ten more minutes of wall time, and the game's clock (which
    # the local stack moves forward to run out deadlines) is already a day past its expiry
    game_id = harness.running_game(ANA, turn_seconds=None)
    signed_in = Caller("ana", ANA.connection_id, expires_at=int(time.time()) + 600)
    harness.clock.set(datetime.fromtimestamp(time.time(), UTC) + timedelta(days=1))
    roll = harness.session(game_id).game().roll

    # when she rolls
    request_id = harness.act(signed_in, "roll", gameId=game_id)

    # then the roll is applied and her connection stays open
    assert harness.answer(ANA, request_id)["type"] == "game"
    assert harness.session(game_id).game().roll == roll + 1
    assert ANA.connection_id not in harness.notifier.closed


def test_handshake_losing_every_race_still_connects_and_sync_takes_the_seat(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a game that another instance changes between every read and write of this one
    game_id = harness.running_game(ANA, BEN)
    harness.service.disconnect(ANA)
    real_save = harness.games.save
    racing = [True]

    def save(session: Any, **write: Any) -> None:
        if racing[0]:
            rival_write(harness, game_id, real_save)
        real_save(session, **write)

    monkeypatch.setattr(harness.games, "save", save)
    again = Caller("ana", "conn-ana-2")

    # when ana connects again (her seat's write loses every race), then syncs once it is quiet
    harness.service.connect(again)
    assert not harness.session(game_id).seats[0].present
    racing[0] = False
    view = harness.game_answer(again, harness.act(again, "sync"))

    # then the handshake did not fail, and her sync gave the seat its connection back
    assert harness.players.get("ana").connection_id == "conn-ana-2"
    assert view["seats"][0]["present"] is True
    assert harness.session(game_id).seats[0].connection_id == "conn-ana-2"


def test_finish_offer_shows_no_turn(harness: Any) -> None:
    # given ana resigned during her roll 2, and ben was offered to finish his sheet
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False)
    harness.write_any(ANA, game_id)
    harness.act(BEN, "roll", gameId=game_id)
    harness.act(BEN, "resign", gameId=game_id)

    # when anyone looks at the game
    view = harness.last_game(ANA)

    # then nobody is in turn until ana answers, and her seat's countdown is not shown
    assert view["finishOffer"] == "ana"
    assert view["turn"] is None
    assert view["outcome"] is None


def test_flood_from_one_connection_is_slowed_down_without_writes(harness: Any) -> None:
    # given the deployed limits (30 frames at once, then 10 a second) and a running game, the
    # flood taking no time at all
    from yamb_service.game.throttle import ConnectionThrottle

    game_id = harness.running_game(ANA, BEN)
    harness.service.throttle = ConnectionThrottle(burst=30, per_second=10, clock=lambda: 0.0)
    version = harness.session(game_id).version

    # when one connection sends 200 watch_game frames at once, and ben then rolls
    for _ in range(200):
        harness.act(DAN, "watch_game", gameId=game_id)
    roll = harness.act(BEN, "roll", gameId=game_id)

    # then 30 were answered, one "slow down" told the flooder, the rest were dropped; the game
    # was never written by them, and ben's frame was not held back by the flood
    answers = harness.frames(DAN)
    assert sum(frame["type"] == "game" for frame in answers) == 30
    assert [frame["code"] for frame in answers if frame["type"] == "error"] == ["slow_down"]
    assert harness.session(game_id).version == version
    assert harness.error(BEN, roll)["code"] == "not_your_turn"


def test_racing_creates_and_joins_seat_the_player_once(harness: Any, atomic_requests: None) -> None:
    # given three open tables, and eight function instances
    import threading

    tables = [harness.create_game(owner, players=2) for owner in (BEN, CLEO, DAN)]
    instances = [harness.other_service(seed) for seed in range(8)]
    barrier = threading.Barrier(len(instances))

    def race(index: int) -> None:
        barrier.wait()
        if index % 2:
            harness.act(ANA, "join_game", via=instances[index], gameId=tables[index % 3])
        else:
            settings = {"players": 2, "preset": 1}
            harness.act(ANA, "create_game", via=instances[index], settings=settings)

    # when ana's creates and joins all run at once (two connections' frames back to back)
    threads = [threading.Thread(target=race, args=(i,)) for i in range(len(instances))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then she sits at exactly one table, every other frame was refused, and her record agrees
    seated = [
        game.game_id
        for game in harness.games.list_open(50)
        if "ana" in harness.session(game.game_id).player_ids
    ]
    assert len(seated) == 1
    refusals = [f for f in harness.frames(ANA) if f["type"] == "error"]
    assert len(refusals) == len(instances) - 1
    assert {f["code"] for f in refusals} <= {"already_in_game", "already_seated", "conflict"}
    assert harness.players.get("ana").seated_in == seated[0]


def test_abandoned_game_cancelled_by_the_50_rule_counts_in_the_leavers_statistics(
    harness: Any,
) -> None:
    # given a ranked two-player game: ana and ben play a turn each, then ana's connection goes
    # and she does not come back; ben declines to finish (under half of his turns: cancelled)
    harness.connect(ANA, BEN)
    game_id = harness.running_game(ANA, BEN, connect=False, ranked=True)
    harness.write_any(ANA, game_id)
    harness.write_any(BEN, game_id)
    harness.service.disconnect(ANA)
    harness.advance(minutes=3)
    harness.act(BEN, "finish_sheet", gameId=game_id, accept=False)
    assert harness.session(game_id).status == "cancelled"

    # when the game's end on the table's stream reaches the results
    item = harness.games._item.get(f"GAME#{game_id}", "ENDED")
    ended = GameResult.model_validate_json(item.body)
    store = DynamoResultsStore(harness.games._item, sleep=lambda _: None)
    accounts = DynamoAccountStore(harness.games._item, harness.games.result)
    ResultsRecorder(store, accounts, now=harness.clock).record(ended)

    # then ana's statistics count the game as abandoned (rules.md 8), without a loss; ben's
    # count nothing (the cancelled game counts for nobody else)
    stats = store.statistics(["ana", "ben"])
    assert (stats["ana"].games, stats["ana"].abandoned, stats["ana"].losses) == (1, 1, 0)
    assert "ben" not in stats


def test_waiting_table_whose_creator_is_gone_is_handed_to_the_next_player_there(
    harness: Any,
) -> None:
    # given ana's waiting table of three, where ben and cleo sit; ana closes every window
    harness.connect(ANA, BEN, CLEO)
    game_id = harness.create_game(ANA, players=3)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.ack(CLEO, harness.act(CLEO, "join_game", gameId=game_id))
    harness.service.disconnect(ANA)
    assert harness.last_game(BEN)["seats"][0]["returnDeadline"] is not None

    # when she has not come back within the grace (a timer wakes the table)
    harness.advance(minutes=3, seconds=1)

    # then the table is ben's, who is told and may start it; ana keeps her seat, away
    session = harness.session(game_id)
    assert (session.status, session.creator) == ("waiting", "ben")
    assert harness.last_game(CLEO)["creator"] == "ben"
    assert session.seats[0].present is False and session.seats[0].return_deadline is None


def test_waiting_table_whose_creator_comes_back_in_time_stays_theirs(harness: Any) -> None:
    # given ana's waiting table, ben seated; ana's connection closes
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=3)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.service.disconnect(ANA)

    # when she connects again within the grace, and the grace passes
    harness.advance(minutes=2)
    harness.service.connect(ANA)
    harness.advance(minutes=5)

    # then nothing was handed over
    session = harness.session(game_id)
    assert (session.status, session.creator) == ("waiting", "ana")
    assert session.seats[0].return_deadline is None


def test_waiting_table_whose_creator_is_gone_and_nobody_there_is_closed(harness: Any) -> None:
    # given ana's waiting table, where ben sits away; then ana closes every window too
    harness.connect(ANA, BEN, DAN)
    game_id = harness.create_game(ANA, players=3)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.service.disconnect(BEN)
    harness.service.disconnect(ANA)

    # when the grace passes
    harness.advance(minutes=3, seconds=1)

    # then the table is closed: unlisted, and both are free to join another table
    assert harness.session(game_id).status == "deleted"
    assert harness.answer(DAN, harness.act(DAN, "list_games"))["games"] == []
    other = harness.create_game(DAN, players=3)
    harness.connect(BEN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=other))
