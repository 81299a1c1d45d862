"""Win rewards over the local stack: a game played to the end over WebSockets writes its end,
the table's stream (polled as Lambda's event source mapping does) runs the rewards function,
and the winner's wallet is credited once, also when the record is delivered again."""

from typing import Any

from yamb_service.dynamo import item_model
from yamb_service.wallet_store import DynamoWalletStore

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
