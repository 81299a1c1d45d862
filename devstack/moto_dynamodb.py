"""moto's DynamoDB and DynamoDB Streams made fit for a stack that runs for a day (devstack.aws
installs these patches while a `LocalAws` runs).

What moto 5.2.5 does, measured, and what is done here instead:

* One request at a time. moto's DynamoDB is not thread-safe (a scan may iterate a table another
  request thread is writing: "dictionary changed size during iteration", a 500) and nothing
  makes a condition check and its write one step. DynamoDB applies each request atomically, so
  the embedded one handles one request at a time (`dynamodb_lock`), stream reads included: a
  reader never sees records of a transaction that is still to be rolled back. A DynamoDB request
  never calls out of moto (no table has a stream invoking a function: devstack.streams polls),
  so the lock is never held while another request is awaited.
* A transaction's rollback. moto deep-copies every table a TransactWriteItems touches, before
  it starts, whether it goes through or not; a cancelled one puts the copy in place of the table.
  The copy holds a copy of the table's stream shard too: every consumer's shard iterator then
  reads a stream nobody writes any more (the stream consumers stopped for good after the first
  cancelled transaction), each old table stays reachable from those iterators (memory grew by
  hundreds of MB per batch of gifts), and each transaction copies the whole table and its whole
  stream (ever slower, under the one lock: concurrent HTTP requests queued past the gateway's
  30 s). Here a transaction notes the items it changes (a copy of each, before) and the length of
  each stream; a cancelled one puts those items back and cuts the stream back, in the same table
  and the same stream objects.
* Shard iterators. moto files every iterator it hands out, for good (a poller that asks ten
  times a second files 36,000 an hour). AWS lets an iterator expire 15 minutes after it was
  handed out (ExpiredIteratorException): so do these.
* The stream's records. moto keeps them all; AWS keeps 24 hours of them (`STREAM_RETENTION`):
  older records are trimmed and a sequence number before the trim is TrimmedDataAccessException.
"""

import copy
import threading
import time
from datetime import timedelta
from typing import Any, Final

from moto.core.exceptions import JsonRESTError
from moto.core.utils import utcnow
from moto.dynamodb.comparisons import get_filter_expression
from moto.dynamodb.exceptions import (
    ConditionalCheckFailed,
    MockValidationException,
    MultipleTransactionsException,
    TooManyTransactionsException,
    TransactionCanceledException,
    TransactWriteSingleOpException,
)
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.dynamodb.models.table import Table
from moto.dynamodb.responses import DynamoHandler
from moto.dynamodbstreams.models import DynamoDBStreamsBackend, ShardIterator

__all__ = [
    "ITERATOR_LIFETIME",
    "PATCHES",
    "STREAM_RETENTION",
    "call_action",
    "dynamodb_lock",
    "get_records",
    "get_shard_iterator",
    "transact_write_items",
]

dynamodb_lock = threading.Lock()
ITERATOR_LIFETIME: Final = 15 * 60.0  # seconds, as AWS
STREAM_RETENTION: Final = timedelta(hours=24)

_Undo = dict[tuple[str, str, str], tuple[Table, DynamoType, DynamoType | None, Item | None]]


# ------------------------------------------------------------------------- transactions


def _note(undo: _Undo, table: Table, hash_key: DynamoType, range_key: DynamoType | None) -> None:
    """Keeps what the item `hash_key`/`range_key` of `table` is before its first change here."""
    marker = (table.name, repr(hash_key), repr(range_key))
    if marker not in undo:
        undo[marker] = (
            table,
            hash_key,
            range_key,
            copy.deepcopy(table.get_item(hash_key, range_key)),
        )


def _roll_back(undo: _Undo, streams: dict[str, tuple[Table, int]]) -> None:
    """The noted items as they were, in their own tables; each stream cut back to its length
    before the transaction (its records of the cancelled writes are gone, its sequence numbers
    go on from there)."""
    for table, hash_key, range_key, item in undo.values():
        if range_key is not None:
            if item is None:
                table.items[hash_key].pop(range_key, None)
            else:
                table.items[hash_key][range_key] = item
        elif item is None:
            table.items.pop(hash_key, None)
        else:
            table.items[hash_key] = item  # type: ignore[assignment]
    for table, length in streams.values():
        if table.stream_shard is not None:
            del table.stream_shard.items[length:]


