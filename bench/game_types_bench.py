"""DynamoDB per action by game type (`make bench`): requests, write and read units, and the
conflicts the writer retried, with 4 players acting at once.

Whole 4-player games of each `turnType` are played through a GameService on moto, in this
process, as the integration tests assemble it (tests/integration/conftest.py: the game table of
template.yaml, a recording notifier, simulated timers, seeded dice). Every player is a thread;
every turn they roll once keeping the dice of their most common face, then write the first legal
cell of their own turn, always naming the turn. Nobody thinks between actions: in own-turn
games the threads act back to back, the most a game item is ever raced for.

- turn_by_turn: each player acts when the game they were last sent shows it is their turn;
- simultaneous, each_for_themself, slow: every player has a turn of their own at the same time,
  so the 4 threads act at once and their conditional writes on the one game item race; the loser
  of a race is retried on fresh state by the writer (shared/yamb_service/game/writer.py), up to its
  SAVE_ATTEMPTS, then answered `conflict` and sent again with the same requestId. In simultaneous
  a player whose round is not over waits until their next turn shows up in their frames.

Counted per action, by the bench's meters (bench/meters.py) wrapped round moto's DynamoDB
handler: every request by operation, the write units (table and index) by DynamoDB's item-size
rules, failed conditions included, and the read units; the conflicts, both as the writer's
`WriteConflict` metric and as the StaleGameError its repository raised. Moto's DynamoDB is made
to apply one request at a time, as DynamoDB applies each atomically (devstack/aws.py does the
same for the local stack). At the end of every game each sheet must hold every cell once, each
the one its player wrote with the score they were shown, and its dice record must verify with one
roll a turn after roll 1: a conflict that lost or doubled a move fails the bench (exit 1).
Timings are ratios to turn_by_turn, timed in the same run (the games of the types alternate).

    .venv/bin/python bench/game_types_bench.py [--games 4] [--preset-games 1]
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from meters import (  # noqa: E402
    _MOTO_METHODS,
    READ_OPERATIONS,
    STEP_FUNCTIONS_TASK,
    WRITE_OPERATIONS,
    DynamoRequest,
    Meter,
    _patch,
)
from scripted_game import _most_common_face  # noqa: E402

TYPES = ("turn_by_turn", "simultaneous", "each_for_themself", "slow")
BASELINE = "turn_by_turn"
TYPE_SETTINGS: dict[str, dict[str, Any]] = {
    "turn_by_turn": {"turnType": "turn_by_turn", "turnSeconds": 60},
    "simultaneous": {"turnType": "simultaneous", "turnSeconds": 60},
    "each_for_themself": {"turnType": "each_for_themself", "turnSeconds": 60},
    "slow": {"turnType": "slow", "turnSeconds": None, "slowDeadlineHours": 48},
}
# (label, the sheet's settings, turns a player)
SHEETS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ('columns ["free"]', {"columns": ["free"], "preset": None}, 13),
    ("preset 1 (down, up)", {"preset": 1}, 26),
)
NAMES = ("ana", "ben", "cleo", "dan")
TURN_ACTIONS = ("roll", "write")
SETUP_ACTIONS = ("connect", "create_game", "join_game", "start_game")
OPERATIONS = ("Query", "GetItem", "PutItem", "UpdateItem", "TransactWriteItems")
SHORT = {
    "Query": "Query",
    "GetItem": "Get",
    "PutItem": "Put",
    "UpdateItem": "Upd",
    "TransactWriteItems": "TxW",
}
RESENT_CODES = ("conflict", "busy", "internal")  # safe to send again with the same requestId
MAX_SENDS = 20
WAIT_SECONDS = 60.0
FUNCTION = "GameFunction"
SEED = 20250602

_current = threading.local()  # the action being sent on this thread


class ScriptError(RuntimeError):
    pass


# ------------------------------------------------------------------------ what is counted


@dataclass
class ActionRecord:
    """One action a player meant, with every send of it (a resend keeps its requestId)."""

    kind: str
    label: str  # the meter's action label: its DynamoDB requests
    sends: int = 0
    stale: int = 0  # StaleGameError raised by the repository's save
    write_conflicts: int = 0  # the writer's WriteConflict metric
    outcome: str = ""
    ms: float = 0.0  # all its sends, as the player waited for them
    requests: list[DynamoRequest] = field(default_factory=list)


@dataclass
class GameRun:
    game_type: str
    sheet: str
    game_id: str
    seconds: float  # from the players' start to the last write
    records: list[ActionRecord]
    lane_task: list[DynamoRequest]  # the lane's own putItem of its token (Step Functions')
    problems: list[str]
    metrics: Counter[str]


def _record_metric(*, name: str, value: float = 1, **_: Any) -> None:
    """The service's metrics, counted per action instead of held for an EMF flush."""
    record: ActionRecord | None = getattr(_current, "record", None)
    if record is not None and name == "WriteConflict":
        record.write_conflicts += int(value)
    counts: Counter[str] | None = getattr(_current, "metrics", None)
    if counts is not None:
        counts[name] += int(value)


