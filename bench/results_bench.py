"""Leaderboards at scale (`make bench`): with 100,000 results on one board, the time and the
DynamoDB requests to read its top 100, to find one player's place and to record one result.

Run in this process on moto, assembled as tests/integration/test_results.py does: the game table
from template.yaml (its keys and gsi1; not its stream: the recorder is called directly), a
`DynamoResultsStore`, a `ResultsRecorder` and a `ResultsService` on it. The board is preset 1's
all-time individual best board, `individual/1/best/all`.

- Loading: each row is made by `DynamoResultsStore.write_row` itself, its transaction caught
  instead of sent (the row item it puts, the `N#<score>` count it adds one to); the row items and
  one count item per score (`tally`: the rows it was added to) are then put straight into moto's
  table, the items exactly as pynamodb serializes them, with no request (a BatchWriteItem of
  100,000 items through moto takes about a minute). The scores are preset-1 best results: a
  normal spread round 430 (sd 85, within 150-850; bench/bots_bench.py's hard bot averages 413
  on preset 1), so many rows share a score. The entrants are random UUIDs handed out in the
  board's order and the items go into moto's table in key order: moto sorts every item of a
  Query's partition (of the whole index for gsi1) with its own Python comparisons on each
  call, and items already in order make that sort linear (a top of 100,000 rows took 5-14 s
  here in random order, 1.5-2.5 s in order); what the store reads and writes is the same.
- Measured at a tenth of the rows, then again once the rest are loaded: `ResultsService.board`
  for a viewer in the top (the top 100 only) and for the viewer of the lowest row (the top 100
  and its own place), and `DynamoResultsStore.place` for a low, a middle and a high score; with
  every row, `ResultsRecorder.record` of a 2-player ranked preset-1 result (both players new),
  then the same result again.
- Counted by the bench's meters (bench/meters.py) round moto's DynamoDB handler: the requests
  by operation and the write units; here, the items each read read, their size and its read
  units (the meter sizes a read by what it returned: for the place Query, `tally` alone).
  The baseline, one GetItem of one board row through the same pynamodb model, is timed before
  every measured call; times are medians, each also a ratio to the baseline's median of the
  same table size. Every answer is checked against the rows as loaded (the top's order and
  places, each place, the items a place query read, what a record wrote): a wrong one fails the
  bench (exit 1).

Moto is no DynamoDB in time: it answers a Query by going over every item of the table (and
sorting the partition), so its query times grow with the table while DynamoDB's follow the
items read; and it backs up the whole table before each item of a transaction (seconds per item
at 100,000 rows), which this bench narrows to the items the transaction touches (the same
outcome and the same rollback).

    .venv/bin/python bench/results_bench.py [--results 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import copy
import gc
import logging
import os
import random
import statistics
import sys
import time
import uuid
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game_types_bench import _LogSink, metered_moto  # noqa: E402
from meters import (  # noqa: E402
    READ_OPERATIONS,
    READ_UNIT_BYTES,
    SOURCE_HEADER,
    DynamoRequest,
    Meter,
    _patch,
    _read_items,
    _units,
    dynamodb_item_size,
    recording_dynamodb,
    stored_item,
)

REGION = "us-east-1"
TABLE = "yamb-bench-results"
NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
# The loaded rows' results reached their scores over the two years before NOW.
SPAN_SECONDS = 2 * 365 * 24 * 3600
SCORE_MEAN, SCORE_SD, SCORE_MIN, SCORE_MAX = 430, 85, 150, 850
# The scores a place is asked for: low, middle, high (about -2, 0 and +3 sd).
PLACE_SCORES = {"low": 260, "middle": 430, "high": 685}
# The recorded result: two new players, both into the middle of the board.
RECORDED_TOTALS = (471, 446)
BASELINE = "baseline"
KB = 1024
OPERATIONS = ("GetItem", "Query", "BatchGetItem", "PutItem", "UpdateItem", "TransactWriteItems")
SHORT = {
    "GetItem": "Get",
    "Query": "Query",
    "BatchGetItem": "BGet",
    "PutItem": "Put",
    "UpdateItem": "Upd",
    "TransactWriteItems": "TxW",
}


class BenchError(RuntimeError):
    """An answer that is not what the rows as loaded give."""


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise BenchError(message)


# ------------------------------------------------------------------------ moto's transactions


@contextmanager
def item_level_rollback() -> Iterator[None]:
    """moto's TransactWriteItems backs up every table it touches (a deep copy, once per item of
    the transaction) to put it back if the transaction is cancelled: seconds per item with
    100,000 rows. Here it backs up the items the transaction names instead, and puts those back
    on a cancellation; what it applies and answers is moto's own."""
    from moto.dynamodb import models
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table

    class _TablesUncopied:
        """`copy` as moto's backend module sees it during a transaction."""

        @staticmethod
        def deepcopy(value: Any, memo: Any = None) -> Any:
            return value if isinstance(value, Table) else copy.deepcopy(value, memo)

    original = models.DynamoDBBackend.__dict__["transact_write_items"]

    def backed_up(backend: Any, transact_items: list[dict[str, Any]]) -> list[Any] | None:
        saved = []
        for entry in transact_items:
            if len(entry) != 1:
                return None
            ((_, request),) = entry.items()
            table = backend.tables.get(request.get("TableName"))
            if table is None or table.range_key_attr is None:
                return None
            key = request.get("Key") or request.get("Item") or {}
            if table.hash_key_attr not in key or table.range_key_attr not in key:
                return None
            hash_key = DynamoType(key[table.hash_key_attr])
            range_key = DynamoType(key[table.range_key_attr])
            before = copy.deepcopy(table.get_item(hash_key, range_key))
            saved.append((table, hash_key, range_key, before))
        return saved

    def transact_write_items(backend: Any, transact_items: list[dict[str, Any]]) -> None:
        saved = backed_up(backend, transact_items)
        if saved is None:  # not a transaction this knows how to back up: moto's own way
            original(backend, transact_items)
            return
        models.copy = _TablesUncopied  # type: ignore[assignment]
        try:
            original(backend, transact_items)
        except Exception:
            for table, hash_key, range_key, before in reversed(saved):
                if before is None:
                    table.items.get(hash_key, {}).pop(range_key, None)
                else:
                    table.items[hash_key][range_key] = before
            raise
        finally:
            models.copy = copy

    with ExitStack() as patches:
        _patch(patches, models.DynamoDBBackend, "transact_write_items", transact_write_items)
        yield


