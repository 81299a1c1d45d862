"""A duplicate tournament's deal kept until the tournament is over (yamb.session.deals), on moto
with the real game service and the boards function: every entrant plays the same dice, so once
one entrant's game has ended its seed, dice record, replay, spectators and public fairness page
would show every roll still to come in the others' games. Each of those paths is refused
(`deal_in_play`) while the tournament runs, even when no game of it is under way (an entrant
may still come), and answers once it is over; the player's own game keeps showing them their
dice."""

import json
from collections.abc import Iterator
from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest
from yamb.competition.tournaments import DEAL, game_seed
from yamb.fair_dice import commitment
from yamb_service.edge.caller import Caller
from yamb_service.game.deal_dynamo import DynamoTournamentsOver
from yamb_tools.cli import verify_record

from tests.integration.test_boards_http import CONTEXT, load_event, load_quietly, use_table
from tests.integration.test_tournaments import Tournaments, callers

# A refusal answers before any metric is added.
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


@pytest.fixture(scope="module")
def boards_function() -> ModuleType:
    return load_quietly("boards")


@pytest.fixture
def fairness_page(
    table: str, boards_function: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    """GET /games/{gameId}/fairness as the HTTP API calls it, on the game service's table."""
    use_table(table, monkeypatch)

    def get(game_id: str) -> tuple[int, dict[str, Any]]:
        event = load_event("public_page.json")
        path = f"/games/{game_id}/fairness"
        event["routeKey"] = event["requestContext"]["routeKey"] = "GET /games/{gameId}/fairness"
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = "GET"
        event["pathParameters"] = {"gameId": game_id}
        event.pop("queryStringParameters", None)
        event["rawQueryString"] = ""
        answer = boards_function.handler(event, CONTEXT)
        return answer["statusCode"], json.loads(answer["body"])

    yield get


@pytest.fixture
def duplicate(harness: Any, item: Any) -> Iterator[Any]:
    """A duplicate of ana, ben and cid, each at their game; ana's played to its end and
    recorded into the tournament, ben's and cid's under way; dan, an outsider, connected."""
    tournaments = Tournaments(harness, item)
    players = callers("ana", "ben", "cid")
    dan = callers("dan")[0]
    harness.connect(*players, dan)
    tid = tournaments.create(kind="duplicate", minutes=60, prizes=[5])
    tournaments.enter(tid, *players)
    harness.advance(minutes=10)
    assert tournaments.run(tid).paired == 3
    state = tournaments.service.state(tid)
    games = {state.games[g].players[0]: g for g in tournaments.under_way(tid)}
    tournaments.finish(games["ana"], players)
    people = dict(zip(("ana", "ben", "cid", "dan"), [*players, dan], strict=True))
    yield tournaments, tid, people, games


def _refused(harness: Any, caller: Caller, action: str, game_id: str) -> dict[str, Any]:
    return harness.error(caller, harness.act(caller, action, gameId=game_id))


def test_an_ended_game_of_a_running_duplicate_shows_no_dice_to_anyone(
    duplicate: Any, harness: Any, fairness_page: Any
) -> None:
    _tournaments, tid, people, games = duplicate
    ana, cid, dan = (people[name] for name in ("ana", "cid", "dan"))
    ended, running = games["ana"], games["ben"]
    assert harness.session(ended).status == "finished"

    # when cid (still playing the same deal), dan (an outsider) and ana herself ask for the
    # ended game's dice record and replay
    for caller in (cid, dan, ana):
        for action in ("verify", "replay"):
            # then each is refused as a deal in play, and no dice record or replay is sent
            refusal = _refused(harness, caller, action, ended)
            assert refusal["code"] == "deal_in_play", (caller, action, refusal)
    assert not [f for f in harness.frames(cid) if f["type"] in ("dice_record", "replay")]
    # and nobody watches the ended game, nor one under way
    assert _refused(harness, cid, "watch_game", ended)["code"] == "deal_in_play"
    assert _refused(harness, dan, "watch_game", ended)["code"] == "deal_in_play"
    assert _refused(harness, dan, "watch_game", running)["code"] == "deal_in_play"
    assert not harness.games.load(running).spectators
    # and the refusal is in the caller's language
    french = replace(dan, language="fr")
    assert "tournoi" in _refused(harness, french, "verify", ended)["message"]
    # and ana's own last game frame names the deal but shows no seed
    fairness = harness.last_game(ana)["fairness"]
    assert fairness["deal"] == tid and fairness["seed"] is None
    # and the ended game's public fairness page is refused; a running one's shows no seed
    status, body = fairness_page(ended)
    assert (status, body["error"]["code"]) == (409, "deal_in_play")
    status, body = fairness_page(running)
    assert status == 200 and body["seed"] is None and body["deal"] == tid


def test_a_player_still_plays_their_own_duplicate_game_with_its_dice_shown(
    duplicate: Any, harness: Any
) -> None:
    # given ana's game of the deal ended, cid's under way
    _tournaments, tid, people, games = duplicate
    cid = people["cid"]

    # when cid rolls and syncs their own game
    harness.ack(cid, harness.act(cid, "roll", gameId=games["cid"], keep=[0, 1]))
    view = harness.answer(cid, harness.act(cid, "sync", gameId=games["cid"]))["game"]

    # then they see their own dice, and the deal named without its seed
    dice = view["turn"]["dice"]
    assert view["turn"]["roll"] == 2 and len(dice) == 5 and all(1 <= d <= 6 for d in dice)
    assert view["fairness"]["deal"] == tid and view["fairness"]["seed"] is None
    # but no hint: the solo table is ranked against every other entrant's
    assert _refused(harness, cid, "hint", games["cid"])["code"] == "hint_not_allowed"


def test_no_game_under_way_is_not_enough_a_duplicate_keeps_its_deal_until_it_is_over(
    duplicate: Any, harness: Any, fairness_page: Any
) -> None:
    tournaments, tid, people, games = duplicate
    ana, ben, cid, dan = (people[name] for name in ("ana", "ben", "cid", "dan"))
    players = [ana, ben, cid]
    # given every game of the deal ended while the tournament's window is still open
    tournaments.finish(games["ben"], players)
    tournaments.finish(games["cid"], players)
    assert tournaments.under_way(tid) == []

    # then the deal is still kept: eve may still enter and be dealt the same dice
    assert _refused(harness, dan, "verify", games["ana"])["code"] == "deal_in_play"
    eve = callers("eve")[0]
    harness.connect(eve)
    tournaments.enter(tid, eve)
    assert tournaments.run(tid).paired == 1
    (late,) = tournaments.under_way(tid)
    dealt = harness.session(late).fair
    assert dealt is not None and dealt.deal == tid
    assert dealt.server_seed == harness.session(games["ben"]).fair.server_seed
    tournaments.finish(late, [*players, eve])
    assert _refused(harness, dan, "replay", games["ana"])["code"] == "deal_in_play"

    # when the window closes and the job finishes the tournament
    harness.advance(minutes=60)
    assert tournaments.run(tid).finished == [tid]
    seed = tournaments.service.state(tid).tournament.seed

    # then dan verifies ana's game: the record checks, its seed derived from the tournament's
    record = harness.answer(dan, harness.act(dan, "verify", gameId=games["ana"]))
    assert record["type"] == "dice_record" and record["deal"] == tid
    assert record["seed"] == game_seed(seed, DEAL) and verify_record(record)["ok"]
    # and replays it, and watches it
    replayed = harness.answers(dan, harness.act(dan, "replay", gameId=games["ana"]))
    assert replayed and all(frame["type"] == "replay" for frame in replayed)
    watched = harness.answer(dan, harness.act(dan, "watch_game", gameId=games["ana"]))
    assert watched["type"] == "game" and watched["game"]["gameId"] == games["ana"]
    # and the public fairness page shows the seed, whose SHA-256 is the game's commitment
    status, body = fairness_page(games["ana"])
    assert status == 200 and body["seed"] == game_seed(seed, DEAL)
    assert commitment(body["seed"]) == body["commitment"]


def test_the_tournament_status_is_read_from_what_the_tournament_store_wrote(
    duplicate: Any, item: Any
) -> None:
    # given a running duplicate (its item written by the tournament store)
    tournaments, tid, _people, _games = duplicate
    reader = DynamoTournamentsOver(item)

    # then it is not over, nor is a tournament that does not exist
    assert reader.over(tid) is False
    assert reader.over("no-such-tournament") is False
    # and a cancelled or paid one is
    state = tournaments.service.state(tid)
    stored = item.get(f"TOURNAMENT#{tid}", "T")
    for status in ("cancelled", "paid"):
        stored.summary = state.tournament.model_copy(update={"status": status}).model_dump_json(
            by_alias=True, exclude={"version"}
        )
        stored.save()
        assert reader.over(tid) is True
