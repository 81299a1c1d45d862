"""Fair play (S7) through the game service on moto: a check put to a player whose record shows a
signal, to them alone; passed, failed, ignored past its deadline; three yellow cards hand a ban
to the accounts' jobs; a script's pace found by the server's own measure; an ended game's
decisions and agreement with the optimal player joining the record."""

import copy
import json
from typing import Any

import pytest
from yamb.accounts.profile import AccountStatus
from yamb.social.fairplay import CHECK_SECONDS, DECISION_TIMES, FairplayRecord
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.accounts.service import AccountService
from yamb_service.common import config
from yamb_service.common.observability import metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.live_connections import PlayerConnections
from yamb_service.social import wiring
from yamb_service.social.fairplay.dynamo import DynamoFairplayStore

from tests.integration.conftest import load_event
from tests.integration.social import ANA, BEN, of_type
from tests.integration.test_handlers import CONTEXT, load_function


@pytest.fixture
def bans(people: Any) -> list[tuple[str, str]]:
    """The bans handed to the accounts' jobs (which disable the account and sign it out
    everywhere: tests/integration/test_accounts.py, the ban task)."""
    handed: list[tuple[str, str]] = []
    people.service.social.ban = lambda player, reason: handed.append((player, reason))
    return handed


def _store(people: Any) -> DynamoFairplayStore:
    return people.service.social.fairplay  # type: ignore[no-any-return]


def _suspect(people: Any, caller: Caller) -> None:
    """The caller's record shows the agreement signal (found at an earlier game's end)."""
    _store(people).update(caller.player_id, lambda r: r.model_copy(update={"suspect": "agreement"}))


def _checked(people: Any, caller: Caller = ANA, **settings: Any) -> tuple[str, dict[str, Any]]:
    """A running game where `caller`, under suspicion, has written once: the check put to them."""
    _suspect(people, caller)
    game_id = people.running_game(caller, **settings)
    people.write_any(caller, game_id)
    (check,) = of_type(people, caller, "fairplay_check")
    return game_id, check


def _answer(
    people: Any, caller: Caller, game_id: str, check: dict[str, Any], *, right: bool
) -> str:
    dice, face = check["dice"], check["face"]
    position = next(i for i, die in enumerate([*dice, 0]) if (die == face) == right)
    return str(
        people.act(
            caller, "fairplay_answer", gameId=game_id, checkId=check["checkId"], position=position
        )
    )


def test_a_check_is_put_to_the_suspect_alone_and_blocks_their_moves(people: Any) -> None:
    # given ana under suspicion and ben at her table
    _suspect(people, ANA)
    game_id = people.running_game(ANA, BEN, players=2)

    # when she writes her first turn
    people.write_any(ANA, game_id)

    # then she alone is put a check: a face among dice of its own, 30 s, in her language
    (check,) = of_type(people, ANA, "fairplay_check")
    assert check["face"] in check["dice"] and check["seconds"] == CHECK_SECONDS
    assert check["question"] == f"Tap the die showing {check['face']}"
    assert "fairplay" not in json.dumps(people.frames(BEN)).lower()
    assert check["checkId"] not in json.dumps(people.frames(BEN))

    # and after ben's turn, her roll is refused until she answers (the check is sent again)
    people.write_any(BEN, game_id)
    refused = people.act(ANA, "roll", gameId=game_id)
    assert people.error(ANA, refused)["code"] == "fairplay_check"
    assert len(of_type(people, ANA, "fairplay_check")) == 2


def test_a_passed_check_clears_the_record_and_play_goes_on(people: Any) -> None:
    # given the check put to ana in a solo game
    game_id, check = _checked(people, players=1)

    # when she taps a die showing the face
    people.ack(ANA, _answer(people, ANA, game_id, check, right=True))

    # then she is told it passed, her record is clear for a while, and she plays on
    (result,) = of_type(people, ANA, "fairplay_result")
    assert (result["passed"], result["cards"]) == (True, 0)
    record = _store(people).get("ana")
    assert record.suspect is None and record.cleared(people.clock.moment)
    people.ack(ANA, people.act(ANA, "roll", gameId=game_id))


