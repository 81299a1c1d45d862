"""Bots in the game loop (product G11), through the game service on moto: the creator seats
bots; each bot move is a deadline the game's timers wake it for, played in the same
conditional write as a person's action; hints for a player practising alone."""

from datetime import timedelta
from typing import Any

import pytest
from yamb.economy.rewards import Finisher, win_rewards
from yamb.session import regret
from yamb.session.bot_turns import BOT_STEP
from yamb.session.results import GameResult, result_of
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.results.service import ResultsRecorder

from tests.integration.conftest import ANA, BEN, CLEO, Caller

STEP_SECONDS = BOT_STEP.total_seconds()


def _bot_table(harness: Any, *levels: str, creator: Caller = ANA, **settings: Any) -> str:
    """A waiting table of `creator` and one bot per level."""
    harness.connect(creator)
    settings.setdefault("players", 1 + len(levels))
    settings.setdefault("turnSeconds", 60)
    game_id = harness.create_game(creator, **settings)
    for level in levels:
        harness.ack(creator, harness.act(creator, "add_bot", gameId=game_id, level=level))
    return str(game_id)


def _let_bots_play(harness: Any, game_id: str, limit: int = 40) -> None:
    """Moves the clock a bot's step at a time until a person is to move or the game ended."""
    for _ in range(limit):
        session = harness.session(game_id)
        if session.status != "running":
            return
        game = session.game()
        if session.seats[session.seat_in_turn(game)].bot is None:
            return
        harness.advance(seconds=STEP_SECONDS)
    raise AssertionError("the bots did not hand the turn back")


def test_bots_seated_and_named_in_the_game_view(harness: Any) -> None:
    # given ana's table for three
    # when she seats an easy and a hard bot
    game_id = _bot_table(harness, "easy", "hard")

    # then both sit, as bots with their levels, and no player record was made for them
    seats = harness.last_game(ANA)["seats"]
    assert [(s["playerId"], s["bot"]) for s in seats] == [
        ("ana", None),
        ("bot-1", "easy"),
        ("bot-2", "hard"),
    ]
    assert seats[1]["nickname"] == "Easy bot 1"
    assert harness.players.get("bot-1").seated_in is None
    assert len(harness.session(game_id).seats) == 3
    # and the lobby's list says which seats bots hold
    (listed,) = harness.answer(ANA, harness.act(ANA, "list_games"))["games"]
    assert (listed["gameId"], listed["bots"]) == (game_id, ["bot-1", "bot-2"])


def test_bots_play_their_turns_on_the_clock_and_hand_back(harness: Any) -> None:
    # given ana against a medium bot, the game started, ana writes her first turn
    game_id = _bot_table(harness, "medium")
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id))
    written_at = harness.clock.moment
    harness.write_any(ANA, game_id)
    handed = harness.session(game_id)
    seen = len(harness.broadcasts(ANA))

    # when less than a bot's step passes, then the steps come due one by one
    harness.advance(seconds=STEP_SECONDS / 2)
    waited = harness.session(game_id)
    _let_bots_play(harness, game_id)

    # then the bot's turn started with the dice the rules roll for it, its first move waits
    # its step, and once its turn is written the turn is ana's again
    assert handed.seat_in_turn(handed.game()) == 1
    assert handed.seats[1].bot_due == written_at + BOT_STEP
    assert waited.version == handed.version
    game = harness.last_game(ANA)
    assert game["turn"]["playerId"] == "ana"
    assert [seat["turnsPlayed"] for seat in game["seats"]] == [1, 1]
    # and ana was shown each of the bot's moves as it was made
    assert len(harness.broadcasts(ANA)) - seen == harness.session(game_id).version - handed.version


def test_bots_whole_game_against_a_person_ends_and_pays_nothing(harness: Any) -> None:
    # given ana against an easy bot on the Yacht grid (12 turns each)
    game_id = _bot_table(harness, "easy", grid="yacht", preset=None)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # when ana writes each turn and the bot plays its own on the clock
    while harness.session(game_id).status == "running":
        harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id))
        harness.write_any(ANA, game_id)
        _let_bots_play(harness, game_id)

    # then the game is finished with both sheets full, the bot's result marked as a bot's,
    # and its winner (person or bot) paid nothing
    session = harness.session(game_id)
    assert session.status == "finished"
    assert all(sheet.is_full() for sheet in session.game().sheets)
    assert harness.players.get("ana").seated_in is None
    result = result_of(session)
    assert [(p.player_id, p.bot) for p in result.players] == [("ana", None), ("bot-1", "easy")]
    finishers = [Finisher(p.player_id, p.turns, bot=p.bot is not None) for p in result.players]
    assert result.winners and win_rewards(result.settings, result.winners, finishers) == {}


