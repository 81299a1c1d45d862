"""The boards function in-process on moto, called with the HTTP API's payload 2.0 events
(events/board.json, events/public_page.json: an authorized request carries the HTTP authorizer's
context in `requestContext.authorizer.lambda`): every board filter and its refusals, favorites
and the favorites board, statistics and head-to-head, the public page as HTML and as JSON. Games
are recorded by the results function, fed the stream record of events/results_stream.json (a
ranked preset-1 game ana won 493 to 334), re-encoded for the other games."""

import base64
import copy
import gc
import hashlib
import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlencode

import boto3
import pytest
from openskill.models import BradleyTerryFull
from yamb.accounts.nicknames import purged_nickname
from yamb.accounts.preferences import Preferences
from yamb.accounts.profile import AccountStatus, Profile
from yamb.session.results import GameResult
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.clubs import wiring as clubs_wiring
from yamb_service.common import clock, config
from yamb_service.common.dynamo import item_model
from yamb_service.common.observability import metrics
from yamb_service.competition import wiring as competition_wiring
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.opendb import wiring as opendb_wiring
from yamb_service.progression import wiring as progression_wiring
from yamb_service.results import wiring as results_wiring

from devstack.streams import matches
from devstack.template import Template
from testkit.catalogues import use_catalogues
from testkit.table import create_game_table
from tests.integration.test_handlers import CONTEXT, load_function

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
REGION = "us-east-1"
# The HTTP API's clock in these tests: Thursday of ISO week 2026-W49, the day after the sample
# game ended (2026-12-02T17:38:18Z).
NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
# The players of the sample game (events/results_stream.json), and two more.
ANA = "4f1c2b7a-0e7d-4c55-9a1e-6a2f3d9b8c01"
BEN = "9b2e6d40-3c1a-4f8e-b7d2-1e5a0c9f4b72"
CLEO = "c1e0a8f2-5d3b-4e7a-9c6f-2b8d4a0e1f35"
DAN = "d4a17b3e-8f2c-4b9d-a6e1-5c3f7e9b2a08"
EVE = "e5b93c1d-7a2f-4d6e-8b0a-3f9c1e7d5a24"
NICKNAMES = {ANA: "ana", BEN: "ben", CLEO: "cleo", DAN: "dan", EVE: "eve"}
# A client's token (the samples' authorization header): no answer may carry it.
AUTHORIZATION = (
    "eyJraWQiOiJ0ZXN0IiwiYWxnIjoiUlMyNTYifQ.eyJzdWIiOiJhbmEifQ.replace-with-a-cognito-id-token"
)
STATISTICS_FIELDS = {
    "nickname",
    "club",
    "country",
    "description",
    "proudGame",
    "publicPage",
    "memberSince",
    "games",
    "wins",
    "losses",
    "winRate",
    "mainBoardScore",
    "mainBoardPlace",
    "medals",
    "abandoned",
    "records",
    "kinds",
    "ratings",
    "rates",
    "skill",
}
# Words no key of a results answer may contain (R5: never e-mail, tokens or personal data).
PRIVATE_KEYS = ("mail", "token", "balance", "wallet", "premium", "session", "ledger")
# A handler call that adds no metric (a read) is fine.
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def load_event(name: str) -> dict[str, Any]:
    return dict(json.loads((EVENTS / name).read_text(encoding="utf-8")))


def sample_result() -> GameResult:
    """The game's end that events/results_stream.json carries."""
    record = load_event("results_stream.json")["Records"][0]
    return GameResult.model_validate_json(
        base64.b64decode(record["dynamodb"]["NewImage"]["body"]["B"])
    )


def stream_event(*results: GameResult) -> dict[str, Any]:
    """events/results_stream.json with one record per result, each its own game's end."""
    event = load_event("results_stream.json")
    template = event["Records"][0]
    records = []
    for index, result in enumerate(results):
        record = copy.deepcopy(template)
        key = {"pk": {"S": f"GAME#{result.game_id}"}, "sk": {"S": "ENDED"}}
        record["eventID"] = uuid.uuid4().hex
        record["dynamodb"]["Keys"] = key
        record["dynamodb"]["NewImage"].update(key)
        record["dynamodb"]["NewImage"]["body"]["B"] = base64.b64encode(
            result.model_dump_json(by_alias=True).encode()
        ).decode()
        record["dynamodb"]["SequenceNumber"] = f"{222000000000000000001 + index}"
        records.append(record)
    return {"Records": records}


def game(
    totals: dict[str, int], *, at: datetime | None = None, game_id: str | None = None
) -> GameResult:
    """The sample game's end between other players, totals or moment (the first total's
    player is the first seat): a ranked preset-1 game of full sheets."""
    sample = sample_result()
    best = max(totals.values())
    seats = [
        seat.model_copy(update={"player_id": player, "total": total})
        for seat, (player, total) in zip(sample.players, totals.items(), strict=True)
    ]
    return sample.model_copy(
        update={
            "game_id": game_id or uuid.uuid4().hex[:20],
            "ended_at": at or sample.ended_at,
            "players": seats,
            "winners": [p for p, t in totals.items() if t == best],
        }
    )


def route_of(path: str) -> str:
    """The HTTP API's route key of a path (template.yaml's BoardsFunction events)."""
    for pattern, route in (
        (r"/players/[^/]+/statistics", "/players/{nickname}/statistics"),
        (r"/players/[^/]+/head-to-head", "/players/{nickname}/head-to-head"),
        (r"/me/favorites/[^/]+", "/me/favorites/{nickname}"),
        (r"/pages/[^/]+", "/pages/{nickname}"),
    ):
        if re.fullmatch(pattern, path):
            return route
    return path


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: str

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def error(self) -> tuple[int, str, str | None]:
        detail = self.json["error"]
        return self.status, detail["code"], detail.get("field")


def load_quietly(name: str) -> ModuleType:
    """functions/<name>/app.py, the cycle collector left as it was: a function's module turns
    it off until its first call (yamb_service.common.warmup), which then freezes every object alive
    for good; a test process that loads functions it does not call would grow without bound."""
    enabled = gc.isenabled()
    module = load_function(name)
    if enabled:
        gc.enable()
    return module


