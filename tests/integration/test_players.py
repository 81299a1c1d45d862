"""The players list (S1) and blocks (S2) on moto: the index written with each active profile,
a page by nickname with presence, prefix search as nicknames compare, paging across shards,
favourites online first, blocks and their refusals; and the social function's routes."""

import copy
import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from yamb.accounts.preferences import Preferences
from yamb.accounts.profile import AccountStatus, Profile
from yamb.social import players as rules
from yamb.social.errors import SocialError
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock, config
from yamb_service.common.observability import metrics
from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.social import wiring
from yamb_service.social.players.service import PlayersService

from tests.integration.conftest import load_event
from tests.integration.test_handlers import CONTEXT, load_function

NOW = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)


class People:
    """Accounts made on the table, the players list's service on it."""

    def __init__(self, item: Any) -> None:
        self.accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        self.records = DynamoPlayerRepository(item)
        self.results = DynamoResultsStore(item)
        self.service: PlayersService = wiring.players_on(item)
        self.ids: dict[str, str] = {}

    def add(
        self, nickname: str, *, status: AccountStatus = AccountStatus.ACTIVE, **prefs: Any
    ) -> str:
        player_id = str(uuid.uuid4())
        self.accounts.create(
            Profile(
                player_id=player_id,
                nickname=nickname,
                email=f"{player_id}@example.com",
                status=status,
                created_at=NOW,
                preferences=Preferences(**prefs),
            )
        )
        self.ids[nickname] = player_id
        return player_id

    def connect(self, nickname: str) -> str:
        connection = f"conn-{nickname}"
        self.records.bind_connection(self.ids[nickname], connection, NOW)
        return connection

    def names(self, page: rules.PlayersPage) -> list[str]:
        return [row.nickname for row in page.players]


@pytest.fixture
def people(table: str, item: Any, monkeypatch: pytest.MonkeyPatch) -> People:
    monkeypatch.setattr(clock, "clock", lambda: NOW)
    return People(item)


def test_the_list_holds_active_players_in_nickname_order_with_their_flags(people: People) -> None:
    # Given three active players, one unverified and one banned
    people.add("cleo", country="DK")
    people.add("Ana", country="FR")
    people.add("bo")
    people.add("dora", status=AccountStatus.UNVERIFIED)
    ben = people.add("ben")
    banned = people.accounts.get(ben)
    assert banned is not None
    people.accounts.save(banned.model_copy(update={"status": AccountStatus.BANNED}))
    # When a player reads the list
    page = people.service.page(people.ids["bo"])
    # Then the active ones show, ordered as nicknames compare, flags with them, all offline
    assert people.names(page) == ["Ana", "bo", "cleo"]
    assert [row.country for row in page.players] == ["FR", None, "DK"]
    assert {row.presence for row in page.players} == {"offline"}
    assert page.cursor is None


def test_a_prefix_finds_nicknames_whatever_their_case_or_look_alike_letters(people: People) -> None:
    # Given Anna, ANDY, an "ana" written with a Cyrillic a, and Bob
    people.add("Anna")
    people.add("ANDY")
    people.add("\u0430na")  # Cyrillic small a, then "na": reads as "ana"
    people.add("Bob")
    # When someone searches "an" and "AN" and "Ана" (Cyrillic)
    found = [people.names(people.service.page(people.ids["Bob"], prefix=p)) for p in ("an", "AN")]
    # Then the same three are found each time, Bob never
    assert found[0] == found[1]
    assert sorted(found[0], key=str.casefold) == sorted(
        ["Anna", "ANDY", "\u0430na"], key=str.casefold
    )
    assert people.names(people.service.page(people.ids["Bob"], prefix="bo")) == ["Bob"]
    assert people.names(people.service.page(people.ids["Bob"], prefix="zz")) == []


