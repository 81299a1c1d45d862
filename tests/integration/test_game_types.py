"""Simultaneous, each-for-themself and slow games through the service on moto: own turns and
clocks, per-recipient views (no frame carries another player's hidden dice), spectators who
pick whom to follow."""

from datetime import timedelta
from typing import Any

import pytest
from yamb_service.edge.caller import Caller

ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
CLEO = Caller("cleo", "conn-cleo")
DAN = Caller("dan", "conn-dan")
EVE = Caller("eve", "conn-eve")
FREE = {"columns": ["free"], "preset": None}


def own_turn(harness: Any, caller: Caller) -> dict[str, Any] | None:
    turn: dict[str, Any] | None = harness.last_game(caller)["turn"]
    return turn


def write_first(harness: Any, caller: Caller, game_id: str) -> str:
    """The player writes the first legal cell their own view offers."""
    turn = own_turn(harness, caller)
    assert turn is not None and turn["playerId"] == caller.player_id
    cell = turn["legal"][0]
    return str(harness.act(caller, "write", gameId=game_id, column=cell["column"], row=cell["row"]))


def assert_nothing_hidden(harness: Any, recipient: Caller, shown: str | None) -> None:
    """Every game frame the recipient got shows at most the turn of `shown` (themself, or the
    player they follow): no other player's dice, locks, announcement or pending choice."""
    for view in harness.broadcasts(recipient):
        turn = view["turn"]
        assert turn is None or turn["playerId"] == shown, (recipient, turn)


def test_simultaneous_round_plays_through_the_service_with_views_per_player(
    harness: Any,
) -> None:
    # given a simultaneous game of three, watched by dan
    game_id = harness.running_game(ANA, BEN, CLEO, turnType="simultaneous", **FREE)
    harness.connect(DAN)
    harness.ack(DAN, harness.act(DAN, "watch_game", gameId=game_id))

    # when ana and ben write, and cleo locks and rolls
    harness.ack(ANA, write_first(harness, ANA, game_id))
    harness.ack(BEN, write_first(harness, BEN, game_id))
    harness.ack(CLEO, harness.act(CLEO, "roll", gameId=game_id, keep=[0, 1]))

    # then the table waits for cleo; ana sees no turn of her own, cleo sees hers
    view = harness.last_game(ANA)
    assert view["waitingFor"] == ["cleo"]
    assert view["turn"] is None
    assert [seat["turnsPlayed"] for seat in view["seats"]] == [1, 1, 0]
    assert own_turn(harness, CLEO)["locks"] == [0, 1]  # type: ignore[index]
    # and dan follows the first player by default
    assert harness.last_game(DAN)["turn"] is None

    # when cleo writes, round 2 starts for everyone
    harness.ack(CLEO, write_first(harness, CLEO, game_id))
    for caller in (ANA, BEN, CLEO):
        assert own_turn(harness, caller)["number"] == 2  # type: ignore[index]

    # and no frame ever carried another player's turn
    for caller in (ANA, BEN, CLEO):
        assert_nothing_hidden(harness, caller, caller.player_id)
    assert_nothing_hidden(harness, DAN, "ana")


def test_simultaneous_refuses_a_second_turn_before_the_round_ends(harness: Any) -> None:
    # given ana has written round 1 of a simultaneous game
    game_id = harness.running_game(ANA, BEN, turnType="simultaneous", **FREE)
    harness.ack(ANA, write_first(harness, ANA, game_id))
    stored = harness.session(game_id).version

    # when she rolls
    request = harness.act(ANA, "roll", gameId=game_id)

    # then she is refused with a clear code, and nothing is written
    error = harness.error(ANA, request)
    assert error["code"] == "round_not_over"
    assert "ben" in error["message"]
    assert harness.session(game_id).version == stored


