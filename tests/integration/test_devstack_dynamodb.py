"""The embedded DynamoDB over a day of use (devstack.moto_dynamodb): a cancelled transaction
leaves the table, its stream and every stream consumer as they were; nothing it does grows with
the table; shard iterators expire as AWS's do."""

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from devstack import moto_dynamodb
from devstack.aws import LocalAws
from devstack.streams import StreamPoller, wait_until
from devstack.template import StreamMapping

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"


@pytest.fixture(scope="module")
def aws() -> Iterator[LocalAws]:
    with LocalAws(TEMPLATE) as running:
        yield running


def _table(aws: LocalAws) -> str:
    return aws.physical_ids["GameTable"]


def _moto_table(aws: LocalAws) -> Any:
    from moto.dynamodb.models import dynamodb_backends

    return dynamodb_backends[aws.account_id][aws.region].tables[_table(aws)]


def _put(table: str, pk: str, sk: str = "S", **extra: Any) -> dict[str, Any]:
    item = {"pk": {"S": pk}, "sk": {"S": sk}, **extra}
    return {"Put": {"TableName": table, "Item": item}}


def _cancelled(aws: LocalAws, prefix: str) -> None:
    """A transaction that writes two items, then fails a condition on a third."""
    table = _table(aws)
    items = [
        _put(table, f"{prefix}-a"),
        _put(table, f"{prefix}-b"),
        {
            "ConditionCheck": {
                "TableName": table,
                "Key": {"pk": {"S": f"{prefix}-missing"}, "sk": {"S": "S"}},
                "ConditionExpression": "attribute_exists(pk)",
            }
        },
    ]
    with pytest.raises(ClientError) as raised:
        aws.client("dynamodb").transact_write_items(TransactItems=items)
    assert raised.value.response["Error"]["Code"] == "TransactionCanceledException"


@pytest.fixture
def poller(aws: LocalAws) -> Iterator[tuple[StreamPoller, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    def invoke(_function: str, event: Any) -> Any:
        seen.extend(event["Records"])
        return {"batchItemFailures": []}

    arn = aws.client("dynamodb").describe_table(TableName=_table(aws))["Table"]["LatestStreamArn"]
    mapping = StreamMapping(
        function="Probe",
        event="Probe",
        table="GameTable",
        starting_position="LATEST",
        batch_size=100,
        maximum_retry_attempts=2,
        filters=(),
    )
    running = StreamPoller(mapping, arn, aws.client("dynamodbstreams"), invoke).start()
    yield running, seen
    running.stop()


def _keys(records: list[dict[str, Any]]) -> list[str]:
    return [record["dynamodb"]["Keys"]["pk"]["S"] for record in records]


def test_stream_consumer_sees_writes_after_a_cancelled_transaction(
    aws: LocalAws, poller: tuple[StreamPoller, list[dict[str, Any]]]
) -> None:
    # given a poller reading the table's stream, as the results and rewards functions' do
    _consumer, seen = poller
    prefix = uuid.uuid4().hex

    # when a transaction is cancelled, then an item is written
    _cancelled(aws, prefix)
    aws.client("dynamodb").put_item(
        TableName=_table(aws), Item={"pk": {"S": f"{prefix}-after"}, "sk": {"S": "S"}}
    )

    # then the consumer gets the write after it, and nothing of the cancelled writes
    assert wait_until(lambda: f"{prefix}-after" in _keys(seen), timeout=5)
    assert [key for key in _keys(seen) if key.startswith(prefix)] == [f"{prefix}-after"]
    # and the cancelled writes are not in the table either
    for suffix in ("a", "b"):
        assert "Item" not in aws.client("dynamodb").get_item(
            TableName=_table(aws), Key={"pk": {"S": f"{prefix}-{suffix}"}, "sk": {"S": "S"}}
        )


def test_cancelled_transaction_puts_back_updated_and_deleted_items(aws: LocalAws) -> None:
    # given two items
    dynamodb, table = aws.client("dynamodb"), _table(aws)
    prefix = uuid.uuid4().hex
    for name in ("kept", "gone"):
        dynamodb.put_item(
            TableName=table,
            Item={"pk": {"S": f"{prefix}-{name}"}, "sk": {"S": "S"}, "n": {"N": "1"}},
        )

    # when a transaction updates one, deletes the other, then fails a version check
    with pytest.raises(ClientError):
        dynamodb.transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": table,
                        "Key": {"pk": {"S": f"{prefix}-kept"}, "sk": {"S": "S"}},
                        "UpdateExpression": "SET n = n + :one",
                        "ExpressionAttributeValues": {":one": {"N": "1"}},
                    }
                },
                {
                    "Delete": {
                        "TableName": table,
                        "Key": {"pk": {"S": f"{prefix}-gone"}, "sk": {"S": "S"}},
                    }
                },
                {
                    "Put": {
                        "TableName": table,
                        "Item": {"pk": {"S": f"{prefix}-new"}, "sk": {"S": "S"}},
                        "ConditionExpression": "attribute_exists(pk)",
                    }
                },
            ]
        )

    # then both are as they were, and nothing new is written
    def read(name: str) -> Any:
        key = {"pk": {"S": f"{prefix}-{name}"}, "sk": {"S": "S"}}
        return dynamodb.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")

    assert read("kept")["n"] == {"N": "1"}
    assert read("gone")["n"] == {"N": "1"}
    assert read("new") is None


