"""The Lambda handlers in-process on moto, fed the sample events of events/ (the files that serve
`sam local invoke`), with their ids adjusted. Frames sent through API Gateway's management API
are recorded per connection by patching moto's backend; timers are Step Functions executions of
the state machines created from statemachines/ (moto stores them without running them)."""

import importlib.util
import itertools
import json
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any, get_args

import boto3
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from moto.apigatewaymanagementapi.models import ApiGatewayManagementApiBackend
from moto.core.exceptions import JsonRESTError
from yamb.accounts.profile import AccountStatus, Profile
from yamb.protocol import ClientAction
from yamb.session.timers import wake_moment, wake_second
from yamb_service.common import clock, config
from yamb_service.edge.auth import TokenVerifier
from yamb_service.edge.identity import PlayerTokens
from yamb_service.edge.websocket import parse_action, parse_event
from yamb_service.game import wiring
from yamb_service.game.dynamo import DynamoGameRepository, DynamoPlayerRepository
from yamb_service.game.presence import HANDSHAKE_LIMIT

from testkit.auth import StaticKeys
from testkit.catalogues import Languages

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
REGION = "us-east-1"
ENDPOINT = "https://example.execute-api.us-east-1.amazonaws.com/live"
ISSUER = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_TestPool"
AUDIENCE = "test-client-id"
# Every client action of the protocol: the union's members, by their `action` literal.
ACTIONS = sorted(
    get_args(member.model_fields["action"].annotation)[0]
    for member in get_args(get_args(ClientAction)[0])
)


@dataclass(frozen=True)
class Player:
    player_id: str
    connection_id: str


ANA = Player("ana", "conn-ana")
BEN = Player("ben", "conn-ben")
CLEO = Player("cleo", "conn-cleo")


@dataclass
class LambdaContext:
    function_name: str = "test-function"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = f"arn:aws:lambda:{REGION}:123456789012:function:test-function"
    aws_request_id: str = "00000000-0000-0000-0000-000000000000"


def load_event(name: str) -> dict[str, Any]:
    return json.loads((EVENTS / name).read_text(encoding="utf-8"))


def as_player(event: dict[str, Any], player: Player) -> dict[str, Any]:
    context = event["requestContext"]
    context["connectionId"] = player.connection_id
    context["authorizer"]["playerId"] = player.player_id
    context["authorizer"]["principalId"] = player.player_id
    context["authorizer"]["nickname"] = player.player_id.title()
    return event


def message(name: str, player: Player, **body: Any) -> dict[str, Any]:
    """events/<name>.json sent by `player`, its body's fields replaced by `body` (None drops)."""
    event = as_player(load_event(f"{name}.json"), player)
    frame = json.loads(event["body"])
    frame.update(body)
    event["body"] = json.dumps({k: v for k, v in frame.items() if v is not None})
    return event


def load_function(name: str) -> ModuleType:
    """functions/<name>/app.py under a module name of its own: every function has an app.py."""
    path = ROOT / "functions" / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"yamb_function_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ----------------------------------------------------------------------------- fixtures


@dataclass
class Connections:
    """What the management API received: frames per connection, deleted connections, and
    connections that answer 410 Gone."""

    frames: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    deleted: list[str] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)

    def to(self, player: Player) -> list[dict[str, Any]]:
        return self.frames.get(player.connection_id, [])

    def answer(self, player: Player, request_id: str) -> dict[str, Any]:
        (frame,) = [f for f in self.to(player) if f.get("requestId") == request_id]
        return frame

    def last_game(self, player: Player) -> dict[str, Any]:
        views = [f["game"] for f in self.to(player) if f["type"] == "game" and f.get("game")]
        assert views, f"no game frame reached {player}"
        return views[-1]


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> Connections:
    recorded = Connections()

    def post_to_connection(self: Any, data: bytes, connection_id: str) -> None:
        connection_id = urllib.parse.unquote(connection_id)
        if connection_id in recorded.gone:
            error = JsonRESTError("GoneException", "")
            error.code = 410
            raise error
        recorded.frames.setdefault(connection_id, []).append(json.loads(data))

    def delete_connection(self: Any, connection_id: str) -> None:
        recorded.deleted.append(urllib.parse.unquote(connection_id))

    monkeypatch.setattr(ApiGatewayManagementApiBackend, "post_to_connection", post_to_connection)
    monkeypatch.setattr(ApiGatewayManagementApiBackend, "delete_connection", delete_connection)
    return recorded


@dataclass(frozen=True)
class Machines:
    lane: str
    wake: str