class _LogSink:
    """The Powertools logger's stream while the bench runs: warnings and errors kept."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            try:
                level = json.loads(line).get("level", "")
            except ValueError:
                level = "ERROR"
            if level in ("WARNING", "ERROR", "CRITICAL"):
                self.lines.append(line)
        return len(text)

    def flush(self) -> None:
        pass


@contextmanager
def metered_moto(meter: Meter, sink: _LogSink) -> Iterator[None]:
    """Inside mock_aws, before any client is made: moto's DynamoDB metered (the meter's own
    wrapper of each operation) and serialized, every request labelled with the action that sent
    it, the service's metrics counted per action, its logs kept off the terminal."""
    from botocore.handlers import BUILTIN_HANDLERS
    from moto.dynamodb.responses import DynamoHandler
    from yamb_service.common.observability import logger, metrics

    lock = threading.Lock()
    call_action = DynamoHandler.__dict__["call_action"]

    def serialized(handler: Any) -> Any:
        with lock:
            return call_action(handler)

    with ExitStack() as patches:
        _patch(patches, DynamoHandler, "call_action", serialized)
        for operation, method in _MOTO_METHODS.items():
            if method in DynamoHandler.__dict__:
                _patch(
                    patches,
                    DynamoHandler,
                    method,
                    meter._dynamodb(operation, DynamoHandler.__dict__[method]),
                )
        # Before moto's own before-send handler, which answers the request.
        hook = ("before-send", meter._before_send)
        BUILTIN_HANDLERS.insert(0, hook)
        patches.callback(BUILTIN_HANDLERS.remove, hook)
        metrics.add_metric = _record_metric  # type: ignore[method-assign,assignment]
        patches.callback(delattr, metrics, "add_metric")
        handler = logger.registered_handler
        previous = handler.setStream(sink)  # type: ignore[attr-defined]
        patches.callback(handler.setStream, previous)  # type: ignore[attr-defined]
        yield


# ------------------------------------------------------------------------ playing


def _notifier_class() -> type:
    from testkit.fakes import RecordingNotifier

    class BenchNotifier(RecordingNotifier):
        """The recording notifier, safe for players on threads: per connection the newest
        game it was sent (by version: broadcasts of racing writers may arrive out of order)
        and the answer to each request; waiters are woken at every frame."""

        def __init__(self) -> None:
            super().__init__()
            self.changed = threading.Condition()
            self.latest: dict[str, dict[str, Any]] = {}
            self.answers: dict[tuple[str, str], dict[str, Any]] = {}

        def send(self, connection_id: str, frame: Any) -> bool:
            with self.changed:
                delivered: bool = super().send(connection_id, frame)
                if delivered:
                    _, data = self.sent[-1]
                    if data.get("requestId"):
                        self.answers[connection_id, data["requestId"]] = data
                    game = data.get("game") if data.get("type") == "game" else None
                    newest = self.latest.get(connection_id)
                    if game and (newest is None or game["version"] >= newest["version"]):
                        self.latest[connection_id] = game
                    self.changed.notify_all()
            return delivered

        def wait_for(
            self, connection_id: str, ready: Callable[[dict[str, Any]], bool]
        ) -> dict[str, Any]:
            deadline = time.monotonic() + WAIT_SECONDS
            with self.changed:
                while True:
                    game = self.latest.get(connection_id)
                    if game is not None and ready(game):
                        return game
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise ScriptError(f"{connection_id} waited {WAIT_SECONDS:.0f} s: {game}")
                    self.changed.wait(left)

    return BenchNotifier


