"""The purge over the local stack (A7, issue 27): a player who played a ranked game to the end,
wrote about themself, was followed and given tokens, then deleted their account, leaves nothing
personal in any item of the table once the daily job has purged it 30 days later. The whole
table is scanned, compressed bodies opened, for every personal value of theirs."""

import contextlib
import json
import re
import urllib.error
import urllib.request
import uuid
import zlib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from yamb.accounts.nicknames import purged_nickname
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_tools.moderation import grant

from devstack.stack import LocalStack, local_nickname
from devstack.streams import wait_until

RANKED = {"players": 2, "ranked": True, "preset": 1, "turnSeconds": 60}
DESCRIPTION = "Rolls dice at dawn in Zagreb"
# Where the purged player's id may stay (docs/accounts.md, "What the purge keeps"): an opaque id
# that no longer leads to anyone (the profile stripped, Cognito's user deleted), as the key of
# the games, boards, ratings, season leagues, tournament entries, statistics, progression and
# ledger items that keep the opponents' results and the amounts; never in a nickname's
# reservation, a mailed link or a connection's item.
ID_MAY_STAY = re.compile(r"^(PLAYER|GAME|BOARD|PERIOD|IDEM|RATING|SEASON|TOURNAMENT)#")


def http(
    stack: LocalStack, method: str, path: str, token: str, body: Any = None
) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if method == "POST":
        headers["Idempotency-Key"] = uuid.uuid4().hex
    request = urllib.request.Request(
        f"{stack.gateway.http_url}{path}", data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read().decode()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode() or "null")


def _texts(value: dict[str, Any]) -> Iterator[str]:
    """Every text an attribute value holds, a binary one decompressed when it is zlib's."""
    for kind, inner in value.items():
        if kind in ("S", "N"):
            yield str(inner)
        elif kind == "B":
            raw = bytes(inner)
            with contextlib.suppress(zlib.error):  # not compressed: read as it is
                raw = zlib.decompress(raw)
            yield raw.decode("utf-8", "replace")
        elif kind in ("SS", "NS"):
            yield from (str(v) for v in inner)
        elif kind == "BS":
            yield from (bytes(v).decode("utf-8", "replace") for v in inner)
        elif kind == "L":
            for element in inner:
                yield from _texts(element)
        elif kind == "M":
            for key, element in inner.items():
                yield key
                yield from _texts(element)


def scan(stack: LocalStack) -> list[tuple[str, str]]:
    """Every item of the table: its keys ("pk sk") and all its text, lower case."""
    dynamodb = stack.aws.client("dynamodb")
    table = stack.aws.physical_ids["GameTable"]
    items: list[tuple[str, str]] = []
    for page in dynamodb.get_paginator("scan").paginate(TableName=table):
        for item in page["Items"]:
            keys = f"{item['pk']['S']} {item['sk']['S']}"
            text = " ".join(t for value in item.values() for t in _texts(value))
            items.append((keys, text.casefold()))
    return items


def enter_an_arena(stack: LocalStack, token: str) -> str:
    """An operator's arena, open for an hour yet, entered with `token`: its id."""
    operator = "purge-op"
    operator_token = stack.player_token(operator)
    grant(local_nickname(operator), stack.aws.physical_ids["GameTable"],
          stack.aws.region, stack.aws.endpoint_url, True)  # fmt: skip
    plan = {"kind": "arena", "name": "Purge arena", "minutes": 10, "ranked": False,
            "rules": {"columns": ["free"]},
            "startsAt": (stack.aws.clock.now() + timedelta(hours=1)).isoformat()}  # fmt: skip
    created = http(stack, "POST", "/tournaments", operator_token, plan)
    assert created[0] == 201, created
    tournament_id = str(created[1]["tournamentId"])
    entered = http(stack, "POST", f"/tournaments/{tournament_id}/entry", token, {})
    assert entered[0] == 201, entered
    return tournament_id