def test_a_renamed_player_is_found_under_the_new_name_only(people: People) -> None:
    # Given ana renamed herself zelda
    ana = people.add("ana")
    profile = people.accounts.get(ana)
    assert profile is not None
    people.accounts.rename(profile.model_copy(update={"nickname": "zelda"}), "ana")
    # Then the list finds zelda and no longer ana
    assert people.names(people.service.page(ana, prefix="zel")) == ["zelda"]
    assert people.names(people.service.page(ana, prefix="ana")) == []


def test_pages_walk_every_shard_without_losing_or_repeating_anyone(
    people: People, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given 13 players over several shards (digits, letters, another script) and pages of 5
    monkeypatch.setattr(rules, "PAGE_SIZE", 5)
    names = ["7up", "al", "am", "an", "b1", "b2", "cy", "dan", "eve", "zed", "zu", "ωmega", "öle"]
    for name in names:
        people.add(name)
    # When a reader follows the cursors to the end
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = people.service.page(people.ids["al"], cursor=cursor)
        seen += people.names(page)
        pages += 1
        cursor = page.cursor
        if cursor is None:
            break
    # Then every player came once, in three pages
    assert sorted(seen) == sorted(names)
    assert len(seen) == len(set(seen))
    assert pages == 3


def test_a_cursor_the_list_never_gave_is_refused(people: People) -> None:
    people.add("ana")
    for cursor in ("not-a-cursor", "WyJ4eCIsICIiXQ"):  # the second: ["xx", ""], no such shard
        with pytest.raises(SocialError) as refused:
            people.service.page(people.ids["ana"], cursor=cursor)
        assert refused.value.field == "cursor"


def test_presence_is_offline_free_or_in_a_game_with_the_table(people: People, item: Any) -> None:
    # Given ana offline, bo connected, cy connected and seated at a table
    for name in ("ana", "bo", "cy"):
        people.add(name)
    people.connect("bo")
    people.connect("cy")
    item(f"PLAYER#{people.ids['cy']}", "PLAYER").update(actions=[item.seated_in.set("game-7")])
    # When ana reads the list
    rows = {row.nickname: row for row in people.service.page(people.ids["ana"]).players}
    # Then each shows where they are; only cy's table is named
    assert (rows["ana"].presence, rows["bo"].presence, rows["cy"].presence) == (
        "offline",
        "free",
        "in_game",
    )
    assert rows["cy"].game_id == "game-7" and rows["bo"].game_id is None


def test_favourites_come_online_first_and_are_marked_in_the_list(people: People) -> None:
    # Given ana follows zoe (online) and bo (offline)
    for name in ("ana", "bo", "zoe", "cy"):
        people.add(name)
    people.results.set_favorite(people.ids["ana"], people.ids["bo"], on=True)
    people.results.set_favorite(people.ids["ana"], people.ids["zoe"], on=True)
    people.connect("zoe")
    # When she reads her favourites and the whole list
    favourites = people.service.favorites(people.ids["ana"])
    everyone = {row.nickname: row for row in people.service.page(people.ids["ana"]).players}
    # Then zoe (online) comes before bo, and the list marks both as followed
    assert people.names(favourites) == ["zoe", "bo"]
    assert favourites.kind == "favorites"
    assert everyone["bo"].favorite and everyone["zoe"].favorite and not everyone["cy"].favorite


def test_a_block_is_listed_marked_and_lifted(people: People) -> None:
    # Given ana and bo
    ana = people.add("ana")
    people.add("bo")
    # When ana blocks bo (twice: the second changes nothing)
    people.service.block(ana, "BO")
    blocked = people.service.block(ana, "bo")
    # Then bo is in her blocked list and marked in the list
    assert people.names(blocked) == ["bo"]
    assert [row.blocked for row in people.service.page(ana, prefix="bo").players] == [True]
    assert people.service.blocks.blocked_either_way(people.ids["bo"], ana)
    # When she lifts it
    assert people.names(people.service.unblock(ana, "bo")) == []
    # Then nothing stands between them
    assert not people.service.blocks.blocked_either_way(ana, people.ids["bo"])


def test_blocking_oneself_a_stranger_or_too_many_is_refused_and_nothing_written(
    people: People, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = people.add("ana")
    people.add("bo")
    people.add("cy")
    with pytest.raises(SocialError) as refused:
        people.service.block(ana, "Ana")
    assert refused.value.code == "block_self"
    with pytest.raises(SocialError) as refused:
        people.service.block(ana, "nobody")
    assert refused.value.code == "unknown_player"
    monkeypatch.setattr(rules, "MAX_BLOCKS", 1)
    people.service.block(ana, "bo")
    with pytest.raises(SocialError) as refused:
        people.service.block(ana, "cy")
    assert refused.value.code == "too_many_blocks"
    assert people.names(people.service.blocked(ana)) == ["bo"]


# ------------------------------------------------------------------------- the function


@pytest.fixture
def social(table: str, people: People, monkeypatch: pytest.MonkeyPatch) -> Any:
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
    wiring.players_service.cache_clear()
    yield load_function("social")
    config.social_settings.cache_clear()
    wiring._item.cache_clear()
    wiring.players_service.cache_clear()


def _request(
    method: str, path: str, player: str, query: dict[str, str] | None = None
) -> dict[str, Any]:
    event = copy.deepcopy(load_event("players.json"))
    route = "PUT /me/blocks/{nickname}" if path.startswith("/me/blocks/") else f"{method} {path}"
    if method == "DELETE":
        route = "DELETE /me/blocks/{nickname}"
    event["routeKey"] = event["requestContext"]["routeKey"] = route
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["requestContext"]["http"]["method"] = method
    event["requestContext"]["authorizer"]["lambda"]["playerId"] = player
    event["queryStringParameters"] = query or {}
    event["rawQueryString"] = "&".join(f"{k}={v}" for k, v in (query or {}).items())
    if path.startswith("/me/blocks/"):
        event["pathParameters"] = {"nickname": path.rsplit("/", 1)[1]}
    return event


def test_the_sample_event_lists_players_over_http(social: Any, people: People) -> None:
    # Given ana and andy, as the sample asks for "an"
    people.add("ana")
    people.add("andy")
    people.add("bo")
    event = load_event("players.json")
    event["requestContext"]["authorizer"]["lambda"]["playerId"] = people.ids["bo"]
    # When the social function answers it
    reply = social.handler(event, CONTEXT)
    # Then the two are listed, private to the reader
    assert reply["statusCode"] == 200
    assert reply["headers"]["Cache-Control"] == "no-store"
    body = json.loads(reply["body"])
    assert [row["nickname"] for row in body["players"]] == ["ana", "andy"]
    assert body["players"][0] == {
        "nickname": "ana",
        "country": None,
        "presence": "offline",
        "gameId": None,
        "favorite": False,
        "blocked": False,
        "club": None,
    }


def test_blocks_and_refusals_over_http(social: Any, people: People) -> None:
    ana = people.add("ana")
    people.add("bo")
    # When ana blocks bo, lists her blocks, then blocks a stranger and asks an unknown kind
    blocked = social.handler(_request("PUT", "/me/blocks/bo", ana), CONTEXT)
    listed = social.handler(_request("GET", "/players", ana, {"kind": "blocked"}), CONTEXT)
    stranger = social.handler(_request("PUT", "/me/blocks/nobody", ana), CONTEXT)
    odd = social.handler(_request("GET", "/players", ana, {"kind": "enemies"}), CONTEXT)
    lifted = social.handler(_request("DELETE", "/me/blocks/bo", ana), CONTEXT)
    # Then each answers as documented
    assert blocked["statusCode"] == 200
    assert [row["nickname"] for row in json.loads(listed["body"])["players"]] == ["bo"]
    assert stranger["statusCode"] == 404
    assert json.loads(stranger["body"])["error"]["code"] == "unknown_player"
    assert odd["statusCode"] == 400
    assert json.loads(odd["body"])["error"]["field"] == "kind"
    assert json.loads(lifted["body"])["players"] == []
