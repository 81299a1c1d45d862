"""Bots over the local stack (product G11): one person plays a whole game against a hard bot
over a real WebSocket, the bot moving on the stack's own timers (one-shot wakes run by the
real state machines) with no connection of its own; a hint on the way; nothing is paid."""

import base64
import json
from typing import Any

from yamb_service.common.dynamo import item_model
from yamb_service.economy.wallet_dynamo import DynamoWalletStore

from devstack.stack import LocalStack
from tests.e2e.test_rewards_e2e import _ended_record


def test_bots_person_plays_a_whole_game_against_a_hard_bot(stack: LocalStack, players: Any) -> None:
    # given ana's Yacht table for two, a hard bot in the second seat
    ana = players("bot-e2e-ana")
    game_id = ana.act("create_game", settings={"players": 2, "grid": "yacht", "turnSeconds": 60})[
        "gameId"
    ]
    seated = ana.act("add_bot", gameId=game_id, level="hard")
    assert [seat["bot"] for seat in seated["seats"]] == [None, "hard"]
    game = ana.act("start_game", gameId=game_id)
    ana_id = game["seats"][0]["playerId"]
    hint = ana.answer(ana.send("hint", gameId=game_id))

    # when ana writes her first legal box each turn, and lets the bot's moments come
    bot_moves = 0
    while game["status"] == "running":
        turn = game["turn"]
        if turn["playerId"] == ana_id:
            cell = turn["legal"][0]
            game = ana.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
            continue
        stack.aws.advance(seconds=2)
        game = ana.receive("game")["game"]
        bot_moves += 1

    # then the game ends with both sheets full, the bot having played every turn of its own
    assert hint["type"] == "hint" and hint["level"] == "optimal"  # a family grid
    assert game["status"] == "finished"
    assert [seat["turnsPlayed"] for seat in game["seats"]] == [12, 12]
    assert bot_moves >= 12

    # and a game with a bot pays nobody, however its record reaches the rewards
    aws = stack.aws
    wallets = DynamoWalletStore(
        item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    )
    poller = next(p for p in stack.streams if p.mapping.function == "RewardsFunction")
    record = _ended_record(stack, game_id, poller.stream_arn)
    assert stack.aws.invoke_function("RewardsFunction", {"Records": [record]}) == {
        "batchItemFailures": []
    }
    ended = json.loads(base64.b64decode(record["dynamodb"]["NewImage"]["body"]["B"]))
    assert [player["bot"] for player in ended["players"]] == [None, "hard"]
    # (whoever won: a winner of a game without a bot would have been paid here)
    assert ended["winners"]
    for player in {ana_id, *ended["winners"]}:
        assert wallets.wallet(player).balance == 0
        assert wallets.entries(player, 5) == []