def test_each_for_themself_write_for_a_later_own_turn_is_wrong_turn(harness: Any) -> None:
    # given ana has played her own turn 1 and plays her turn 2
    game_id = harness.running_game(ANA, BEN, turnType="each_for_themself", **FREE)
    harness.ack(ANA, write_first(harness, ANA, game_id))
    legal = own_turn(harness, ANA)["legal"][0]  # type: ignore[index]
    cell = {"column": legal["column"], "row": legal["row"]}

    # when she writes naming her turn 6, then her turn 1
    ahead = harness.act(ANA, "write", gameId=game_id, turn=6, **cell)
    behind = harness.act(ANA, "write", gameId=game_id, turn=1, **cell)

    # then the first is the wrong turn, the second one that is over
    assert harness.error(ANA, ahead)["code"] == "wrong_turn"
    assert "your turn 6 has not started: it is your turn 2" in harness.error(ANA, ahead)["message"]
    assert harness.error(ANA, behind)["code"] == "turn_over"


def test_watch_game_spectator_picks_whom_to_follow_and_switches(harness: Any) -> None:
    # given an each-for-themself game where ben has locked two dice
    game_id = harness.running_game(ANA, BEN, turnType="each_for_themself", **FREE)
    harness.ack(BEN, harness.act(BEN, "lock", gameId=game_id, keep=[3, 4]))

    # when dan watches following ben
    harness.connect(DAN)
    watch = harness.game_answer(DAN, harness.act(DAN, "watch_game", gameId=game_id, follow="ben"))

    # then he sees ben's turn with its locks
    assert watch["turn"]["playerId"] == "ben" and watch["turn"]["locks"] == [3, 4]

    # when ana writes, dan still sees ben's turn; when he switches to ana, he sees hers
    harness.ack(ANA, write_first(harness, ANA, game_id))
    assert harness.last_game(DAN)["turn"]["playerId"] == "ben"
    switched = harness.game_answer(
        DAN, harness.act(DAN, "watch_game", gameId=game_id, follow="ana")
    )
    assert switched["turn"]["playerId"] == "ana" and switched["turn"]["number"] == 2
    harness.ack(BEN, write_first(harness, BEN, game_id))
    assert harness.last_game(DAN)["turn"]["playerId"] == "ana"
    assert harness.games.load(game_id).spectators == [DAN.connection_id]


def test_watch_game_follow_refusals(harness: Any) -> None:
    # given a turn-by-turn game and an each-for-themself game
    by_turn = harness.running_game(ANA, BEN, **FREE)
    own = harness.running_game(CLEO, EVE, turnType="each_for_themself", **FREE)
    harness.connect(DAN)

    # when dan asks to follow a player in each, or someone who does not play
    turn_by_turn = harness.act(DAN, "watch_game", gameId=by_turn, follow="ben")
    stranger = harness.act(DAN, "watch_game", gameId=own, follow="zed")
    # and a player asks to watch their own game following another
    seated = harness.act(CLEO, "watch_game", gameId=own, follow="eve")

    # then each is refused with its code, and dan watches nothing
    assert harness.error(DAN, turn_by_turn)["code"] == "wrong_game_type"
    assert harness.error(DAN, stranger)["code"] == "unknown_player"
    assert harness.error(CLEO, seated)["code"] == "dice_hidden"
    assert harness.games.load(own).spectators == []


def test_own_turns_clock_runs_out_per_player_on_wakes(harness: Any) -> None:
    # given a simultaneous game where ana writes 10 s in
    game_id = harness.running_game(ANA, BEN, turnType="simultaneous", turnSeconds=30, **FREE)
    harness.advance(seconds=10)
    harness.ack(ANA, write_first(harness, ANA, game_id))

    # when ben's 30 s run out (a one-shot wake: own turns need no lane)
    harness.advance(seconds=21)

    # then his turn is written for him and round 2 starts for both, each with a full clock
    session = harness.session(game_id)
    assert session.game().turns_played == [1, 1]
    assert harness.timers.running_lanes(game_id) == []
    for caller in (ANA, BEN):
        turn = own_turn(harness, caller)
        assert turn is not None and turn["number"] == 2
        assert turn["deadline"] is not None