def test_bots_optimal_plays_the_classic_grid(harness: Any) -> None:
    # given ana against the optimal bot on the Classic grid
    game_id = _bot_table(harness, "optimal", grid="classic", preset=None)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id))
    harness.write_any(ANA, game_id)

    # when the bot plays its turn / then it writes one box and hands the turn back
    _let_bots_play(harness, game_id)
    assert [s["turnsPlayed"] for s in harness.last_game(ANA)["seats"]] == [1, 1]


def test_bots_person_resigning_ends_the_game_for_the_bots(harness: Any) -> None:
    # given ana against two bots, the game running
    game_id = _bot_table(harness, "easy", "easy")
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # when ana resigns
    harness.ack(ANA, harness.act(ANA, "resign", gameId=game_id))

    # then no person is left: the game ends at once, the bots as they stand, no offer to a bot
    session = harness.session(game_id)
    assert session.status == "finished"
    assert session.finish_offer is None
    assert sorted(session.winners) == ["bot-1", "bot-2"]
    assert all(seat.bot_due is None for seat in session.seats)


def test_bots_simultaneous_round_waits_for_the_person_and_the_bot(harness: Any) -> None:
    # given ana and a hard bot playing simultaneous rounds
    game_id = _bot_table(harness, "hard", turnType="simultaneous")
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # when the bot plays its first turn at its own pace
    for _ in range(6):
        harness.advance(seconds=STEP_SECONDS)

    # then its sheet has one cell and the round waits for ana alone
    game = harness.last_game(ANA)
    assert [s["turnsPlayed"] for s in game["seats"]] == [0, 1]
    assert game["waitingFor"] == ["ana"]


def test_bots_each_for_themself_bot_plays_on_while_the_person_thinks(harness: Any) -> None:
    # given ana and an easy bot each at their own pace, ana not moving
    game_id = _bot_table(harness, "easy", turnType="each_for_themself", turnSeconds=None)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # when twenty of the bot's steps pass
    for _ in range(20):
        harness.advance(seconds=STEP_SECONDS)

    # then the bot has played several turns of its own, ana none, and the bot waits for its
    # next step only while its sheet has room
    session = harness.session(game_id)
    played = session.game().turns_played
    assert played[0] == 0 and played[1] >= 3
    assert session.seats[1].bot_due is not None


def test_bots_clock_running_out_in_a_bots_turn_never_stalls_the_game(harness: Any) -> None:
    # given ana against a hard bot with a 10 s clock, the bot's turn under way
    game_id = _bot_table(harness, "hard", turnSeconds=10)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.write_any(ANA, game_id)
    session = harness.session(game_id)
    deadline = session.clock.deadline
    assert session.seats[1].bot_due is not None and deadline is not None

    # when the bot's next moment falls after its clock (its last move came late) and one wake
    # finds both due
    session.seats[1].bot_due = deadline + timedelta(seconds=1)
    harness.games.save(session, now=harness.clock.moment)
    harness.clock.set(deadline + timedelta(seconds=2))
    harness.wake(game_id, None)

    # then the clock wrote the bot's turn, the stale moment was dropped, and ana plays on
    game = harness.last_game(ANA)
    assert game["turn"]["playerId"] == "ana"
    assert [seat["turnsPlayed"] for seat in game["seats"]] == [1, 1]
    harness.write_any(ANA, game_id)