@dataclass
class Table:
    """What every game shares: the repositories on the one table, the meter."""

    games: Any
    players: Any
    store_token: Callable[[str, int, str], None]
    meter: Meter
    notifier_class: type


class Game:
    """One game being played: its service, its players, what they sent."""

    def __init__(
        self, table: Table, game_type: str, sheet: tuple[str, dict[str, Any], int], n: int
    ):
        from yamb_service.edge.caller import Caller

        from testkit.fakes import SimulatedTimers
        from testkit.service import Clock, make_service

        self.table = table
        self.game_type = game_type
        self.sheet_label, sheet_settings, self.turns = sheet
        self.settings = {"players": len(NAMES), **sheet_settings, **TYPE_SETTINGS[game_type]}
        self.clock = Clock()
        self.notifier = table.notifier_class()
        timers = SimulatedTimers(now=self.clock, store_token=self._lane_task)
        self.service = make_service(
            table.games, table.players, self.notifier, timers, self.clock, seed=SEED + n
        )
        prefix = f"{game_type[:4]}{n}-"
        self.callers = [Caller(prefix + name, f"conn-{prefix}{name}") for name in NAMES]
        self.game_id = ""
        self.records: list[ActionRecord] = []
        self.sent_writes: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
        self.metrics: Counter[str] = Counter()
        self._labels = itertools.count(1)
        self._request_ids = itertools.count(1)
        self._lock = threading.Lock()

    def _lane_task(self, game_id: str, lane: int, token: str) -> None:
        """A lane's first state stores its token: Step Functions' request, not the action's."""
        store = self.table.store_token
        self.table.meter.invocation(
            "StepFunctions", STEP_FUNCTIONS_TASK, lambda _e, _c: store(game_id, lane, token)
        )(None, None)

    # -- sending

    def send(self, caller: Any, kind: str, **fields: Any) -> dict[str, Any]:
        """`caller` sends one action until it is answered other than by a safe-to-resend error
        (a conflict after the writer's attempts, busy, internal), always with the same
        requestId; the answer."""
        from yamb.protocol import CLIENT_ACTIONS

        request_id = f"{caller.player_id}-{next(self._request_ids)}"
        action = CLIENT_ACTIONS.validate_python({"action": kind, "requestId": request_id, **fields})
        record = ActionRecord(kind, f"{kind}#{next(self._labels)}")
        handle = self.table.meter.invocation(
            FUNCTION, record.label, lambda _e, _c: self.service.handle(caller, action)
        )
        _current.record, _current.metrics = record, self.metrics
        try:
            while True:
                record.sends += 1
                started = time.perf_counter()
                handle(None, None)
                record.ms += (time.perf_counter() - started) * 1000
                answer = self.notifier.answers.get((caller.connection_id, request_id))
                if answer is None:
                    raise ScriptError(f"{kind} of {caller.player_id} was not answered")
                code = answer.get("code") if answer["type"] == "error" else answer["type"]
                record.outcome = str(code)
                if code not in RESENT_CODES or record.sends == MAX_SENDS:
                    return dict(answer)
        finally:
            _current.record = _current.metrics = None
            with self._lock:
                self.records.append(record)

    def applied(self, caller: Any, kind: str, **fields: Any) -> dict[str, Any]:
        """The game after the action applied (an ack of a repeat: the newest game sent)."""
        answer = self.send(caller, kind, **fields)
        if answer["type"] == "game" and answer.get("game") is not None:
            return dict(answer["game"])
        if answer["type"] == "ack":
            return self.notifier.latest[caller.connection_id]  # type: ignore[no-any-return]
        raise ScriptError(f"{kind} of {caller.player_id}: {answer}")

    # -- the game

    def _connecting(self, caller: Any) -> Callable[[Any, Any], None]:
        return lambda _event, _context: self.service.connect(caller)

    def set_up(self) -> None:
        meter = self.table.meter
        for caller in self.callers:
            record = ActionRecord("connect", f"connect#{next(self._labels)}", 1, outcome="ok")
            meter.invocation("ConnectFunction", record.label, self._connecting(caller))(None, None)
            self.records.append(record)
        creator, *joiners = self.callers
        self.game_id = self.applied(creator, "create_game", settings=self.settings)["gameId"]
        for caller in joiners:
            self.applied(caller, "join_game", gameId=self.game_id)
        self.applied(creator, "start_game", gameId=self.game_id)

    def play(self) -> float:
        """The players, one thread each, started at once; the seconds until the last write."""
        errors: list[BaseException] = []
        start = threading.Barrier(len(self.callers))

        def player(caller: Any) -> None:
            try:
                start.wait()
                self._play_sheet(caller)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=player, args=(c,)) for c in self.callers]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        if errors:
            raise ScriptError(f"{self.game_type} game {self.game_id}: {errors[0]!r}") from errors[0]
        return seconds

    def _play_sheet(self, caller: Any) -> None:
        me = caller.player_id
        last = 0
        for _ in range(self.turns):
            view = self.notifier.wait_for(
                caller.connection_id,
                lambda game, last=last: (
                    game["turn"] is not None
                    and game["turn"]["playerId"] == me
                    and game["turn"]["number"] > last
                ),
            )
            turn = view["turn"]
            number = turn["number"]
            rolled = self.applied(
                caller,
                "roll",
                gameId=self.game_id,
                keep=_most_common_face(turn["dice"]),
                turn=number,
            )
            cell = rolled["turn"]["legal"][0]
            written = self.applied(
                caller,
                "write",
                gameId=self.game_id,
                column=cell["column"],
                row=cell["row"],
                turn=number,
            )
            self.sent_writes[me].append((cell["column"], cell["row"], cell["score"]))
            status, mine = written["status"], len(self.sent_writes[me])
            if status != "running" and (status != "finished" or mine < self.turns):
                raise ScriptError(f"{me}: the game ended {written['status']} early")
            last = number

    def check(self) -> list[str]:
        """Every sheet holds each cell once, each the one its player wrote with the score
        they were shown; the game finished with every turn played; its dice record is whole,
        verifies against its seed, and shows one roll a turn after roll 1 (none doubled)."""
        from yamb.errors import YambError
        from yamb.session.views import dice_record, game_view

        session = self.table.games.load(self.game_id).session
        view = game_view(session).model_dump(by_alias=True)
        problems = []
        if view["status"] != "finished":
            problems.append(f"status {view['status']}")
        played = session.game().turns_played
        if played != [self.turns] * len(self.callers):
            problems.append(f"turns played {played}")
        for sheet in view["sheets"]:
            player = sheet["playerId"]
            stored = sorted(
                (column, row, value)
                for column, rows in sheet["cells"].items()
                for row, value in rows.items()
            )
            sent = sorted(self.sent_writes[player])
            if stored != sent:
                lost = sorted(set(sent) - set(stored))
                extra = sorted(set(stored) - set(sent))
                problems.append(
                    f"{player}: {len(stored)} cells stored, {len(sent)} written; "
                    f"not stored {lost[:3]}, not written {extra[:3]}"
                )
            elif len(set(sent)) != self.turns:
                problems.append(f"{player}: {len(set(sent))} distinct cells of {self.turns}")
        try:
            archived = self.table.games.archived_record(self.game_id).turns
            record = dice_record(session, "check", archived)
        except YambError as error:
            return [*problems, f"dice record: {error.message}"]
        if record.mismatch is not None or not record.seed_matches_commitment:
            problems.append(f"dice record does not verify: {record.mismatch}")
        rolls = Counter(line.count(";") for line in record.turns)
        if rolls != {1: self.turns * len(self.callers)}:
            problems.append(f"rolls after roll 1, turns by count: {dict(rolls)}")
        return problems


