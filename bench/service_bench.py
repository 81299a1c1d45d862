"""Game service figures: item size of a finished 4-player 9-column game, the DynamoDB requests
and capacity units of each action kind, the round trip of a `roll` through the local stack, and
each handler's cold import.

    make bench

It prints its figures beside the aims and never fails: a slow machine is not a broken build.
"""

import base64
import importlib.util
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HANDLERS = ("authorizer", "connections", "game", "clock")
IMPORT_RUNS = 5
# What a handler's first invocation builds before it reaches AWS, and the settings it needs.
FIRST_CALL_BUILD = {
    "authorizer": "app.verifier()",
    "connections": "import yamb_service.wiring as w; w.game_service()",
    "game": "import yamb_service.wiring as w; w.game_service()",
    "clock": "import yamb_service.wiring as w; w.game_service()",
}
FUNCTION_ENVIRONMENT = {
    "TABLE_NAME": "yamb-bench-GameTable",
    "CONNECTIONS_ENDPOINT": "https://example.execute-api.us-east-1.amazonaws.com/live",
    "DEADLINE_STATE_MACHINE_ARN": "arn:aws:states:us-east-1:123456789012:stateMachine:bench",
    "USER_POOL_ID": "us-east-1_bench",
    "USER_POOL_CLIENT_ID": "bench",
    "AWS_REGION": "us-east-1",
}

# The DynamoDB figures: a 2-player 9-column game (preset 7) played for this many turns.
PLAYED_TURNS = 30
DYNAMODB_OPERATIONS = ("GetItem", "PutItem", "UpdateItem", "Query", "TransactWriteItems")
# In the order the game meets them; roll and write are what the aim is about.
METERED_ACTIONS = ("connect", "create_game", "join_game", "start_game", "sync", "roll", "write")
ACTION_AIM = "1 read + 1 conditional write"
READ_OPERATIONS = ("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems")
WRITE_OPERATIONS = (
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "TransactWriteItems",
    "BatchWriteItem",
)
AIMED_ACTIONS = ("roll", "write")
WRITE_UNIT_BYTES = 1024
READ_UNIT_BYTES = 4096


def finished_item_size() -> int:
    """The stored game item (DynamoDB's item-size rules) of a 4-player 9-column game at its
    end, played through the session rules with Cognito-sized ids and a full request memory."""
    import uuid

    from yamb.dice import SeededDice
    from yamb.session import play
    from yamb.settings import validate_settings
    from yamb_service.repository import DynamoGameRepository, item_model

    now = datetime.now(UTC)
    dice = SeededDice(7)
    players = [str(uuid.uuid4()) for _ in range(4)]
    settings = validate_settings({"players": 4, "preset": 7, "turnSeconds": 60})
    session = play.create("g" * 20, players[0], "c" * 16, settings, now)
    for player in players[1:]:
        play.join(session, player, "c" * 16)
    play.start(session, players[0], now, dice)
    while session.status == "running":
        game = session.game()
        player = game.players[game.seat]
        column, row, _ = game.legal_cells()[0]
        play.write(
            session,
            player,
            game.layout.columns[column].id,
            game.layout.grid.rows[row].id,
            now=now,
            dice=dice,
        )
        session.remember(player, str(uuid.uuid4()), "write")
    item = DynamoGameRepository(item_model("bench", "us-east-1"))._to_item(session)
    return dynamodb_item_size(item.serialize())


# ------------------------------------------------------------------------ DynamoDB per action


def dynamodb_value_size(value: Mapping[str, Any]) -> int:
    """The size of one attribute value (DynamoDB JSON) by DynamoDB's item-size rules."""
    ((kind, data),) = value.items()
    match kind:
        case "S":
            return len(data.encode())
        case "N":
            return _number_size(data)
        case "B":  # bytes in a request, base64 text in what moto stores
            return len(base64.b64decode(data)) if isinstance(data, str) else len(data)
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


def _written_items(
    operation: str, params: Mapping[str, Any]
) -> Iterator[tuple[str, Mapping[str, Any], int]]:
    """(table, key or whole item, unit factor) of every item a request writes or checks."""
    match operation:
        case "PutItem":
            yield params["TableName"], params["Item"], 1
        case "UpdateItem" | "DeleteItem":
            yield params["TableName"], params["Key"], 1
        case "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((_, request),) = entry.items()  # Put, Update, Delete or ConditionCheck
                yield request["TableName"], request.get("Key") or request["Item"], 2
        case "BatchWriteItem":
            for table, requests in params["RequestItems"].items():
                for entry in requests:
                    ((_, request),) = entry.items()
                    yield table, request.get("Key") or request["Item"], 1