def test_bots_a_failing_bot_is_replaced_by_the_auto_move(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana against a bot whose brain fails
    def broken(*_: Any) -> Any:
        raise RuntimeError("a bot's bug")

    monkeypatch.setattr("yamb.bots.choose", broken)
    game_id = _bot_table(harness, "medium")
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.write_any(ANA, game_id)

    # when its moment comes / then the clock's auto-move is played for it, and ana plays on
    _let_bots_play(harness, game_id)
    assert [s["turnsPlayed"] for s in harness.last_game(ANA)["seats"]] == [1, 1]


def test_bots_creator_leaving_a_table_of_bots_removes_it_or_hands_it_on(harness: Any) -> None:
    # given ana's waiting table with a bot, and cleo's with a bot and ben seated
    lone = _bot_table(harness, "easy")
    shared = _bot_table(harness, "easy", creator=CLEO, players=3)
    harness.connect(BEN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=shared))

    # when both creators leave
    harness.ack(ANA, harness.act(ANA, "leave_game", gameId=lone))
    harness.ack(CLEO, harness.act(CLEO, "leave_game", gameId=shared))

    # then the table of bots alone is gone, the other is ben's (not a bot's)
    assert harness.session(lone).status == "deleted"
    assert harness.session(shared).creator == "ben"
    listed = harness.answer(BEN, harness.act(BEN, "list_games"))["games"]
    assert [game["gameId"] for game in listed] == [shared]


def test_bots_seated_do_not_block_an_edit_into_premium_columns(harness: Any) -> None:
    # given ana (premium) at a preset 1 table with a bot
    harness.connect(ANA)
    harness.grant_premium(ANA)
    game_id = _bot_table(harness, "hard")

    # when she edits it to preset 7 / then it applies: a bot plays any columns
    harness.ack(ANA, harness.act(ANA, "edit_game", gameId=game_id, settings={"preset": 7}))
    assert harness.session(game_id).settings.preset == 7


def test_bots_everyone_away_cancels_the_game_however_many_bots_sit(harness: Any) -> None:
    # given ana and ben against a bot, both away
    harness.connect(ANA, BEN)
    game_id = harness.create_game(ANA, players=3, turnSeconds=60)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "add_bot", gameId=game_id, level="easy"))
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.service.disconnect(ANA)
    harness.service.disconnect(BEN)

    # when their return countdowns run out
    harness.advance(minutes=10)

    # then the game is cancelled as if no bot sat there: the bot wins nothing alone
    session = harness.session(game_id)
    assert session.status == "cancelled"


@pytest.mark.parametrize(
    ("settings", "level", "code"),
    [
        ({"ranked": True, "players": 2, "preset": 1}, "easy", "bots_not_allowed"),
        (
            {"turnType": "slow", "turnSeconds": None, "slowDeadlineHours": 48},
            "easy",
            "bots_not_allowed",
        ),
        ({"players": 2}, "genius", "unknown_level"),
        ({"players": 2}, "optimal", "level_not_for_grid"),
        ({"players": 1}, "easy", "table_full"),
    ],
)
def test_bots_refused_where_they_may_not_sit_and_nothing_changes(
    harness: Any, settings: dict[str, Any], level: str, code: str
) -> None:
    # given ana's table
    harness.connect(ANA)
    game_id = harness.create_game(ANA, **{"players": 2, **settings})
    version = harness.session(game_id).version

    # when she seats a bot there
    refused = harness.act(ANA, "add_bot", gameId=game_id, level=level)

    # then she is refused with a stable code, and the table is as it was
    error = harness.error(ANA, refused)
    assert error["code"] == code, error
    session = harness.session(game_id)
    assert (len(session.seats), session.version) == (1, version)


def test_bots_only_the_creator_seats_or_removes_them(harness: Any) -> None:
    # given ana's table for three with a bot, ben seated
    game_id = _bot_table(harness, "easy", players=3)
    harness.connect(BEN)
    harness.ack(BEN, harness.act(BEN, "join_game", gameId=game_id))

    # when ben adds or removes a bot, and ana removes ben as if he were one
    added = harness.act(BEN, "add_bot", gameId=game_id, level="easy")
    removed = harness.act(BEN, "remove_bot", gameId=game_id, playerId="bot-1")
    not_a_bot = harness.act(ANA, "remove_bot", gameId=game_id, playerId="ben")

    # then each is refused, and the seats are unchanged
    assert harness.error(BEN, added)["code"] == "not_creator"
    assert harness.error(BEN, removed)["code"] == "not_creator"
    assert harness.error(ANA, not_a_bot)["code"] == "not_a_bot"
    assert harness.session(game_id).player_ids == ["ana", "bot-1", "ben"]

    # and ana removes the bot
    harness.ack(ANA, harness.act(ANA, "remove_bot", gameId=game_id, playerId="bot-1"))
    assert harness.session(game_id).player_ids == ["ana", "ben"]