def play_one(
    table: Table, game_type: str, sheet: tuple[str, dict[str, Any], int], n: int
) -> GameRun:
    table.meter.reset()
    game = Game(table, game_type, sheet, n)
    game.set_up()
    seconds = game.play()
    usage = table.meter.take()
    problems = game.check()  # its read is not the game's
    by_label: dict[str, list[DynamoRequest]] = defaultdict(list)
    for request in usage.dynamodb:
        by_label[request.action].append(request)
    for record in game.records:
        record.requests = by_label.pop(record.label, [])
    lane_task = by_label.pop(STEP_FUNCTIONS_TASK, [])
    if by_label:
        problems.append(f"requests of no action: {sorted(by_label)}")
    return GameRun(
        game_type, sheet[0], game.game_id, seconds, game.records, lane_task, problems, game.metrics
    )


# ------------------------------------------------------------------------ figures


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


@dataclass
class TypeFigures:
    game_type: str
    games: int
    actions: list[ActionRecord]  # roll and write
    per_game: dict[str, float]
    seconds: list[float]
    lane_requests: float  # per game

    @classmethod
    def of(cls, game_type: str, runs: list[GameRun]) -> TypeFigures:
        actions = [r for run in runs for r in run.records if r.kind in TURN_ACTIONS]
        every = [req for run in runs for r in run.records for req in r.requests]
        every += [req for run in runs for req in run.lane_task]
        n = max(len(runs), 1)
        per_game = {
            "requests": len(every) / n,
            "wcu": sum(req.write_units + req.index_write_units for req in every) / n,
            "rcu": sum(req.read_units for req in every) / n,
            "conflicts": sum(r.stale for run in runs for r in run.records) / n,
        }
        lane = sum(len(run.lane_task) for run in runs) / n
        return cls(game_type, len(runs), actions, per_game, [r.seconds for r in runs], lane)

    def per_action(self, kinds: tuple[str, ...] = TURN_ACTIONS) -> dict[str, float]:
        records = [r for r in self.actions if r.kind in kinds]
        n = max(len(records), 1)
        requests = [req for r in records for req in r.requests]
        operations = Counter(req.operation for req in requests)
        figures = {op: operations[op] / n for op in OPERATIONS}
        figures["reads"] = sum(operations[op] for op in READ_OPERATIONS) / n
        figures["writes"] = sum(operations[op] for op in WRITE_OPERATIONS) / n
        figures["wcu"] = sum(req.write_units for req in requests) / n
        figures["gsi"] = sum(req.index_write_units for req in requests) / n
        figures["rcu"] = sum(req.read_units for req in requests) / n
        figures["conflicts"] = sum(r.stale for r in records) / n
        figures["retried"] = sum(r.stale > 0 for r in records) / n
        figures["worst"] = max((r.stale for r in records), default=0)
        figures["resent"] = sum(r.sends - 1 for r in records)
        figures["ms"] = _mean([r.ms for r in records])
        figures["n"] = len(records)
        return figures