@pytest.mark.parametrize(
    "settings",
    [
        {"turnType": "each_for_themself"},
        {"turnType": "simultaneous"},
        {"turnType": "slow", "turnSeconds": None, "slowDeadlineHours": 48},
    ],
)
def test_own_turns_whole_game_never_sends_a_hidden_turn(
    harness: Any, settings: dict[str, Any]
) -> None:
    # given a game of two of a type that hides dice, watched by dan following ben
    game_id = harness.running_game(ANA, BEN, **settings, **FREE)
    harness.connect(DAN)
    harness.ack(DAN, harness.act(DAN, "watch_game", gameId=game_id, follow="ben"))
    cells = harness.session(game_id).game().layout.cells_per_sheet

    # when both play their whole sheets, rolling before each write, turn after turn
    for _ in range(cells):
        for caller in (ANA, BEN):
            harness.ack(caller, harness.act(caller, "roll", gameId=game_id, keep=[0]))
            harness.ack(caller, write_first(harness, caller, game_id))

    # then the game is over, and no frame ever showed anyone a turn they may not see
    view = harness.last_game(ANA)
    assert view["status"] == "finished" and view["winners"]
    for caller in (ANA, BEN):
        assert_nothing_hidden(harness, caller, caller.player_id)
    assert_nothing_hidden(harness, DAN, "ben")
    assert any(v["turn"] is not None for v in harness.broadcasts(DAN))


SLOW = {**FREE, "turnType": "slow", "turnSeconds": None, "slowDeadlineHours": 48}


def test_slow_game_is_played_beside_a_regular_game_and_one_more_is_refused(harness: Any) -> None:
    # given ana plays a regular game and sits at a slow game
    harness.running_game(ANA, BEN, **FREE)
    harness.create_game(ANA, players=2, **SLOW)

    # when she creates a second slow game
    second = harness.act(ANA, "create_game", settings={"players": 2, **SLOW})

    # then she is refused with the limit, and still sits at exactly one slow game
    error = harness.error(ANA, second)
    assert error["code"] == "slow_games_limit"
    assert "premium" in error["message"]
    assert len(harness.players.get("ana").slow_games) == 1


def test_slow_games_premium_player_sits_at_three(harness: Any) -> None:
    # given ana has premium
    harness.connect(ANA)
    harness.players.grant_premium("ana", harness.clock.moment + timedelta(days=30))

    # when she creates four slow games
    created = [harness.act(ANA, "create_game", settings={"players": 2, **SLOW}) for _ in range(4)]

    # then three are created and the fourth is refused
    assert [harness.answer(ANA, r)["type"] for r in created[:3]] == ["game"] * 3
    assert harness.error(ANA, created[3])["code"] == "slow_games_limit"
    assert len(harness.players.get("ana").slow_games) == 3


def test_slow_game_joining_past_the_limit_is_refused_and_the_table_unchanged(
    harness: Any,
) -> None:
    # given ben sits at a slow game, and ana created another
    harness.connect(ANA, BEN)
    harness.create_game(BEN, players=2, **SLOW)
    table = harness.create_game(ANA, players=2, **SLOW)

    # when ben joins ana's
    request = harness.act(BEN, "join_game", gameId=table)

    # then he is refused and the table still waits with ana alone
    assert harness.error(BEN, request)["code"] == "slow_games_limit"
    assert harness.session(table).player_ids == ["ana"]


def test_slow_game_deadline_ends_the_game_and_frees_the_slow_seats(harness: Any) -> None:
    # given a slow game where ana fills her sheet and ben plays one turn
    game_id = harness.running_game(ANA, BEN, **SLOW)
    cells = harness.session(game_id).game().layout.cells_per_sheet
    for _ in range(cells):
        harness.ack(ANA, write_first(harness, ANA, game_id))
    harness.ack(BEN, write_first(harness, BEN, game_id))
    assert harness.last_game(BEN)["slowDeadline"] is not None

    # when 48 hours pass
    harness.advance(hours=48, seconds=1)

    # then ana wins, ben's unfinished sheet loses, and both may sit at a slow game again
    view = harness.last_game(BEN)
    assert (view["status"], view["outcome"], view["winners"]) == ("finished", "deadline", ["ana"])
    assert harness.players.get("ana").slow_games == frozenset()
    assert harness.players.get("ben").slow_games == frozenset()