def _is_conditional_write(operation: str, params: Mapping[str, Any]) -> bool:
    """A write that holds only on a condition (a transaction: on any of its items)."""
    if operation == "TransactWriteItems":
        return any(
            "ConditionExpression" in request
            for entry in params["TransactItems"]
            for request in entry.values()
        )
    return operation in ("PutItem", "UpdateItem", "DeleteItem") and "ConditionExpression" in params


class DynamoDbMeter:
    """Counts DynamoDB requests per action kind, with the capacity units they consume.

    pynamodb builds botocore sessions of its own (one per Connection), so the hooks go into
    botocore's built-in handlers, which every session created afterwards registers: they see every
    DynamoDB client, the model's and the transactions'. Write units come from the items stored in
    moto before and after each write, sized by DynamoDB's rules: 1 per started KB of the larger of
    the two (at least 1) for each item written or checked, twice that in a transaction. Read units:
    1 per started 4 KB of the items returned, half for an eventually consistent read.
    """

    def __init__(self, region: str) -> None:
        self.region = region
        self.current: str | None = None
        self.actions: Counter[str] = Counter()
        self.requests: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.write_units: Counter[str] = Counter()
        self.read_units: Counter[str] = Counter()
        self.conditional_writes: Counter[str] = Counter()

    @contextmanager
    def installed(self) -> Iterator["DynamoDbMeter"]:
        """Hooks the botocore sessions created from now on (create none before)."""
        from botocore.handlers import BUILTIN_HANDLERS

        hooks = [
            ("provide-client-params.dynamodb", self._before_call),
            ("after-call.dynamodb", self._after_call),
        ]
        BUILTIN_HANDLERS.extend(hooks)
        try:
            yield self
        finally:
            for hook in hooks:
                BUILTIN_HANDLERS.remove(hook)

    @contextmanager
    def metering(self, action: str) -> Iterator[None]:
        self.current = action
        self.actions[action] += 1
        try:
            yield
        finally:
            self.current = None

    def per_action(self, action: str) -> dict[str, float]:
        """Mean requests by operation, write and read units of one action of this kind."""
        count = self.actions[action] or 1
        means = {op: n / count for op, n in self.requests[action].items()}
        means["conditional"] = self.conditional_writes[action] / count
        means["WCU"] = self.write_units[action] / count
        means["RCU"] = self.read_units[action] / count
        return means

    def _before_call(
        self, params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any
    ) -> None:
        if self.current is None:
            return
        self.requests[self.current][model.name] += 1
        self.conditional_writes[self.current] += _is_conditional_write(model.name, params)
        written = list(_written_items(model.name, params))
        sizes = [self._stored_size(table, item) for table, item, _ in written]
        context["yamb_bench"] = (self.current, params, written, sizes)

    def _after_call(
        self, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any
    ) -> None:
        state = context.pop("yamb_bench", None)
        if state is None:
            return
        action, params, written, sizes_before = state
        for (table, item, factor), before in zip(written, sizes_before, strict=True):
            largest = max(before, self._stored_size(table, item), 1)
            self.write_units[action] += factor * math.ceil(largest / WRITE_UNIT_BYTES)
        returned = [parsed["Item"]] if "Item" in parsed else parsed.get("Items")
        if model.name in ("GetItem", "Query") and returned is not None:
            size = sum(dynamodb_item_size(item) for item in returned)
            units = max(math.ceil(size / READ_UNIT_BYTES), 1)
            consistent = params.get("ConsistentRead") and "IndexName" not in params
            self.read_units[action] += units if consistent else units / 2
        elif model.name == "GetItem":  # no such item: still the minimum
            self.read_units[action] += 1 if params.get("ConsistentRead") else 0.5

    def stored_item(self, table_name: str, item: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        """The item moto stores under the key of `item` (a key or a whole item); {} if none.
        Read from moto's backend directly: no request."""
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.dynamodb.models import dynamodb_backends
        from moto.dynamodb.models.dynamo_type import DynamoType

        table = dynamodb_backends[DEFAULT_ACCOUNT_ID][self.region].get_table(table_name)
        range_key = DynamoType(item[table.range_key_attr]) if table.range_key_attr else None
        stored = table.get_item(DynamoType(item[table.hash_key_attr]), range_key)
        return {} if stored is None else stored.to_json()["Attributes"]  # type: ignore[no-any-return]

    def _stored_size(self, table_name: str, item: Mapping[str, Mapping[str, Any]]) -> int:
        return dynamodb_item_size(self.stored_item(table_name, item))


def integration_conftest() -> ModuleType:
    """tests/integration/conftest.py, for `create_game_table`: GameTable as template.yaml has it."""
    path = ROOT / "tests" / "integration" / "conftest.py"
    spec = importlib.util.spec_from_file_location("yamb_integration_conftest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MeteredPlayers:
    """Players acting on the game service, each action metered under its kind."""

    def __init__(self, service: Any, notifier: Any, meter: DynamoDbMeter) -> None:
        self.service = service
        self.notifier = notifier
        self.meter = meter
        self.refused: Counter[str] = Counter()
        self._request_ids = itertools.count(1)

    def connect(self, caller: Any) -> None:
        with self.meter.metering("connect"):
            self.service.connect(caller)

    def act(self, kind: str, caller: Any, **fields: Any) -> list[dict[str, Any]]:
        """`caller` sends the client frame `kind`; the frames answering it (ack, error, game)."""
        from yamb.protocol import CLIENT_ACTIONS
        from yamb_service.observability import metrics

        request_id = f"bench-{next(self._request_ids)}"
        action = CLIENT_ACTIONS.validate_python({"action": kind, "requestId": request_id, **fields})
        sent = len(self.notifier.sent)
        with self.meter.metering(kind):
            self.service.handle(caller, action)
        metrics.clear_metrics()  # as after each invocation (100 unflushed values print)
        answers = [
            answer
            for connection, answer in self.notifier.sent[sent:]
            if connection == caller.connection_id and answer.get("requestId") == request_id
        ]
        self.refused[kind] += any(answer["type"] == "error" for answer in answers)
        return answers

    def game_view(self) -> dict[str, Any]:
        """The last game state broadcast."""
        for _, frame in reversed(self.notifier.sent):
            if frame["type"] == "game" and frame.get("game"):
                return frame["game"]  # type: ignore[no-any-return]
        raise RuntimeError("no game was broadcast")


def dynamodb_per_action(
    turns: int = PLAYED_TURNS,
) -> tuple[DynamoDbMeter, Counter[str], dict[str, Any]]:
    """Plays a 2-player 9-column game in-process on moto for `turns` turns (a roll, if the turn
    allows one, then a write of the first legal cell) and meters every action. Returns the meter,
    the refused actions by kind, and the game item at the end (DynamoDB JSON)."""
    from moto import mock_aws
    from yamb.dice import SeededDice
    from yamb_service.deadlines import RecordingScheduler
    from yamb_service.notifier import RecordingNotifier
    from yamb_service.repository import DynamoGameRepository, DynamoPlayerRepository, item_model
    from yamb_service.service import Caller, GameService

    tables = integration_conftest()
    meter = DynamoDbMeter(tables.REGION)
    with mock_aws(), meter.installed():
        item = item_model(tables.create_game_table("yamb-bench-GameTable"), tables.REGION)
        notifier = RecordingNotifier()
        service = GameService(
            games=DynamoGameRepository(item),
            players=DynamoPlayerRepository(item),
            notifier=notifier,
            deadlines=RecordingScheduler(),
            dice=SeededDice(7),
            now=lambda: datetime.now(UTC),
        )
        players = MeteredPlayers(service, notifier, meter)
        callers = {name: Caller(name, f"conn-{name}") for name in ("ana", "ben")}
        ana, ben = callers.values()
        for caller in callers.values():
            players.connect(caller)
        settings = {"players": 2, "preset": 7, "turnSeconds": 60}
        (ack,) = players.act("create_game", ana, settings=settings)
        game_id = ack["gameId"]
        players.act("join_game", ben, gameId=game_id)
        players.act("start_game", ana, gameId=game_id)
        for caller in callers.values():
            players.act("sync", caller)
        for _ in range(turns):
            turn = players.game_view()["turn"]
            caller = callers[turn["playerId"]]
            if turn["canRoll"]:
                players.act("roll", caller, gameId=game_id, keep=[])
            cell = players.game_view()["turn"]["legal"][0]
            players.act("write", caller, gameId=game_id, column=cell["column"], row=cell["row"])
            if players.game_view()["status"] != "running":
                break
        game_item = meter.stored_item(
            item.Meta.table_name, {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}}
        )
    return meter, players.refused, game_item


def print_dynamodb_per_action() -> None:
    meter, refused, game_item = dynamodb_per_action()
    others = {op for ops in meter.requests.values() for op in ops} - set(DYNAMODB_OPERATIONS)
    operations = [*DYNAMODB_OPERATIONS, *sorted(others)]
    print(
        "  DynamoDB requests and write units per action, in-process on moto: 2-player 9-column "
        f"game (preset 7), {meter.actions['write']} turns; mean per action"
    )
    heading = "".join(f"{op:>{len(op) + 2}}" for op in operations)
    print(f"    {'action':<12}{'n':>3}{heading}  conditional{'WCU':>6}{'RCU':>6}  aim")
    for action in METERED_ACTIONS:
        if not meter.actions[action]:
            continue
        means = meter.per_action(action)
        counts = "".join(f"{means.get(op, 0.0):{len(op) + 2}.1f}" for op in operations)
        aim = ""
        if action in AIMED_ACTIONS:
            reads = sum(means.get(op, 0.0) for op in READ_OPERATIONS)
            writes = sum(means.get(op, 0.0) for op in WRITE_OPERATIONS)
            met = reads == 1 and writes == 1 and means["conditional"] == 1
            aim = f"{ACTION_AIM}: {'met' if met else 'not met'}"
        print(
            f"    {action:<12}{meter.actions[action]:>3}{counts}{means['conditional']:13.1f}"
            f"{means['WCU']:6.1f}{means['RCU']:6.1f}  {aim}".rstrip()
        )
    if "body" not in game_item:
        print("    no game item was stored")
        return
    size = dynamodb_item_size(game_item)
    body = json.loads(game_item["body"]["S"])
    parts = sorted(((len(json.dumps(value)), name) for name, value in body.items()), reverse=True)
    largest = ", ".join(f"{name} {part / 1024:.1f} KB" for part, name in parts[:2])
    print(
        f"    game item after these turns: {size / 1024:.1f} KB, "
        f"{math.ceil(size / WRITE_UNIT_BYTES)} WCU a write (largest parts of its body: {largest})"
    )
    print(
        "    WCU: 1 per started KB of the larger of the stored item before and after (sized by "
        "DynamoDB's rules), per item written or checked, x2 in a transaction; RCU: 1 per 4 KB read"
        " (strongly consistent), 0.5 eventually consistent"
    )
    if refused.total():
        print(f"    refused actions (error frames): {dict(refused)}")


# ------------------------------------------------------------------------ cold import and stack


def cold_start_ms(handler: str) -> tuple[float, float]:
    """Medians over fresh interpreters: importing the handler's module, and then what its first
    invocation builds (the game service, or the authorizer's verifier) on top."""
    code = (
        "import sys, time; sys.path[:0] = ['shared', 'functions/" + handler + "'];"
        "t = time.perf_counter(); import app; i = time.perf_counter();"
        + FIRST_CALL_BUILD[handler]
        + "; print((i - t) * 1000, (time.perf_counter() - i) * 1000)"
    )
    environment = {**os.environ, **FUNCTION_ENVIRONMENT}
    samples = [
        [
            float(ms)
            for ms in subprocess.check_output(
                [sys.executable, "-c", code], cwd=ROOT, text=True, env=environment
            ).split()
        ]
        for _ in range(IMPORT_RUNS)
    ]
    return (
        statistics.median(sample[0] for sample in samples),
        statistics.median(sample[1] for sample in samples),
    )


def roll_round_trip_ms(rounds: int = 20) -> float:
    from websockets.sync.client import connect

    from devstack.stack import LocalStack

    with LocalStack() as stack:
        url = f"{stack.url}?token={stack.player_token('bench')}"
        with connect(url) as socket:

            def act(action: str, **fields: object) -> dict[str, object]:
                """The game state broadcast right after this action's ack."""
                request_id = f"b{time.time_ns()}"
                socket.send(json.dumps({"action": action, "requestId": request_id, **fields}))
                acknowledged = False
                while True:
                    frame = json.loads(socket.recv(timeout=10))
                    if frame["type"] == "error":
                        raise RuntimeError(frame)
                    acknowledged |= frame.get("requestId") == request_id
                    if acknowledged and frame["type"] == "game":
                        return frame["game"]  # type: ignore[no-any-return]

            socket.send(
                json.dumps(
                    {
                        "action": "create_game",
                        "requestId": "create",
                        "settings": {"players": 1, "preset": 7, "turnSeconds": None},
                    }
                )
            )
            game_id = json.loads(socket.recv(timeout=10))["gameId"]
            act("start_game", gameId=game_id)
            samples = []
            for _ in range(rounds):
                started = time.perf_counter()
                game = act("roll", gameId=game_id, keep=[])
                samples.append((time.perf_counter() - started) * 1000)
                cell = game["turn"]["legal"][0]  # type: ignore[index]
                act("write", gameId=game_id, column=cell["column"], row=cell["row"])
    return statistics.median(samples)


def main() -> None:
    print("game service")
    size = finished_item_size()
    print(
        f"  game item at the end of a 4-player 9-column game: {size / 1024:.1f} KB "
        f"({-(-size // 1024)} WCU a write)"
    )
    print_dynamodb_per_action()
    for handler in HANDLERS:
        imported, built = cold_start_ms(handler)
        print(
            f"  cold import, {handler:<11}: {imported:6.0f} ms "
            f"(median of {IMPORT_RUNS}; aim < 300 ms); first call's build: +{built:4.0f} ms"
        )
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"  machine load while importing (1, 5, 15 min): {load} on {os.cpu_count()} CPUs")
    median = roll_round_trip_ms()
    print(f"  roll round trip through the local stack: {median:.1f} ms (median of 20)")


if __name__ == "__main__":
    main()