def test_bots_edit_into_a_ranked_table_refused_while_bots_sit(harness: Any) -> None:
    # given ana's table for two with a bot
    game_id = _bot_table(harness, "easy")

    # when she makes it ranked
    request_id = harness.act(
        ANA, "edit_game", gameId=game_id, settings={"players": 2, "preset": 1, "ranked": True}
    )

    # then she is told to remove the bots first, and it stays unranked
    assert harness.error(ANA, request_id)["code"] == "bots_not_allowed"
    assert harness.session(game_id).settings.ranked is False


# ---------------------------------------------------------------------------- hints


def test_hint_at_roll_one_answers_the_strongest_move(harness: Any) -> None:
    # given ana against a bot, at roll 1 of her first turn (a turn starts with its first roll)
    game_id = _bot_table(harness, "easy")
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    version = harness.session(game_id).version

    # when she asks for a hint
    hint = harness.answer(ANA, harness.act(ANA, "hint", gameId=game_id))

    # then the hard bot answers (no optimal player for Yamb) with a move she can make, and
    # nothing was written
    assert (hint["type"], hint["level"]) == ("hint", "hard")
    assert hint["move"] in ("roll", "announce", "write")
    if hint["move"] == "roll":
        assert all(0 <= position < 5 for position in hint["keep"])
    else:
        assert hint["column"] and hint["row"]
    assert harness.session(game_id).version == version


def test_hint_on_a_family_grid_is_the_optimal_players(harness: Any) -> None:
    # given ana alone on the Classic grid, at roll 2
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=1, grid="classic", preset=None)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id, keep=[]))

    # when she asks / then the optimal player answers
    hint = harness.answer(ANA, harness.act(ANA, "hint", gameId=game_id))
    assert (hint["type"], hint["level"]) == ("hint", "optimal")


def test_hint_says_when_a_weaker_level_answered(
    harness: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    # given ana alone on the Scandinavian grid, on a server without its solved table
    monkeypatch.setenv("YAMB_SOLVER_CACHE", str(tmp_path))
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=1, grid="scandinavian", preset=None)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # when she asks for a hint
    hint = harness.answer(ANA, harness.act(ANA, "hint", gameId=game_id))

    # then the hard bot answers, and the frame says the optimal player should have
    assert (hint["level"], hint["weakerThan"]) == ("hard", "optimal")


def test_hint_from_the_strongest_level_names_no_weaker(harness: Any) -> None:
    # given ana alone on the Classic grid (its table is committed), and against a Yamb bot
    harness.connect(ANA)
    classic = harness.create_game(ANA, players=1, grid="classic", preset=None)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=classic))

    # when she asks / then the optimal player answers, weaker than nothing
    hint = harness.answer(ANA, harness.act(ANA, "hint", gameId=classic))
    assert (hint["level"], hint["weakerThan"]) == ("optimal", None)


def test_hint_refused_between_people_out_of_turn_and_after_the_last_roll(harness: Any) -> None:
    # given ana and ben at a table of people, ana at roll 2
    game_id = harness.running_game(ANA, BEN)
    harness.ack(ANA, harness.act(ANA, "roll", gameId=game_id))

    # when each asks for a hint
    people = harness.act(ANA, "hint", gameId=game_id)
    out_of_turn = harness.act(BEN, "hint", gameId=game_id)

    # then they are refused with their reasons: between people, in turn or not, no hint
    assert harness.error(ANA, people)["code"] == "hint_not_allowed"
    assert harness.error(BEN, out_of_turn)["code"] == "hint_not_allowed"

    # and cleo alone against a bot, after her last roll, is told a hint comes after roll 1 or 2
    solo = _bot_table(harness, "easy", creator=CLEO)
    harness.ack(CLEO, harness.act(CLEO, "start_game", gameId=solo))
    harness.ack(CLEO, harness.act(CLEO, "roll", gameId=solo))
    harness.ack(CLEO, harness.act(CLEO, "roll", gameId=solo))
    late = harness.act(CLEO, "hint", gameId=solo)
    assert harness.error(CLEO, late)["code"] == "hint_not_now"


# ---------------------------------------------------------------------------- regret