def _x(value: float, base: float) -> str:
    return f"{value / base:.2f}x" if base else "-"


def print_sheet(label: str, turns: int, runs: list[GameRun]) -> None:
    figures = {t: TypeFigures.of(t, [r for r in runs if r.game_type == t]) for t in TYPES}
    base_figures = figures[BASELINE]
    print(
        f"  {label}: {turns} turns a player, {base_figures.games} game(s) a type; mean per turn "
        "action (a roll or a write; one sent again after a `conflict` answer counts once)"
    )
    ops = "".join(f"{SHORT[op]:>6}" for op in OPERATIONS)
    print(
        f"    {'type':<18}{'acts':>5}{ops}{'WCU':>6}{'GSI':>5}{'RCU':>6}{'confl':>7}"
        f"{'retried':>8}{'worst':>6}{'resent':>7}{'ms/act':>8}{'':>7}{'s/game':>7}"
    )
    base = base_figures.per_action()
    base_seconds = _mean(base_figures.seconds)
    for game_type in TYPES:
        f = figures[game_type].per_action()
        seconds = _mean(figures[game_type].seconds)
        cells = "".join(f"{f[op]:6.2f}" for op in OPERATIONS)
        print(
            f"    {game_type:<18}{f['n']:>5.0f}{cells}{f['wcu']:6.2f}{f['gsi']:5.2f}{f['rcu']:6.2f}"
            f"{f['conflicts']:7.2f}{f['retried']:8.0%}{f['worst']:6.0f}{f['resent']:7.0f}"
            f"{f['ms']:8.1f}{_x(f['ms'], base['ms']):>7}"
            f"{seconds:7.2f}{_x(seconds, base_seconds):>6}"
        )
    print("    by kind, per action: write units (table + GSI) / read units / conflicts, retried")
    for game_type in TYPES:
        kinds = []
        for kind in TURN_ACTIONS:
            f = figures[game_type].per_action((kind,))
            kinds.append(
                f"{kind} {f['wcu'] + f['gsi']:.2f} / {f['rcu']:.2f} / {f['conflicts']:.2f}, "
                f"{f['retried']:3.0%}"
            )
        print(f"      {game_type:<18}" + ";   ".join(kinds))
    print(
        "    per game, every request (set-up: 4 connects, create, 3 joins, start; the turns; "
        "the lane task storing its token):"
    )
    b = base_figures.per_game
    for game_type in TYPES:
        t = figures[game_type]
        g = t.per_game
        print(
            f"      {game_type:<18}{g['requests']:5.0f} requests "
            f"({_x(g['requests'], b['requests'])} tbt), {g['wcu']:5.0f} WCU "
            f"({_x(g['wcu'], b['wcu'])}), {g['rcu']:5.0f} RCU "
            f"({_x(g['rcu'], b['rcu'])}), {g['conflicts']:4.0f} conflicts, lane task "
            f"{t.lane_requests:.0f} PutItem"
        )