@pytest.fixture(scope="module")
def functions() -> tuple[ModuleType, ModuleType]:
    return load_quietly("boards"), load_quietly("results")


class Boards:
    """The boards function as the HTTP API calls it, the results function as the stream does,
    and the table's stores for what a test sets up."""

    def __init__(self, item: Any, functions: tuple[ModuleType, ModuleType]) -> None:
        self.function, self.results = functions
        self.accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        self.wallets = DynamoWalletStore(item, sleep=lambda _: None)

    # -------------------------------------------------------------- set up

    def player(self, player_id: str, **preferences: Any) -> Profile:
        nickname = NICKNAMES[player_id]
        profile = Profile(
            player_id=player_id,
            nickname=nickname,
            email=f"{nickname}@example.com",
            status=AccountStatus.ACTIVE,
            created_at=datetime(2026, 11, 1, 8, 0, tzinfo=UTC),
            preferences=Preferences(**preferences),
        )
        self.accounts.create(profile)
        return profile

    def record(self, *results: GameResult) -> None:
        """The games' ends handed to the results function as the table's stream does."""
        answer = self.results.handler(stream_event(*results), CONTEXT)
        assert answer == {"batchItemFailures": []}

    def update(self, player_id: str, **changes: Any) -> Profile:
        profile = self.accounts.get(player_id)
        assert profile is not None
        return self.accounts.save(profile.model_copy(update=changes))

    def purge(self, player_id: str) -> None:
        """What the daily job does to an account 30 days after its deletion was asked
        (AccountService.purge): a stripped profile named by an id, the nickname freed."""
        deleting = self.update(
            player_id, status=AccountStatus.DELETING, deletion_requested_at=NOW - timedelta(31)
        )
        purging = self.accounts.save(deleting.model_copy(update={"status": AccountStatus.PURGING}))
        stripped = Profile(
            player_id=player_id,
            nickname=purged_nickname(player_id),
            email=None,
            status=AccountStatus.DELETED,
            created_at=purging.created_at,
            version=purging.version,
            session=purging.session + 1,
            preferences=Preferences(public_page=False),
        )
        self.accounts.purge(stripped, release=purging.nickname)

    # -------------------------------------------------------------- requests

    def call(
        self,
        method: str,
        path: str,
        query: dict[str, str] | None = None,
        *,
        player: str | None = ANA,
        accept: str = "application/json",
        accept_language: str | None = None,
    ) -> Reply:
        """The request as the HTTP API hands it on: `player`'s authorizer context (None: a
        route without sign-in, from events/public_page.json's visitor)."""
        event = load_event("board.json" if player is not None else "public_page.json")
        route = f"{method} {route_of(path)}"
        event["routeKey"] = event["requestContext"]["routeKey"] = route
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = method
        event["requestContext"]["requestId"] = uuid.uuid4().hex
        event["rawQueryString"] = urlencode(query or {})
        event.pop("queryStringParameters", None)
        if query:
            event["queryStringParameters"] = dict(query)
        event.pop("pathParameters", None)
        if "{nickname}" in route:
            event["pathParameters"] = {
                "nickname": path.split("/")[2 if "/players/" in path else -1]
            }
        event["headers"]["accept"] = accept
        if accept_language is not None:
            event["headers"]["accept-language"] = accept_language
        if player is not None:
            event["requestContext"]["authorizer"]["lambda"].update(
                playerId=player, nickname=NICKNAMES[player]
            )
        return self.send(event)

    def send(self, event: dict[str, Any]) -> Reply:
        answer = self.function.handler(event, CONTEXT)
        return Reply(answer["statusCode"], answer.get("headers") or {}, answer.get("body") or "")

    def board(self, player: str = ANA, **query: str) -> Reply:
        return self.call("GET", "/boards", query, player=player)

    def ratings(self, player: str = ANA, **query: str) -> Reply:
        return self.call("GET", "/ratings", query, player=player)


def create_table() -> str:
    """A game table of its own, without its stream: the tests hand the stream's records to the
    functions themselves (conftest.create_game_table says why)."""
    return create_game_table(f"yamb-results-test-{uuid.uuid4().hex[:12]}", stream=False)


def delete_table(name: str) -> None:
    boto3.client("dynamodb", region_name=REGION).delete_table(TableName=name)


