"""The rewards function on moto, called with the table's stream events as Lambda sends them
(events/rewards_stream.json): each winner paid once, a bad record reported alone."""

import base64
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from yamb_service.common import config
from yamb_service.economy.rewards import wiring as reward_wiring
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.edge.game_ends import BatchFailedError

from tests.integration.test_handlers import CONTEXT, load_function

ROOT = Path(__file__).resolve().parents[2]
REGION = "us-east-1"


@pytest.fixture
def rewards(table: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for name, value in {
        "TABLE_NAME": table,
        "AWS_REGION": REGION,
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    config.economy_settings.cache_clear()
    reward_wiring.reward_service.cache_clear()
    yield load_function("rewards")
    config.economy_settings.cache_clear()
    reward_wiring.reward_service.cache_clear()


def _event() -> dict[str, Any]:
    return dict(json.loads((ROOT / "events" / "rewards_stream.json").read_text(encoding="utf-8")))


def _ended(event: dict[str, Any]) -> dict[str, Any]:
    body = event["Records"][0]["dynamodb"]["NewImage"]["body"]["B"]
    return dict(json.loads(base64.b64decode(body)))


def test_rewards_stream_record_pays_each_winner_once(rewards: Any, item: Any) -> None:
    # given the stream record of a finished preset-1 game won by ana
    event = _event()
    ended = _ended(event)
    wallets = DynamoWalletStore(item)

    # when the record is delivered, then delivered again
    first = rewards.handler(event, CONTEXT)
    again = rewards.handler(copy.deepcopy(event), CONTEXT)

    # then ana got the table's 8 tokens once; the loser nothing
    assert first == again == {"batchItemFailures": []}
    assert ended["winners"] == ["ana"]
    assert wallets.wallet("ana").balance == 8
    assert wallets.wallet("ben").balance == 0
    assert [e.key for e in wallets.entries("ana", 5)] == [f"win:{ended['gameId']}:ana"]


def test_rewards_bad_record_is_reported_alone(rewards: Any, item: Any) -> None:
    # given a batch of a good record and one whose body is not a game's end
    event = _event()
    bad = copy.deepcopy(event["Records"][0])
    bad["dynamodb"]["SequenceNumber"] = "999"
    bad["dynamodb"]["NewImage"]["body"]["B"] = base64.b64encode(b"not json").decode()
    event["Records"].append(bad)

    # when the batch is handled
    answer = rewards.handler(event, CONTEXT)

    # then only the bad one is reported for a retry, and the good one paid
    assert answer == {"batchItemFailures": [{"itemIdentifier": "999"}]}
    assert DynamoWalletStore(item).wallet("ana").balance == 8


def test_rewards_batch_of_only_failures_fails_whole(rewards: Any, item: Any) -> None:
    # given a batch whose one record is not a game's end
    event = _event()
    event["Records"][0]["dynamodb"]["NewImage"]["body"]["B"] = base64.b64encode(b"x").decode()

    # when the batch is handled, then the invocation fails (the stream retries the batch) and
    # nothing is paid
    with pytest.raises(BatchFailedError, match=r"All records failed processing\. 1 "):
        rewards.handler(event, CONTEXT)
    assert DynamoWalletStore(item).wallet("ana").balance == 0
