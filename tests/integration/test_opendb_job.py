"""The open game database on moto (issue 32): games staged by the results function from the
stream, the monthly job (functions/opendb_jobs) exporting a month to the bucket once, a month
not over refused, another month's games left out, and the boards function's GET /database and
GET /database/{file}."""

import gzip
import json
import urllib.parse
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

import boto3
import pytest
from yamb.chat import ChatLog
from yamb.opendb.errors import OpenDbError
from yamb.session.model import GameSession
from yamb.session.results import result_of
from yamb_service.common import config
from yamb_service.common.dynamo import item_model
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.opendb import wiring as opendb_wiring
from yamb_tools.cli import verify_game_line

from testkit.opendb import finished_game
from tests.integration.test_boards_http import (
    ANA,
    BEN,
    CLEO,
    REGION,
    Boards,
    Reply,
    create_table,
    delete_table,
    load_event,
    load_quietly,
    use_table,
)
from tests.integration.test_handlers import CONTEXT

BUCKET = "yamb-open-data-test"
CHAT = "my phone number is 555-0199"
# A job refused before its service runs adds only JobFailed (no metric of an export).
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
NOVEMBER = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
DECEMBER = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)


class Database(Boards):
    def __init__(self, item: Any, functions: tuple[ModuleType, ModuleType, ModuleType]) -> None:
        super().__init__(item, functions[:2])
        self.job = functions[2]
        self.games = DynamoGameRepository(item)
        self.s3 = boto3.client("s3", region_name=REGION)

    def play(self, game_id: str, players: list[str], at: datetime, **settings: Any) -> GameSession:
        """A game played to its end and stored as the game service leaves it (with a chat
        line beside it), its end handed to the results function as the stream does."""
        session = finished_game(game_id, players, at=at, **settings)
        self.games.create(session, players={}, now=at)
        log = ChatLog.model_validate(
            {"lines": [{"sender": players[0], "text": CHAT, "sent_at": at}]}
        )
        self.games.save_chat_log(game_id, log, 0, at)
        self.record(result_of(session))
        return session

    def get(self, path: str) -> Reply:
        """A request of the open database's routes, without sign-in."""
        event = load_event("public_page.json")
        route = "GET /database" if path == "/database" else "GET /database/{file}"
        event["routeKey"] = event["requestContext"]["routeKey"] = route
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["requestId"] = uuid.uuid4().hex
        event["rawQueryString"] = ""
        event.pop("queryStringParameters", None)
        event.pop("pathParameters", None)
        if path != "/database":
            event["pathParameters"] = {"file": urllib.parse.unquote(path.rsplit("/", 1)[1])}
        return self.send(event)

    def run(self, **event: Any) -> dict[str, Any]:
        return dict(self.job.handler({"job": "month", **event}, CONTEXT))

    def objects(self) -> dict[str, bytes]:
        listed = self.s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])
        return {
            o["Key"]: self.s3.get_object(Bucket=BUCKET, Key=o["Key"])["Body"].read() for o in listed
        }

    def versions(self) -> int:
        return len(self.s3.list_object_versions(Bucket=BUCKET).get("Versions", []))


@pytest.fixture(scope="module")
def functions() -> tuple[ModuleType, ModuleType, ModuleType]:
    return load_quietly("boards"), load_quietly("results"), load_quietly("opendb_jobs")


def _forget() -> None:
    config.opendb_settings.cache_clear()
    opendb_wiring.forget()