def use_table(table: str, patch: pytest.MonkeyPatch) -> None:
    """The results functions' settings point at `table`, their clock at NOW; built afresh."""
    for name, value in {
        "TABLE_NAME": table,
        "AWS_REGION": REGION,
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        patch.setenv(name, value)
    patch.setattr(metrics.provider, "namespace", metrics.provider.namespace or "YambTest")
    patch.setattr(clock, "clock", lambda: NOW)
    forget_wiring()


def forget_wiring() -> None:
    config.results_settings.cache_clear()
    for built in ("_item", "results_recorder", "results_service", "prize_service"):
        getattr(results_wiring, built).cache_clear()
    progression_wiring.forget()  # the results function records progression too
    clubs_wiring.forget()  # and scores the players' clubs
    competition_wiring.forget()  # and rates the players
    opendb_wiring.forget()  # and stages a public game for the open database


def seed(boards: "Boards") -> None:
    """ana, ben, cleo, dan and eve; the sample game (ana 493, ben 334) and cleo 512 to dan 120,
    the same day; eve never played."""
    for player in NICKNAMES:
        boards.player(player)
    boards.record(sample_result(), game({CLEO: 512, DAN: 120}))


@pytest.fixture
def boards(
    aws: None, functions: tuple[ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Boards]:
    """The functions on an empty table of the test's own."""
    table = create_table()
    use_table(table, monkeypatch)
    yield Boards(item_model(table, REGION), functions)
    forget_wiring()
    delete_table(table)


@pytest.fixture
def played(boards: Boards) -> Boards:
    """The seeded games on the test's own table: for a test that changes something."""
    seed(boards)
    return boards


@pytest.fixture
def people(boards: Boards) -> Boards:
    """The seeded players, without games, on the test's own table."""
    for player in NICKNAMES:
        boards.player(player)
    return boards


@pytest.fixture(scope="module")
def _seeded_table(aws: None, functions: tuple[ModuleType, ModuleType]) -> Iterator[str]:
    table = create_table()
    with pytest.MonkeyPatch.context() as patch:
        use_table(table, patch)
        seed(Boards(item_model(table, REGION), functions))
        forget_wiring()
    yield table
    delete_table(table)


@pytest.fixture
def seeded(
    _seeded_table: str, functions: tuple[ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Boards]:
    """The seeded games on one table for the module: for a test that only reads."""
    use_table(_seeded_table, monkeypatch)
    yield Boards(item_model(_seeded_table, REGION), functions)
    forget_wiring()


def private_keys(value: Any, path: str = "") -> list[str]:
    """The keys of a JSON document that name something private, anywhere in it."""
    if isinstance(value, dict):
        found = [f"{path}.{k}" for k in value if any(word in k.lower() for word in PRIVATE_KEYS)]
        return found + [hit for k, v in value.items() for hit in private_keys(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [hit for index, v in enumerate(value) for hit in private_keys(v, f"{path}[{index}]")]
    return []


def assert_nothing_private(reply: Reply) -> None:
    assert "@" not in reply.body, reply.body  # no e-mail address
    assert AUTHORIZATION not in reply.body
    assert private_keys(reply.json) == []


# ---------------------------------------------------------------------- sample events


def test_events_results_stream_sample_passes_the_functions_filter() -> None:
    # given the results function's stream mapping in template.yaml
    mappings = Template(ROOT / "template.yaml").stream_mappings()
    [mapping] = [m for m in mappings if m.function == "ResultsFunction"]

    # when its filter reads the sample record
    record = load_event("results_stream.json")["Records"][0]

    # then the record is the insert of a game's end it hands on: a ranked 2-player game of
    # full sheets
    assert any(matches(pattern, record) for pattern in mapping.filters)
    ended = sample_result()
    assert (ended.settings.ranked, ended.settings.preset, len(ended.players)) == (True, 1, 2)
    assert all(p.full and p.turns == 26 and p.facts is not None for p in ended.players)
    assert ended.recorded and ended.winners == [ANA]


def test_results_function_records_the_sample_stream_record(boards: Boards) -> None:
    # given ana and ben
    boards.player(ANA)
    boards.player(BEN)

    # when the table's stream hands the sample game's end to the results function, twice
    first = boards.results.handler(load_event("results_stream.json"), CONTEXT)
    again = boards.results.handler(load_event("results_stream.json"), CONTEXT)

    # then it is recorded once: a game in ana's statistics, both rows on the board
    assert first == again == {"batchItemFailures": []}
    assert boards.call("GET", "/players/ana/statistics").json["games"] == 1
    rows = boards.board(columns="1").json["rows"]
    assert [(row["names"], row["score"]) for row in rows] == [(["ana"], 493), (["ben"], 334)]


def test_results_function_reports_a_bad_record_alone(boards: Boards) -> None:
    # given a batch of two games' ends, the second one's body not a game's end
    boards.player(ANA)
    boards.player(BEN)
    event = stream_event(sample_result(), game({BEN: 400, ANA: 300}))
    event["Records"][1]["dynamodb"]["NewImage"]["body"]["B"] = base64.b64encode(b"{}").decode()

    # when the batch is handled
    answer = boards.results.handler(event, CONTEXT)

    # then only the bad record is reported for a retry, and the good one recorded
    failed = event["Records"][1]["dynamodb"]["SequenceNumber"]
    assert answer == {"batchItemFailures": [{"itemIdentifier": failed}]}
    assert boards.call("GET", "/players/ana/statistics").json["games"] == 1


def test_events_board_sample_lists_the_recorded_sample_game(boards: Boards) -> None:
    # given ana and ben, and the sample stream record handed to the results function
    boards.player(ANA)
    boards.player(BEN)
    ended = sample_result()
    boards.record(ended)

    # when ana sends the sample board request (preset 1, best, this week, all players)
    reply = boards.send(load_event("board.json"))

    # then the week's board lists both, ana first and marked as her
    assert reply.status == 200, reply.body
    assert reply.headers["Content-Type"] == "application/json"
    page = reply.json
    assert (page["board"], page["kind"], page["periodEndsAt"]) == (
        "individual/1/best/2026-W49",
        "all",
        "2026-12-07T00:00:00Z",
    )
    assert page["rows"] == [
        {
            "place": 1,
            "names": ["ana"],
            "tags": [None],
            "score": 493,
            "gameIds": [ended.game_id],
            "prize": None,
            "me": True,
        },
        {
            "place": 2,
            "names": ["ben"],
            "tags": [None],
            "score": 334,
            "gameIds": [ended.game_id],
            "prize": None,
            "me": False,
        },
    ]
    assert (page["mine"], page["prizes"]) == (None, [])


def test_events_public_page_sample_is_a_page_for_people(boards: Boards) -> None:
    # given ana, and her recorded sample game
    boards.player(ANA)
    boards.player(BEN)
    boards.record(sample_result())

    # when a visitor's browser sends the sample request for ana's page
    reply = boards.send(load_event("public_page.json"))

    # then it is an HTML page with her statistics, cacheable, and nothing private
    assert reply.status == 200, reply.body
    assert reply.headers["Content-Type"] == "text/html; charset=utf-8"
    assert reply.headers["Cache-Control"] == "public, max-age=60"
    assert reply.body.startswith("<!doctype html>")
    assert "<h1>ana</h1>" in reply.body
    assert "<tr><th align=left>Games</th><td>1</td></tr>" in reply.body
    assert "<tr><th align=left>Main board</th><td>#1</td></tr>" in reply.body
    assert "<tr><th align=left>preset-1/5d/individual</th><td>493</td></tr>" in reply.body
    assert "@" not in reply.body


# ---------------------------------------------------------------------- board filters


@pytest.mark.parametrize(
    ("query", "board", "rows", "prizes"),
    [
        ({}, "individual/main/best/all", [("cleo", 512), ("ana", 493), ("ben", 334)], []),
        ({"columns": "1"}, "individual/1/best/all", [("cleo", 512), ("ana", 493)], []),
        (
            {"columns": "main", "period": "week"},
            "individual/main/best/2026-W49",
            [("cleo", 512), ("ana", 493), ("ben", 334)],
            [100, 60, 40, 20, 10],
        ),
        (
            {"format": "individual", "columns": "1", "side": "sum", "period": "month"},
            "individual/1/sum/2026-12",
            [("cleo", 512), ("ana", 493)],
            [],
        ),
        ({"columns": "1", "period": "2026-12"}, "individual/1/best/2026-12", [("cleo", 512)], []),
        ({"columns": "1", "period": "2026-W49"}, "individual/1/best/2026-W49", [("cleo", 512)], []),
        ({"columns": "1", "period": "2026-W48"}, "individual/1/best/2026-W48", [], []),
        ({"columns": "1", "period": "2026-11"}, "individual/1/best/2026-11", [], []),
        ({"columns": "7", "side": "sum"}, "individual/7/sum/all", [], []),
        (
            {"format": "pairs", "columns": "3", "period": "month"},
            "pairs/3/best/2026-12",
            [],
            [300, 200, 100],
        ),
        (
            {"columns": "3", "side": "sum", "period": "week"},
            "individual/3/sum/2026-W49",
            [],
            [60, 40, 20],
        ),
        (
            {"columns": "1", "kind": "all"},
            "individual/1/best/all",
            [("cleo", 512), ("ana", 493)],
            [],
        ),
    ],
)
def test_board_filters_choose_the_board(
    seeded: Boards,
    query: dict[str, str],
    board: str,
    rows: list[tuple[str, int]],
    prizes: list[int],
) -> None:
    # given the sample game and cleo's 512 to dan, both ranked preset-1 games of this week

    # when ana asks for a board by its filters
    reply = seeded.board(**query)

    # then it is that board, with the rows it holds (the first ones shown) and its prizes
    assert reply.status == 200, reply.body
    page = reply.json
    assert page["board"] == board
    assert [(row["names"], row["score"]) for row in page["rows"]][: len(rows)] == [
        ([name], score) for name, score in rows
    ]
    assert page["prizes"] == prizes
    assert [row["prize"] for row in page["rows"]] == (prizes + [None] * 4)[: len(page["rows"])]


def test_board_period_of_all_time_never_ends_and_a_week_ends_on_monday(seeded: Boards) -> None:
    # when ana reads the all-time, this month's and last week's boards
    all_time = seeded.board(period="all").json
    month = seeded.board(period="month").json
    last_week = seeded.board(period="2026-W48").json

    # then each says when it ends (UTC), all time never
    assert all_time["periodEndsAt"] is None
    assert month["periodEndsAt"] == "2027-01-01T00:00:00Z"
    assert last_week["periodEndsAt"] == "2026-11-30T00:00:00Z"


@pytest.mark.parametrize(
    ("query", "code", "field"),
    [
        ({"format": "trios"}, "unknown_board", "format"),
        ({"columns": "8"}, "unknown_board", "columns"),
        ({"columns": "0"}, "unknown_board", "columns"),
        ({"columns": "Main"}, "unknown_board", "columns"),
        ({"columns": "1,2"}, "unknown_board", "columns"),
        ({"side": "worst"}, "unknown_board", "side"),
        ({"columns": "1", "side": "avg"}, "unknown_board", "side"),
        ({"period": "yesterday"}, "unknown_period", "period"),
        ({"period": "2026-13"}, "unknown_period", "period"),
        ({"period": "2026-W54"}, "unknown_period", "period"),
        ({"period": "1999-12"}, "unknown_period", "period"),
        ({"period": "2026-w49"}, "unknown_period", "period"),
        ({"kind": "friends"}, "unknown_board", "kind"),
        ({"format": "pairs", "columns": "2", "kind": "clubs"}, "board_not_available", "kind"),
        ({"columns": "main", "side": "sum"}, "unknown_board", "columns"),
        ({"columns": "main", "format": "pairs"}, "unknown_board", "columns"),
        ({"format": "pairs", "columns": "2", "kind": "favorites"}, "board_not_available", "kind"),
        ({"sort": "score"}, "bad_request", "sort"),
        ({"columns": "1", "page": "2"}, "bad_request", "page"),
        ({"format": ""}, "unknown_board", "format"),
        ({"period": ""}, "unknown_period", "period"),
    ],
)
def test_board_bad_filter_is_refused_with_its_code_and_field(
    boards: Boards, query: dict[str, str], code: str, field: str
) -> None:
    # when ana asks for a board with a filter it does not know
    reply = boards.board(**query)

    # then it is refused (400), the code and the field saying which and why
    assert reply.error == (400, code, field), reply.body
    assert reply.json["error"]["message"]


def test_board_own_row_below_the_top(seeded: Boards, monkeypatch: pytest.MonkeyPatch) -> None:
    # given a top of two rows
    monkeypatch.setattr("yamb_service.results.service.TOP", 2)

    # when ben (third of four) and ana (in the top) read the preset-1 board, and dan (not on
    # the main board of month 2026-11) its board
    ben = seeded.board(BEN, columns="1").json
    ana = seeded.board(ANA, columns="1").json
    dan = seeded.board(DAN, columns="main", period="2026-11").json

    # then ben sees the top and his own row below it; ana is in it; dan has no row
    assert [row["names"] for row in ben["rows"]] == [["cleo"], ["ana"]]
    assert ben["mine"] == {
        "place": 3,
        "names": ["ben"],
        "tags": [None],
        "score": 334,
        "gameIds": [sample_result().game_id],
        "prize": None,
        "me": True,
    }
    assert ana["mine"] is None and [row["me"] for row in ana["rows"]] == [False, True]
    assert dan["mine"] is None and dan["rows"] == []


def test_board_equal_scores_share_a_place_and_the_earlier_shows_first(boards: Boards) -> None:
    # given ben reached 334 before cleo did, and dan 500
    for player in NICKNAMES:
        boards.player(player)
    boards.record(sample_result())
    later = sample_result().ended_at + timedelta(hours=1)
    boards.record(game({CLEO: 334, DAN: 500}, at=later))

    # when ana reads the preset-1 board
    rows = boards.board(columns="1").json["rows"]

    # then the places are 1, 2, 3, 3: ben before cleo
    assert [(row["place"], row["names"]) for row in rows] == [
        (1, ["dan"]),
        (2, ["ana"]),
        (3, ["ben"]),
        (3, ["cleo"]),
    ]


# ---------------------------------------------------------------------- favorites


def test_favorites_added_listed_and_removed(people: Boards) -> None:
    # given ana follows no one

    # when she adds ben and cleo (cleo twice), lists them, then removes ben
    first = people.call("PUT", "/me/favorites/ben")
    people.call("PUT", "/me/favorites/cleo")
    again = people.call("PUT", "/me/favorites/cleo")
    listed = people.call("GET", "/me/favorites")
    removed = people.call("DELETE", "/me/favorites/ben")

    # then each answer is her favorites as they are then, by nickname
    assert (first.status, first.json) == (200, {"favorites": [{"nickname": "ben"}]})
    assert again.json == listed.json == {"favorites": [{"nickname": "ben"}, {"nickname": "cleo"}]}
    assert (removed.status, removed.json) == (200, {"favorites": [{"nickname": "cleo"}]})
    assert people.call("GET", "/me/favorites").json == removed.json
    # and a follow is one-way: ben follows no one
    assert people.call("GET", "/me/favorites", player=BEN).json == {"favorites": []}


def test_favorites_board_holds_the_viewer_and_their_favorites(played: Boards) -> None:
    # given ana follows ben (not cleo, first on the board)
    played.call("PUT", "/me/favorites/ben")

    # when she reads the favorites board, then unfollows ben and reads it again
    favorites = played.board(columns="1", kind="favorites").json
    played.call("DELETE", "/me/favorites/ben")
    alone = played.board(columns="1", kind="favorites").json

    # then it places her and ben among themselves; then her alone
    assert favorites["kind"] == "favorites"
    assert [(row["place"], row["names"], row["me"]) for row in favorites["rows"]] == [
        (1, ["ana"], True),
        (2, ["ben"], False),
    ]
    assert [row["names"] for row in alone["rows"]] == [["ana"]]


@pytest.mark.parametrize(
    ("method", "nickname", "status", "code"),
    [
        ("PUT", "ana", 400, "favorite_self"),
        ("PUT", "ANA", 400, "favorite_self"),
        ("DELETE", "ana", 400, "favorite_self"),
        ("PUT", "nobody", 404, "unknown_player"),
        ("DELETE", "nobody", 404, "unknown_player"),
    ],
)
def test_favorites_self_or_unknown_nickname_is_refused(
    people: Boards, method: str, nickname: str, status: int, code: str
) -> None:
    # when ana follows or unfollows herself, or a nickname no one has
    reply = people.call(method, f"/me/favorites/{nickname}")

    # then it is refused, naming the nickname, and her favorites are as they were
    assert reply.error == (status, code, "nickname"), reply.body
    assert people.call("GET", "/me/favorites").json == {"favorites": []}


# ---------------------------------------------------------------------- statistics


def test_statistics_json_shape_counts_the_game_and_holds_nothing_private(played: Boards) -> None:
    # given ana has tokens in her wallet
    played.wallets.apply("grant:boards-test", [Change(ANA, 777, "grant")], NOW)
    ended = sample_result()

    # when ben reads ana's statistics
    reply = played.call("GET", "/players/ana/statistics", player=BEN)
    model = BradleyTerryFull()
    [[won], _] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])

    # then they count the sample game as hers: a win, her record, her place and her rates
    assert reply.status == 200, reply.body
    stats = reply.json
    assert set(stats) == STATISTICS_FIELDS
    assert stats == {
        "nickname": "ana",
        "country": None,
        "club": None,
        "description": "",
        "proudGame": None,
        "publicPage": True,
        "memberSince": "2026-11-01T08:00:00Z",
        "games": 1,
        "wins": 1,
        "losses": 0,
        "winRate": 1.0,
        "mainBoardScore": 493,
        "mainBoardPlace": 2,
        "medals": {"gold": 0, "silver": 0, "bronze": 0},
        "abandoned": 0,
        "records": {
            "preset-1/5d/individual": {
                "score": 493,
                "gameId": ended.game_id,
                "at": "2026-12-02T17:38:18Z",
            }
        },
        "kinds": {"preset-1/5d/individual": 1},
        # the sample sheet: 1 bonus of 2 columns, no Yamb of 2 cells, 2 pokers of 2, 4 of 26
        # cells crossed out
        "rates": {"bonus": 0.5, "yamb": 0.0, "poker": 1.0, "crossedOut": 0.1538},
        # her preset-1 rating after one win over a newcomer, as OpenSkill rates it
        "ratings": [
            {
                "pool": "individual/yamb-1",
                "rating": round(60 * won.mu),
                "deviation": round(60 * won.sigma),
                "provisional": True,
                "games": 1,
            }
        ],
        # the sample game's end carries no measure of skill and luck (made before them)
        "skill": [],
    }
    # and nothing private: no e-mail, no token, no wallet
    assert_nothing_private(reply)
    assert "777" not in reply.body


def test_statistics_of_a_player_without_games(seeded: Boards) -> None:
    # given eve, who never played

    # when ana reads eve's statistics
    stats = seeded.call("GET", "/players/eve/statistics").json

    # then everything is zero or absent, no rate before a sheet
    assert (stats["games"], stats["winRate"], stats["mainBoardPlace"]) == (0, None, None)
    assert stats["rates"] == {"bonus": None, "yamb": None, "poker": None, "crossedOut": None}
    assert (stats["records"], stats["kinds"]) == ({}, {})


def test_statistics_of_an_unknown_nickname_is_404(seeded: Boards) -> None:
    reply = seeded.call("GET", "/players/nobody/statistics")
    assert reply.error == (404, "unknown_player", "nickname")


def test_statistics_of_a_purged_account_is_404_by_either_nickname(people: Boards) -> None:
    # given ana's account was purged: her nickname freed, the account named by an id
    people.purge(ANA)

    # when ben asks for her statistics by her old nickname and by the id-like one
    old = people.call("GET", "/players/ana/statistics", player=BEN)
    new = people.call("GET", f"/players/{purged_nickname(ANA)}/statistics", player=BEN)

    # then neither is a player's
    assert old.error == (404, "unknown_player", "nickname")
    assert new.status == 404


# ---------------------------------------------------------------------- head-to-head


def test_head_to_head_shape_from_each_side(seeded: Boards) -> None:
    # given the sample game, which ana won 493 to 334 over ben
    ended = sample_result()

    # when each reads the head-to-head with the other
    ben = seeded.call("GET", "/players/ana/head-to-head", player=BEN)
    ana = seeded.call("GET", "/players/ben/head-to-head", player=ANA)

    # then each sees their own figure first, and the meeting, replayable by its id
    assert ben.status == ana.status == 200
    meeting = {
        "gameId": ended.game_id,
        "at": "2026-12-02T17:38:18Z",
        "ranked": True,
        "preset": 1,
    }
    assert ben.json == {
        "opponent": "ana",
        "wins": 0,
        "losses": 1,
        "ties": 0,
        "meetings": [{**meeting, "verdict": "loss", "mine": 334, "theirs": 493}],
        "nextBefore": None,
    }
    assert ana.json == {
        "opponent": "ben",
        "wins": 1,
        "losses": 0,
        "ties": 0,
        "meetings": [{**meeting, "verdict": "win", "mine": 493, "theirs": 334}],
        "nextBefore": None,
    }
    assert_nothing_private(ben)
    assert_nothing_private(ana)


def test_head_to_head_with_no_meeting_and_with_an_unknown_nickname(seeded: Boards) -> None:
    # when ana reads her head-to-head with cleo (never met) and with a nickname no one has
    cleo = seeded.call("GET", "/players/cleo/head-to-head")
    nobody = seeded.call("GET", "/players/nobody/head-to-head")

    # then the first is empty, the second unknown
    assert cleo.json == {
        "opponent": "cleo",
        "wins": 0,
        "losses": 0,
        "ties": 0,
        "meetings": [],
        "nextBefore": None,
    }
    assert nobody.error == (404, "unknown_player", "nickname")


def test_head_to_head_pages_from_the_newest_meeting(
    played: Boards, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given pages of two meetings, and ana and ben met three times more: ben won, then a tie,
    # then ana won
    monkeypatch.setattr("yamb_service.results.service.MEETINGS_PAGE", 2)
    start = sample_result().ended_at
    played.record(
        game({ANA: 300, BEN: 400}, at=start + timedelta(hours=1), game_id="h2h-1"),
        game({ANA: 350, BEN: 350}, at=start + timedelta(hours=2), game_id="h2h-2"),
        game({ANA: 500, BEN: 100}, at=start + timedelta(hours=3), game_id="h2h-3"),
    )

    # when ben reads the first page, then the next one with its nextBefore
    first = played.call("GET", "/players/ana/head-to-head", player=BEN).json
    query = {"before": first["nextBefore"]}
    second = played.call("GET", "/players/ana/head-to-head", query, player=BEN).json

    # then the counts are over all four, and the meetings come newest first, two by two
    assert (first["wins"], first["losses"], first["ties"]) == (1, 2, 1)
    assert [m["gameId"] for m in first["meetings"]] == ["h2h-3", "h2h-2"]
    assert [m["verdict"] for m in first["meetings"]] == ["loss", "tie"]
    assert [m["gameId"] for m in second["meetings"]] == ["h2h-1", sample_result().game_id]
    assert second == {**second, "wins": 1, "losses": 2, "ties": 1}


def test_head_to_head_last_full_page_has_no_next(
    played: Boards, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given pages of two meetings, and ana and ben met twice in all
    monkeypatch.setattr("yamb_service.results.service.MEETINGS_PAGE", 2)
    played.record(game({ANA: 300, BEN: 400}, at=sample_result().ended_at + timedelta(hours=1)))

    # when ben reads their head-to-head
    page = played.call("GET", "/players/ana/head-to-head", player=BEN).json

    # then both meetings are on the page, and it says that none is left
    assert len(page["meetings"]) == 2
    assert page["nextBefore"] is None


# ---------------------------------------------------------------------- public page


def test_public_page_json_is_the_statistics(seeded: Boards) -> None:
    # when a visitor's program asks for ana's page as JSON, and a player her statistics
    page = seeded.call("GET", "/pages/ana", player=None)
    stats = seeded.call("GET", "/players/ana/statistics", player=BEN)

    # then the page is the same statistics, nothing private
    assert page.status == 200
    assert page.headers["Content-Type"] == "application/json"
    assert page.json == stats.json
    assert_nothing_private(page)


def test_public_page_html_shows_the_players_words_escaped(people: Boards) -> None:
    # given ana describes herself with markup, and says where she is from
    people.update(
        ANA, preferences=Preferences(description="<b>dice</b> & <script>x</script>", country="HR")
    )

    # when a visitor opens her page
    reply = people.call("GET", "/pages/ana", player=None, accept="text/html")

    # then her words are shown as text, never as markup
    assert reply.status == 200
    assert "<p>&lt;b&gt;dice&lt;/b&gt; &amp; &lt;script&gt;x&lt;/script&gt;</p>" in reply.body
    assert "<script>" not in reply.body
    assert "<p>Country: HR</p>" in reply.body


def test_public_page_speaks_the_visitors_language(
    people: Boards, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # given a French catalogue of the page's words, and ana's page with a country
    use_catalogues(
        monkeypatch,
        tmp_path,
        {
            "fr": {
                "Games": "Parties",
                "Wins": "Victoires",
                "Country: {country}": "Pays : {country}",
                "No such page": "Page introuvable",
            }
        },
    )
    people.update(ANA, preferences=Preferences(country="FR"))

    # when a visitor whose browser prefers French opens it, and a page that does not exist
    reply = people.call(
        "GET", "/pages/ana", player=None, accept="text/html", accept_language="fr-CH, en;q=0.5"
    )
    missing = people.call(
        "GET", "/pages/nobody", player=None, accept="text/html", accept_language="fr"
    )

    # then both pages are French, said so, and a cache keeps one copy per language
    assert reply.status == 200, reply.body
    assert reply.body.startswith("<!doctype html><html lang=fr>")
    assert "<tr><th align=left>Parties</th><td>0</td></tr>" in reply.body
    assert "<p>Pays : FR</p>" in reply.body
    assert reply.headers["Content-Language"] == "fr"
    assert "Accept-Language" in reply.headers["Vary"]
    assert (missing.status, missing.headers["Content-Language"]) == (404, "fr")
    assert "<h1>Page introuvable</h1>" in missing.body
    # and without the header it is English
    english = people.call("GET", "/pages/ana", player=None, accept="text/html")
    assert "<html lang=en>" in english.body and "<th align=left>Games</th>" in english.body


def hide_page(boards: Boards) -> str:
    boards.update(ANA, preferences=Preferences(public_page=False))
    return "ana"


def ask_deletion(boards: Boards) -> str:
    boards.update(ANA, status=AccountStatus.DELETING, deletion_requested_at=NOW)
    return "ana"


def purge_by_old_nickname(boards: Boards) -> str:
    boards.purge(ANA)
    return "ana"


def ban(boards: Boards) -> str:
    boards.update(ANA, status=AccountStatus.BANNED)
    return "ana"


def nobody(boards: Boards) -> str:
    return "nobody"


@pytest.mark.parametrize("gone", [hide_page, ask_deletion, purge_by_old_nickname, ban, nobody])
@pytest.mark.parametrize("accept", ["text/html", "application/json"])
def test_public_page_is_404_when_switched_off_deleted_or_unknown(
    people: Boards, gone: Any, accept: str
) -> None:
    # given ana switched her page off, asked for her account's deletion, was purged, was
    # banned, or the nickname is no one's
    nickname = gone(people)

    # when a visitor asks for the page
    reply = people.call("GET", f"/pages/{nickname}", player=None, accept=accept)

    # then there is no such page, for people or programs, and no cache keeps that answer
    assert reply.status == 404, reply.body
    if accept == "text/html":
        assert reply.headers["Content-Type"] == "text/html; charset=utf-8"
        assert reply.headers["Cache-Control"] == "no-store"
        assert "<h1>No such page</h1>" in reply.body
        assert "<h1>ana</h1>" not in reply.body
    else:
        assert reply.error == (404, "unknown_player", "nickname")


def test_public_page_back_on_answers_again(people: Boards) -> None:
    # given ana switched her page off, then on again
    hide_page(people)
    hidden = people.call("GET", "/pages/ana", player=None, accept="text/html")
    people.update(ANA, preferences=Preferences(public_page=True))

    # when a visitor opens it
    shown = people.call("GET", "/pages/ana", player=None, accept="text/html")

    # then it is there again
    assert (hidden.status, shown.status) == (404, 200)


def test_public_page_switched_off_answers_json_as_no_such_player(people: Boards) -> None:
    # given ana switched her page off
    hide_page(people)

    # when a program asks for her page and for a nickname no one has
    hidden = people.call("GET", "/pages/ana", player=None)
    unknown = people.call("GET", "/pages/nobody", player=None)

    # then both answers are the same but for the nickname
    assert hidden.status == unknown.status == 404
    assert hidden.body.replace("ana", "nobody") == unknown.body


ABOUT_ANA = Preferences(description="dice at dawn", country="HR", proud_game="g-proud-1")


def _about(stats: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    return stats["description"], stats["country"], stats["proudGame"], stats["publicPage"]


@pytest.mark.parametrize("gone", [hide_page, ask_deletion, ban])
def test_statistics_hide_the_public_fields_when_the_page_is_not_shown(
    people: Boards, gone: Any
) -> None:
    # given ana wrote about herself, and then switched her public page off, asked for her
    # account's deletion (its grace period), or was banned
    people.update(ANA, preferences=ABOUT_ANA)
    shown = people.call("GET", "/players/ana/statistics", player=BEN).json
    gone(people)
    if gone is hide_page:
        people.update(ANA, preferences=ABOUT_ANA.model_copy(update={"public_page": False}))

    # when ben, signed in, reads her statistics
    reply = people.call("GET", "/players/ana/statistics", player=BEN)

    # then, while her page was shown, he saw her words; now her statistics are there without
    # them, as on a player who wrote nothing
    assert _about(shown) == ("dice at dawn", "HR", "g-proud-1", True)
    assert reply.status == 200, reply.body
    assert _about(reply.json) == ("", None, None, False)
    assert "dice at dawn" not in reply.body
    assert reply.json["nickname"] == "ana"


def test_statistics_show_the_player_their_own_public_fields_with_the_page_off(
    people: Boards,
) -> None:
    # given ana wrote about herself and switched her public page off
    people.update(ANA, preferences=ABOUT_ANA.model_copy(update={"public_page": False}))

    # when she reads her own statistics
    reply = people.call("GET", "/players/ana/statistics", player=ANA)

    # then she sees what she wrote, and that her page is not shown
    assert _about(reply.json) == ("dice at dawn", "HR", "g-proud-1", False)


@pytest.mark.parametrize(
    ("nickname", "accept", "status"),
    [("ana", "text/html", 200), ("nobody", "text/html", 404), ("ana", "application/json", 200)],
)
def test_public_page_forbids_scripts_and_sniffing(
    people: Boards, nickname: str, accept: str, status: int
) -> None:
    # given ana's page, shown, with words of hers that look like markup
    people.update(ANA, preferences=Preferences(description="<script>alert(1)</script>"))

    # when a visitor opens her page, a page no one has, or her page as JSON
    reply = people.call("GET", f"/pages/{nickname}", player=None, accept=accept)

    # then the answer forbids sniffing and sends no referrer, and its policy allows nothing but
    # the page's own style sheet, by its hash: no script, no inline style, nothing loaded
    assert reply.status == status
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "no-referrer"
    policy = dict(
        (part.split()[0], part.split()[1:])
        for part in reply.headers["Content-Security-Policy"].split(";")
    )
    assert policy["default-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert "script-src" not in policy
    assert not any("unsafe" in value for values in policy.values() for value in values)
    if accept == "text/html":
        assert "<script" not in reply.body and " style=" not in reply.body
        sheets = re.findall(r"<style>(.*?)</style>", reply.body)
        hashes = {
            "'sha256-" + base64.b64encode(hashlib.sha256(sheet.encode()).digest()).decode() + "'"
            for sheet in sheets
        }
        assert sheets and hashes == set(policy["style-src"])


def test_board_no_longer_names_a_purged_player(played: Boards) -> None:
    # given ana's account was purged
    played.purge(ANA)

    # when ben reads the preset-1 board
    rows = played.board(BEN, columns="1").json["rows"]

    # then her row is there, named by the id her account now has, not by her old nickname
    assert [row["score"] for row in rows] == [512, 493, 334, 120]
    assert rows[1]["names"] == [purged_nickname(ANA)]


def test_unknown_route_is_404(seeded: Boards) -> None:
    reply = seeded.call("GET", "/players/ana/trophies")
    assert reply.error == (404, "not_found", None)


def test_public_page_of_an_id_name_is_the_html_no_such_page(people: Boards) -> None:
    # when a browser asks for the page of a purged account's id name (a `#` the route's
    # pattern does not take)
    reply = people.call("GET", "/pages/#0123456789ab", player=None, accept="text/html")

    # then it gets the page that says there is none, never kept by a cache
    assert reply.status == 404
    assert "No such page" in reply.body
    assert reply.headers["Cache-Control"] == "no-store"


def test_past_games_list_the_callers_games_newest_first_a_page_at_a_time(
    played: Boards, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given pages of two games, and ana played ben three times more: lost, tied, won
    monkeypatch.setattr("yamb_service.results.service.PAST_GAMES_PAGE", 2)
    start = sample_result().ended_at
    played.record(
        game({ANA: 300, BEN: 400}, at=start + timedelta(hours=1), game_id="past-1"),
        game({ANA: 350, BEN: 350}, at=start + timedelta(hours=2), game_id="past-2"),
        game({ANA: 500, BEN: 100}, at=start + timedelta(hours=3), game_id="past-3"),
    )

    # when ana reads her past games, then the next page with its nextBefore
    first = played.call("GET", "/me/games", player=ANA)
    second = played.call("GET", "/me/games", {"before": first.json["nextBefore"]}, player=ANA)

    # then they come newest first, two by two, each with her total, the verdict and ben by name
    assert first.status == second.status == 200
    assert [(g["gameId"], g["verdict"]) for g in first.json["games"]] == [
        ("past-3", "win"),
        ("past-2", "tie"),
    ]
    newest = first.json["games"][0]
    assert (newest["mine"], newest["others"]) == (
        500,
        [{"nickname": "ben", "bot": None, "total": 100}],
    )
    assert (newest["grid"], newest["preset"], newest["ranked"]) == ("yamb", 1, True)
    assert [(g["gameId"], g["verdict"]) for g in second.json["games"]] == [
        ("past-1", "loss"),
        (sample_result().game_id, "win"),
    ]
    assert second.json["nextBefore"] is None
    # and ben's list is his own side of the same games
    bens = played.call("GET", "/me/games", player=BEN).json["games"]
    assert [(g["gameId"], g["verdict"], g["mine"]) for g in bens] == [
        ("past-3", "loss", 100),
        ("past-2", "tie", 350),
    ]


def test_past_games_name_a_deleted_player_by_nobody_and_refuse_a_forged_cursor(
    played: Boards,
) -> None:
    # given ben's account was deleted (purged) after the sample game
    played.update(BEN, status=AccountStatus.DELETED)

    # when ana reads her past games, and a page before a cursor she made up
    games = played.call("GET", "/me/games", player=ANA).json["games"]
    forged = played.call("GET", "/me/games", {"before": "yesterday"}, player=ANA)

    # then the game shows without his name, and the cursor is refused, naming the field
    assert [seat["nickname"] for seat in games[0]["others"]] == [None]
    assert forged.error == (400, "bad_request", "before")


# ---------------------------------------------------------------------- ratings (issue 32)


def test_ratings_a_ranked_game_rates_its_players_once_and_shows_on_the_board(
    seeded: Boards,
) -> None:
    # given the seeded games (ana beat ben, cleo beat dan, preset 1), delivered once more as a
    # stream does at least once
    seeded.record(sample_result())

    # when ana reads the preset-1 rating board
    reply = seeded.ratings(family="yamb-1")

    # then the two winners lead, each rated once, provisional, and ana's row is hers
    assert reply.status == 200, reply.body
    page = reply.json
    assert page["pool"] == "individual/yamb-1"
    rows = page["rows"]
    assert sorted(r["name"] for r in rows[:2]) == ["ana", "cleo"]
    assert sorted(r["name"] for r in rows[2:]) == ["ben", "dan"]
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    assert all(r["games"] == 1 and r["provisional"] for r in rows)
    assert rows[0]["rating"] > 1500 > rows[-1]["rating"]
    assert [r["me"] for r in rows if r["name"] == "ana"] == [True]
    assert page["mine"] is None
    assert "pairs/yamb-1" in page["families"]


def test_ratings_on_the_statistics_and_a_viewer_outside_the_board(
    seeded: Boards, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a board of one row
    monkeypatch.setattr("yamb_service.competition.service.TOP", 1)

    # when ben (not in the top) reads it, and anyone reads ana's statistics
    page = seeded.ratings(player=BEN, family="yamb-1").json
    stats = seeded.call("GET", "/players/ana/statistics").json

    # then ben's own rating is beside the board, and ana's is on her statistics
    assert len(page["rows"]) == 1
    assert page["mine"]["rating"] < 1500 and page["mine"]["games"] == 1
    (rating,) = stats["ratings"]
    assert rating["pool"] == "individual/yamb-1" and rating["rating"] > 1500


def test_ratings_a_board_no_one_is_rated_on_is_empty(seeded: Boards) -> None:
    page = seeded.ratings(format="pairs", family="yamb-3").json
    assert (page["rows"], page["mine"]) == ([], None)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"family": "yamb-8"}, "family"),
        ({"format": "team"}, "format"),
        ({"format": "pairs", "family": "yacht"}, "family"),
        ({"season": "1"}, "season"),
    ],
)
def test_ratings_bad_filter_is_refused_with_its_field(
    boards: Boards, query: dict[str, str], field: str
) -> None:
    reply = boards.ratings(**query)
    assert reply.status == 400, reply.body
    assert reply.error[2] == field
    assert reply.json["error"]["message"]
