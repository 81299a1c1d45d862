"""The local stack after what broke it within a day of use (issue 27): concurrent gifts with one
Idempotency-Key (one applies, the others' transactions are cancelled) and then a game played to
the end over the sockets; 20 HTTP requests at once on a table that has grown."""

import json
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import jwt
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore

from devstack.stack import LocalStack, local_nickname
from devstack.streams import wait_until


def _player_id(stack: LocalStack, name: str) -> str:
    claims = jwt.decode(stack.player_token(name), options={"verify_signature": False})
    return str(claims["sub"])


def _wallets(stack: LocalStack) -> DynamoWalletStore:
    aws = stack.aws
    return DynamoWalletStore(
        item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    )


def _gift(stack: LocalStack, giver: str, to: str, amount: int, key: str) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{stack.gateway.http_url}/me/gifts",
        data=json.dumps({"nickname": local_nickname(to), "amount": amount}).encode(),
        method="POST",
        headers={
            "Authorization": f"Bearer {stack.player_token(giver)}",
            "Content-Type": "application/json",
            "Idempotency-Key": key,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _grant(stack: LocalStack, player_id: str, amount: int) -> None:
    change = Change(player_id, amount, "grant")
    _wallets(stack).apply(f"grant:{uuid.uuid4()}", [change], datetime.now(UTC))


def test_game_after_concurrent_gifts_with_one_key_is_rewarded_and_counted(
    stack: LocalStack, players: Any
) -> None:
    # given ana holds 100 tokens and sends ben a gift of 10 five times at once, with one key
    ana, ben = "day-gift-ana", "day-gift-ben"
    ana_id, ben_id = _player_id(stack, ana), _player_id(stack, ben)
    _grant(stack, ana_id, 100)
    with ThreadPoolExecutor(5) as pool:
        answers = list(pool.map(lambda _: _gift(stack, ana, ben, 10, "day-gift-1"), range(5)))
    wallets = _wallets(stack)
    assert any(status == 201 for status, _ in answers), answers
    assert (wallets.wallet(ana_id).balance, wallets.wallet(ben_id).balance) == (90, 10)

    # when cy and dee then play a Yacht game to the end over the sockets
    cy, dee = players("day-game-cy"), players("day-game-dee")
    game = cy.act("create_game", settings={"players": 2, "grid": "yacht"})
    game_id = game["gameId"]
    dee.act("join_game", gameId=game_id)
    game = cy.act("start_game", gameId=game_id)
    by_id = {seat["playerId"]: p for seat, p in zip(game["seats"], (cy, dee), strict=True)}
    while game["status"] == "running":
        cell = game["turn"]["legal"][0]
        mover = by_id[game["turn"]["playerId"]]
        game = mover.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    winners = game["winners"]

    # then the stream still reaches the rewards: each winner is paid Yacht's 5 tokens
    assert wait_until(
        lambda: all(wallets.wallet(player).balance == 5 for player in winners), timeout=15
    )
    # and the results: both players' statistics count the game
    token = stack.player_token("day-game-cy")

    def counted(name: str) -> bool:
        request = urllib.request.Request(
            f"{stack.gateway.http_url}/players/{local_nickname(name)}/statistics",
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(json.loads(answer.read())["games"]) == 1

    assert wait_until(lambda: counted("day-game-cy") and counted("day-game-dee"), timeout=15)


def test_twenty_concurrent_http_requests_on_a_grown_table_all_answer_in_time(
    stack: LocalStack,
) -> None:
    # given a table of some 3,000 more items, and 20 givers with tokens
    dynamodb = stack.aws.client("dynamodb")
    table = stack.aws.physical_ids["GameTable"]
    filler = uuid.uuid4().hex
    for start in range(0, 3000, 25):
        dynamodb.batch_write_item(
            RequestItems={
                table: [
                    {"PutRequest": {"Item": {"pk": {"S": f"FILL#{filler}-{n}"}, "sk": {"S": "F"}}}}
                    for n in range(start, start + 25)
                ]
            }
        )
    givers = [f"day-many-{n}" for n in range(20)]
    for giver in givers:
        _grant(stack, _player_id(stack, giver), 20)
    receiver = "day-many-to"
    _player_id(stack, receiver)

    # when the 20 each send a gift at once, each with its own key
    def send(giver: str) -> tuple[int, float]:
        begun = datetime.now(UTC)
        status, _ = _gift(stack, giver, receiver, 1, f"day-many-{giver}")
        return status, (datetime.now(UTC) - begun).total_seconds()

    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(send, givers))

    # then every one is answered 201, none near the gateway's 30 s time-out
    assert [status for status, _ in answers] == [201] * 20, answers
    assert max(seconds for _, seconds in answers) < 15.0, answers
    assert _wallets(stack).wallet(_player_id(stack, receiver)).balance == 20