# ------------------------------------------------------------------------ what each read returned


@dataclass(frozen=True, slots=True)
class Sent:
    """One request as moto answered it, with the items a read read."""

    label: str  # the meter's "<function> <action>"
    operation: str
    index: str | None
    returned: int  # the items a read returned
    items: int  # the items it read (a projected Query: counted as stored)
    sizes: tuple[int, ...]  # their sizes by DynamoDB's rules, as stored (before a projection)
    per_unit: float  # read units per 4 KB: 0.5 eventually consistent, 1 consistent
    body: Mapping[str, Any]

    @property
    def text(self) -> str:
        name = SHORT.get(self.operation, self.operation)
        return f"{name}({self.index})" if self.index else name

    @property
    def read_units(self) -> float:
        """A Query per started 4 KB of all it read, a BatchGetItem per item's started 4 KB
        (a request: at least one unit)."""
        if self.operation not in READ_OPERATIONS:
            return 0.0
        if self.operation in ("BatchGetItem", "TransactGetItems"):
            units = sum(_units(size, READ_UNIT_BYTES) for size in self.sizes)
        else:
            units = _units(sum(self.sizes), READ_UNIT_BYTES)
        return self.per_unit * max(units, 1)

    @property
    def projected(self) -> bool:
        """A table Query that returns part of each item: it reads them whole."""
        return self.operation == "Query" and "ProjectionExpression" in self.body and not self.index

    def as_stored(self, backend: Any) -> Sent:
        """A projected Query with the items it read as they are stored (moto answered only
        their projection): the items under its key condition, found in moto's table."""
        from moto.dynamodb.models.dynamo_type import DynamoType
        from moto.dynamodb.parsing.key_condition_expression import parse_expression

        if not self.projected or "FilterExpression" in self.body or "Limit" in self.body:
            return self
        table = backend.get_table(self.body["TableName"])
        hashes, ranges, _ = parse_expression(
            self.body["KeyConditionExpression"],
            self.body.get("ExpressionAttributeValues") or {},
            self.body.get("ExpressionAttributeNames") or {},
            table.schema,
        )
        ((_, hash_value),) = hashes
        partition = table.items.get(DynamoType(hash_value), {})
        if ranges:
            ((_, comparison, values),) = ranges
            bounds = [DynamoType(value) for value in values]
            read = [item for key, item in partition.items() if key.compare(comparison, bounds)]
        else:
            read = list(partition.values())
        sizes = tuple(dynamodb_item_size(item.to_json()["Attributes"]) for item in read)
        return replace(self, items=len(sizes), sizes=sizes)