@pytest.fixture
def database(
    aws: None, functions: tuple[ModuleType, ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Database]:
    """ana, ben and cleo with accounts (and e-mails); an empty bucket with versioning."""
    table = create_table()
    use_table(table, monkeypatch)
    monkeypatch.setenv("OPEN_DATA_BUCKET", BUCKET)
    _forget()
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    database = Database(item_model(table, REGION), functions)
    for player in (ANA, BEN, CLEO):
        database.player(player)
    yield database
    for version in s3.list_object_versions(Bucket=BUCKET).get("Versions", []):
        s3.delete_object(Bucket=BUCKET, Key=version["Key"], VersionId=version["VersionId"])
    s3.delete_bucket(Bucket=BUCKET)
    delete_table(table)
    _forget()


def _games(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in gzip.decompress(data).splitlines()]


def test_a_month_is_exported_once_with_its_games_only(database: Database) -> None:
    # given two November games (one with cleo, whose account is then renamed), a December
    # one, a solo game and a cancelled one in November
    database.play("nov-1", [ANA, BEN], NOVEMBER)
    database.play("nov-2", [BEN, CLEO], NOVEMBER.replace(day=29))
    database.play("dec-1", [ANA, CLEO], DECEMBER)
    database.play("solo-1", [ANA], NOVEMBER)
    cancelled = finished_game("nov-x", [ANA, BEN], at=NOVEMBER)
    cancelled.outcome = "cancelled"
    database.games.create(cancelled, players={}, now=NOVEMBER)
    database.record(result_of(cancelled))
    database.update(CLEO, nickname="cleo2")
    # when the monthly job runs on December 1st, then again
    first = database.run(now=DECEMBER.isoformat())
    files = database.objects()
    versions = database.versions()
    second = database.run(now=datetime(2026, 12, 2, tzinfo=UTC).isoformat())
    # then November's file holds its two public games in the order they ended, by nickname
    name = "yamb_games_2026-11.jsonl.gz"
    assert first["month"] == "2026-11" and first["games"] == 2 and first["written"] is True
    assert set(files) == {name, "manifest.json", "LICENSE.txt", "README.md"}
    games = _games(files[name])
    assert [g["id"] for g in games] == ["nov-1", "nov-2"]
    assert [[s["nickname"] for s in g["seats"]] for g in games] == [
        ["ana", "ben"],
        ["ben", "cleo2"],
    ]
    assert all(verify_game_line(g)["ok"] is True for g in games)
    # and the second run wrote nothing: the same files, no new version, the same answer
    assert second["written"] is False and second["sha256"] == first["sha256"]
    assert database.objects() == files and database.versions() == versions
    manifest = json.loads(files["manifest.json"])
    assert manifest["months"][0]["files"][0]["sha256"] == first["sha256"][0]
    assert manifest["licence"]["url"] == "https://creativecommons.org/publicdomain/zero/1.0/"
    assert b"CC0 1.0" in files["LICENSE.txt"]


def test_no_personal_data_beyond_the_nickname_reaches_the_file(database: Database) -> None:
    # given a game whose players have accounts with e-mails and who chatted
    database.play("nov-1", [ANA, BEN], NOVEMBER)
    # when the month is exported
    database.run(now=DECEMBER.isoformat())
    data = gzip.decompress(database.objects()["yamb_games_2026-11.jsonl.gz"]).decode()
    # then neither their ids, nor their addresses, nor the chat is in it
    for secret in (ANA, BEN, "ana@example.com", "ben@example.com", CHAT, "conn-"):
        assert secret not in data


def test_a_month_not_over_is_refused_and_nothing_is_written(database: Database) -> None:
    # given a November game
    database.play("nov-1", [ANA, BEN], NOVEMBER)
    # when November is asked for on its last day / then it is refused, nothing written
    with pytest.raises(OpenDbError) as refused:
        database.run(now=NOVEMBER.isoformat(), month="2026-11")
    assert refused.value.code == "month_not_over"
    assert database.objects() == {}
    # and the default month (October, over) is exported, empty
    answer = database.run(now=NOVEMBER.isoformat())
    assert answer["month"] == "2026-10" and answer["games"] == 0


def test_the_months_are_listed_and_a_file_is_linked(database: Database) -> None:
    # given November exported
    database.play("nov-1", [ANA, BEN], NOVEMBER)
    exported = database.run(now=DECEMBER.isoformat())
    # when anyone asks for the database, then for the month's file and for a file not there
    listing = database.get("/database")
    link = database.get("/database/yamb_games_2026-11.jsonl.gz")
    missing = database.get("/database/yamb_games_2026-10.jsonl.gz")
    odd = database.get("/database/..%2Fsecret")
    # then the listing has the month, its file's size and SHA-256 and the licence, cached
    assert listing.status == 200 and "max-age=3600" in listing.headers["Cache-Control"]
    month = listing.json["months"][0]
    assert month["month"] == "2026-11"
    assert month["files"][0]["sha256"] == exported["sha256"][0]
    assert month["files"][0]["url"] == "/database/yamb_games_2026-11.jsonl.gz"
    assert listing.json["licence"]["name"].startswith("CC0 1.0")
    # and the file's route redirects to a signed link that downloads the very file
    assert link.status == 302 and link.headers["Location"] == link.json["url"]
    query = urllib.parse.parse_qs(urllib.parse.urlparse(link.json["url"]).query)
    assert "X-Amz-Signature" in query or "Signature" in query
    assert missing.error == (404, "unknown_file", "file")
    assert odd.status == 404
