"""What a game played on the local stack uses, counted inside the bench's own process.

Every count comes from wrapping a piece of the running local stack while `Meter.installed` is in
force, and nothing of it is in the product:

- our WebSocket gateway (devstack.gateway.LocalGateway): client frames in, `@connections` posts
  out, each connection's minutes on the local clock, and every handler it invokes;
- `LocalAws.invoke_registered`: the clock function as the state machines invoke it;
- moto's DynamoDB request handler (the server): every request that reaches it, the functions'
  and the lane task's own putItem (made by Step Functions), with the units DynamoDB would bill;
- botocore's built-in handlers: each request the functions send is labelled with the function
  and action behind it (a header the DynamoDB meter reads), and their Step Functions API calls
  are counted;
- the Powertools logger's stream: the bytes each invocation logs.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

WRITE_UNIT_BYTES = 1024
READ_UNIT_BYTES = 4096
SOURCE_HEADER = "x-yamb-bench-source"
# A request no function sent: during a game, the lane's own putItem task.
STEP_FUNCTIONS_TASK = "StepFunctionsTask"
READ_OPERATIONS = ("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems")
WRITE_OPERATIONS = ("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem")
STEP_FUNCTIONS_CALLS = ("StartExecution", "StopExecution", "SendTaskHeartbeat")
_MOTO_METHODS = {
    "GetItem": "get_item",
    "Query": "query",
    "Scan": "scan",
    "BatchGetItem": "batch_get_item",
    "TransactGetItems": "transact_get_items",
    "PutItem": "put_item",
    "UpdateItem": "update_item",
    "DeleteItem": "delete_item",
    "TransactWriteItems": "transact_write_items",
    "BatchWriteItem": "batch_write_item",
}

_local = threading.local()


def _source() -> tuple[str, str] | None:
    """(function, action) of the invocation running on this thread, if any."""
    source: tuple[str, str] | None = getattr(_local, "source", None)
    return source


# ------------------------------------------------------------------------ DynamoDB item sizes


def dynamodb_value_size(value: Mapping[str, Any]) -> int:
    """The size of one attribute value (DynamoDB JSON) by DynamoDB's item-size rules."""
    ((kind, data),) = value.items()
    match kind:
        case "S":
            return len(str(data).encode())
        case "N":
            return _number_size(str(data))
        case "B":  # bytes as moto parses them, or base64 text
            if isinstance(data, str):
                import base64

                return len(base64.b64decode(data))
            return len(data)
        case "BOOL" | "NULL":
            return 1
        case "SS":
            return sum(len(member.encode()) for member in data)
        case "NS":
            return sum(_number_size(member) for member in data)
        case "BS":
            return sum(dynamodb_value_size({"B": member}) for member in data)
        case "L":
            return 3 + sum(1 + dynamodb_value_size(member) for member in data)
        case "M":
            return 3 + sum(
                1 + len(name.encode()) + dynamodb_value_size(member)
                for name, member in data.items()
            )
    raise ValueError(f"unknown DynamoDB type {kind}")


def _number_size(number: str) -> int:
    """1 byte per 2 significant digits, plus 1."""
    mantissa = number.lstrip("+-").lower().partition("e")[0]
    digits = mantissa.replace(".", "").strip("0") or "0"
    return math.ceil(len(digits) / 2) + 1


def dynamodb_item_size(attributes: Mapping[str, Mapping[str, Any]]) -> int:
    """Attribute names (UTF-8 bytes) plus values."""
    return sum(
        len(name.encode()) + dynamodb_value_size(value) for name, value in attributes.items()
    )


def _units(size: int, unit: int) -> int:
    return max(math.ceil(size / unit), 1)


def _written_items(
    operation: str, params: Mapping[str, Any]
) -> Iterator[tuple[str, Mapping[str, Any], Mapping[str, Any] | None, int]]:
    """(table, key or whole item, the item a put stores, unit factor) of every item a request
    writes or checks."""
    match operation:
        case "PutItem":
            yield params["TableName"], params["Item"], params["Item"], 1
        case "UpdateItem" | "DeleteItem":
            yield params["TableName"], params["Key"], None, 1
        case "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((kind, request),) = entry.items()  # Put, Update, Delete or ConditionCheck
                put = request["Item"] if kind == "Put" else None
                yield request["TableName"], request.get("Key") or request["Item"], put, 2
        case "BatchWriteItem":
            for table, requests in params["RequestItems"].items():
                for entry in requests:
                    ((kind, request),) = entry.items()
                    put = request["Item"] if kind == "PutRequest" else None
                    yield table, request.get("Key") or request["Item"], put, 1