def _per_unit(operation: str, body: Mapping[str, Any]) -> float:
    if operation == "TransactGetItems":
        return 2.0
    if operation == "BatchGetItem":
        tables = (body.get("RequestItems") or {}).values()
        return 1.0 if any(table.get("ConsistentRead") for table in tables) else 0.5
    return 1.0 if body.get("ConsistentRead") and "IndexName" not in body else 0.5


def observed(sent: list[Sent]) -> AbstractContextManager[None]:
    """Every request moto's DynamoDB answers recorded with the items it returned (a request it
    refused, such as the repeat's cancelled transaction, is not)."""

    def record(operation: str, handler: Any, result: Any) -> None:
        if result is None:
            return
        parsed = getattr(result, "result", None) or {}
        groups = _read_items(operation, parsed) if operation in READ_OPERATIONS else []
        sizes = tuple(dynamodb_item_size(item) for group in groups for item in group)
        body = handler.body
        sent.append(
            Sent(
                handler.headers.get(SOURCE_HEADER) or "",
                operation,
                body.get("IndexName"),
                len(sizes),
                len(sizes),
                sizes,
                _per_unit(operation, body),
                body,
            )
        )

    return recording_dynamodb(record)


# ------------------------------------------------------------------------ the board and its rows


@dataclass(frozen=True, slots=True)
class Row:
    score: int
    since: datetime
    entrant: str

    @property
    def order(self) -> tuple[int, datetime, str]:
        """The board's order: the higher score, then the earlier, then the entrant."""
        return -self.score, self.since, self.entrant


class _CaughtTransaction:
    """A TransactWrite as `write_row` uses it, keeping what it would send."""

    def __init__(self, rows: list[Any], counts: Counter[str]) -> None:
        self.rows = rows
        self.counts = counts

    def __enter__(self) -> _CaughtTransaction:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def save(self, model: Any, condition: Any = None) -> None:
        self.rows.append(model)

    def update(self, model: Any, actions: list[Any]) -> None:
        # A new row adds one to its score's count (`tally ADD 1`).
        (action,) = actions
        _expect(type(action).__name__ == "AddAction", f"write_row updated {model.sk}: {action}")
        self.counts[model.sk] += 1

    def condition_check(self, *_: object) -> None:
        return None


def _score(rng: random.Random) -> int:
    while True:
        score = round(rng.gauss(SCORE_MEAN, SCORE_SD))
        if SCORE_MIN <= score <= SCORE_MAX:
            return score


