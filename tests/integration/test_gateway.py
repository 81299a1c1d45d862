"""The local API Gateway WebSocket emulator (devstack.gateway), driven like a deployed API.

Each test starts a gateway in a background thread with small synchronous handlers, connects with
the `websockets` sync client, and lets handlers call back through boto3's
`apigatewaymanagementapi` client, as the real functions do.
"""

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import boto3
import pytest
from botocore.config import Config
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from devstack.gateway import FRAME_LIMIT, MESSAGE_LIMIT, GatewayThread, LocalGateway

KB = 1024
WAIT = 5.0  # seconds: the longest any single expectation may take


class Recorder:
    """Thread-safe record of invocations: (route, event, context), with waiting."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any], Any]] = []
        self._changed = threading.Condition()

    def handler(
        self, route: str, reply: Callable[[dict[str, Any], Any], Any] | None = None
    ) -> Callable[[dict[str, Any], Any], Any]:
        def handle(event: dict[str, Any], context: Any) -> Any:
            with self._changed:
                self.calls.append((route, event, context))
                self._changed.notify_all()
            return reply(event, context) if reply is not None else None

        return handle

    def events(self, route: str) -> list[dict[str, Any]]:
        with self._changed:
            return [event for name, event, _ in self.calls if name == route]

    def wait_for(self, route: str, count: int = 1, timeout: float = WAIT) -> list[dict[str, Any]]:
        with self._changed:
            self._changed.wait_for(lambda: len(self.events(route)) >= count, timeout)
        events = self.events(route)
        assert len(events) >= count, f"{route}: {len(events)} calls, expected {count}"
        return events


def allow(
    context: Mapping[str, Any] | None = None,
) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """An authorizer allowing every handshake, with `context`."""

    def authorize(event: dict[str, Any], _: Any) -> dict[str, Any]:
        return policy("Allow", event["methodArn"], context)

    return authorize


def policy(effect: str, resource: str, context: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return {
        "principalId": "user-1",
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [{"Action": "execute-api:Invoke", "Effect": effect, "Resource": resource}],
        },
        "context": dict(context or {}),
    }


@contextmanager
def running(
    handlers: Mapping[str, Callable[[dict[str, Any], Any], Any]],
    authorizer: Callable[[dict[str, Any], Any], Any] | None = None,
    **options: Any,
) -> Iterator[GatewayThread]:
    with LocalGateway(handlers, authorizer, **options).run_in_thread() as gateway:
        yield gateway


def management(gateway: GatewayThread) -> Any:
    return boto3.client(
        "apigatewaymanagementapi",
        endpoint_url=gateway.management_endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"max_attempts": 1}),
    )


def open_client(gateway: GatewayThread, query: str = "?token=t") -> ClientConnection:
    return connect(gateway.url + query, open_timeout=WAIT)


def refused_status(gateway: GatewayThread, query: str) -> int:
    with pytest.raises(InvalidStatus) as refused:
        open_client(gateway, query)
    return refused.value.response.status_code


def closed_code(client: ClientConnection, action: Callable[[], Any] | None = None) -> int:
    """Do `action`, wait until the server closes `client`; the close code it sent.

    `action` may itself fail with ConnectionClosed: a client still sending when the server
    closes learns it from `send`.
    """
    with pytest.raises(ConnectionClosed) as closed:
        if action is not None:
            action()
        while True:
            client.recv(timeout=WAIT)
    assert closed.value.rcvd is not None
    return int(closed.value.rcvd.code)


def replying(
    client_for: Callable[[], Any], make: Callable[[dict[str, Any]], Any]
) -> Callable[[dict[str, Any], Any], None]:
    """A handler that posts `make(event)` (JSON) back to the sender through boto3."""

    def reply(event: dict[str, Any], _: Any) -> None:
        client_for().post_to_connection(
            ConnectionId=event["requestContext"]["connectionId"],
            Data=json.dumps(make(event)).encode(),
        )

    return reply


# ------------------------------------------------------------------------------ handshake


def test_handshake_with_token_passes_authorizer_context_to_message_handler() -> None:
    # given a gateway whose authorizer allows with a context
    recorder = Recorder()
    authorizer_events: list[dict[str, Any]] = []

    def authorize(event: dict[str, Any], context: Any) -> dict[str, Any]:
        authorizer_events.append(event)
        return allow({"playerId": "ana", "admin": False, "level": 3})(event, context)

    handlers = {"$connect": recorder.handler("$connect"), "roll": recorder.handler("roll")}
    with running(handlers, authorize) as gateway, open_client(gateway, "?token=abc") as client:
        # when the client connects with a token and sends a message
        client.send(json.dumps({"action": "roll"}))
        event = recorder.wait_for("roll")[0]

    # then the authorizer got a REQUEST event and its context reached every later event
    request = authorizer_events[0]
    assert request["type"] == "REQUEST"
    assert request["methodArn"] == (
        "arn:aws:execute-api:us-east-1:123456789012:local-api/local/$connect"
    )
    assert request["queryStringParameters"] == {"token": "abc"}
    assert request["multiValueQueryStringParameters"] == {"token": ["abc"]}
    assert request["requestContext"]["routeKey"] == "$connect"
    assert request["requestContext"]["eventType"] == "CONNECT"
    expected = {"playerId": "ana", "admin": "false", "level": "3", "principalId": "user-1"}
    connect_event = recorder.events("$connect")[0]
    assert connect_event["queryStringParameters"] == {"token": "abc"}
    for seen in (connect_event, event):
        authorizer = seen["requestContext"]["authorizer"]
        assert {key: authorizer[key] for key in expected} == expected
    assert (
        event["requestContext"]["connectionId"] == connect_event["requestContext"]["connectionId"]
    )


@pytest.mark.parametrize("query", ["", "?token=", "?other=1"])
def test_handshake_without_token_is_refused_401_without_calling_authorizer(query: str) -> None:
    # given a gateway with an authorizer whose identity source is the token query parameter
    called: list[dict[str, Any]] = []
    with running({}, lambda event, _: called.append(event)) as gateway:
        # when a client connects without a token / then 401, and the authorizer never ran
        assert refused_status(gateway, query) == 401
    assert called == []


def test_handshake_when_authorizer_raises_unauthorized_is_refused_401() -> None:
    # given an authorizer that raises Exception("Unauthorized"), as the blueprints do
    def authorize(event: dict[str, Any], _: Any) -> dict[str, Any]:
        raise Exception("Unauthorized")

    connect_handler = Recorder()
    with running({"$connect": connect_handler.handler("$connect")}, authorize) as gateway:
        # when a client connects / then 401 and $connect never runs
        assert refused_status(gateway, "?token=bad") == 401
    assert connect_handler.calls == []


def test_handshake_when_authorizer_fails_otherwise_is_refused_500() -> None:
    # given an authorizer with a bug (AWS answers 500 AuthorizerConfigurationException)
    def authorize(event: dict[str, Any], _: Any) -> dict[str, Any]:
        raise KeyError("kid")

    with running({}, authorize) as gateway:
        # when a client connects / then 500
        assert refused_status(gateway, "?token=t") == 500


def test_handshake_when_policy_denies_is_refused_403() -> None:
    # given an authorizer answering an explicit Deny
    with running({}, lambda event, _: policy("Deny", event["methodArn"])) as gateway:
        # when a client connects / then 403
        assert refused_status(gateway, "?token=t") == 403


def test_handshake_when_policy_allows_another_resource_is_refused_403() -> None:
    # given an authorizer allowing another stage only (an implicit deny for this one)
    resource = "arn:aws:execute-api:us-east-1:123456789012:local-api/prod/*"
    with running({}, lambda event, _: policy("Allow", resource)) as gateway:
        # when a client connects / then 403
        assert refused_status(gateway, "?token=t") == 403


def test_handshake_when_connect_returns_500_is_refused() -> None:
    # given a $connect handler refusing with 500
    recorder = Recorder()
    handlers = {
        "$connect": recorder.handler("$connect", lambda event, _: {"statusCode": 500}),
        "$disconnect": recorder.handler("$disconnect"),
    }
    with running(handlers, allow()) as gateway:
        # when a client connects / then the handshake gets 500 and no connection exists
        assert refused_status(gateway, "?token=t") == 500
        assert gateway.gateway.connection_ids() == []
    assert recorder.events("$disconnect") == []


def test_handshake_when_connect_posts_to_its_own_connection_gets_gone() -> None:
    # given a $connect handler that tries to greet its own connection before returning
    outcomes: list[str] = []
    client: Any = None

    def on_connect(event: dict[str, Any], _: Any) -> dict[str, Any]:
        try:
            client.post_to_connection(
                ConnectionId=event["requestContext"]["connectionId"], Data=b"hello"
            )
            outcomes.append("sent")
        except client.exceptions.GoneException:
            outcomes.append("gone")
        return {"statusCode": 200}

    with running({"$connect": on_connect}, allow()) as gateway:
        client = management(gateway)
        # when a client connects
        with open_client(gateway):
            pass

    # then the post was refused 410 Gone: the upgrade was still pending, as on AWS
    assert outcomes == ["gone"]


# ------------------------------------------------------------------------------ routing


def test_route_selection_by_action_and_default_fallback() -> None:
    # given routes `roll` and `$default`
    recorder = Recorder()
    handlers = {"roll": recorder.handler("roll"), "$default": recorder.handler("$default")}
    with running(handlers, allow()) as gateway, open_client(gateway) as client:
        # when the client sends a roll, an unknown action, non-JSON, JSON without action
        client.send(json.dumps({"action": "roll", "keep": [1, 2]}))
        for body in (json.dumps({"action": "write"}), "hello", "[1, 2]", '{"action": 7}'):
            client.send(body)
        rolls = recorder.wait_for("roll")
        defaults = recorder.wait_for("$default", 4)

    # then the roll went to `roll` and the rest to `$default`, with the raw body
    assert json.loads(rolls[0]["body"]) == {"action": "roll", "keep": [1, 2]}
    assert rolls[0]["requestContext"]["routeKey"] == "roll"
    assert rolls[0]["requestContext"]["eventType"] == "MESSAGE"
    assert rolls[0]["isBase64Encoded"] is False
    assert sorted(event["body"] for event in defaults) == sorted(
        [json.dumps({"action": "write"}), "hello", "[1, 2]", '{"action": 7}']
    )
    assert {event["requestContext"]["routeKey"] for event in defaults} == {"$default"}


def test_route_selection_without_default_sends_forbidden_frame() -> None:
    # given only a `roll` route
    recorder = Recorder()
    with (
        running({"roll": recorder.handler("roll")}, allow()) as gateway,
        open_client(gateway) as ws,
    ):
        # when the client sends an unknown action
        ws.send(json.dumps({"action": "cheat"}))
        # then API Gateway's Forbidden frame comes back and nothing is invoked
        frame = json.loads(ws.recv(timeout=WAIT))
        connection_id = gateway.gateway.connection_ids()[0]
    assert frame["message"] == "Forbidden"
    assert frame["connectionId"] == connection_id
    assert frame["requestId"]
    assert recorder.calls == []


def test_message_handler_raising_sends_internal_server_error_frame() -> None:
    # given a route whose handler fails
    def fail(event: dict[str, Any], _: Any) -> None:
        raise RuntimeError("bug")

    with running({"roll": fail}, allow()) as gateway, open_client(gateway) as client:
        # when the route is invoked / then the client gets API Gateway's error frame
        client.send(json.dumps({"action": "roll"}))
        frame = json.loads(client.recv(timeout=WAIT))
    assert frame["message"] == "Internal server error"


def test_messages_run_concurrently() -> None:
    # given a handler that waits until two invocations run at once, then replies
    barrier = threading.Barrier(2, timeout=3)
    client: Any = None

    def slow(event: dict[str, Any], _: Any) -> None:
        barrier.wait()  # BrokenBarrierError (-> "Internal server error") if run one by one
        replying(lambda: client, lambda e: {"ok": json.loads(e["body"])["n"]})(event, None)

    with running({"slow": slow}, allow()) as gateway:
        client = management(gateway)
        with open_client(gateway) as ws:
            # when two frames arrive back to back
            ws.send(json.dumps({"action": "slow", "n": 1}))
            ws.send(json.dumps({"action": "slow", "n": 2}))
            replies = [json.loads(ws.recv(timeout=WAIT)) for _ in range(2)]

    # then both handlers overlapped and both replied
    assert sorted(reply["ok"] for reply in replies) == [1, 2]


# ------------------------------------------------------------------------------ management API


def test_management_post_from_handler_reaches_client() -> None:
    # given a `roll` handler replying through boto3's apigatewaymanagementapi client
    client: Any = None
    handler = replying(lambda: client, lambda event: {"dice": [6, 6], "got": event["body"]})
    with running({"roll": handler}, allow()) as gateway:
        client = management(gateway)
        with open_client(gateway) as ws:
            # when the client rolls
            ws.send('{"action": "roll"}')
            # then the handler's reply arrives as one text frame
            reply = ws.recv(timeout=WAIT)
    assert isinstance(reply, str)
    assert json.loads(reply) == {"dice": [6, 6], "got": '{"action": "roll"}'}


def test_management_post_to_unknown_connection_raises_gone() -> None:
    # given a running gateway and its management client
    with running({}, allow()) as gateway:
        client = management(gateway)
        # when posting to a connection id that never existed / then botocore raises GoneException
        with pytest.raises(client.exceptions.GoneException) as gone:
            client.post_to_connection(ConnectionId="AAAAAAAAAAAAAAA=", Data=b"x")
    assert gone.value.response["ResponseMetadata"]["HTTPStatusCode"] == 410
    assert gone.value.response["Error"]["Code"] == "GoneException"


def test_management_post_to_closed_connection_raises_gone() -> None:
    # given a connection that has closed
    recorder = Recorder()
    with running({"$disconnect": recorder.handler("$disconnect")}, allow()) as gateway:
        client = management(gateway)
        with open_client(gateway):
            connection_id = gateway.gateway.connection_ids()[0]
        recorder.wait_for("$disconnect")
        # when posting and reading it / then GoneException
        with pytest.raises(client.exceptions.GoneException):
            client.post_to_connection(ConnectionId=connection_id, Data=b"x")
        with pytest.raises(client.exceptions.GoneException):
            client.get_connection(ConnectionId=connection_id)


def test_management_get_connection_describes_it() -> None:
    # given an open connection
    with running({}, allow()) as gateway, open_client(gateway) as ws:
        client = management(gateway)
        connection_id = gateway.gateway.connection_ids()[0]
        ws.send("ping")
        # when reading it through boto3
        described = client.get_connection(ConnectionId=connection_id)
    # then it has the shape of the AWS answer
    assert described["Identity"]["SourceIp"] == "127.0.0.1"
    assert "websockets" in described["Identity"]["UserAgent"].lower()
    assert described["ConnectedAt"] <= described["LastActiveAt"]


def test_management_post_over_128kb_raises_payload_too_large() -> None:
    # given an open connection
    with running({}, allow()) as gateway, open_client(gateway) as ws:
        client = management(gateway)
        connection_id = gateway.gateway.connection_ids()[0]
        # when posting 128 KB and then one byte more
        client.post_to_connection(ConnectionId=connection_id, Data=b"a" * MESSAGE_LIMIT)
        with pytest.raises(client.exceptions.PayloadTooLargeException):
            client.post_to_connection(ConnectionId=connection_id, Data=b"a" * (MESSAGE_LIMIT + 1))
        # then only the first reached the client
        assert len(ws.recv(timeout=WAIT)) == MESSAGE_LIMIT


def test_management_paths_without_stage_prefix_work() -> None:
    # given a management client whose endpoint is the bare server root
    with running({}, allow()) as gateway, open_client(gateway) as ws:
        root = gateway.management_endpoint.rsplit("/", 1)[0]
        client = boto3.client(
            "apigatewaymanagementapi",
            endpoint_url=root,
            region_name="us-east-1",
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
        )
        # when posting / then the client gets the frame
        client.post_to_connection(ConnectionId=gateway.gateway.connection_ids()[0], Data=b"hi")
        assert ws.recv(timeout=WAIT) == "hi"


def test_management_delete_closes_client_and_disconnects_once() -> None:
    # given an open connection and a $disconnect handler
    recorder = Recorder()
    with running({"$disconnect": recorder.handler("$disconnect")}, allow()) as gateway:
        client = management(gateway)
        with open_client(gateway) as ws:
            connection_id = gateway.gateway.connection_ids()[0]
            # when the backend deletes the connection
            client.delete_connection(ConnectionId=connection_id)
            # then the client sees the close
            assert closed_code(ws) == 1000
        events = recorder.wait_for("$disconnect")
    # and $disconnect ran exactly once, for that connection (the gateway's stop, leaving
    # `running`, waited for every connection's task and what they started: a second one would
    # be recorded by now)
    assert len(recorder.events("$disconnect")) == 1
    context = events[0]["requestContext"]
    assert context["connectionId"] == connection_id
    assert context["eventType"] == "DISCONNECT"
    assert context["disconnectStatusCode"] == 1000


# ------------------------------------------------------------------------------ closing


def test_client_close_triggers_disconnect_once() -> None:
    # given an open connection and a $disconnect handler
    recorder = Recorder()
    handlers = {"$disconnect": recorder.handler("$disconnect")}
    with running(handlers, allow({"playerId": "ana"})) as gateway:
        with open_client(gateway) as ws:
            # when the client closes with a code and reason
            ws.close(code=4000, reason="bye")
        events = recorder.wait_for("$disconnect")
    # then $disconnect ran once (the gateway's stop waited for every connection's task and what
    # they started) with that code, reason and the authorizer context
    assert len(recorder.events("$disconnect")) == 1
    context = events[0]["requestContext"]
    assert (context["disconnectStatusCode"], context["disconnectReason"]) == (4000, "bye")
    assert context["authorizer"]["playerId"] == "ana"


def test_gateway_stop_closes_connections_and_disconnects_them() -> None:
    # given an open connection
    recorder = Recorder()
    gateway = LocalGateway({"$disconnect": recorder.handler("$disconnect")}).run_in_thread()
    gateway.start()
    with open_client(gateway, "") as ws:
        # when the gateway stops
        gateway.stop()
        # then $disconnect ran before stop returned and the client was closed going away
        events = recorder.events("$disconnect")
        assert [event["requestContext"]["disconnectStatusCode"] for event in events] == [1001]
        assert closed_code(ws) == 1001


@pytest.mark.parametrize(
    ("fragments", "accepted"),
    [
        pytest.param([FRAME_LIMIT], True, id="one-32KB-frame"),
        pytest.param([FRAME_LIMIT + 1], False, id="one-frame-over-32KB"),
        pytest.param([FRAME_LIMIT] * 4, True, id="128KB-in-32KB-frames"),
        pytest.param([FRAME_LIMIT] * 4 + [1], False, id="message-over-128KB"),
        pytest.param([10 * KB, 40 * KB], False, id="fragment-over-32KB"),
    ],
)
def test_message_size_limits_close_1009(fragments: list[int], accepted: bool) -> None:
    # given an open connection
    recorder = Recorder()
    handlers = {"$default": recorder.handler("$default"), "$disconnect": recorder.handler("bye")}
    with running(handlers, allow()) as gateway, open_client(gateway) as ws:
        message = ["x" * size for size in fragments] if len(fragments) > 1 else "x" * fragments[0]
        if accepted:
            # when the client sends a message in these frames / then it is delivered whole
            ws.send(message)
            assert len(recorder.wait_for("$default")[0]["body"]) == sum(fragments)
        else:
            # when the client sends it / then the connection closes with 1009, as $disconnect says
            assert closed_code(ws, lambda: ws.send(message)) == 1009
            assert recorder.wait_for("bye")[0]["requestContext"]["disconnectStatusCode"] == 1009
            assert recorder.events("$default") == []


def test_binary_frame_closes_1003() -> None:
    # given an open connection (API Gateway accepts no binary frames from clients)
    with (
        running({"$default": lambda event, _: None}, allow()) as gateway,
        open_client(gateway) as ws,
    ):
        # when the client sends bytes / then the connection closes with 1003
        assert closed_code(ws, lambda: ws.send(b"\x00\x01")) == 1003


def test_idle_connection_closes_after_idle_timeout() -> None:
    # given a gateway with a short idle timeout
    recorder = Recorder()
    handlers = {"$disconnect": recorder.handler("$disconnect")}
    with running(handlers, allow(), idle_timeout=0.3) as gateway, open_client(gateway) as ws:
        started = time.monotonic()
        # when the client stays silent / then it is closed going away after the timeout
        assert closed_code(ws) == 1001
        assert time.monotonic() - started >= 0.25
        assert recorder.wait_for("$disconnect")[0]["requestContext"]["disconnectStatusCode"] == 1001


def test_busy_connection_closes_after_max_lifetime() -> None:
    # given a gateway with a short idle timeout and a longer maximum lifetime
    options = {"idle_timeout": 0.5, "max_lifetime": 1.0}
    handlers = {"$default": lambda event, _: None}
    with running(handlers, allow(), **options) as gateway, open_client(gateway) as ws:
        started = time.monotonic()
        # when the client keeps talking more often than the idle timeout
        with pytest.raises(ConnectionClosed) as closed:
            while time.monotonic() - started < WAIT:
                ws.send("still here")
                time.sleep(0.05)
    # then it was not closed as idle but at the end of its lifetime
    assert time.monotonic() - started >= 0.95
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1001


# ------------------------------------------------------------------------------ fidelity


def test_events_validate_against_powertools_websocket_models() -> None:
    # given handlers recording every event
    from aws_lambda_powertools.utilities.parser.models import (
        APIGatewayWebSocketConnectEventModel,
        APIGatewayWebSocketDisconnectEventModel,
        APIGatewayWebSocketMessageEventModel,
    )

    recorder = Recorder()
    routes = ("$connect", "$default", "$disconnect")
    with running({route: recorder.handler(route) for route in routes}, allow()) as gateway:
        # when a client connects, talks and leaves
        with open_client(gateway) as ws:
            ws.send("hello")
            recorder.wait_for("$default")
        recorder.wait_for("$disconnect")

    # then each event parses with the Powertools model for its kind
    connected = APIGatewayWebSocketConnectEventModel.model_validate(recorder.events("$connect")[0])
    message = APIGatewayWebSocketMessageEventModel.model_validate(recorder.events("$default")[0])
    gone = APIGatewayWebSocketDisconnectEventModel.model_validate(recorder.events("$disconnect")[0])
    assert connected.request_context.connection_id == message.request_context.connection_id
    assert message.body == "hello"
    assert gone.request_context.disconnect_status_code == 1000


def test_lambda_context_serves_powertools_logger() -> None:
    # given a handler decorated with Powertools' Logger.inject_lambda_context
    from aws_lambda_powertools import Logger

    logger = Logger(service="gateway-test")
    seen: list[dict[str, Any]] = []

    @logger.inject_lambda_context
    def handler(event: dict[str, Any], context: Any) -> None:
        seen.append(
            {
                **logger.get_current_keys(),
                "remaining": context.get_remaining_time_in_millis(),
                "version": context.function_version,
            }
        )

    options = {"function_names": {"$default": "yamb-game"}, "function_timeout": 20.0}
    with running({"$default": handler}, allow(), **options) as gateway, open_client(gateway) as ws:
        # when the handler is invoked
        ws.send("hello")
        deadline = time.monotonic() + WAIT
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)

    # then the logger picked the function's details from the fake context
    assert seen, "the handler did not run"
    keys = seen[0]
    assert keys["function_name"] == "yamb-game"
    assert keys["function_arn"] == "arn:aws:lambda:us-east-1:123456789012:function:yamb-game"
    assert keys["function_memory_size"] == 128
    assert keys["function_request_id"]
    assert 0 < keys["remaining"] <= 20_000
    assert keys["version"] == "$LATEST"