def test_purge_leaves_nothing_personal_in_any_item(stack: LocalStack, players: Any) -> None:
    # given ana and ben played a ranked game to the end over the sockets
    ana, ben = players("purge-ana"), players("purge-ben")
    nickname = local_nickname(ana.name)
    email = f"{ana.name}@example.com"
    game = ana.act("create_game", settings=RANKED)
    game_id = game["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ana.player_id = game["creator"]
    ben.player_id = next(s["playerId"] for s in game["seats"] if s["playerId"] != ana.player_id)
    by_id = {ana.player_id: ana, ben.player_id: ben}
    while game["status"] == "running":
        mover = by_id[game["turn"]["playerId"]]
        cell = max(game["turn"]["legal"], key=lambda c: c["score"])
        game = mover.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    ana_token, ben_token = stack.player_token(ana.name), stack.player_token(ben.name)
    assert wait_until(
        lambda: len(http(stack, "GET", "/boards?columns=1", ben_token)[1]["rows"]) == 2,
        timeout=10,
    )
    # and ana wrote about herself, ben follows her and gave her tokens
    settings = {"description": DESCRIPTION, "country": "HR", "proudGame": game_id}
    assert http(stack, "PATCH", "/me/settings", ana_token, settings)[0] == 200
    assert http(stack, "PUT", f"/me/favorites/{nickname}", ben_token)[0] == 200
    item = item_model(stack.aws.physical_ids["GameTable"], stack.aws.region, stack.aws.endpoint_url)
    DynamoWalletStore(item).apply(
        "grant:purge-test", [Change(ben.player_id, 100, "grant")], stack.aws.clock.now()
    )
    gift = http(stack, "POST", "/me/gifts", ben_token, {"nickname": nickname, "amount": 40})
    assert gift[0] == 201, gift
    # and she entered an operator's arena, whose entry keeps her nickname for its standings
    tournament_id = enter_an_arena(stack, ana_token)
    ana.close()
    entry = f"TOURNAMENT#{tournament_id} E#{ana.player_id}"
    assert any(keys == entry and nickname.casefold() in text for keys, text in scan(stack))

    # when ana deletes her account, and the daily job runs 30 days later
    assert http(stack, "DELETE", "/me", ana_token)[0] == 202
    later = stack.aws.clock.now() + timedelta(days=30, minutes=5)
    report = stack.run_job("AccountJobsFunction", now=later)
    assert report["purged"] >= 1, report

    # then no item holds her nickname, her address or what she wrote, and her id stays only
    # where the purge keeps it, as a key to games and amounts
    personal = [nickname, email, DESCRIPTION]
    items = scan(stack)
    holding = {keys: [v for v in personal if v.casefold() in text] for keys, text in items}
    leaks = sorted(k for k, v in holding.items() if v)
    assert leaks == [], "\n".join(leaks)
    with_id = sorted(keys for keys, text in items if ana.player_id.casefold() in text)
    assert with_id
    # and the id leads to no one: Cognito has no user for her address, the profile no address
    cognito = stack.aws.client("cognito-idp")
    with pytest.raises(cognito.exceptions.UserNotFoundException):
        cognito.admin_get_user(UserPoolId=stack.aws.user_pool_id(), Username=email)
    profile = next(text for keys, text in items if keys == f"PLAYER#{ana.player_id} PROFILE")
    assert '"email":null' in profile.replace(" ", "")
    unexpected = [keys for keys in with_id if not ID_MAY_STAY.match(keys)]
    assert unexpected == [], "\n".join(unexpected)
    # and her tournament entry stays, named by the id name, as the tournament's page shows it
    assert entry in with_id
    status, page = http(stack, "GET", f"/tournaments/{tournament_id}", ben_token)
    assert status == 200, page
    assert [row["nickname"] for row in page["standings"]] == [purged_nickname(ana.player_id)]