class World:
    """The table's stores and services, the board and the rows loaded on it."""

    def __init__(self) -> None:
        from yamb.results.boards import Board
        from yamb.results.periods import ALL_TIME
        from yamb_service.accounts.dynamo import DynamoAccountStore
        from yamb_service.common.dynamo import item_model
        from yamb_service.game.dynamo import DynamoGameRepository
        from yamb_service.results.dynamo import DynamoResultsStore
        from yamb_service.results.service import ResultsRecorder, ResultsService

        self.item = item_model(TABLE, REGION)
        self.store = DynamoResultsStore(self.item, sleep=lambda _: None)
        self.accounts = DynamoAccountStore(self.item, DynamoGameRepository(self.item).result)
        self.recorder = ResultsRecorder(self.store, self.accounts, now=lambda: NOW)
        self.service = ResultsService(self.store, self.accounts, now=lambda: NOW)
        self.board = Board("individual", "1", "best", ALL_TIME)
        self.key = f"BOARD#{self.board.key}"
        self.rows: list[Row] = []
        self.tallies: Counter[int] = Counter()
        self.rng = random.Random(20261203)
        self.players = 0

    def load(self, count: int) -> float:
        """`count` more rows on the board (and their scores' counts): seconds taken."""
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.dynamodb.models import dynamodb_backends
        from yamb.results.boards import Entry, ScoredGame
        from yamb_service.results.dynamo import DynamoResultsStore

        began = time.perf_counter()
        models: list[Any] = []
        counts: Counter[str] = Counter()
        caught = _CaughtTransaction(models, counts)
        writer = DynamoResultsStore(self.item)
        writer._transaction = lambda: caught  # type: ignore[method-assign,assignment,return-value]
        rng = self.rng
        first = NOW - timedelta(seconds=SPAN_SECONDS)
        gc.disable()
        try:
            drawn = []
            for _ in range(count):
                score = _score(rng)
                since = first + timedelta(seconds=rng.uniform(0, SPAN_SECONDS))
                drawn.append(Row(score, since, ""))
            drawn.sort(key=lambda row: row.order)
            # Random ids handed out in the board's order (see the module's doc).
            entrants = sorted(
                str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(count)
            )
            for drawn_row, entrant in zip(drawn, entrants, strict=True):
                score, since = drawn_row.score, drawn_row.since
                game = ScoredGame(
                    game_id=uuid.UUID(int=rng.getrandbits(128), version=4).hex[:20],
                    score=score,
                    at=since,
                    preset=1,
                )
                entry = Entry(
                    entrant=entrant,
                    players=[entrant],
                    names=[f"player{len(self.rows)}"],
                    score=score,
                    games=[game],
                    since=since,
                )
                _expect(writer.write_row(self.board, None, entry) == "written", "a caught write")
                self.rows.append(Row(score, since, entrant))
            for sk, added in sorted(counts.items()):
                score = int(sk.removeprefix("N#"))
                self.tallies[score] += added
                models.append(self.item(self.key, sk, tally=self.tallies[score]))
            table = dynamodb_backends[DEFAULT_ACCOUNT_ID][REGION].get_table(TABLE)
            for model in models:
                table.put_item(model.serialize())
        finally:
            gc.enable()
        self.rows.sort(key=lambda row: row.order)
        gc.collect()
        gc.freeze()  # the loaded rows stay: the collector need not go over them again
        return time.perf_counter() - began

    # -- what the rows as loaded give

    @property
    def distinct(self) -> int:
        return len(self.tallies)

    def place_of(self, score: int) -> int:
        return 1 + sum(n for s, n in self.tallies.items() if s > score)

    def scores_above(self, score: int) -> int:
        return sum(1 for s in self.tallies if s > score)

    # -- players for the recorder

    def new_player(self) -> str:
        from yamb.accounts.profile import AccountStatus, Profile

        self.players += 1
        nickname = f"bench{self.players:04d}"
        profile = Profile(
            player_id=str(uuid.uuid4()),
            nickname=nickname,
            email=f"{nickname}@example.com",
            status=AccountStatus.ACTIVE,
            created_at=NOW - timedelta(days=30),
        )
        self.accounts.create(profile)
        return profile.player_id

    def result(self, totals: Mapping[str, int]) -> Any:
        """A ranked 2-player preset-1 game that ended at NOW, as test_results.py builds one."""
        from yamb.results.facts import SheetFacts
        from yamb.session.results import GameResult, PlayerResult
        from yamb.settings import GameSettings

        best = max(totals.values())
        return GameResult(
            game_id=uuid.uuid4().hex[:20],
            settings=GameSettings(ranked=True, preset=1, players=2, turn_seconds=60),
            ended_at=NOW,
            winners=[p for p, t in totals.items() if t == best],
            players=[
                PlayerResult(
                    player_id=player,
                    total=total,
                    full=True,
                    left=False,
                    turns=26,
                    facts=SheetFacts(
                        columns=2, bonuses=1, cells=26, crossed=2, yamb_cells=2, yambs=1
                    ),
                )
                for player, total in totals.items()
            ],
            outcome="completed",
            recorded=True,
        )