def _key(self: DynamoDBBackend, op_type: str, op: dict[str, Any]) -> dict[str, Any]:
    if op_type != "Put":
        return op["Key"]  # type: ignore[no-any-return]
    attrs = op["Item"]
    table = self.get_table(op["TableName"])
    key = {table.hash_key_attr: attrs[table.hash_key_attr]}
    if table.range_key_attr is not None:
        key[table.range_key_attr] = attrs[table.range_key_attr]
    return key


def _write(self: DynamoDBBackend, op_type: str, op: dict[str, Any], key: dict[str, Any]) -> None:
    """One Put, Delete or Update of a transaction, its condition already checked."""
    conditions: dict[str, Any] = {
        "condition_expression": op.get("ConditionExpression"),
        "expression_attribute_names": op.get("ExpressionAttributeNames"),
        "expression_attribute_values": op.get("ExpressionAttributeValues"),
    }
    if op_type == "Put":
        self.put_item(op["TableName"], op["Item"], **conditions)
    elif op_type == "Delete":
        self.delete_item(op["TableName"], key, **conditions)
    elif op_type == "Update":
        self.update_item(
            op["TableName"], key, update_expression=op["UpdateExpression"], **conditions
        )


def _streams(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> dict[str, Any]:
    """Each table the transaction names, with its stream's length now."""
    streams: dict[str, tuple[Table, int]] = {}
    for item in transact_items:
        _, op = next(iter(item.items()))
        table_name = op.get("TableName")
        if table_name and table_name in self.tables and table_name not in streams:
            table = self.tables[table_name]
            shard = table.stream_shard
            streams[table_name] = (table, 0 if shard is None else len(shard.items))
    return streams


def transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
    """moto 5.2.5's TransactWriteItems (the same checks, in the same order, the same errors)
    with an undo log in place of its deep copy of every table touched."""
    if len(transact_items) > 100:
        raise TooManyTransactionsException()
    streams = _streams(self, transact_items)
    undo: _Undo = {}
    target_items: set[tuple[str, str]] = set()
    errors: list[tuple[str, str, dict[str, Any]] | tuple[None, None, None]] = []
    for item in transact_items:
        original_item: dict[str, Any] | None = None
        if len(list(item.keys())) > 1:
            raise TransactWriteSingleOpException
        try:
            op_type, op = next(iter(item.items()))
            if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
                raise ValueError("Unsupported transaction operation")
            table_name = op["TableName"]
            key = _key(self, op_type, op)
            marker = (str(table_name), str(dict(sorted(key.items()))))
            if marker in target_items:
                raise MultipleTransactionsException()
            target_items.add(marker)
            current = self.get_item(table_name, key)
            condition = op.get("ConditionExpression")
            if condition is not None and not get_filter_expression(
                condition, op.get("ExpressionAttributeNames"), op.get("ExpressionAttributeValues")
            ).expr(current):
                if op.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" and current:
                    original_item = current.to_json()["Attributes"]
                raise ConditionalCheckFailed(item=original_item)
            if op_type != "ConditionCheck":
                table = self.get_table(table_name)
                _note(undo, table, *self.get_keys_value(table, key))
                _write(self, op_type, op, key)
            errors.append((None, None, None))
        except (MultipleTransactionsException, MockValidationException):
            _roll_back(undo, streams)
            raise
        except ConditionalCheckFailed as error:
            errors.append(("ConditionalCheckFailed", str(error.message), original_item))  # type: ignore[arg-type]
        except Exception as error:  # moto reports any other as a reason
            errors.append((type(error).__name__, str(error), original_item))  # type: ignore[arg-type]
    if any(code is not None for code, _, _ in errors):
        _roll_back(undo, streams)
        raise TransactionCanceledException(errors)


# ---------------------------------------------------------------------------- streams


class _ExpiredError(JsonRESTError):
    code = 400


def _births(backend: DynamoDBStreamsBackend) -> dict[str, float]:
    """When each filed iterator was handed out (monotonic seconds), oldest first."""
    births: dict[str, float] | None = getattr(backend, "_devstack_births", None)
    if births is None:
        births = {}
        backend._devstack_births = births  # type: ignore[attr-defined]
    return births


def _file(backend: DynamoDBStreamsBackend, iterator: ShardIterator) -> None:
    """Files `iterator`, and forgets those handed out more than ITERATOR_LIFETIME ago."""
    now = time.monotonic()
    births = _births(backend)
    backend.shard_iterators[iterator.arn] = iterator
    births[iterator.arn] = now
    while births:
        arn, born = next(iter(births.items()))
        if born >= now - ITERATOR_LIFETIME:
            break
        del births[arn]
        backend.shard_iterators.pop(arn, None)


def _trim(table: Table) -> None:
    """Drops the records older than STREAM_RETENTION from the front of the table's stream."""
    shard = table.stream_shard
    if shard is None or not shard.items:
        return
    oldest_kept = utcnow() - STREAM_RETENTION
    trimmed = 0
    for record in shard.items:
        if record.record["dynamodb"]["ApproximateCreationDateTime"] >= oldest_kept:
            break
        trimmed += 1
    if trimmed:
        del shard.items[:trimmed]
        shard.starting_sequence_number += trimmed


def _read(iterator: ShardIterator, limit: int) -> dict[str, Any]:
    shard = iterator.stream_shard
    if iterator.sequence_number < shard.starting_sequence_number:
        raise _ExpiredError("TrimmedDataAccessException", "the records asked for were trimmed")
    items = shard.get(iterator.sequence_number, limit)
    last = max((int(i["dynamodb"]["SequenceNumber"]) for i in items), default=None)
    if last is None:
        following = ShardIterator(
            iterator.streams_backend, shard, "AT_SEQUENCE_NUMBER", iterator.sequence_number
        )
    else:
        following = ShardIterator(iterator.streams_backend, shard, "AFTER_SEQUENCE_NUMBER", last)
    _file(iterator.streams_backend, following)
    return {"NextShardIterator": following.arn, "Records": items}


def get_shard_iterator(
    self: DynamoDBStreamsBackend,
    arn: str,
    shard_id: str,
    shard_iterator_type: str,
    sequence_number: str | None = None,
) -> ShardIterator:
    """moto's, with the iterator filed for ITERATOR_LIFETIME (and the stream trimmed)."""
    with dynamodb_lock:
        table = self._get_table_from_arn(arn)
        if table.stream_shard is None or table.stream_shard.id != shard_id:
            raise JsonRESTError("ResourceNotFoundException", f"no shard {shard_id}")
        _trim(table)
        number = None if sequence_number is None else int(sequence_number)
        iterator = ShardIterator(self, table.stream_shard, shard_iterator_type, number)
        if iterator.sequence_number < table.stream_shard.starting_sequence_number:
            raise _ExpiredError("TrimmedDataAccessException", "the records asked for were trimmed")
        _file(self, iterator)
        return iterator


def get_records(self: DynamoDBStreamsBackend, iterator_arn: str, limit: int) -> dict[str, Any]:
    """moto's, under the DynamoDB lock, answering ExpiredIteratorException for an iterator
    handed out more than ITERATOR_LIFETIME ago (moto: a KeyError, a 500)."""
    with dynamodb_lock:
        iterator = self.shard_iterators.get(iterator_arn)
        born = _births(self).get(iterator_arn)
        if iterator is None or born is None or born < time.monotonic() - ITERATOR_LIFETIME:
            raise _ExpiredError("ExpiredIteratorException", "Iterator expired")
        _trim(iterator.stream_shard.table)
        return _read(iterator, limit)


# ------------------------------------------------------------------------------ requests

_call_action = DynamoHandler.__dict__["call_action"]


def call_action(self: DynamoHandler) -> Any:
    """One DynamoDB request at a time."""
    with dynamodb_lock:
        return _call_action(self)


# (module, class, attribute, replacement), as devstack.aws installs them.
PATCHES: Final = (
    ("moto.dynamodb.responses", "DynamoHandler", "call_action", call_action),
    ("moto.dynamodb.models", "DynamoDBBackend", "transact_write_items", transact_write_items),
    ("moto.dynamodbstreams.models", "DynamoDBStreamsBackend", "get_records", get_records),
    (
        "moto.dynamodbstreams.models",
        "DynamoDBStreamsBackend",
        "get_shard_iterator",
        get_shard_iterator,
    ),
)