def test_a_wrong_die_is_a_yellow_card(people: Any, bans: list[tuple[str, str]]) -> None:
    # given the check put to ana
    game_id, check = _checked(people, players=1)

    # when she taps a die that does not show the face
    people.ack(ANA, _answer(people, ANA, game_id, check, right=False))

    # then a yellow card, told to her; no ban
    (result,) = of_type(people, ANA, "fairplay_result")
    assert (result["passed"], result["cards"], result["banned"]) == (False, 1, False)
    assert "1 yellow card" in result["message"]
    assert _store(people).get("ana").cards == 1 and bans == []

    # and answering the same check again is refused: it is settled
    again = _answer(people, ANA, game_id, check, right=True)
    assert people.error(ANA, again)["code"] == "fairplay_check_not_found"


def test_an_ignored_check_is_a_card_at_the_next_move(people: Any) -> None:
    # given the check put to ana, left unanswered past its 30 s
    game_id, _ = _checked(people, players=1, turnSeconds=None)
    people.advance(seconds=CHECK_SECONDS + 1)

    # when she rolls
    people.ack(ANA, people.act(ANA, "roll", gameId=game_id))

    # then the roll is played, and the ignored check is her yellow card
    (result,) = of_type(people, ANA, "fairplay_result")
    assert (result["passed"], result["cards"]) == (False, 1)


def test_a_check_open_when_the_game_ends_is_a_card(people: Any) -> None:
    # given the check put to ana, who resigns without answering it
    game_id, _ = _checked(people, players=1)

    # when the game ends
    people.ack(ANA, people.act(ANA, "resign", gameId=game_id))

    # then the check counts as ignored
    assert _store(people).get("ana").cards == 1