def test_sync_names_a_slow_game_played_beside_the_regular_one(harness: Any) -> None:
    # given ana plays a regular game and a slow one
    harness.running_game(ANA, BEN, **FREE)
    harness.connect(CLEO)
    slow = harness.running_game(ANA, CLEO, connect=False, **SLOW)

    # when she syncs naming the slow game, and dan does the same
    mine = harness.answer(ANA, harness.act(ANA, "sync", gameId=slow))
    harness.connect(DAN)
    stranger = harness.act(DAN, "sync", gameId=slow)

    # then she gets the slow game with her own turn; dan is refused
    assert mine["game"]["gameId"] == slow
    assert mine["game"]["turn"]["playerId"] == "ana"
    assert harness.error(DAN, stranger)["code"] == "not_seated"


def test_watching_then_joining_a_table_sends_only_the_seat_view(harness: Any) -> None:
    # given ben watched ana's waiting simultaneous table, then joined it, and it started
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=2, turnType="simultaneous", **FREE)
    harness.ack(BEN, harness.act(BEN, "watch_game", gameId=game_id))
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # when ana rolls
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id, keep=[0]))

    # then ben, a player now, never got ana's turn
    assert_nothing_hidden(harness, BEN, "ben")


def test_each_for_themself_players_acting_at_once_never_get_conflict(
    harness: Any, network_latency: None
) -> None:
    # given an each-for-themself game of four, each player on their own function instance,
    # DynamoDB's requests as slow as over the network
    import threading

    players = (ANA, BEN, CLEO, DAN)
    game_id = harness.running_game(*players, turnType="each_for_themself", **FREE)
    instances = {
        caller.player_id: harness.other_service(seed) for seed, caller in enumerate(players)
    }
    cells = harness.session(game_id).game().sheets[0].empty_cells
    start = threading.Barrier(len(players))
    failures: list[BaseException] = []

    def play(caller: Caller) -> None:
        try:
            start.wait()
            seat = harness.session(game_id).seat_of(caller.player_id)
            for number in range(1, cells + 1):
                via = instances[caller.player_id]
                harness.act(caller, "roll", via=via, gameId=game_id, turn=number, keep=[0])
                game = harness.session(game_id).game()
                game.focus(seat)
                column, row, _ = game.legal_cells()[0]
                layout = game.layout
                harness.act(
                    caller,
                    "write",
                    via=via,
                    gameId=game_id,
                    turn=number,
                    column=layout.columns[column].id,
                    row=layout.grid.rows[row].id,
                )
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)

    # when all four roll and write every turn at the same moment
    threads = [threading.Thread(target=play, args=(caller,)) for caller in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then no action was refused (none with `conflict`: a lost race is the server's to retry),
    # and every sheet is full, each move applied once
    assert failures == []
    refusals = [f for c in players for f in harness.frames(c) if f["type"] == "error"]
    assert refusals == []
    session = harness.session(game_id)
    assert session.status == "finished"
    assert all(not sheet.empty_cells for sheet in session.game().sheets)


def test_each_for_themself_action_losing_many_races_is_retried_by_the_server(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given an each-for-themself game that the other players' actions change between each of
    # the next 10 reads and saves of ana's roll (the writer's pauses recorded, not slept)
    from yamb_service.game import writer

    game_id = harness.running_game(ANA, BEN, CLEO, turnType="each_for_themself", **FREE)
    real_save = harness.games.save
    rivals = iter(range(10))
    pauses: list[float] = []

    def save(session: Any, **write: Any) -> None:
        if next(rivals, None) is not None:
            real_save(harness.session(game_id), now=harness.clock())  # someone else's write
        real_save(session, **write)

    monkeypatch.setattr(harness.games, "save", save)
    monkeypatch.setattr(writer.time, "sleep", pauses.append)

    # when ana rolls
    request_id = harness.act(ANA, "roll", gameId=game_id, turn=1)

    # then her roll is applied on the 11th attempt, checked again on the fresh game each time,
    # and never answered `conflict`; the pauses between attempts stay bounded
    harness.ack(ANA, request_id)
    assert own_turn(harness, ANA)["roll"] == 2  # type: ignore[index]
    assert len(pauses) == 10
    assert all(0 <= pause <= writer.RETRY_BACKOFF_CAP_SECONDS for pause in pauses)
