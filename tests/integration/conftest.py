"""Shared fixtures of the integration tests: the game table on moto, a game service wired to it
with recording adapters, a controllable clock, and helpers to act as a player.

The mock and the table live for one test module (creating botocore and pynamodb clients costs
about 0.3 s each); every test starts from an emptied table and fresh recorders.
"""

import itertools
import json
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws
from yamb.protocol import CLIENT_ACTIONS
from yamb.session.model import GameSession
from yamb_service.common.dynamo import item_model
from yamb_service.common.observability import metrics
from yamb_service.edge.caller import Caller
from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
from yamb_service.game.service import GameService

from testkit.fakes import RecordingNotifier, SimulatedTimers
from testkit.service import Clock, make_service
from testkit.table import (
    REGION,
    create_game_table,
    empty_table,
    lane_token_store,
)

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"


ANA = Caller("ana", "conn-ana")
BEN = Caller("ben", "conn-ben")
CLEO = Caller("cleo", "conn-cleo")
DAN = Caller("dan", "conn-dan")


def load_event(name: str) -> dict[str, Any]:
    """A sample event of events/ (the same files serve `sam local invoke`)."""
    return json.loads((EVENTS / name).read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- AWS fixtures


@pytest.fixture(scope="module")
def aws() -> Iterator[None]:
    """One moto mock per test module, whose DynamoDB handles one request at a time as the local
    stack's does (devstack.moto_dynamodb): DynamoDB applies each request atomically, moto does
    not make a condition check and its write one step, so two threads racing for the last
    Pioneer places could both pass `tally = 98` (a flaky CI failure)."""
    from moto.dynamodb.responses import DynamoHandler

    from devstack import moto_dynamodb

    saved = DynamoHandler.__dict__["call_action"]
    DynamoHandler.call_action = moto_dynamodb.call_action  # type: ignore[method-assign]
    try:
        with mock_aws():
            yield
    finally:
        DynamoHandler.call_action = saved  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def _module_table(aws: None) -> str:
    # No stream: no test here reads it (the functions get stream records from events/), and
    # moto copies every record kept with the table for each transaction item.
    return create_game_table(stream=False)


@pytest.fixture
def table(_module_table: str) -> Iterator[str]:
    """The game table, empty at the start of the test."""
    empty_table(_module_table)
    yield _module_table


@pytest.fixture(scope="module")
def item(_module_table: str) -> Any:
    return item_model(_module_table, REGION)


@pytest.fixture
def own_item(aws: None) -> Iterator[Any]:
    """A game table of the test's own, without its stream (see create_game_table)."""
    name = create_game_table(f"yamb-own-{uuid.uuid4().hex[:12]}", stream=False)
    yield item_model(name, REGION)
    boto3.client("dynamodb", region_name=REGION).delete_table(TableName=name)


@pytest.fixture(autouse=True)
def _fresh_metrics(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Metrics need a namespace to flush (every 100 values, and after each handler call)."""
    monkeypatch.setattr(metrics.provider, "namespace", metrics.provider.namespace or "YambTest")
    yield
    metrics.clear_metrics()


# ----------------------------------------------------------------------------- the service


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
def timers(table: str, clock: "Clock") -> SimulatedTimers:
    return SimulatedTimers(now=clock, store_token=lane_token_store(table))


@pytest.fixture
def games(table: str, item: Any) -> DynamoGameRepository:
    return DynamoGameRepository(item)


@pytest.fixture
def players(table: str, item: Any) -> DynamoPlayerRepository:
    return DynamoPlayerRepository(item)


@pytest.fixture
def service(
    games: DynamoGameRepository,
    players: DynamoPlayerRepository,
    notifier: RecordingNotifier,
    timers: SimulatedTimers,
    clock: Clock,
) -> GameService:
    return make_service(games, players, notifier, timers, clock)


# ----------------------------------------------------------------------------- acting


class Harness:
    """Drives the service as players do and reads what each connection received."""

    def __init__(
        self,
        service: GameService,
        notifier: RecordingNotifier,
        timers: SimulatedTimers,
        clock: Clock,
    ) -> None:
        self.service = service
        self.notifier = notifier
        self.timers = timers
        self.clock = clock
        self.games: DynamoGameRepository = service.games  # type: ignore[assignment]
        self.players: DynamoPlayerRepository = service.players  # type: ignore[assignment]
        self._request_ids = itertools.count(1)
        self._sync_requests: set[str] = set()

    def other_service(self, seed: int = 99) -> GameService:
        """A second instance (another Lambda execution environment) on the same table."""
        return make_service(
            DynamoGameRepository(self.games._item),
            DynamoPlayerRepository(self.players._item),
            self.notifier,
            self.timers,
            self.clock,
            seed,
        )

    # -- time

    def wake(self, game_id: str, lane: int | None) -> dict[str, Any] | None:
        """The clock function, as a timer calls it."""
        decision = self.service.wake(game_id, lane=lane)
        return None if decision is None else decision.model_dump(by_alias=True)

    def advance(self, **delta: float) -> datetime:
        """Moves the clock forward, firing every timer due on the way at its moment."""
        target = self.clock.moment + timedelta(**delta)
        while True:
            due = self.timers.next_due()
            if due is None or due > target:
                break
            self.clock.set(max(due, self.clock.moment))
            self.timers.fire_due(self.wake)
        self.clock.set(target)
        return target

    # -- sending

    def act(
        self, caller: Caller, action: str, *, via: GameService | None = None, **fields: Any
    ) -> str:
        """`caller` sends the client frame `action` with `fields` (camelCase) and a fresh
        requestId unless one is given; returns the requestId."""
        frame = {"action": action, **fields}
        frame.setdefault("requestId", f"req-{next(self._request_ids)}")
        if action == "sync":
            self._sync_requests.add(frame["requestId"])
        (via or self.service).handle(caller, CLIENT_ACTIONS.validate_python(frame))
        return str(frame["requestId"])

    def connect(self, *callers: Caller) -> None:
        for caller in callers:
            self.service.connect(caller)

    def grant_premium(self, *callers: Caller, days: int = 30) -> None:
        """Premium for `callers` from now on (an operator's grant): every preset and column."""
        for caller in callers:
            self.players.grant_premium(caller.player_id, self.clock.moment + timedelta(days=days))

    # -- reading

    def frames(self, caller: Caller | str) -> list[dict[str, Any]]:
        connection = caller if isinstance(caller, str) else caller.connection_id
        return self.notifier.frames_to(connection)

    def answers(self, caller: Caller, request_id: str) -> list[dict[str, Any]]:
        """The frames answering one request (ack, error, game list, sync)."""
        return [f for f in self.frames(caller) if f.get("requestId") == request_id]

    def answer(self, caller: Caller, request_id: str) -> dict[str, Any]:
        frames = self.answers(caller, request_id)
        assert len(frames) == 1, frames
        return frames[0]

    def ack(self, caller: Caller, request_id: str) -> dict[str, Any]:
        """The answer saying the action applied: the new game with the requestId (its gameId
        and version on top), or an ack (a repeat, or an actor no longer at the table)."""
        frame = self.answer(caller, request_id)
        assert frame["type"] in ("ack", "game"), frame
        if frame["type"] == "game":
            game = frame["game"]
            return {**frame, "gameId": game["gameId"], "version": game["version"]}
        return frame

    def error(self, caller: Caller, request_id: str) -> dict[str, Any]:
        frame = self.answer(caller, request_id)
        assert frame["type"] == "error", frame
        return frame

    def game_answer(self, caller: Caller, request_id: str) -> dict[str, Any]:
        """The game frame answering an applied action: the new game."""
        frame = self.answer(caller, request_id)
        assert frame["type"] == "game", frame
        return frame["game"]  # type: ignore[no-any-return]

    def broadcasts(self, caller: Caller | str) -> list[dict[str, Any]]:
        """The game views sent to a connection: pushed to it, or answering its actions (not
        answers to a sync)."""
        return [
            f["game"]
            for f in self.frames(caller)
            if f["type"] == "game"
            and f.get("game") is not None
            and f.get("requestId") not in self._sync_requests
        ]

    def last_game(self, caller: Caller | str) -> dict[str, Any]:
        views = self.broadcasts(caller)
        assert views, f"no game frame was sent to {caller}"
        return views[-1]

    def session(self, game_id: str) -> GameSession:
        return self.games.load(game_id).session

    # -- setting up games

    def create_game(self, creator: Caller, **settings: Any) -> str:
        settings.setdefault("preset", 1)
        request_id = self.act(creator, "create_game", settings=settings)
        return str(self.ack(creator, request_id)["gameId"])

    def running_game(self, *callers: Caller, connect: bool = True, **settings: Any) -> str:
        """A started game: the first caller creates it, the others join in order, it starts."""
        if connect:
            self.connect(*callers)
        settings.setdefault("players", len(callers))
        game_id = self.create_game(callers[0], **settings)
        for caller in callers[1:]:
            self.ack(caller, self.act(caller, "join_game", gameId=game_id))
        self.ack(callers[0], self.act(callers[0], "start_game", gameId=game_id))
        return game_id

    def legal_cell(self, game_id: str) -> tuple[str, str]:
        """A legal cell for the seat in turn: (column id, row id)."""
        game = self.session(game_id).game()
        column, row, _ = game.legal_cells()[0]
        return game.layout.columns[column].id, game.layout.grid.rows[row].id

    def write_any(self, caller: Caller, game_id: str) -> tuple[str, str]:
        """`caller`, in turn, writes the first legal cell; returns the cell."""
        column, row = self.legal_cell(game_id)
        self.ack(caller, self.act(caller, "write", gameId=game_id, column=column, row=row))
        return column, row


@pytest.fixture
def harness(
    service: GameService,
    notifier: RecordingNotifier,
    timers: SimulatedTimers,
    clock: Clock,
) -> Harness:
    return Harness(service, notifier, timers, clock)


@pytest.fixture
def atomic_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each DynamoDB request atomic, transactions serializable, as DynamoDB runs them: moto
    in-process checks a condition and writes without a lock (and a failed transaction puts a
    copy of the whole table back), so racing threads would see races DynamoDB does not have."""
    import threading

    from moto.dynamodb.models import DynamoDBBackend

    lock = threading.RLock()
    for name in ("get_item", "put_item", "update_item", "delete_item", "query"):
        original = getattr(DynamoDBBackend, name)

        def locked(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            with lock:
                return _original(*args, **kwargs)

        monkeypatch.setattr(DynamoDBBackend, name, locked)
    original_transaction = DynamoDBBackend.transact_write_items

    def transaction(*args: Any, **kwargs: Any) -> Any:
        with lock:
            return original_transaction(*args, **kwargs)

    monkeypatch.setattr(DynamoDBBackend, "transact_write_items", transaction)


@pytest.fixture
def network_latency(atomic_requests: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every DynamoDB request takes 5 ms more, outside the table's lock, as a request over the
    network does (moto in-process answers in about 1 ms): the time between a writer's read and
    its conditional write is then as long as in a Lambda function, and so are its races."""
    import time

    from moto.dynamodb.models import DynamoDBBackend

    for name in ("get_item", "put_item", "update_item", "delete_item", "query"):
        original = getattr(DynamoDBBackend, name)

        def slowed(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            time.sleep(0.02)
            return _original(*args, **kwargs)

        monkeypatch.setattr(DynamoDBBackend, name, slowed)


@pytest.fixture
def people(harness: "Harness", item: Any) -> "Harness":
    """The harness with four players' active accounts (tests/integration/social.py)."""
    from tests.integration.social import make_people

    return make_people(harness, item)  # type: ignore[no-any-return]
