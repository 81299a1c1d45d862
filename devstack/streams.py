"""DynamoDB streams to functions, as Lambda's event source mappings do it: a thread per
mapping polls the table's stream in moto, keeps the records its filter patterns match, and
invokes the function with batches of them (``{"Records": [...]}`` with `eventSourceARN`). A
record the function reports failed (``batchItemFailures``) or a batch it fails is tried again,
up to the mapping's `MaximumRetryAttempts`, then dropped with a warning (AWS would send it to the
OnFailure destination). A record is handed on in the stream's order, at least once.

The poller runs outside any DynamoDB request (it reads the stream as a client does), so the
embedded DynamoDB's one-request-at-a-time lock is never held while a function runs.
"""

import base64
import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from devstack.template import StreamMapping

LOG = logging.getLogger("devstack.streams")
POLL_SECONDS = 0.1
RETRY_SECONDS = 0.5


def matches(pattern: Any, value: Any) -> bool:
    """An EventBridge-style pattern (what FilterCriteria take): a mapping matches key by key; a
    list lists the values allowed."""
    if isinstance(pattern, Mapping):
        return isinstance(value, Mapping) and all(
            key in value and matches(sub, value[key]) for key, sub in pattern.items()
        )
    if isinstance(pattern, list):
        return value in pattern
    return bool(pattern == value)


class StreamPoller:
    def __init__(
        self,
        mapping: StreamMapping,
        stream_arn: str,
        streams: Any,
        invoke: Callable[[str, Any], Any],
    ) -> None:
        self.mapping = mapping
        self.stream_arn = stream_arn
        self._streams = streams
        self._invoke = invoke
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"stream-{mapping.function}", daemon=True
        )
        self._iterators: dict[str, str] = {}
        self._last: dict[str, str] = {}  # the sequence number of the last record read, a shard
        # Records to hand on (again), oldest first, with the attempts they had.
        self._pending: list[tuple[dict[str, Any], int]] = []
        # Records handed on (the function reported them done) and given up after the retries.
        self.delivered = 0
        self.dropped = 0

    def start(self) -> "StreamPoller":
        position = "TRIM_HORIZON" if self.mapping.starting_position == "TRIM_HORIZON" else "LATEST"
        for shard in self._streams.describe_stream(StreamArn=self.stream_arn)["StreamDescription"][
            "Shards"
        ]:
            self._iterators[shard["ShardId"]] = self._streams.get_shard_iterator(
                StreamArn=self.stream_arn, ShardId=shard["ShardId"], ShardIteratorType=position
            )["ShardIterator"]
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._poll()
                self._deliver()
            except Exception:  # the embedded AWS going away at stop, or a bug: keep polling
                if self._stop.is_set():
                    return
                LOG.warning("stream polling for %s failed", self.mapping.function, exc_info=True)
            self._stop.wait(POLL_SECONDS if not self._pending else RETRY_SECONDS)

    @property
    def pending(self) -> int:
        """Records read and not yet handed on."""
        return len(self._pending)

    def _poll(self) -> None:
        for shard, held in list(self._iterators.items()):
            iterator = held
            try:
                answer = self._streams.get_records(ShardIterator=iterator)
            except ClientError as error:
                if error.response.get("Error", {}).get("Code") != "ExpiredIteratorException":
                    raise
                # An iterator lasts 15 minutes (a function that ran that long, a suspended
                # machine): go on after the last record read, as Lambda's mapping does.
                iterator = self._iterator_after(shard)
                answer = self._streams.get_records(ShardIterator=iterator)
            self._iterators[shard] = answer.get("NextShardIterator") or iterator
            for record in answer["Records"]:
                self._last[shard] = record["dynamodb"]["SequenceNumber"]
                if any(matches(pattern, record) for pattern in self.mapping.filters) or not (
                    self.mapping.filters
                ):
                    wire = as_lambda_sends({**record, "eventSourceARN": self.stream_arn})
                    self._pending.append((wire, 0))

    def _iterator_after(self, shard: str) -> str:
        last = self._last.get(shard)
        where: dict[str, str] = (
            {"ShardIteratorType": "TRIM_HORIZON"}
            if last is None
            else {"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": last}
        )
        if last is None and self.mapping.starting_position != "TRIM_HORIZON":
            where = {"ShardIteratorType": "LATEST"}
        answer = self._streams.get_shard_iterator(StreamArn=self.stream_arn, ShardId=shard, **where)
        return str(answer["ShardIterator"])

    def _deliver(self) -> None:
        if not self._pending:
            return
        batch = self._pending[: self.mapping.batch_size]
        records = [record for record, _ in batch]
        try:
            answer = self._invoke(self.mapping.function, {"Records": records})
            failed = {
                str(item.get("itemIdentifier"))
                for item in (answer or {}).get("batchItemFailures", [])
            }
        except Exception:
            LOG.warning("%s failed a stream batch", self.mapping.function, exc_info=True)
            failed = {str(record["dynamodb"].get("SequenceNumber")) for record in records}
        kept: list[tuple[dict[str, Any], int]] = []
        for record, attempts in batch:
            if str(record["dynamodb"].get("SequenceNumber")) not in failed:
                self.delivered += 1
            elif attempts + 1 > self.mapping.maximum_retry_attempts:
                self.dropped += 1
                LOG.warning(
                    "%s: a stream record failed %d times, dropped",
                    self.mapping.function,
                    attempts + 1,
                )
            else:
                kept.append((record, attempts + 1))
        self._pending = kept + self._pending[len(batch) :]


def as_lambda_sends(value: Any) -> Any:
    """A record as boto3 reads it, in the JSON form Lambda's event carries: binary values in
    base64, the approximate creation time in epoch seconds."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, Mapping):
        return {key: as_lambda_sends(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set):
        return [as_lambda_sends(item) for item in value]
    return value


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """For tests: polls `condition` until true or `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()