# ------------------------------------------------------------------------ measuring


@dataclass
class Samples:
    ms: list[float] = field(default_factory=list)
    requests: list[list[DynamoRequest]] = field(default_factory=list)  # per call
    sent: list[list[Sent]] = field(default_factory=list)  # per call


@dataclass(frozen=True, slots=True)
class Figures:
    calls: int
    ms: float
    requests: float
    operations: dict[str, float]
    shape: str  # the requests of the last call, in order
    items: float  # returned by its reads
    kb: float
    wcu: float
    rcu: float
    constant: bool

    @classmethod
    def of(cls, samples: Samples) -> Figures:
        n = max(len(samples.requests), 1)
        every = [request for call in samples.requests for request in call]
        counted = Counter(request.operation for request in every)
        sent = [s for call in samples.sent for s in call]
        shapes = {tuple(s.text for s in call) for call in samples.sent}
        return cls(
            calls=len(samples.requests),
            ms=statistics.median(samples.ms) if samples.ms else 0.0,
            requests=len(every) / n,
            operations={op: counted[op] / n for op in OPERATIONS},
            shape=" ".join(s.text for s in samples.sent[-1]) if samples.sent else "",
            items=sum(s.items for s in sent) / n,
            kb=sum(sum(s.sizes) for s in sent) / n / KB,
            wcu=sum(r.write_units + r.index_write_units for r in every) / n,
            rcu=sum(s.read_units for s in sent) / n,
            constant=len(shapes) <= 1,
        )


