"""The tournaments function in-process on moto, called as the HTTP API calls it (issue 32): an
operator's new tournament (anyone else refused), the list and a tournament's page for anyone
(its seed kept back until it is over), an entry for free or for tokens, each refusal with its
status and code; and the results function taking a tournament game whose tournament is gone
without failing its record."""

import copy
import json
import uuid
from collections.abc import Iterator
from datetime import timedelta
from types import ModuleType
from typing import Any

import pytest
from yamb.competition.seasons import season_of
from yamb.competition.tournaments import TournamentError
from yamb.session.results import GameResult
from yamb_service.common.dynamo import item_model
from yamb_service.competition import wiring as competition_wiring
from yamb_service.economy.ports import Change

from tests.integration.test_boards_http import (
    ANA,
    BEN,
    CLEO,
    DAN,
    NICKNAMES,
    NOW,
    REGION,
    Boards,
    Reply,
    create_table,
    delete_table,
    forget_wiring,
    game,
    load_event,
    load_quietly,
    sample_result,
    use_table,
)

# A refusal answers before any metric is added.
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

PLAN = {
    "kind": "swiss",
    "name": "Friday Swiss",
    "startsAt": (NOW + timedelta(hours=2)).isoformat(),
    "rounds": 3,
    "rules": {"preset": 2},
    "entryFee": 25,
    "prizes": [100, 50],
}


class Tournaments(Boards):
    def __init__(self, item: Any, functions: tuple[ModuleType, ModuleType]) -> None:
        super().__init__(item, functions)
        for player in NICKNAMES:
            self.player(player)

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        *,
        player: str | None = ANA,
    ) -> Reply:
        event = load_event("board.json" if player is not None else "public_page.json")
        parts = path.strip("/").split("/")
        if parts[0] == "seasons":
            route, parts = path.split("?", maxsplit=1)[0], parts[:1]
        else:
            route = "/tournaments" + ("/{tournamentId}" if len(parts) > 1 else "")
            route += "/entry" if len(parts) > 2 else ""  # /tournaments/<id>/entry
        event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} {route}"
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = method
        event["requestContext"]["requestId"] = uuid.uuid4().hex
        query = path.split("?")[1] if "?" in path else ""
        event["rawQueryString"] = query
        event.pop("queryStringParameters", None)
        if query:
            event["queryStringParameters"] = dict(q.split("=") for q in query.split("&"))
        event["rawPath"] = event["requestContext"]["http"]["path"] = path.split("?", maxsplit=1)[0]
        event["pathParameters"] = {"tournamentId": parts[1]} if len(parts) > 1 else None
        if event["pathParameters"] is None:
            event.pop("pathParameters")
        event["body"] = None if body is None else json.dumps(body)
        event["isBase64Encoded"] = False
        event["headers"] = {**event["headers"], "content-type": "application/json"}
        if player is not None:
            event["requestContext"]["authorizer"]["lambda"].update(
                playerId=player, nickname=NICKNAMES[player]
            )
        return self.send(copy.deepcopy(event))


@pytest.fixture(scope="module")
def functions() -> tuple[ModuleType, ModuleType]:
    return load_quietly("tournaments"), load_quietly("results")