def _is_conditional(operation: str, params: Mapping[str, Any]) -> bool:
    """A write that holds only on a condition (a transaction: on any of its items)."""
    if operation == "TransactWriteItems":
        return any(
            "ConditionExpression" in request or kind == "ConditionCheck"
            for entry in params["TransactItems"]
            for kind, request in entry.items()
        )
    return operation in ("PutItem", "UpdateItem", "DeleteItem") and "ConditionExpression" in params


def _read_items(operation: str, result: Mapping[str, Any]) -> list[list[Mapping[str, Any]]]:
    """The items a read returned, grouped as DynamoDB rounds them (per request or per table)."""
    match operation:
        case "GetItem":
            return [[result["Item"]] if "Item" in result else []]
        case "Query" | "Scan":
            return [list(result.get("Items") or [])]
        case "BatchGetItem":
            return [list(items) for items in (result.get("Responses") or {}).values()]
        case "TransactGetItems":
            return [[entry["Item"]] for entry in result.get("Responses") or [] if "Item" in entry]
    return []


# ------------------------------------------------------------------------ what is recorded


@dataclass(frozen=True, slots=True)
class Invocation:
    function: str  # the template's logical id
    action: str  # the route (roll, $connect, authorizer, ...) or the clock event's source
    at: datetime  # on the local clock
    ms: float
    log_bytes: int  # the Powertools JSON lines it wrote
    metric_bytes: int  # the EMF line Powertools prints when metrics are enabled (off locally)


@dataclass(frozen=True, slots=True)
class DynamoRequest:
    function: str
    action: str
    operation: str
    conditional: bool
    write_units: float  # the table's
    index_write_units: float  # the GSI's
    read_units: float
    game_item_bytes: int  # the largest game item (sk GAME) it wrote or checked; 0: none


@dataclass(slots=True)
class Usage:
    inbound: list[int] = field(default_factory=list)  # bytes of each client frame
    outbound: list[int] = field(default_factory=list)  # bytes of each frame posted and delivered
    gone: int = 0  # posts answered 410 Gone
    connection_seconds: list[float] = field(default_factory=list)  # per closed connection
    invocations: list[Invocation] = field(default_factory=list)
    dynamodb: list[DynamoRequest] = field(default_factory=list)
    api_calls: Counter[str] = field(default_factory=Counter)  # Step Functions, by the functions
    stray_log_bytes: int = 0  # logged outside any invocation


def _patch(stack: ExitStack, owner: Any, name: str, replacement: Any) -> None:
    """`owner.name` is `replacement` until `stack` closes."""
    stack.callback(setattr, owner, name, owner.__dict__[name])
    setattr(owner, name, replacement)