@pytest.fixture
def machines(aws: None, table: str) -> Machines:
    """The timer state machines, of their own for each test: their executions are the test's."""
    clock_arn = f"arn:aws:lambda:{REGION}:123456789012:function:yamb-test-clock"
    client = boto3.client("stepfunctions", region_name=REGION)
    number = next(STATE_MACHINES)
    arns = {}
    for kind in ("lane", "wake"):
        definition = (ROOT / "statemachines" / f"{kind}.asl.json").read_text(encoding="utf-8")
        definition = definition.replace("${ClockFunctionArn}", clock_arn)
        created = client.create_state_machine(
            name=f"yamb-test-{kind}-{number}",
            definition=definition.replace("${TableName}", table),
            roleArn=f"arn:aws:iam::123456789012:role/yamb-test-{kind}",
        )
        arns[kind] = str(created["stateMachineArn"])
    return Machines(**arns)


@pytest.fixture
def env(
    table: str, machines: Machines, connections: Connections, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """The functions' environment, as template.yaml sets it, and fresh wiring."""
    for name, value in {
        "TABLE_NAME": table,
        "CONNECTIONS_ENDPOINT": ENDPOINT,
        "LANE_STATE_MACHINE_ARN": machines.lane,
        "WAKE_STATE_MACHINE_ARN": machines.wake,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    config.service_settings.cache_clear()
    wiring.game_service.cache_clear()
    yield
    config.service_settings.cache_clear()
    wiring.game_service.cache_clear()


@dataclass
class Functions:
    connections: Callable[[dict[str, Any], Any], Any]
    game: Callable[[dict[str, Any], Any], Any]
    clock: Callable[[dict[str, Any], Any], Any]
    authorizer: ModuleType


@pytest.fixture(scope="module")
def functions() -> Functions:
    return Functions(
        connections=load_function("connections").handler,
        game=load_function("game").handler,
        clock=load_function("clock").handler,
        authorizer=load_function("authorizer"),
    )


@dataclass
class Stack:
    """The functions as API Gateway and Step Functions call them."""

    functions: Functions
    connections: Connections
    games: DynamoGameRepository
    players: DynamoPlayerRepository
    machines: Machines

    def connect(self, player: Player) -> Any:
        return self.functions.connections(as_player(load_event("connect.json"), player), CONTEXT)

    def disconnect(self, player: Player) -> Any:
        event = as_player(load_event("disconnect.json"), player)
        return self.functions.connections(event, CONTEXT)

    def send(self, name: str, player: Player, **body: Any) -> str:
        """The game function gets events/<name>.json from `player`; returns its requestId."""
        body.setdefault("requestId", f"{name}-{next(REQUEST_IDS)}")
        assert self.functions.game(message(name, player, **body), CONTEXT) == {"statusCode": 200}
        return str(body["requestId"])

    def ack(self, name: str, player: Player, **body: Any) -> dict[str, Any]:
        """The answer of an applied action: the new game (gameId and version on top), or an
        ack."""
        frame = self.connections.answer(player, self.send(name, player, **body))
        assert frame["type"] in ("ack", "game"), frame
        if frame["type"] == "game":
            return {**frame, "gameId": frame["game"]["gameId"], "version": frame["game"]["version"]}
        return frame

    def executions(self, kind: str) -> dict[str, dict[str, Any]]:
        """Timer executions of the lane or wake machine, by name, with their input and status."""
        client = boto3.client("stepfunctions", region_name=REGION)
        arn = getattr(self.machines, kind)
        listed = client.list_executions(stateMachineArn=arn)["executions"]
        return {
            e["name"]: json.loads(
                client.describe_execution(executionArn=e["executionArn"])["input"]
            )
            | {"status": e["status"]}
            for e in listed
        }

    def running_game(self) -> str:
        """Ana's and Ben's game, started: Ana's turn at roll 1."""
        self.connect(ANA)
        self.connect(BEN)
        game_id = str(self.ack("create_game", ANA)["gameId"])
        self.ack("join_game", BEN, gameId=game_id)
        self.ack("start_game", ANA, gameId=game_id)
        return game_id


CONTEXT = LambdaContext()
# A handler call that adds no metric (a refused handshake, a stale deadline) is fine.
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")
# Unique across tests: a game's id derives from its creator's requestId.
REQUEST_IDS = itertools.count(1)
STATE_MACHINES = itertools.count(1)


@pytest.fixture
def stack(  # noqa: PLR0917 - fixtures
    env: None,
    functions: Functions,
    connections: Connections,
    games: DynamoGameRepository,
    players: DynamoPlayerRepository,
    machines: Machines,
) -> Stack:
    return Stack(functions, connections, games, players, machines)


# ----------------------------------------------------------------------------- sample events


@pytest.mark.parametrize("action", ACTIONS)
def test_events_every_action_has_a_sample_message(action: str) -> None:
    # given the sample event of a client action
    event = load_event(f"{action}.json")

    # when the edge reads it
    websocket = parse_event(event)
    parsed = parse_action(websocket.body)

    # then it is that action, on its own route, from an authorized player
    assert parsed.action == action
    assert websocket.request_context.route_key == action
    assert websocket.caller.player_id


@pytest.mark.parametrize("name", ["connect.json", "disconnect.json", "unknown_action.json"])
def test_events_websocket_samples_carry_connection_and_player(name: str) -> None:
    # when the edge reads a sample connection event
    websocket = parse_event(load_event(name))

    # then it names the connection and the authorized player
    assert websocket.caller.connection_id
    assert websocket.caller.player_id


def test_events_connect_sample_has_token_and_authorizer_context() -> None:
    event = load_event("connect.json")
    assert event["queryStringParameters"]["token"]
    assert event["requestContext"]["authorizer"]["playerId"]
    assert event["requestContext"]["routeKey"] == "$connect"


def test_events_authorizer_and_clock_samples_have_their_fields() -> None:
    authorizer = load_event("authorizer.json")
    assert authorizer["type"] == "REQUEST"
    assert authorizer["methodArn"].startswith("arn:aws:execute-api:")
    assert authorizer["queryStringParameters"]["token"]
    assert set(load_event("clock_lane.json")) == {"source", "gameId", "lane"}
    assert set(load_event("clock_wake.json")) == {"source", "gameId"}


# ----------------------------------------------------------------------------- connections


def test_connect_handler_binds_player_connection(stack: Stack) -> None:
    # when ana's handshake passes the authorizer
    response = stack.connect(ANA)

    # then her connection is the one the game talks to
    assert response == {"statusCode": 200}
    assert stack.players.get("ana").connection_id == ANA.connection_id


def test_connect_handler_new_connection_closes_old_one(stack: Stack) -> None:
    # given ana is connected
    stack.connect(ANA)
    newer = Player("ana", "conn-ana-2")

    # when she connects from another device
    stack.connect(newer)

    # then the old connection is told why, then deleted
    assert stack.connections.to(ANA)[-1]["type"] == "disconnected"
    assert stack.connections.deleted == [ANA.connection_id]
    assert stack.players.get("ana").connection_id == newer.connection_id


def test_connect_handler_refuses_handshakes_past_the_players_limit(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a moment early in a handshake window, and ana seated at a running game
    moment = datetime(2026, 12, 4, 12, 0, 5, tzinfo=UTC)
    monkeypatch.setattr(clock, "clock", lambda: moment)
    game_id = stack.running_game()  # her first handshake of the window
    limit = HANDSHAKE_LIMIT.handshakes

    # when her device connects again and again within the minute
    accepted = [stack.connect(Player("ana", f"conn-ana-{n}")) for n in range(limit - 1)]
    version = stack.games.load(game_id).session.version
    refused = [stack.connect(Player("ana", f"conn-ana-late-{n}")) for n in range(5)]

    # then the handshakes up to the limit are accepted, and every one past it is refused with
    # 429, binding nothing and writing nothing to the game
    assert accepted == [{"statusCode": 200}] * (limit - 1)
    assert refused == [{"statusCode": 429}] * 5
    assert stack.players.get("ana").connection_id == f"conn-ana-{limit - 2}"
    assert stack.games.load(game_id).session.version == version
    # and in the next window she connects again
    moment += timedelta(seconds=HANDSHAKE_LIMIT.window_seconds)
    assert stack.connect(Player("ana", "conn-ana-next"))["statusCode"] == 200
    assert stack.players.get("ana").connection_id == "conn-ana-next"


def test_disconnect_handler_freezes_clock_and_starts_return_wake(stack: Stack) -> None:
    # given ana's turn in a running game
    game_id = stack.running_game()

    # when her connection closes
    response = stack.disconnect(ANA)

    # then ben sees her absent, a wake waits for the end of her return countdown, and the lane
    # that served her clock is stopped
    assert response == {"statusCode": 200}
    view = stack.connections.last_game(BEN)
    assert view["seats"][0]["present"] is False
    session = stack.games.load(game_id).session
    returns_at = session.seats[0].return_deadline
    assert returns_at is not None
    waiting = [w for w in stack.executions("wake").values() if w["status"] == "RUNNING"]
    ceiling = returns_at.replace(microsecond=0) + timedelta(seconds=bool(returns_at.microsecond))
    assert [w["at"] for w in waiting] == [f"{ceiling:%Y-%m-%dT%H:%M:%S}Z"]
    assert waiting[0]["gameId"] == game_id
    assert [lane["status"] for lane in stack.executions("lane").values()] == ["ABORTED"]
    assert session.clock.deadline is None
    assert session.clock.frozen_ms is not None


# ----------------------------------------------------------------------------- game


def test_game_handler_lobby_actions(stack: Stack) -> None:
    # given ana and ben are connected
    stack.connect(ANA)
    stack.connect(BEN)

    # when ana creates a game, ben lists the games and joins, ana edits the game
    game_id = stack.ack("create_game", ANA)["gameId"]
    listed = stack.connections.answer(BEN, stack.send("list_games", BEN))
    stack.ack("join_game", BEN, gameId=game_id)
    stack.ack("edit_game", ANA, gameId=game_id, playerOrder=["ben", "ana"])

    # then ben found the game, and both see the edited table with the nicknames the
    # authorizer read
    assert [g["gameId"] for g in listed["games"]] == [game_id]
    assert listed["games"][0]["nicknames"] == ["Ana"]
    view = stack.connections.last_game(BEN)
    assert [s["playerId"] for s in view["seats"]] == ["ben", "ana"]
    assert [s["nickname"] for s in view["seats"]] == ["Ben", "Ana"]
    assert view["settings"]["preset"] == 2

    # when ben leaves and ana deletes the game
    stack.ack("leave_game", BEN, gameId=game_id)
    assert stack.games.load(game_id).session.player_ids == ["ana"]
    stack.ack("delete_game", ANA, gameId=game_id)

    # then ana is told the game is gone, and nothing is listed
    assert {"type": "game_deleted", "gameId": game_id} in stack.connections.to(ANA)
    assert stack.games.list_open(10) == []


def test_game_handler_start_starts_the_games_lane(stack: Stack) -> None:
    # when ana starts a full game
    game_id = stack.running_game()

    # then one lane execution, named after the game and the write that started it, waits with
    # the turn clock as its heartbeat length
    (name, started) = next(iter(stack.executions("lane").items()))
    session = stack.games.load(game_id).session
    assert name == f"{game_id}-lane-{session.timers.lane}"
    assert (started["gameId"], started["lane"], started["seconds"]) == (
        game_id,
        session.version,
        60,
    )
    assert started["status"] == "RUNNING"
    assert stack.connections.last_game(BEN)["turn"]["playerId"] == "ana"


def test_game_handler_turn_actions(stack: Stack) -> None:
    # given ana's turn, with cleo watching
    game_id = stack.running_game()
    stack.connect(CLEO)
    stack.ack("watch_game", CLEO, gameId=game_id)

    # when ana rolls keeping two dice, selects a cell and writes it
    before = stack.connections.last_game(ANA)["turn"]["dice"]
    stack.ack("roll", ANA, gameId=game_id, keep=[0, 1])
    turn = stack.connections.last_game(ANA)["turn"]
    assert turn["roll"] == 2
    assert turn["dice"][:2] == before[:2]
    cell = turn["legal"][0]
    stack.ack("select", ANA, gameId=game_id, column=cell["column"], row=cell["row"])
    stack.ack("write", ANA, gameId=game_id, column=cell["column"], row=cell["row"])

    # then everyone, the spectator too, sees ana's score and ben's turn; a sync sends it all
    for player in (ANA, BEN, CLEO):
        view = stack.connections.last_game(player)
        assert view["sheets"][0]["cells"][cell["column"]][cell["row"]] == cell["score"]
        assert view["turn"]["playerId"] == "ben"
    synced = stack.connections.answer(BEN, stack.send("sync", BEN))
    assert synced["game"]["gameId"] == game_id
    # no lane has stored a token here (moto runs no execution): a wake keeps ben's deadline
    deadline = stack.games.load(game_id).session.clock.deadline
    assert deadline is not None
    # (a wake waits until the whole second at or after the deadline: compared as moments, not
    # as text, which a deadline in a minute's last second would carry into the next minute)
    waits = {datetime.fromisoformat(w["at"]) for w in stack.executions("wake").values()}
    assert wake_moment(wake_second(deadline)) in waits


def test_game_handler_announce(stack: Stack) -> None:
    # given a game with an announced column (premium's), in ana's turn
    stack.connect(ANA)
    stack.connect(BEN)
    for player in (ANA, BEN):
        stack.players.grant_premium(player.player_id, datetime.now(UTC) + timedelta(days=1))
    settings = {"players": 2, "preset": 3, "turn_seconds": 60}
    game_id = stack.ack("create_game", ANA, settings=settings)["gameId"]
    stack.ack("join_game", BEN, gameId=game_id)
    stack.ack("start_game", ANA, gameId=game_id)

    # when she announces with the sample event
    stack.ack("announce", ANA, gameId=game_id)

    # then ben sees the announcement
    announcement = stack.connections.last_game(BEN)["turn"]["announcement"]
    assert (announcement["column"], announcement["row"]) == ("announced", "yamb")


def test_game_handler_resign_and_finish_sheet(stack: Stack) -> None:
    # given a running game
    game_id = stack.running_game()

    # when ana resigns and ben accepts to finish his sheet
    stack.ack("resign", ANA, gameId=game_id)
    assert stack.connections.last_game(BEN)["winners"] == ["ben"]
    stack.ack("finish_sheet", BEN, gameId=game_id)

    # then ben plays on without a turn clock
    turn = stack.connections.last_game(BEN)["turn"]
    assert turn["playerId"] == "ben"
    assert turn["deadline"] is None


def test_game_handler_action_error_answers_error_frame(stack: Stack) -> None:
    # given ana's turn
    game_id = stack.running_game()

    # when ben rolls
    request_id = stack.send("roll", BEN, gameId=game_id)

    # then he gets an error frame
    frame = stack.connections.answer(BEN, request_id)
    assert (frame["type"], frame["code"]) == ("error", "not_your_turn")


# "it is not your turn" and a bad frame's sentence in each language (a test's own catalogue: the
# translators' .po files need not hold them yet).
NOT_YOUR_TURN = {
    "fr": "ce n'est pas votre tour",
    "da": "det er ikke din tur",
    "hr": "nisi na potezu",
}
NOT_AN_OBJECT = {
    "fr": "une trame est un objet JSON avec une action",
    "da": "en ramme er et JSON-objekt med en handling",
    "hr": "okvir je JSON objekt s akcijom",
}


def _in_language(event: dict[str, Any], language: str | None) -> dict[str, Any]:
    """The event as the authorizer's context brings it for an account in `language` (None: an
    older authorizer's context, without one)."""
    if language is not None:
        event["requestContext"]["authorizer"]["language"] = language
    return event


@pytest.mark.parametrize("language", ["fr", "da", "hr", "en", None])
def test_game_handler_refusal_in_the_account_language_with_the_same_code(
    stack: Stack, catalogue: Callable[[Languages], None], language: str | None
) -> None:
    # given the catalogues say the refusals in French, Danish and Croatian, and ana's turn
    catalogue(
        {
            tongue: {
                "it is not your turn": NOT_YOUR_TURN[tongue],
                "a frame is a JSON object with an action": NOT_AN_OBJECT[tongue],
            }
            for tongue in NOT_YOUR_TURN
        }
    )
    game_id = stack.running_game()

    # when ben, whose account is in `language`, rolls out of turn, then sends a frame that is
    # not an action at all
    roll = _in_language(message("roll", BEN, gameId=game_id, requestId="roll-lang"), language)
    stack.functions.game(roll, CONTEXT)
    bad = _in_language(as_player(load_event("sync.json"), BEN), language)
    bad["body"] = "[1, 2]"
    stack.functions.game(bad, CONTEXT)

    # then both refusals come in his language (English for English or none), codes unchanged
    refused = stack.connections.answer(BEN, "roll-lang")
    malformed = stack.connections.to(BEN)[-1]
    assert (refused["code"], malformed["code"]) == ("not_your_turn", "bad_request")
    if language in NOT_YOUR_TURN:
        assert refused["message"] == NOT_YOUR_TURN[language]
        assert malformed["message"] == NOT_AN_OBJECT[language]
    else:
        assert refused["message"] == "it is not your turn"
        assert malformed["message"] == "a frame is a JSON object with an action"


def test_game_handler_unknown_action_answers_error_frame(stack: Stack) -> None:
    # given ana is connected
    stack.connect(ANA)

    # when the $default route brings an action the protocol does not know
    response = stack.functions.game(as_player(load_event("unknown_action.json"), ANA), CONTEXT)

    # then she gets an unknown_action error frame echoing her requestId
    assert response == {"statusCode": 200}
    (frame,) = stack.connections.to(ANA)
    assert frame["type"] == "error"
    assert frame["code"] == "unknown_action"
    assert frame["requestId"] == "cheat-1"
    assert "cheat" in frame["message"]


@pytest.mark.parametrize(
    ("body", "code", "request_id"),
    [
        ("{not json", "bad_request", None),
        ('["sync"]', "bad_request", None),
        ('{"action": "roll", "requestId": "r-1"}', "bad_request", "r-1"),
        # a requestId the protocol refuses is not echoed either
        ('{"action": "sync", "requestId": "has spaces"}', "bad_request", None),
        ('{"action": "sync", "requestId": "\\ud800"}', "bad_request", None),
        ('{"action": "sync", "requestId": "' + "x" * 100_000 + '"}', "frame_too_large", None),
        (
            '{"action": "roll", "requestId": "r-2", "gameId": "g", "turn": ' + "9" * 5000 + "}",
            "bad_request",
            "r-2",
        ),
        ("[" * 10_000 + "]" * 10_000, "frame_too_large", None),
        (
            '{"requestId": "r-3", "action": "sync", "a": ' + "[" * 3000 + "]" * 3000 + "}",
            "bad_request",
            "r-3",
        ),
        (
            '{"action": "roll", "requestId": "r-4", "gameId": "g", '
            + ", ".join(f'"field{i}": 1' for i in range(500))
            + "}",
            "bad_request",
            "r-4",
        ),
    ],
)
def test_game_handler_malformed_frame_answers_error_frame(
    stack: Stack, body: str, code: str, request_id: str | None
) -> None:
    # given ana is connected
    stack.connect(ANA)
    event = as_player(load_event("sync.json"), ANA)
    event["body"] = body

    # when the game function gets a frame that is not a valid action
    response = stack.functions.game(event, CONTEXT)

    # then she gets one short, plain error frame with the stable code
    assert response == {"statusCode": 200}
    (frame,) = stack.connections.to(ANA)
    assert (frame["type"], frame["code"]) == ("error", code)
    assert len(frame["message"]) <= 500
    assert frame["message"].isascii()
    assert frame.get("requestId") == request_id


def test_game_handler_gone_connection_unbinds_player(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ben's connection, open for over half a minute, went away before its $disconnect
    game_id = stack.running_game()
    started = clock.now()
    monkeypatch.setattr(clock, "clock", lambda: started + timedelta(seconds=31))
    stack.connections.gone.add(BEN.connection_id)

    # when ana's roll is broadcast
    stack.ack("roll", ANA, gameId=game_id)

    # then ben's record forgets the connection
    assert stack.players.get("ben").connection_id is None
    assert stack.players.get("ana").connection_id == ANA.connection_id


# ----------------------------------------------------------------------------- clock


def test_clock_handler_lane_woken_after_the_deadline_plays_once_and_arms_again(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's turn, and her 60 s have passed
    game_id = stack.running_game()
    lane = stack.games.load(game_id).session.timers.lane
    started = clock.now()
    monkeypatch.setattr(clock, "clock", lambda: started + timedelta(seconds=61))
    event = load_event("clock_lane.json") | {"gameId": game_id, "lane": lane}

    # when Step Functions calls the clock function for that lane, twice (a retried delivery)
    first = stack.functions.clock(event, CONTEXT)
    second = stack.functions.clock(dict(event), CONTEXT)

    # then the auto-move is written once, ben's turn starts, and the lane arms again for it
    assert first["rearm"] is True
    assert (first["gameId"], first["lane"], first["seconds"]) == (game_id, lane, 60)
    assert second["rearm"] is True
    session = stack.games.load(game_id).session
    assert session.turn == 2
    assert sum(bin(mask).count("1") for mask in session.game().sheets[0].filled) == 1
    assert stack.connections.last_game(BEN)["turn"]["playerId"] == "ben"


def test_clock_handler_wake_before_any_deadline_changes_nothing(stack: Stack) -> None:
    # given ana's turn, well before her deadline
    game_id = stack.running_game()
    version = stack.games.load(game_id).session.version

    # when a wake arrives for the game
    answer = stack.functions.clock(load_event("clock_wake.json") | {"gameId": game_id}, CONTEXT)

    # then nothing is written
    assert answer is None
    assert stack.games.load(game_id).session.version == version


def test_clock_handler_for_a_deleted_game_is_a_no_op(stack: Stack) -> None:
    # when a lane of a game that no longer exists wakes
    answer = stack.functions.clock(load_event("clock_lane.json"), CONTEXT)

    # then it is told to end, and the execution does not fail
    assert answer["rearm"] is False


# ----------------------------------------------------------------------------- authorizer


@dataclass
class Keys:
    private: rsa.RSAPrivateKey
    jwks: dict[str, Any]


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def keys() -> Keys:
    private = rsa_key()
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key()))
    jwk.update({"kid": "test-key", "alg": "RS256", "use": "sig"})
    return Keys(private, {"keys": [jwk]})


@pytest.fixture(scope="module")
def other_key() -> rsa.RSAPrivateKey:
    return rsa_key()


SUB = "4f1c2b7a-0e7d-4c55-9a1e-6a2f3d9b8c01"


@pytest.fixture
def profiles() -> dict[str, Profile]:
    """The profiles the authorizer reads: ana's, active, in her first sign-out generation."""
    return {
        SUB: Profile(
            player_id=SUB,
            nickname="ana",
            email="ana@example.com",
            status=AccountStatus.ACTIVE,
            created_at=datetime(2025, 6, 1, tzinfo=UTC),
        )
    }


@pytest.fixture
def authorizer(
    functions: Functions,
    keys: Keys,
    profiles: dict[str, Profile],
    monkeypatch: pytest.MonkeyPatch,
) -> Callable[[str | None], Any]:
    verifier = TokenVerifier(issuer=ISSUER, audience=AUDIENCE, keys=StaticKeys(keys.jwks))
    tokens = PlayerTokens(verifier, profiles.get)
    monkeypatch.setattr(functions.authorizer, "player_tokens", lambda: tokens)

    def authorize(token: str | None) -> Any:
        event = load_event("authorizer.json")
        if token is None:
            event.pop("queryStringParameters")
        else:
            event["queryStringParameters"] = {"token": token}
        return functions.authorizer.handler(event, CONTEXT)

    return authorize


def id_token(
    private: rsa.RSAPrivateKey, kid: str = "test-key", lifetime: int = 3600, **claims: Any
) -> str:
    now = int(time.time())
    payload = {
        "sub": SUB,
        "cognito:username": SUB,
        "aud": AUDIENCE,
        "iss": ISSUER,
        "token_use": "id",
        "iat": now - 10,
        "exp": now + lifetime,
        **claims,
    }
    payload = {name: value for name, value in payload.items() if value is not None}
    return jwt.encode(payload, private, algorithm="RS256", headers={"kid": kid})


def test_authorizer_valid_token_allows_with_player_id(
    authorizer: Callable[[str | None], Any], keys: Keys
) -> None:
    # when a handshake brings a valid Cognito ID token
    token = id_token(keys.private)
    policy = authorizer(token)

    # then the route is allowed, with the token's subject as the player id, the profile's
    # nickname and language (English, the default) and the token's expiry
    sub = SUB
    expires = jwt.decode(token, options={"verify_signature": False})["exp"]
    assert policy["principalId"] == sub
    (statement,) = policy["policyDocument"]["Statement"]
    assert statement["Effect"] == "Allow"
    assert statement["Action"] == "execute-api:Invoke"
    assert statement["Resource"] == load_event("authorizer.json")["methodArn"]
    assert policy["context"] == {
        "playerId": sub,
        "nickname": "ana",
        "expiresAt": str(expires),
        "language": "en",
    }


def test_authorizers_hand_on_the_account_language(
    authorizer: Callable[[str | None], Any],
    functions: Functions,
    keys: Keys,
    profiles: dict[str, Profile],
) -> None:
    # given ana's account set to Croatian
    profiles[SUB] = profiles[SUB].model_copy(
        update={"preferences": profiles[SUB].preferences.model_copy(update={"language": "hr"})}
    )
    token = id_token(keys.private)

    # when she opens a connection and makes an HTTP request
    policy = authorizer(token)
    event = load_event("http_authorizer.json")
    event["headers"]["authorization"] = f"Bearer {token}"
    allowed = functions.authorizer.http_handler(event, CONTEXT)

    # then both authorizers' contexts name her language, for the routes to speak it
    assert policy["context"]["language"] == "hr"
    assert allowed["context"]["language"] == "hr"


@pytest.mark.parametrize(
    "case",
    [
        "missing",
        "empty",
        "expired",
        "wrong_audience",
        "wrong_issuer",
        "bad_signature",
        "unknown_key",
        "access_token",
        "no_subject",
        "garbage",
    ],
)
def test_authorizer_invalid_token_raises_unauthorized(
    authorizer: Callable[[str | None], Any],
    keys: Keys,
    other_key: rsa.RSAPrivateKey,
    case: str,
) -> None:
    # given a handshake whose token is missing or not a valid ID token of the pool
    tokens: dict[str, str | None] = {
        "missing": None,
        "empty": "",
        "expired": id_token(keys.private, lifetime=-60),
        "wrong_audience": id_token(keys.private, aud="another-client"),
        "wrong_issuer": id_token(keys.private, iss="https://issuer.example.com/pool"),
        "bad_signature": id_token(other_key),
        "unknown_key": id_token(keys.private, kid="rotated-away"),
        "access_token": id_token(keys.private, token_use="access"),
        "no_subject": id_token(keys.private, sub=None),
        "garbage": "not.a.jwt",
    }

    # when the authorizer runs, then it raises: API Gateway answers 401
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        authorizer(tokens[case])


@pytest.mark.parametrize(
    ("change", "session"),
    [
        (None, 0),
        ({"status": AccountStatus.UNVERIFIED}, 0),
        ({"status": AccountStatus.DELETING}, 0),
        ({"status": AccountStatus.BANNED}, 0),
        ({"status": AccountStatus.DELETED}, 0),
        ({"session": 1}, 0),
    ],
)
def test_authorizer_token_of_an_account_that_may_not_play_is_refused(
    authorizer: Callable[[str | None], Any],
    keys: Keys,
    profiles: dict[str, Profile],
    change: dict[str, Any] | None,
    session: int,
) -> None:
    # given ana's account gone, locked, banned, purged or signed out since her token was issued
    if change is None:
        profiles.clear()
    else:
        profiles[SUB] = profiles[SUB].model_copy(update=change)

    # when she connects with a valid token, then the handshake is refused (401)
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        authorizer(id_token(keys.private, **{"custom:session": str(session)}))


def test_authorizer_token_of_the_current_generation_is_allowed(
    authorizer: Callable[[str | None], Any], keys: Keys, profiles: dict[str, Profile]
) -> None:
    # given ana signed out everywhere twice, then signed in again
    profiles[SUB] = profiles[SUB].model_copy(update={"session": 2})

    # then a token of generation 2 opens the connection, one of generation 1 does not
    assert authorizer(id_token(keys.private, **{"custom:session": "2"}))["principalId"] == SUB
    with pytest.raises(Exception, match=r"^Unauthorized$"):
        authorizer(id_token(keys.private, **{"custom:session": "1"}))


def test_authorizers_refuse_a_token_of_a_sign_in_older_than_the_latest(
    authorizer: Callable[[str | None], Any],
    functions: Functions,
    keys: Keys,
    profiles: dict[str, Profile],
) -> None:
    # given ana signed in on a phone, then on a laptop a minute later (the trigger recorded it)
    now = int(time.time())
    phone = id_token(keys.private, auth_time=now - 60, iat=now - 60)
    refreshed = id_token(keys.private, auth_time=now - 60, iat=now - 1)  # same sign-in, later
    laptop = id_token(keys.private, auth_time=now - 2, iat=now - 2)
    profiles[SUB] = profiles[SUB].model_copy(update={"signed_in_at": now})

    def http(token: str) -> Any:
        event = load_event("http_authorizer.json")
        event["headers"]["authorization"] = f"Bearer {token}"
        return functions.authorizer.http_handler(event, CONTEXT)

    # then the laptop's token (taken a moment before the trigger ran) opens both APIs
    assert authorizer(laptop)["principalId"] == SUB
    assert http(laptop)["isAuthorized"] is True
    # and the phone's, refreshed or not, opens neither
    for token in (phone, refreshed):
        with pytest.raises(Exception, match=r"^Unauthorized$"):
            authorizer(token)
        assert http(token) == {"isAuthorized": False}


def test_http_authorizer_allows_a_live_token_and_refuses_the_rest(
    authorizer: Callable[[str | None], Any],
    functions: Functions,
    keys: Keys,
    profiles: dict[str, Profile],
) -> None:
    # given the HTTP API's authorizer event with ana's token, with and without "Bearer "
    def http(header: str | None) -> Any:
        event = load_event("http_authorizer.json")
        if header is None:
            event["headers"].pop("authorization")
        else:
            event["headers"]["authorization"] = header
        return functions.authorizer.http_handler(event, CONTEXT)

    token = id_token(keys.private)

    # then a live token is authorized with her id and nickname, anything else is not
    allowed = http(f"Bearer {token}")
    assert allowed["isAuthorized"] is True
    assert allowed["context"]["playerId"] == SUB and allowed["context"]["nickname"] == "ana"
    assert http(token)["isAuthorized"] is True
    assert http(None) == {"isAuthorized": False}
    assert http("Bearer not.a.jwt") == {"isAuthorized": False}
    profiles[SUB] = profiles[SUB].model_copy(update={"session": 1})
    assert http(f"Bearer {token}") == {"isAuthorized": False}