def test_cancelled_transactions_keep_one_table_and_one_stream(aws: LocalAws) -> None:
    # given the table as moto holds it, and its stream's length
    table = _moto_table(aws)
    shard = table.stream_shard
    length = len(shard.items)

    # when many transactions are cancelled
    for _ in range(50):
        _cancelled(aws, uuid.uuid4().hex)

    # then the table and its stream are the same objects, the stream no longer
    assert _moto_table(aws) is table and table.stream_shard is shard
    assert len(shard.items) == length


def test_a_transaction_does_not_copy_the_table(aws: LocalAws) -> None:
    # given a table of 3,000 items
    dynamodb, table = aws.client("dynamodb"), _table(aws)
    prefix = uuid.uuid4().hex
    for start in range(0, 3000, 25):
        dynamodb.batch_write_item(
            RequestItems={
                table: [
                    {"PutRequest": {"Item": {"pk": {"S": f"{prefix}-{n}"}, "sk": {"S": "S"}}}}
                    for n in range(start, start + 25)
                ]
            }
        )

    # when 20 transactions run on 20 threads at once (as 20 HTTP requests do), each cancelled
    durations: list[float] = []

    def run(n: int) -> None:
        begun = time.perf_counter()
        _cancelled(aws, f"{prefix}-t{n}")
        durations.append(time.perf_counter() - begun)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    # then all are answered, none waiting on a copy of the table (moto's took ~0.3 s each)
    assert len(durations) == 20
    assert max(durations) < 2.0, sorted(durations)


def test_shard_iterators_expire(aws: LocalAws, monkeypatch: pytest.MonkeyPatch) -> None:
    # given iterators that live 0.2 s
    monkeypatch.setattr(moto_dynamodb, "ITERATOR_LIFETIME", 0.2)
    streams = aws.client("dynamodbstreams")
    arn = aws.client("dynamodb").describe_table(TableName=_table(aws))["Table"]["LatestStreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    first = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="LATEST")[
        "ShardIterator"
    ]

    # when a reader polls for a second, each answer handing out the next iterator
    iterator = first
    deadline = time.monotonic() + 1.0
    polls = 0
    while time.monotonic() < deadline:
        iterator = streams.get_records(ShardIterator=iterator)["NextShardIterator"]
        polls += 1

    # then moto files only the recent ones, and the first has expired
    from moto.dynamodbstreams.models import dynamodbstreams_backends

    filed = dynamodbstreams_backends[aws.account_id][aws.region].shard_iterators
    assert polls > 20 and len(filed) < polls / 2, (polls, len(filed))
    with pytest.raises(ClientError) as raised:
        streams.get_records(ShardIterator=first)
    assert raised.value.response["Error"]["Code"] == "ExpiredIteratorException"


def test_stream_poller_goes_on_after_its_iterator_expired(
    aws: LocalAws,
    poller: tuple[StreamPoller, list[dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given a poller that has read a record, whose iterators then expire between its polls
    _consumer, seen = poller
    prefix = uuid.uuid4().hex
    aws.client("dynamodb").put_item(
        TableName=_table(aws), Item={"pk": {"S": f"{prefix}-first"}, "sk": {"S": "S"}}
    )
    assert wait_until(lambda: f"{prefix}-first" in _keys(seen), timeout=5)
    monkeypatch.setattr(moto_dynamodb, "ITERATOR_LIFETIME", 0.05)
    time.sleep(0.3)

    # when items are written
    for n in range(3):
        aws.client("dynamodb").put_item(
            TableName=_table(aws), Item={"pk": {"S": f"{prefix}-{n}"}, "sk": {"S": "S"}}
        )
        time.sleep(0.15)

    # then it gets each once, in order, from a new iterator after the last record it read
    assert wait_until(lambda: f"{prefix}-2" in _keys(seen), timeout=5)
    assert [key for key in _keys(seen) if key.startswith(prefix)] == [
        f"{prefix}-first",
        *(f"{prefix}-{n}" for n in range(3)),
    ]
