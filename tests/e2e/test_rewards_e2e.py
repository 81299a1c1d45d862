"""Win rewards over the local stack: a game played to the end over WebSockets writes its end,
the table's stream (polled as Lambda's event source mapping does) runs the rewards function,
and the winner's wallet is credited once, also when the record is delivered again."""

import base64
from typing import Any

from yamb.economy.rewards import Finisher, reward_of, turns_per_sheet, win_rewards
from yamb.session.results import GameResult
from yamb.settings import validate_settings
from yamb_service.common.dynamo import item_model
from yamb_service.economy.wallet_dynamo import DynamoWalletStore

from devstack.stack import LocalStack
from devstack.streams import as_lambda_sends, wait_until


def test_rewards_winner_is_paid_once_through_the_tables_stream(
    stack: LocalStack, players: Any
) -> None:
    # given ana and ben play a Yacht game to the end, each writing their first legal cell
    ana, ben = players("reward-ana"), players("reward-ben")
    game = ana.act("create_game", settings={"players": 2, "grid": "yacht"})
    game_id = game["gameId"]
    ben.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    by_id = {
        seat["playerId"]: player for seat, player in zip(game["seats"], (ana, ben), strict=True)
    }
    while game["status"] == "running":
        mover = by_id[game["turn"]["playerId"]]
        cell = game["turn"]["legal"][0]
        game = mover.act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    winners = game["winners"]
    aws = stack.aws
    wallets = DynamoWalletStore(
        item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    )

    # when the stream hands the game's end to the rewards function
    def paid() -> bool:
        return all(wallets.wallet(player).balance == 5 for player in winners)

    # then each winner gets Yacht's reward (one column, turn by turn: 5), the loser nothing
    assert wait_until(paid, timeout=10)
    losers = set(by_id) - set(winners)
    assert all(wallets.wallet(player).balance == 0 for player in losers)
    entry = wallets.entries(winners[0], 5)[0]
    assert (entry.reason, entry.detail, entry.key) == (
        "win",
        game_id,
        f"win:{game_id}:{winners[0]}",
    )

    # and when the same record is delivered again, nothing more is paid
    poller = next(p for p in stack.streams if p.mapping.function == "RewardsFunction")
    delivered = poller.delivered
    image_record = _ended_record(stack, game_id, poller.stream_arn)
    answer = stack.aws.invoke_function("RewardsFunction", {"Records": [image_record]})
    assert answer == {"batchItemFailures": []}
    assert paid() and len(wallets.entries(winners[0], 5)) == 1
    assert poller.delivered >= delivered


RANKED_PAIRS = {"players": 4, "pairs": True, "ranked": True, "preset": 2, "turnSeconds": 60}


def test_rewards_ranked_two_vs_two_pays_both_winners_once(stack: LocalStack, players: Any) -> None:
    # given a ranked 2 vs 2 Yamb game on preset 2 (down, up, free): ana and ben against cy and
    # dee; the table pays each winner the reward table's amount for it, the documented 24 tokens
    # (3 columns: 10, 2 vs 2: 120 %, ranked: twice that)
    settings = validate_settings(RANKED_PAIRS, "free")
    reward = reward_of(settings)
    assert reward == 10 * 120 // 100 * 2 == 24
    table = [players(name) for name in ("ranked-ana", "ranked-ben", "ranked-cy", "ranked-dee")]
    ana = table[0]
    game = ana.act("create_game", settings=RANKED_PAIRS)
    game_id = game["gameId"]
    for player in table[1:]:
        player.act("join_game", gameId=game_id)
    game = ana.act("start_game", gameId=game_id)
    ids = [seat["playerId"] for seat in game["seats"]]
    by_id = dict(zip(ids, table, strict=True))
    team_one, team_two = set(ids[:2]), set(ids[2:])
    aws = stack.aws
    wallets = DynamoWalletStore(
        item_model(aws.physical_ids["GameTable"], aws.region, aws.endpoint_url)
    )
    assert all(wallets.wallet(player).balance == 0 for player in ids)

    # when the game is played to the end over the sockets, in strict rotation: the first player
    # of a team proposes, the partner writes; team 1 always takes its best-scoring legal cell,
    # team 2 its worst, so that team 1 wins
    moves = 0
    while game["status"] == "running":
        mover_id = game["turn"]["playerId"]
        legal = game["turn"]["legal"]
        pick = max if mover_id in team_one else min
        cell = pick(legal, key=lambda c: c["score"])
        game = by_id[mover_id].act("write", gameId=game_id, column=cell["column"], row=cell["row"])
        for other in table:
            if other is not by_id[mover_id]:
                other.game_at(game["version"])
        moves += 1

    # then both sheets are full: every team turn was a proposal and a write
    sheet_turns = turns_per_sheet(settings)
    assert moves == 2 * 2 * sheet_turns
    assert [seat["turnsPlayed"] for seat in game["seats"]] == [sheet_turns] * 4
    totals = [sheet["total"] for sheet in game["sheets"]]
    assert totals[0] > totals[1], totals
    assert game["status"] == "finished" and set(game["winners"]) == team_one

    # when the stream hands the game's end to the rewards function
    def paid() -> bool:
        return all(wallets.wallet(player).balance == reward for player in team_one)

    # then ana and ben each get the ranked 2 vs 2 reward once, cy and dee nothing
    assert wait_until(paid, timeout=10)
    assert all(wallets.wallet(player).balance == 0 for player in team_two)
    for winner in team_one:
        [entry] = wallets.entries(winner, 5)
        assert (entry.amount, entry.reason, entry.detail, entry.key) == (
            reward,
            "win",
            game_id,
            f"win:{game_id}:{winner}",
        )
    assert all(wallets.entries(loser, 5) == [] for loser in team_two)

    # and the stored end counts the opponents: every seat played a whole sheet's turns
    poller = next(p for p in stack.streams if p.mapping.function == "RewardsFunction")
    record = _ended_record(stack, game_id, poller.stream_arn)
    ended = GameResult.model_validate_json(
        base64.b64decode(record["dynamodb"]["NewImage"]["body"]["B"])
    )
    assert (ended.settings.pairs, ended.settings.ranked) == (True, True)
    finishers = [Finisher(p.player_id, p.turns) for p in ended.players]
    assert win_rewards(ended.settings, ended.winners, finishers) == dict.fromkeys(team_one, reward)

    # when the same record is delivered again
    answer = stack.aws.invoke_function("RewardsFunction", {"Records": [record]})

    # then nothing more is paid, to the winners or the losers
    assert answer == {"batchItemFailures": []}
    assert paid() and all(len(wallets.entries(winner, 5)) == 1 for winner in team_one)
    assert all(wallets.wallet(player).balance == 0 for player in team_two)


def _ended_record(stack: LocalStack, game_id: str, arn: str) -> dict[str, Any]:
    """The stream's record of the game's `ENDED` item, as the poller read it."""
    streams = stack.aws.client("dynamodbstreams")
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(
        StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON"
    )["ShardIterator"]
    records = streams.get_records(ShardIterator=iterator, Limit=1000)["Records"]
    return next(
        as_lambda_sends({**record, "eventSourceARN": arn})
        for record in records
        if record["dynamodb"]["Keys"] == {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "ENDED"}}
    )