@pytest.fixture
def tournaments(
    aws: None, functions: tuple[ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Tournaments]:
    table = create_table()
    use_table(table, monkeypatch)
    yield Tournaments(item_model(table, REGION), functions)
    forget_wiring()
    delete_table(table)


def test_an_operator_creates_a_tournament_anyone_reads_and_players_enter(
    tournaments: Tournaments,
) -> None:
    # given ana, an operator, and ben, a player with 30 tokens
    tournaments.update(ANA, operator=True)
    tournaments.wallets.change("grant:ben", [Change(BEN, 30, "grant")], NOW)

    # when ben tries to create a tournament: refused; ana creates one
    refused = tournaments.request("POST", "/tournaments", PLAN, player=BEN)
    assert refused.error == (403, "not_an_operator", None)
    created = tournaments.request("POST", "/tournaments", PLAN)
    assert created.status == 201, created.body
    tournament_id = created.json["tournamentId"]
    assert created.json["commitment"] and "seed" not in created.json

    # then anyone lists it (cached a few seconds), a player reads its page, its seed kept back
    listed = tournaments.request("GET", "/tournaments", player=None)
    assert [t["tournamentId"] for t in listed.json["tournaments"]] == [tournament_id]
    assert listed.headers["Cache-Control"] == "public, max-age=3"
    page = tournaments.request("GET", f"/tournaments/{tournament_id}", player=CLEO)
    assert page.json["seed"] is None and page.json["entrants"] == 0
    assert page.json["settings"]["players"] == 2 and page.json["settings"]["ranked"] is True

    # and ben enters for 25 tokens, once; ana, with none, is refused
    entered = tournaments.request("POST", f"/tournaments/{tournament_id}/entry", player=BEN)
    assert entered.status == 201 and entered.json["paid"] == 25
    again = tournaments.request("POST", f"/tournaments/{tournament_id}/entry", player=BEN)
    assert again.error == (409, "already_entered", None)
    assert tournaments.wallets.wallet(BEN).balance == 5
    broke = tournaments.request("POST", f"/tournaments/{tournament_id}/entry", player=ANA)
    assert broke.error == (402, "not_enough_tokens", None)
    mine = tournaments.request("GET", f"/tournaments/{tournament_id}", player=BEN)
    assert mine.json["entered"] is True and mine.json["standings"][0]["me"] is True


def test_bad_tournament_requests_are_refused_with_their_codes(tournaments: Tournaments) -> None:
    tournaments.update(ANA, operator=True)
    # a plan that mixes kinds, or starts in the past
    mixed = tournaments.request("POST", "/tournaments", {**PLAN, "minutes": 30})
    assert mixed.status == 400
    past = {**PLAN, "startsAt": (NOW - timedelta(hours=1)).isoformat()}
    assert tournaments.request("POST", "/tournaments", past).error[1] == "starts_in_the_past"
    # an unknown or malformed tournament
    for path in ("/tournaments/nope", "/tournaments/bad%20id"):
        assert tournaments.request("GET", path).status == 404
    assert tournaments.request("POST", "/tournaments/nope/entry").error == (
        404,
        "unknown_tournament",
        None,
    )


def test_a_game_of_a_gone_tournament_does_not_fail_its_stream_record(
    tournaments: Tournaments,
) -> None:
    ended = GameResult.model_validate(
        {**sample_result().model_dump(), "tournament": "gone", "game_id": "g-gone"}
    )
    tournaments.record(ended)  # answered without a failed record


def test_rated_games_count_in_the_season_and_its_end_moves_leagues_once(
    tournaments: Tournaments,
) -> None:
    # given four bronze newcomers: ana beats ben three times, cleo and dan draw three times,
    # each game's end delivered twice (the stream's redelivery)
    season = season_of(NOW)
    for _ in range(3):
        for result in (game({ANA: 300, BEN: 200}), game({CLEO: 250, DAN: 250})):
            tournaments.record(result)
            tournaments.record(result)

    # when ana reads the season
    view = tournaments.request("GET", "/seasons/current").json
    # then she is in bronze with 6 points from 3 games, first, in the zone going up
    assert (view["seasonId"], view["mine"], view["points"], view["games"]) == (
        season.season_id, "bronze", 6, 3,
    )  # fmt: skip
    first = view["rows"][0]
    assert (first["nickname"], first["points"], first["zone"], first["me"]) == (
        "ana",
        6,
        "up",
        True,
    )
    assert {r["nickname"]: r["points"] for r in view["rows"]} == {
        "ana": 6, "cleo": 3, "dan": 3, "ben": 0,
    }  # fmt: skip
    bad = tournaments.request("GET", "/seasons/current?league=wood")
    assert bad.error == (400, "unknown_league", None)

    # when the season's end runs too early it is refused; once over, it moves ana up, twice
    service = competition_wiring.season_service()
    with pytest.raises(TournamentError) as early:
        service.close(NOW, season.season_id)
    assert early.value.code == "season_not_ended"
    after = season.ends_at + timedelta(minutes=20)
    closed = service.close(after)
    assert closed.season_id == season.season_id and closed.badges == 4
    assert closed.moved == [f"{ANA} bronze -> silver"]
    assert service.close(after).repeated == 4
    # then ana's badge says so, and her next season starts in silver
    view = tournaments.request("GET", "/seasons/current").json
    assert view["badges"][0] == {
        "seasonId": season.season_id, "league": "bronze", "place": 1, "points": 6, "move": "up",
    }  # fmt: skip
    assert service.viewer(ANA, season_of(after).season_id)[0] == "silver"


def test_a_game_played_in_the_new_season_before_the_close_moves_with_its_player(
    tournaments: Tournaments,
) -> None:
    # given ana beat ben three times last season, cleo and dan drew three times
    season = season_of(NOW)
    for _ in range(3):
        tournaments.record(game({ANA: 300, BEN: 200}), game({CLEO: 250, DAN: 250}))
    # and ana won a game in the next season's first minutes, before its weekly close ran: it
    # put her next season in bronze, the league she was in
    early = season.ends_at + timedelta(minutes=5)
    tournaments.record(game({ANA: 280, BEN: 150}, at=early))
    service = competition_wiring.season_service()
    next_id = season_of(early).season_id
    assert service.viewer(ANA, next_id)[0] == "bronze"

    # when the close runs and moves her up
    closed = service.close(season.ends_at + timedelta(minutes=20))
    assert closed.moved == [f"{ANA} bronze -> silver"]

    # then her next season is in silver with that game's points, and in no other league
    league, member = service.viewer(ANA, next_id)
    assert (league, member.points if member else None, member.games if member else None) == (
        "silver", 2, 1,
    )  # fmt: skip
    assert [m.player_id for _, m in service.table(next_id, "bronze")] == [BEN]
    assert [m.player_id for _, m in service.table(next_id, "silver")] == [ANA]
    # and her next game there counts in silver
    tournaments.record(game({ANA: 260, CLEO: 200}, at=early + timedelta(hours=1)))
    assert service.viewer(ANA, next_id)[1].games == 2  # type: ignore[union-attr]


def test_a_newcomer_is_in_one_league_a_season_whatever_races(tournaments: Tournaments) -> None:
    # given ana's season membership written in bronze
    service = competition_wiring.season_service()
    season_id = season_of(NOW).season_id
    tournaments.record(game({ANA: 300, BEN: 200}))
    # when a first game's write made on a reading from before it (no membership, silver)
    # comes second
    from yamb.competition.seasons import Member

    late = Member(player_id=ANA, league="silver", points=2, games=1)
    outcome = service.store.record_game(
        "late-game", season_id, NOW, {}, [late], newcomer_leagues={ANA: None}
    )
    # then it is refused (read again), and ana stays in one league
    assert outcome == "moved"
    assert [m.player_id for _, m in service.table(season_id, "silver")] == []


def _last_season_won_by_ana(tournaments: Tournaments) -> Any:
    """Last season: ana beat ben three times, cleo and dan drew three times; its end is due."""
    season = season_of(NOW)
    for _ in range(3):
        tournaments.record(game({ANA: 300, BEN: 200}), game({CLEO: 250, DAN: 250}))
    return season


def test_a_first_game_recorded_while_the_close_runs_moves_with_its_player(
    tournaments: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's first game of the next season recorded just after the close looked for one
    season = _last_season_won_by_ana(tournaments)
    early = season.ends_at + timedelta(minutes=5)
    service = competition_wiring.season_service()
    real_members = service.store.members
    raced: list[bool] = []

    def members(season_id: str, player_ids: Any) -> Any:
        found = real_members(season_id, player_ids)
        if season_id != season.season_id and not raced:
            raced.append(True)
            tournaments.record(game({ANA: 280, BEN: 150}, at=early))
        return found

    monkeypatch.setattr(service.store, "members", members)
    # when the close runs
    closed = service.close(season.ends_at + timedelta(minutes=20))
    # then it moved ana up, and her first game of the next season with her
    assert raced and closed.moved == [f"{ANA} bronze -> silver"]
    next_id = season_of(early).season_id
    assert [m.player_id for _, m in service.table(next_id, "silver")] == [ANA]
    assert ANA not in [m.player_id for _, m in service.table(next_id, "bronze")]


def test_a_first_game_whose_league_was_read_before_the_close_is_read_again(
    tournaments: Tournaments, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's first game of the next season, its league read (bronze) just before the close
    # moved her up
    season = _last_season_won_by_ana(tournaments)
    early = season.ends_at + timedelta(minutes=5)
    service = competition_wiring.season_service()
    real_leagues = service.store.leagues_of
    raced: list[bool] = []

    def leagues_of(player_ids: Any) -> Any:
        found = real_leagues(player_ids)
        if not raced:  # the close comes between this read and the game's write
            raced.append(True)
            service.close(season.ends_at + timedelta(minutes=20))
        return found

    monkeypatch.setattr(service.store, "leagues_of", leagues_of)
    # when that game is recorded
    tournaments.record(game({ANA: 280, BEN: 150}, at=early))
    # then it counts in silver, where the close put her
    next_id = season_of(early).season_id
    assert raced and service.viewer(ANA, next_id)[0] == "silver"
    assert [m.player_id for _, m in service.table(next_id, "silver")] == [ANA]