@contextmanager
def recording_dynamodb(record: Callable[[str, Any, Any], None]) -> Iterator[None]:
    """Every request moto's DynamoDB handler answers handed to `record(operation, handler,
    result)` once moto is done with it: the operation ("GetItem", ...), moto's DynamoHandler
    (its `body`, its `headers`) and what it answered, or None if it refused the request (a
    cancelled transaction, a failed condition: moto raises). Wraps what the handler's methods
    are on entering: inside `Meter.installed` or game_types_bench.metered_moto, the meter's
    own wrappers, which it calls."""
    from moto.dynamodb.responses import DynamoHandler

    def wrap(operation: str, original: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def recorded(handler: Any) -> Any:
            result = None
            try:
                result = original(handler)
                return result
            finally:
                record(operation, handler, result)

        return recorded

    with ExitStack() as patches:
        for operation, method in _MOTO_METHODS.items():
            if method in DynamoHandler.__dict__:
                _patch(
                    patches, DynamoHandler, method, wrap(operation, DynamoHandler.__dict__[method])
                )
        yield


class _CountingStream:
    """Where the Powertools logger writes while metering: bytes counted, nothing printed."""

    def __init__(self, meter: Meter) -> None:
        self._meter = meter

    def write(self, text: str) -> int:
        size = len(text.encode())
        if _source() is not None:
            _local.log_bytes = getattr(_local, "log_bytes", 0) + size
        else:
            self._meter.add_stray_log(size)
        return len(text)

    def flush(self) -> None:
        pass


class Meter:
    """Counts what the local stack does; `take()` hands over what was counted since the last
    `take()` (or `reset()`) and starts afresh."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._usage = Usage()
        self._opened: dict[str, datetime] = {}

    def reset(self) -> None:
        with self._lock:
            self._usage = Usage()

    def take(self) -> Usage:
        with self._lock:
            usage, self._usage = self._usage, Usage()
        return usage

    def add_stray_log(self, size: int) -> None:
        with self._lock:
            self._usage.stray_log_bytes += size

    # ------------------------------------------------------------------ installing

    @contextmanager
    def installed(self, stack: Any) -> Iterator[Meter]:
        """Wraps the pieces of `stack` (a devstack LocalStack, not started yet: the functions
        build their AWS clients on first use, after the botocore hook is in place)."""
        from botocore.handlers import BUILTIN_HANDLERS
        from moto.dynamodb.responses import DynamoHandler
        from yamb_service.common.observability import logger

        from devstack.aws import LocalAws
        from devstack.gateway import LocalGateway

        template = stack.aws.template
        functions = {route.route_key: route.function for route in template.routes()}
        authorizer = template.connect_authorizer()
        if authorizer is not None:
            functions["authorizer"] = authorizer.function
        with ExitStack() as patches:
            self._patch_gateway(patches, LocalGateway, functions)
            self._patch_invoke_registered(patches, LocalAws)
            for operation, method in _MOTO_METHODS.items():
                if method in DynamoHandler.__dict__:
                    metered = self._dynamodb(operation, DynamoHandler.__dict__[method])
                    _patch(patches, DynamoHandler, method, metered)
            hook = ("before-send", self._before_send)
            BUILTIN_HANDLERS.append(hook)
            patches.callback(BUILTIN_HANDLERS.remove, hook)
            handler = logger.registered_handler
            previous = handler.setStream(_CountingStream(self))  # type: ignore[attr-defined]
            patches.callback(handler.setStream, previous)  # type: ignore[attr-defined]
            yield self

    def _patch_gateway(self, patches: ExitStack, gateway: Any, functions: dict[str, str]) -> None:
        meter = self
        invoke = gateway.__dict__["_invoke"]

        async def metered_invoke(self: Any, route: str, handler: Any, *rest: Any) -> Any:
            # (event, connection_id, function_name) follow the handler
            wrapped = meter.invocation(functions.get(route, route), route, handler)
            return await invoke(self, route, wrapped, *rest)

        _patch(patches, gateway, "_invoke", metered_invoke)
        on_message = gateway.__dict__["_on_message"]

        async def metered_message(self: Any, conn: Any, body: str) -> None:
            with meter._lock:
                meter._usage.inbound.append(len(body.encode()))
            await on_message(self, conn, body)

        _patch(patches, gateway, "_on_message", metered_message)
        post = gateway.__dict__["_post_to_connection"]

        async def metered_post(self: Any, request: Any) -> Any:
            data = await request.read()  # aiohttp keeps the body: the handler reads it again
            response = await post(self, request)
            with meter._lock:
                if response.status == 200:
                    meter._usage.outbound.append(len(data))
                else:
                    meter._usage.gone += 1
            return response

        _patch(patches, gateway, "_post_to_connection", metered_post)
        connect = gateway.__dict__["_connect"]

        async def metered_connect(self: Any, conn: Any, parts: Any) -> Any:
            result = await connect(self, conn, parts)
            if result[0] is None:  # accepted
                meter._opened[conn.connection_id] = meter._clock()
            return result

        _patch(patches, gateway, "_connect", metered_connect)
        disconnect = gateway.__dict__["_disconnect"]

        async def metered_disconnect(self: Any, conn: Any, ws: Any) -> None:
            opened = meter._opened.pop(conn.connection_id, None)
            if opened is not None:
                seconds = (meter._clock() - opened).total_seconds()
                with meter._lock:
                    meter._usage.connection_seconds.append(seconds)
            await disconnect(self, conn, ws)

        _patch(patches, gateway, "_disconnect", metered_disconnect)

    def _patch_invoke_registered(self, patches: ExitStack, local_aws: Any) -> None:
        meter = self
        original = local_aws.__dict__["invoke_registered"]

        def metered(self: Any, function_name: str, body: Any, response_headers: Any) -> bytes:
            function = self._function_logical_id(function_name) or function_name
            try:
                event = json.loads(body)
                action = str(event.get("source", "invoke"))
            except (TypeError, ValueError, AttributeError):
                action = "invoke"
            call = meter.invocation(
                function,
                action,
                lambda _event, _context: original(self, function_name, body, response_headers),
            )
            result: bytes = call(None, None)
            return result

        _patch(patches, local_aws, "invoke_registered", metered)

    def open_connections(self) -> int:
        return len(self._opened)

    # ------------------------------------------------------------------ Lambda

    def invocation(
        self, function: str, action: str, handler: Callable[[Any, Any], Any]
    ) -> Callable[[Any, Any], Any]:
        """`handler` timed, its logs counted, and the requests it sends labelled."""

        def metered(event: Any, context: Any) -> Any:
            previous = _source(), getattr(_local, "log_bytes", 0)
            _local.source, _local.log_bytes = (function, action), 0
            at = self._clock()
            started = time.perf_counter()
            try:
                return handler(event, context)
            finally:
                ms = (time.perf_counter() - started) * 1000
                call = Invocation(
                    function, action, at, ms, _local.log_bytes, _pending_metric_bytes()
                )
                _local.source, _local.log_bytes = previous
                with self._lock:
                    self._usage.invocations.append(call)

        return metered

    # ------------------------------------------------------------------ botocore

    def _before_send(self, request: Any, event_name: str = "", **_: Any) -> None:
        source = _source()
        if source is None:
            return
        request.headers[SOURCE_HEADER] = " ".join(source)
        parts = event_name.split(".")  # before-send.<service>.<operation>
        if len(parts) == 3 and parts[1] == "sfn":
            with self._lock:
                self._usage.api_calls[parts[2]] += 1

    # ------------------------------------------------------------------ DynamoDB

    def _dynamodb(self, operation: str, original: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """moto's handler of `operation`, metered: the stored items it writes are sized before
        and after it runs, the items it returns as they are returned."""
        meter = self

        def metered(handler: Any) -> Any:
            label = handler.headers.get(SOURCE_HEADER) or STEP_FUNCTIONS_TASK
            function, _, action = label.partition(" ")
            params: Mapping[str, Any] = handler.body
            backend = handler.dynamodb_backend
            written = list(_written_items(operation, params))
            before = [_stored(backend, table, key) for table, key, _, _ in written]
            result: Any = None
            try:
                result = original(handler)
                return result
            finally:
                write_units, index_units, game_bytes = _write_units(backend, written, before)
                parsed = getattr(result, "result", None) or {}
                request = DynamoRequest(
                    function,
                    action,
                    operation,
                    _is_conditional(operation, params),
                    write_units,
                    index_units,
                    _read_units(operation, params, parsed),
                    game_bytes,
                )
                with meter._lock:
                    meter._usage.dynamodb.append(request)

        return metered


def _write_units(
    backend: Any,
    written: list[tuple[str, Mapping[str, Any], Mapping[str, Any] | None, int]],
    before: list[dict[str, Any]],
) -> tuple[float, float, int]:
    """(table units, GSI units, the largest game item's bytes) of a write that has run: each item
    by the larger of it before and after (a put that failed its condition: the item it sent)."""
    table_units = index_units = 0.0
    game_bytes = 0
    for (table, key, put, factor), old in zip(written, before, strict=True):
        new = _stored(backend, table, key)  # as before if a condition failed
        size = max(dynamodb_item_size(old), dynamodb_item_size(new if put is None else put))
        table_units += factor * _units(size, WRITE_UNIT_BYTES)
        index_units += _index_write_units(backend, table, old, new)
        if key.get("sk") == {"S": "GAME"}:
            game_bytes = max(game_bytes, size)
    return table_units, index_units, game_bytes


def _read_units(operation: str, params: Mapping[str, Any], result: Mapping[str, Any]) -> float:
    """Per started 4 KB of what a read returned (at least one unit): 1 strongly consistent, 0.5
    eventually consistent (an index is), 2 in a transaction."""
    if operation not in READ_OPERATIONS:
        return 0.0
    consistent = bool(params.get("ConsistentRead")) and "IndexName" not in params
    per_unit = 2.0 if operation == "TransactGetItems" else 1.0 if consistent else 0.5
    return sum(
        per_unit * _units(sum(dynamodb_item_size(item) for item in group), READ_UNIT_BYTES)
        for group in _read_items(operation, result) or [[]]
    )


def _pending_metric_bytes() -> int:
    """The EMF line Powertools would print for the metrics an invocation added (the local stack
    disables metrics, so they are still held); clears them, as a flush does on AWS."""
    from yamb_service.common.observability import metrics

    if not metrics.metric_set:
        return 0
    try:
        blob = json.dumps(metrics.serialize_metric_set(), separators=(",", ":"))
    except Exception:
        return 0
    finally:
        metrics.clear_metrics()
    return len(blob) + 1


def stored_item(
    account: str, region: str, table_name: str, key: Mapping[str, Any]
) -> dict[str, Any]:
    """The item moto stores under `key`, read from its backend (no request)."""
    from moto.dynamodb.models import dynamodb_backends

    return _stored(dynamodb_backends[account][region], table_name, key)


def _stored(backend: Any, table_name: str, key: Mapping[str, Any]) -> dict[str, Any]:
    """The item moto stores under `key` (a key or a whole item), DynamoDB JSON; {} if none."""
    from moto.dynamodb.models.dynamo_type import DynamoType

    try:
        table = backend.get_table(table_name)
        range_key = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
        stored = table.get_item(DynamoType(key[table.hash_key_attr]), range_key)
    except Exception:
        return {}
    return {} if stored is None else dict(stored.to_json()["Attributes"])


def _index_write_units(
    backend: Any, table_name: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> float:
    """DynamoDB's writes to the table's global secondary indexes for one item changing from
    `old` to `new`: an entry added or removed is one write, a changed index key two (delete and
    put), a changed projection one, an unchanged entry none; each by its size in KB."""
    try:
        table = backend.get_table(table_name)
    except Exception:
        return 0.0
    table_keys = [name for name in (table.hash_key_attr, table.range_key_attr) if name]
    units = 0.0
    for index in getattr(table, "global_indexes", []):
        keys = [part["AttributeName"] for part in index.schema]
        projection = index.projection or {}
        before = _index_entry(old, table_keys, keys, projection)
        after = _index_entry(new, table_keys, keys, projection)
        if before == after:
            continue
        if before and after and any(before[name] != after[name] for name in keys):
            units += _units(dynamodb_item_size(before), WRITE_UNIT_BYTES)
        if after:
            units += _units(dynamodb_item_size(after), WRITE_UNIT_BYTES)
        elif before:
            units += _units(dynamodb_item_size(before), WRITE_UNIT_BYTES)
    return units


def _index_entry(
    item: Mapping[str, Any], table_keys: list[str], keys: list[str], projection: Mapping[str, Any]
) -> dict[str, Any]:
    """What an index holds of `item`: {} when the item lacks an index key."""
    if not all(name in item for name in keys):
        return {}
    kind = projection.get("ProjectionType", "ALL")
    if kind == "ALL":
        return dict(item)
    names = {*table_keys, *keys}
    if kind == "INCLUDE":
        names |= set(projection.get("NonKeyAttributes") or [])
    return {name: value for name, value in item.items() if name in names}


# ------------------------------------------------------------------------ Step Functions


@dataclass(frozen=True, slots=True)
class MachineUsage:
    executions: int
    transitions: int  # StateEntered events, every execution's whole history
    states: Counter[str]


def state_transitions(stepfunctions: Any, prefix: str) -> dict[str, MachineUsage]:
    """Per state machine (its name), the executions whose name starts with `prefix` and the
    states they entered."""
    usage: dict[str, MachineUsage] = {}
    for machine in stepfunctions.list_state_machines()["stateMachines"]:
        executions = [
            execution
            for page in stepfunctions.get_paginator("list_executions").paginate(
                stateMachineArn=machine["stateMachineArn"]
            )
            for execution in page["executions"]
            if execution["name"].startswith(prefix)
        ]
        states: Counter[str] = Counter()
        for execution in executions:
            history = stepfunctions.get_execution_history(executionArn=execution["executionArn"])
            for event in history["events"]:
                if event["type"].endswith("StateEntered"):
                    states[event.get("stateEnteredEventDetails", {}).get("name", "?")] += 1
        usage[machine["name"]] = MachineUsage(len(executions), states.total(), states)
    return usage