class Bench:
    def __init__(self, world: World, meter: Meter, sent: list[Sent]) -> None:
        self.world = world
        self.meter = meter
        self.sent = sent
        self.samples: dict[tuple[int, str], Samples] = defaultdict(Samples)
        self.problems: list[str] = []
        self.baseline_entrant = ""

    @staticmethod
    def _backend() -> Any:
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.dynamodb.models import dynamodb_backends

        return dynamodb_backends[DEFAULT_ACCOUNT_ID][REGION]

    def _settle(self) -> None:
        """What came before (set-up, checks) is not counted."""
        self.meter.take()
        self.sent.clear()

    def timed(self, size: int, key: str, call: Callable[[], Any]) -> Any:
        self._settle()
        metered = self.meter.invocation("results", key, lambda _event, _context: call())
        started = time.perf_counter()
        answer = metered(None, None)
        ms = (time.perf_counter() - started) * 1000
        usage = self.meter.take()
        samples = self.samples[(size, key)]
        samples.ms.append(ms)
        mine = [request for request in usage.dynamodb if request.action == key]
        if len(mine) != len(usage.dynamodb):
            self.problems.append(f"{key}: {len(usage.dynamodb) - len(mine)} requests of no call")
        samples.requests.append(mine)
        backend = self._backend()
        mine_sent = [s for s in self.sent if s.label.endswith(f" {key}")]
        samples.sent.append([s.as_stored(backend) for s in mine_sent])
        self.sent.clear()
        return answer

    def baseline(self, size: int) -> None:
        """One GetItem of one board row through the pynamodb model, nothing else."""
        world = self.world
        self.timed(size, BASELINE, lambda: world.item.get(world.key, f"E#{self.baseline_entrant}"))

    def measure(self, size: int, key: str, call: Callable[[], Any], check: Any) -> None:
        try:
            self.baseline(size)
            check(self.timed(size, key, call))
        except BenchError as error:
            self.problems.append(f"{size:,} rows, {key}: {error}")

    # -- the reads

    def reads(self, size: int, runs: int, warm_up: bool) -> None:
        world = self.world
        rows = world.rows
        self.baseline_entrant = rows[len(rows) // 2].entrant
        top_viewer, last = rows[9], rows[-1]
        # A warm boards function knows the names it read in the last minute (the runs here
        # may take longer than that at 100,000 rows): warm reads, and one cold read.
        import yamb_service.results.service as results_service_module

        results_service_module.NAMES_SECONDS = 3600.0

        def cold() -> Any:
            # As a function that just started; what the others know is left as it was.
            known = dict(world.service._names)
            world.service._names.clear()
            try:
                return world.service.board(top_viewer.entrant, world.board, "all")
            finally:
                world.service._names.update(known)

        scenarios: list[tuple[str, Callable[[], Any], Callable[[Any], None]]] = [
            (
                "board, viewer in the top",
                lambda: world.service.board(top_viewer.entrant, world.board, "all"),
                self._check_top(top_viewer, mine=None),
            ),
            ("board, in the top, names cold", cold, self._check_top(top_viewer, mine=None)),
            (
                "board, viewer of the last row",
                lambda: world.service.board(last.entrant, world.board, "all"),
                self._check_top(last, mine=world.place_of(last.score)),
            ),
        ]
        for name, score in PLACE_SCORES.items():
            scenarios.append(
                (
                    f"place of {score} ({name})",
                    lambda score=score: world.store.place(world.board, score),  # type: ignore[misc]
                    self._check_place(size, f"place of {score} ({name})", score),
                )
            )
        if not warm_up:  # the names of the rows now on the board, as a warm function has them
            for viewer in (top_viewer, last):
                self.timed(
                    size, "names", partial(world.service.board, viewer.entrant, world.board, "all")
                )
            del self.samples[size, "names"]
        for number in range(runs + (1 if warm_up else 0)):
            turn = number % len(scenarios)
            for key, call, check in scenarios[turn:] + scenarios[:turn]:
                self.measure(size, key, call, check)
            if warm_up and number == 0:
                for samples_key in [k for k in self.samples if k[0] == size]:
                    del self.samples[samples_key]

    def _check_top(self, viewer: Row, mine: int | None) -> Callable[[Any], None]:
        from yamb.results.prizes import places

        expected = self.world.rows[:100]
        shared = places([row.score for row in expected])

        def check(view: Any) -> None:
            got = [(row.place, row.score) for row in view.rows]
            _expect(
                got == list(zip(shared, [row.score for row in expected], strict=True)),
                f"the top differs from the rows as loaded: {got[:5]}...",
            )
            _expect(
                [row.me for row in view.rows].count(True) == (1 if mine is None else 0),
                "the viewer's row in the top",
            )
            if mine is None:
                _expect(view.mine is None, "an own row beside a top that shows it")
            else:
                _expect(
                    view.mine is not None
                    and (view.mine.place, view.mine.score) == (mine, viewer.score),
                    f"own place {view.mine}, not {mine} with {viewer.score}",
                )

        return check

    def _check_place(self, size: int, key: str, score: int) -> Callable[[Any], None]:
        world = self.world

        def check(place: Any) -> None:
            _expect(place == world.place_of(score), f"{place}, not {world.place_of(score)}")
            (query,) = self.samples[(size, key)].sent[-1]
            above = world.scores_above(score)
            _expect(
                query.returned == query.items == above,
                f"returned {query.returned} count items, read {query.items}, for {above} "
                "scores above",
            )

        return check

    # -- the recorder

    def records(self, size: int, runs: int) -> None:
        world = self.world
        new, again = "record, 2 new players", "same result again"
        for _ in range(runs):
            players = [world.new_player(), world.new_player()]
            result = world.result(dict(zip(players, RECORDED_TOTALS, strict=True)))

            def recorded(done: Any, players: list[str] = players) -> None:
                _expect(done.counted, "the game was not counted")
                # 9 boards each: all time, month and week x (best, sum, main)
                _expect(len(done.rows) == 18 and not done.left_out, f"rows {done.rows}")
                for player, total in zip(players, RECORDED_TOTALS, strict=True):
                    world.tallies[total] += 1
                    world.rows.append(Row(total, NOW, player))

            def repeated(done: Any, players: list[str] = players) -> None:
                _expect(not done.counted and done.rows == [], f"the repeat wrote {done}")
                stats = world.store.statistics(players)
                met = world.store.head_to_head(*players)
                _expect(
                    [stats[p].games for p in players] == [1, 1]
                    and (met.wins, met.losses, met.ties) == (1, 0, 0),
                    "the repeat's cancelled transaction left statistics or head-to-head changed",
                )

            self.measure(size, new, lambda result=result: world.recorder.record(result), recorded)
            self.measure(size, again, lambda result=result: world.recorder.record(result), repeated)
        world.rows.sort(key=lambda row: row.order)
        self._check_recorded_rows(players)

    def _check_recorded_rows(self, players: list[str]) -> None:
        """A row and a count the recorder wrote are items like those loaded, and the board
        places the new row among the loaded ones."""
        from moto.core import DEFAULT_ACCOUNT_ID

        world = self.world

        def stored(sk: str) -> dict[str, Any]:
            return stored_item(
                DEFAULT_ACCOUNT_ID, REGION, TABLE, {"pk": {"S": world.key}, "sk": {"S": sk}}
            )

        try:
            recorded_row = stored(f"E#{players[0]}")
            loaded_row = stored(f"E#{world.rows[0].entrant}")
            _expect(
                set(recorded_row) == set(loaded_row)
                and recorded_row["gsi1sk"]["S"][:8] == f"{9_999_999 - RECORDED_TOTALS[0]:07d}#",
                f"a recorded row {sorted(recorded_row)} beside a loaded one {sorted(loaded_row)}",
            )
            recorded_count = stored(f"N#{RECORDED_TOTALS[0]:07d}")
            loaded_count = stored(f"N#{world.rows[0].score:07d}")
            _expect(
                set(recorded_count) == set(loaded_count) == {"pk", "sk", "tally"}
                and int(recorded_count["tally"]["N"]) == world.tallies[RECORDED_TOTALS[0]],
                f"a recorded count {recorded_count} beside a loaded one {loaded_count}",
            )
            view = world.service.board(players[0], world.board, "all")
            place = world.place_of(RECORDED_TOTALS[0])
            _expect(view.mine is not None and view.mine.place == place, f"{view.mine}, not {place}")
        except BenchError as error:
            self.problems.append(f"recorded rows: {error}")


# ------------------------------------------------------------------------ figures


def _x(value: float, base: float) -> str:
    return f"{value / base:,.1f}x" if base else "-"


def _number(value: float) -> str:
    """A mean: whole when it is (every call the same), else two decimals."""
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}"