def print_checks(runs: list[GameRun], sink: _LogSink) -> bool:
    bad = [run for run in runs if run.problems]
    agree = all(r.stale == r.write_conflicts for run in runs for r in run.records)
    turn_records = [r for run in runs for r in run.records if r.kind in TURN_ACTIONS]
    answers = Counter(r.outcome for r in turn_records)
    sends = sum(r.sends for r in turn_records)
    print(
        f"  checks: {len(runs) - len(bad)} of {len(runs)} games finished with every sheet full, "
        "each cell once, the one its player wrote, with the score they were shown; its dice "
        "record whole, verified against the seed, one roll a turn after roll 1"
    )
    for run in bad:
        print(f"    BUG: {run.game_type} {run.sheet} game {run.game_id}: {'; '.join(run.problems)}")
    print(
        f"    conflicts: each action's StaleGameError count (repository) = its WriteConflict "
        f"metric (writer): {'yes' if agree else 'NO'}; {len(turn_records)} turn actions, "
        f"{sends} sends, final answers: " + ", ".join(f"{c} {n}" for c, n in answers.most_common())
    )
    if sink.lines:
        print(f"    {len(sink.lines)} warning/error log lines, the first:")
        for line in sink.lines[:3]:
            print(f"      {line[:300]}")
    return not bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help='games a type, columns ["free"]')
    parser.add_argument("--preset-games", type=int, default=1, help="games a type, preset 1")
    args = parser.parse_args()
    logging.getLogger("moto").setLevel(logging.CRITICAL)
    began = time.perf_counter()

    import boto3
    from moto import mock_aws
    from yamb_service.common.dynamo import item_model
    from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
    from yamb_service.game.ports import StaleGameError

    from testkit.table import REGION, TABLE_NAME, create_game_table, lane_token_store

    class CountingGames(DynamoGameRepository):
        def save(self, session: Any, **kwargs: Any) -> None:
            try:
                super().save(session, **kwargs)
            except StaleGameError:
                record: ActionRecord | None = getattr(_current, "record", None)
                if record is not None:
                    record.stale += 1
                raise

    sink = _LogSink()
    meter = Meter(lambda: datetime.now(UTC))
    print("game types: DynamoDB per action with 4 players acting at once (own turns: 4 threads)")
    print(
        "  in-process GameService on moto (tests/integration/conftest.py's assembly), seeded "
        "dice; each turn: roll once keeping the most common face, write the first legal cell; "
        "no thinking time between actions (own turns: the worst case of racing)"
    )
    runs: dict[str, list[GameRun]] = defaultdict(list)
    with mock_aws(), metered_moto(meter, sink):
        boto3.setup_default_session(region_name=REGION)
        create_game_table(TABLE_NAME)
        item = item_model(TABLE_NAME, REGION)
        table = Table(
            CountingGames(item),
            DynamoPlayerRepository(item),
            lane_token_store(TABLE_NAME),
            meter,
            _notifier_class(),
        )
        counts = (args.games, args.preset_games)
        n = itertools.count()
        for sheet, games in zip(SHEETS, counts, strict=True):
            for _ in range(games):  # the types alternate: their timings share the machine's state
                for game_type in TYPES:
                    runs[sheet[0]].append(play_one(table, game_type, sheet, next(n)))
    for label, _, turns in SHEETS:
        if runs[label]:
            print_sheet(label, turns, runs[label])
    every = [run for label in runs for run in runs[label]]
    ok = print_checks(every, sink)
    print(
        "  WCU: 1 per started KB of the larger of the item before and after, per item written or "
        "checked, x2 in a transaction, failed conditions included; GSI: gsi1's entry; RCU: per "
        "started 4 KB returned, strongly consistent"
    )
    print(f"  {len(every)} games in {time.perf_counter() - began:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