def test_regret_in_the_replay_of_a_family_game_zero_for_the_optimal_bot(harness: Any) -> None:
    # given ana (writing the first legal box after her first roll) against the optimal bot, a
    # whole Classic game played
    game_id = _bot_table(harness, "optimal", grid="classic", preset=None)
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    while harness.session(game_id).status == "running":
        harness.write_any(ANA, game_id)
        _let_bots_play(harness, game_id)

    # when she asks for the replay
    request_id = harness.act(ANA, "replay", gameId=game_id)
    (frame,) = harness.answers(ANA, request_id)

    # then every turn has its regret: none for the bot's optimal turns, ana's add up to her
    # total, and some of her careless writes lost points
    by_player: dict[str, list[float]] = {"ana": [], "bot-1": []}
    for turn in frame["turns"]:
        assert turn["regret"] is not None and turn["regret"] >= 0
        by_player[turn["playerId"]].append(turn["regret"])
    assert len(by_player["ana"]) == len(by_player["bot-1"]) == 13
    assert max(by_player["bot-1"]) < 0.01
    assert frame["regret"]["ana"] == pytest.approx(sum(by_player["ana"]), abs=0.05)
    assert frame["regret"]["ana"] > 1


def test_regret_and_luck_in_a_yamb_replay_against_the_hard_bot(harness: Any) -> None:
    # given a finished solo Yamb game (one column, preset 1 is two: use a custom column)
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=1, preset=None, columns=["free"])
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    while harness.session(game_id).status == "running":
        harness.write_any(ANA, game_id)

    # when it is replayed
    (frame,) = harness.answers(ANA, harness.act(ANA, "replay", gameId=game_id))

    # then her choices are judged against the hard bot's (issue 32): each turn's regret, her
    # total, and her luck, which with what the hard bot expected makes her total
    assert frame["against"] == "hard"
    regrets = [turn["regret"] for turn in frame["turns"]]
    assert len(regrets) == 13 and all(r is not None and r >= 0 for r in regrets)
    assert frame["regret"]["ana"] == pytest.approx(sum(regrets), abs=0.1)
    assert frame["regret"]["ana"] > 1  # the first legal box each turn is rarely the best
    total = harness.session(game_id).game().sheets[0].total()
    told = frame["expectedBy"]["ana"] - frame["regret"]["ana"] + frame["luck"]["ana"]
    assert told == pytest.approx(total, abs=0.02)


def test_skill_and_luck_measured_at_a_yamb_games_end_reach_the_statistics(harness: Any) -> None:
    # given ana's finished solo Yamb game (one free column), played past a few record chunks
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=1, preset=None, columns=["free"])
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))
    while harness.session(game_id).status == "running":
        harness.write_any(ANA, game_id)

    # when the game's end on the table's stream reaches the results
    item = harness.games._item.get(f"GAME#{game_id}", "ENDED")
    ended = GameResult.model_validate_json(item.body)
    store = DynamoResultsStore(harness.games._item, sleep=lambda _: None)
    accounts = DynamoAccountStore(harness.games._item, harness.games.result)
    ResultsRecorder(store, accounts, now=harness.clock).record(ended)
    ResultsRecorder(store, accounts, now=harness.clock).record(ended)  # delivered twice

    # then the end carries her regret and luck against the hard bot, as the replay tells them
    (frame,) = harness.answers(ANA, harness.act(ANA, "replay", gameId=game_id))
    (mine,) = ended.players
    assert (mine.regret, mine.luck) == (frame["regret"]["ana"], frame["luck"]["ana"])
    # and her statistics count them once, under the game's kind
    (skill,) = store.statistics(["ana"])["ana"].skill.items()
    assert skill[0] == "custom-free/5d/solo"
    assert (skill[1].games, skill[1].regret, skill[1].luck) == (1, mine.regret, mine.luck)


def test_a_failed_measure_of_skill_and_luck_never_stops_a_games_end(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a judge that fails on anything, and ana's solo Yamb game at its last turn
    def broken(*_: Any) -> None:
        raise RuntimeError("judge broken")

    monkeypatch.setattr(regret, "measure", broken)
    harness.connect(ANA)
    game_id = harness.create_game(ANA, players=1, preset=None, columns=["free"])
    harness.ack(ANA, harness.act(ANA, "start_game", gameId=game_id))

    # when she writes her last box
    while harness.session(game_id).status == "running":
        harness.write_any(ANA, game_id)

    # then the game ends and counts as ever, only without her skill and luck
    item = harness.games._item.get(f"GAME#{game_id}", "ENDED")
    (mine,) = GameResult.model_validate_json(item.body).players
    assert mine.full and (mine.regret, mine.luck) == (None, None)