def print_size(bench: Bench, size: int, keys: list[str]) -> None:
    base = Figures.of(bench.samples[(size, BASELINE)])
    ops = "".join(f"{SHORT[op]:>6}" for op in OPERATIONS)
    print(
        f"    {'':<34}{'ms':>9}{'x base':>9}{'reqs':>5}{ops}{'items':>7}{'KB':>7}{'RCU':>6}"
        f"{'WCU':>5}  requests, in order"
    )

    def row(label: str, f: Figures) -> None:
        cells = "".join(f"{_number(f.operations[op]):>6}" for op in OPERATIONS)
        varies = "" if f.constant else " (varied between calls)"
        print(
            f"    {label:<34}{f.ms:9.1f}{_x(f.ms, base.ms):>9}{_number(f.requests):>5}{cells}"
            f"{_number(f.items):>7}{f.kb:7.1f}{f.rcu:6g}{_number(f.wcu):>5}  {f.shape}{varies}"
        )

    row("baseline: GetItem of one row", base)
    for key in keys:
        figures = Figures.of(bench.samples[(size, key)])
        if figures.calls:
            row(key, figures)


def print_scaling(bench: Bench, small: int, large: int, distinct: dict[int, int]) -> None:
    print(
        f"  own place against the board's size: one Query of the counts above the score, one "
        f"item per distinct score above it, never the rows: rows x{large / small:.0f}, distinct "
        f"scores {distinct[small]} -> {distinct[large]} "
        f"(x{distinct[large] / distinct[small]:.2f}); a place reads at most "
        f"{distinct[large] - 1} count items here, whatever the rows"
    )
    for name, score in [*PLACE_SCORES.items(), ("last row", None)]:
        key = "board, viewer of the last row" if score is None else f"place of {score} ({name})"
        cells = []
        for size in (small, large):
            f = Figures.of(bench.samples[(size, key)])
            base = Figures.of(bench.samples[(size, BASELINE)])
            cells.append(
                f"{size:>7,} rows: {_number(f.requests)} req, {_number(f.items):>4} items "
                f"{f.kb:5.1f} KB, {f.rcu:g} RCU, {f.ms:7.1f} ms ({_x(f.ms, base.ms)})"
            )
        print(f"    {key:<30}" + " | ".join(cells))