class _Identity:
    """Cognito, as the ban asks it: disable the user, revoke their tokens."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def disable(self, player_id: str) -> None:
        self.calls.append(("disable", player_id))

    def sign_out_everywhere(self, player_id: str, session: int) -> None:
        self.calls.append(("sign_out_everywhere", player_id))


def test_three_yellow_cards_ban_the_account_and_sign_it_out(people: Any, item: Any) -> None:
    # given the accounts' ban (the jobs function's task) on the table, as the game function
    # hands it over; and two checks ana failed already
    identity = _Identity()
    accounts = AccountService(
        store=DynamoAccountStore(item, people.games.result),
        identity=identity,  # type: ignore[arg-type]
        mailer=None,  # type: ignore[arg-type]
        connections=PlayerConnections(people.players, people.notifier),
        wallets=None,  # type: ignore[arg-type]
        now=people.clock,
    )
    handed: list[str] = []

    def ban(player_id: str, reason: str) -> None:
        handed.append(player_id)
        accounts.ban(player_id, reason)

    people.service.social.ban = ban
    _store(people).update("ana", lambda r: r.carded_for("old-1").carded_for("old-2"))

    # when she fails a third
    game_id, check = _checked(people, players=1)
    people.ack(ANA, _answer(people, ANA, game_id, check, right=False))

    # then she is told, the account is banned, disabled and signed out everywhere: her
    # connection is closed with the reason
    (result,) = of_type(people, ANA, "fairplay_result")
    assert (result["cards"], result["banned"]) == (3, True)
    assert result["message"] == "Third yellow card: the account is banned."
    assert handed == ["ana"]
    profile = accounts.store.get("ana")
    assert profile is not None and profile.status == AccountStatus.BANNED
    assert ("disable", "ana") in identity.calls and ("sign_out_everywhere", "ana") in identity.calls
    (gone,) = of_type(people, ANA, "disconnected")
    assert "banned" in gone["reason"] and ANA.connection_id in people.notifier.closed


def test_a_scripts_regular_pace_brings_a_check(people: Any) -> None:
    # given ana's record from earlier games: a script's 1.5 s a decision, one short of the
    # window; and a game where she rolls and writes every 1.5 s
    carried = [1500] * (DECISION_TIMES.window - 1)
    _store(people).update("ana", lambda r: r.with_decisions(carried))
    game_id = people.running_game(ANA, players=1)

    # when she writes 1.5 s after her dice are shown
    people.advance(seconds=1.5)
    people.write_any(ANA, game_id)

    # then the check is put to her for her decision times
    (check,) = of_type(people, ANA, "fairplay_check")
    assert people.session(game_id).seats[0].fairplay.check.signal == "decision_times"  # type: ignore[union-attr]
    assert check["checkId"]


def test_a_human_pace_brings_no_check(people: Any) -> None:
    # given a game where ana decides at a person's uneven pace
    game_id = people.running_game(ANA, players=1)
    for seconds in (2.1, 7.4, 1.2, 3.3, 12.0, 0.9, 4.4, 2.7, 6.1, 1.8):
        people.advance(seconds=seconds)
        people.write_any(ANA, game_id)

    # then no check, and her decisions are measured
    assert of_type(people, ANA, "fairplay_check") == []
    decisions = people.session(game_id).seats[0].fairplay.decisions  # type: ignore[union-attr]
    assert decisions[:3] == [2100, 7400, 1200]


def test_an_ended_family_game_adds_decisions_and_agreement_to_the_record(people: Any) -> None:
    # given ana's solo Classic game, played to its end by writing the first legal box
    game_id = people.running_game(ANA, players=1, grid="classic", preset=None)
    while people.session(game_id).status == "running":
        people.advance(seconds=2)
        people.write_any(ANA, game_id)

    # then her record holds its 13 decisions and her agreement with the optimal player
    record: FairplayRecord = _store(people).get("ana")
    assert record.decisions == [2000] * 13
    (game,) = record.games
    assert game.game_id == game_id and game.moves == 26 and game.matched < game.moves
    assert record.suspect is None


@pytest.fixture
def social(table: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The social HTTP function on the test's table."""
    for name, value in {
        "TABLE_NAME": table,
        "AWS_REGION": "us-east-1",
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(metrics.provider, "namespace", metrics.provider.namespace or "YambTest")
    config.social_settings.cache_clear()
    wiring._item.cache_clear()
    wiring.fairplay_store.cache_clear()
    yield load_function("social")
    config.social_settings.cache_clear()
    wiring._item.cache_clear()
    wiring.fairplay_store.cache_clear()


def test_a_player_reads_their_own_yellow_cards(people: Any, social: Any) -> None:
    # given ana with one yellow card and one check passed
    _store(people).update(
        "ana", lambda r: r.carded_for("k1").model_copy(update={"checks_passed": 1})
    )
    event = copy.deepcopy(load_event("players.json"))
    event["routeKey"] = event["requestContext"]["routeKey"] = "GET /me/fairplay"
    event["rawPath"] = event["requestContext"]["http"]["path"] = "/me/fairplay"
    event["requestContext"]["authorizer"]["lambda"]["playerId"] = "ana"
    event["queryStringParameters"], event["rawQueryString"] = {}, ""

    # when she reads her standing
    reply = social.handler(event, CONTEXT)

    # then her cards, the count that bans, and nothing of the evidence
    assert reply["statusCode"] == 200
    body = json.loads(reply["body"])
    assert body == {"cards": 1, "cardsToBan": 3, "checksPassed": 1, "banned": False}


def test_a_check_open_when_the_clock_ends_the_game_is_a_card(people: Any) -> None:
    # given the check put to ana in a solo Classic game with a turn clock, never answered
    game_id, _ = _checked(people, players=1, grid="classic", preset=None, turnSeconds=30)

    # when the clock plays her turns to the game's end (the clock function's wakes)
    people.advance(minutes=30)

    # then the game ended, and the check it left open is her yellow card
    assert people.session(game_id).status != "running"
    assert _store(people).get("ana").cards == 1


def test_the_game_functions_ban_is_the_accounts_jobs_ban_task(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given the game function's wiring, with the accounts' jobs function named
    from types import SimpleNamespace

    from yamb_service.game import wiring as game_wiring

    named = SimpleNamespace(account_jobs_function_name="yamb-account-jobs")
    monkeypatch.setattr(game_wiring, "service_settings", lambda: named)
    invoked: list[dict[str, Any]] = []
    client = SimpleNamespace(invoke=lambda **call: invoked.append(call))

    # when the third yellow card bans ana
    ban = game_wiring._ban(lambda: client)
    assert ban is not None
    ban("ana", "three yellow cards")

    # then the jobs function is invoked without waiting, with the ban task its handler reads
    (call,) = invoked
    assert (call["FunctionName"], call["InvocationType"]) == ("yamb-account-jobs", "Event")
    task = load_function("account_jobs")._EVENTS.validate_json(call["Payload"])
    assert (task.task, task.player_id, task.reason) == ("ban", "ana", "three yellow cards")