def create_table() -> None:
    from testkit.table import create_game_table

    create_game_table(TABLE, stream=False)


def _quiet() -> None:
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    logging.getLogger("moto").setLevel(logging.CRITICAL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=int, default=100_000, help="rows on the board")
    parser.add_argument("--runs", type=int, default=3, help="measured calls per operation")
    args = parser.parse_args()
    if args.results < 2000 or args.runs < 1:  # a tenth of them: more than the top 100
        parser.error("--results 2000 or more, --runs 1 or more")
    _quiet()
    began = time.perf_counter()
    os.environ.setdefault("AWS_DEFAULT_REGION", REGION)
    large, small = args.results, args.results // 10

    import boto3
    from moto import mock_aws

    print(f"results: a board's top, one's own place and one result recorded, {large:,} rows")
    print(
        "  in-process on moto: DynamoResultsStore, ResultsRecorder and ResultsService on the "
        "table of template.yaml (no stream); the board individual/1/best/all, its rows made "
        "by write_row (its transaction caught) and put with their score counts into moto's "
        "table directly, no request"
    )
    sink = _LogSink()
    meter = Meter(lambda: datetime.now(UTC))
    sent: list[Sent] = []
    distinct: dict[int, int] = {}
    read_keys = [
        "board, viewer in the top",
        "board, in the top, names cold",
        "board, viewer of the last row",
        *(f"place of {score} ({name})" for name, score in PLACE_SCORES.items()),
    ]
    with ExitStack() as stack:
        stack.enter_context(mock_aws())
        stack.enter_context(metered_moto(meter, sink))
        stack.enter_context(observed(sent))
        stack.enter_context(item_level_rollback())
        boto3.setup_default_session(region_name=REGION)
        create_table()
        world = World()
        bench = Bench(world, meter, sent)
        for size, warm_up in ((small, True), (large, False)):
            seconds = world.load(size - len(world.rows))
            low, high = min(world.tallies), max(world.tallies)
            print(
                f"  {size:,} rows, {world.distinct} distinct scores ({low}-{high}; the most "
                f"shared by {max(world.tallies.values())} rows): loaded in {seconds:.1f} s"
            )
            distinct[size] = world.distinct
            bench.reads(size, args.runs, warm_up)
            keys = list(read_keys)
            if size == large:
                bench.records(size, args.runs)
                keys += ["record, 2 new players", "same result again"]
            print(f"  with {size:,} rows, per call (ms: median of {args.runs}):")
            print_size(bench, size, keys)
    print(
        "  record: statistics BatchGet, the counting TxW, profiles BatchGet, every row it may "
        "change in one BatchGet, then per row improved a TxW (its row, its score's count; a "
        "month or week board: its period's CLOSED checked), 9 boards a player (all time, month, "
        "week x best, sum, main); again: the counting TxW cancelled on the game's COUNTED "
        "marker, the rows read and found holding the game"
    )
    print_scaling(bench, small, large, distinct)
    print(
        "  items, KB: what the reads read, by DynamoDB's item-size rules (the place Query "
        "returns only `tally`, but reads and is billed for the whole count items); RCU: a Query "
        "per started 4 KB of all it read, a BatchGetItem per item's started 4 KB, x0.5 "
        "eventually consistent (the index is); WCU (bench/meters.py): per started KB of each "
        "item written or checked, x2 in a transaction, the index's included"
    )
    print(
        "  time: moto in this process, which goes over every item of the table for a Query: "
        "its query times grow with the rows; DynamoDB's follow the items read (the requests "
        "and items above); x base: ratio to the baseline's median at the same size"
    )
    for problem in bench.problems:
        print(f"  BUG: {problem}")
    if sink.lines:
        print(f"  {len(sink.lines)} warning/error log lines, the first:")
        for line in sink.lines[:3]:
            print(f"    {line[:300]}")
    print(f"  in {time.perf_counter() - began:.1f} s")
    return 1 if bench.problems else 0


if __name__ == "__main__":
    sys.exit(main())
