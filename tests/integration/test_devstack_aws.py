"""The embedded-AWS half of the local stack: template reading and moto provisioned from it."""

import json
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import jwt
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from devstack.aws import LocalAws
from devstack.template import (
    Context,
    FunctionSpec,
    Template,
    TemplateError,
    load_handler,
    parse_template,
    resolve,
)

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
PASSWORD = "Correct-horse-1"


def _moment(aws: LocalAws, seconds: float) -> str:
    """`seconds` from now on the stack's clock, as a Wait state's timestamp."""
    return (aws.clock.now() + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


# ------------------------------------------------------------------------------------ template


def test_parse_template_short_tags_become_long_forms() -> None:
    # given a template fragment with every short tag
    text = """
    A: !Ref Param
    B: !Sub "${AWS::Region}-x"
    C: !Sub ["${V}", {V: !Ref Param}]
    D: !GetAtt Res.Arn
    E: !GetAtt [Res, Arn]
    F: !Join [",", [a, !Ref Param]]
    G: !If [IsProd, yes, no]
    H: !Select [0, !Split [",", "a,b"]]
    I: !GetAZs ""
    J: !ImportValue Shared
    K: !Equals [!Ref Param, live]
    L: !Not [!Condition IsProd]
    M: 2010-09-09
    """

    # when it is parsed
    body = parse_template(text)

    # then the tags are the plain long forms and dates stay strings
    assert body == {
        "A": {"Ref": "Param"},
        "B": {"Fn::Sub": "${AWS::Region}-x"},
        "C": {"Fn::Sub": ["${V}", {"V": {"Ref": "Param"}}]},
        "D": {"Fn::GetAtt": ["Res", "Arn"]},
        "E": {"Fn::GetAtt": ["Res", "Arn"]},
        "F": {"Fn::Join": [",", ["a", {"Ref": "Param"}]]},
        "G": {"Fn::If": ["IsProd", True, False]},
        "H": {"Fn::Select": [0, {"Fn::Split": [",", "a,b"]}]},
        "I": {"Fn::GetAZs": ""},
        "J": {"Fn::ImportValue": "Shared"},
        "K": {"Fn::Equals": [{"Ref": "Param"}, "live"]},
        "L": {"Fn::Not": [{"Condition": "IsProd"}]},
        "M": "2010-09-09",
    }


def test_parse_template_real_template_has_every_resource() -> None:
    # given the project's realtime stack / when it is parsed
    body = parse_template((TEMPLATE.parent / "stacks" / "realtime.yaml").read_text("utf-8"))

    # then resources and their intrinsics are plain data
    resources = body["Resources"]
    assert resources["LaneStateMachine"]["Properties"]["DefinitionSubstitutions"] == {
        "ClockFunctionArn": {"Fn::GetAtt": ["ClockFunction", "Arn"]},
        "TableName": {"Ref": "TableName"},
        "TimerRetryQueueUrl": {"Ref": "TimerRetryQueue"},
    }
    assert resources["ConnectRoute"]["Properties"]["Target"] == {
        "Fn::Sub": "integrations/${ConnectionsIntegration}"
    }


def test_template_reads_the_nested_applications_as_one() -> None:
    # given the root template, which nests one application per domain
    template = Template(TEMPLATE)

    # when it is read as the local stack reads it
    lane = template.resolve(template.properties("LaneStateMachine"))
    rewards = template.properties("RewardsFunction")["Events"]["Ended"]["Properties"]

    # then the nested resources are there with the root's values for their parameters, outputs
    # passed across stacks resolve, and code paths are the root's
    assert len(template.functions()) == 23
    assert lane["DefinitionSubstitutions"]["TableName"] == template.context.ref("GameTable")
    assert lane["DefinitionUri"] == "statemachines/lane.asl.json"
    assert rewards["Stream"] == {"Fn::GetAtt": ["GameTable", "StreamArn"]}
    assert template.function("GameFunction").code_uri == "functions/game/"
    realtime = template.resolve(template.properties("AuthorizerFunction"))["Environment"]
    assert realtime["Variables"]["USER_POOL_ID"] == template.context.ref("UserPool")
    assert template.stack_of["GameFunction"] == "Realtime"
    assert template.stack_of["GameTable"] == ""


def _context() -> Context:
    body = parse_template(
        """
        Parameters:
          StageName: {Type: String, Default: live}
          Zones: {Type: CommaDelimitedList, Default: "a,b"}
        Conditions:
          IsLive: !Equals [!Ref StageName, live]
        Resources:
          Fn: {Type: AWS::Serverless::Function, Properties: {CodeUri: fn/, Handler: app.handler}}
          Api: {Type: AWS::ApiGatewayV2::Api, Properties: {ProtocolType: WEBSOCKET}}
        """
    )
    context = Context.for_template(body, stack_name="demo")
    context.set_resource("Api", "abc123", ApiEndpoint="wss://abc123.example")
    return context


def test_resolve_sub_pseudo_parameters_resources_and_attributes() -> None:
    # given a context with a created API and a predicted function
    context = _context()

    # when Fn::Sub strings are resolved
    url = resolve(
        {"Fn::Sub": "https://${Api}.execute-api.${AWS::Region}.com/${StageName}"}, context
    )
    arn = resolve({"Fn::Sub": "${Fn.Arn}|${AWS::AccountId}|${AWS::StackName}|${!Kept}"}, context)

    # then pseudo parameters, parameter defaults, ids and attributes are substituted
    assert url == "https://abc123.execute-api.us-east-1.com/live"
    assert arn == (
        "arn:aws:lambda:us-east-1:123456789012:function:demo-Fn|123456789012|demo|${Kept}"
    )


def test_resolve_sub_list_form_join_select_if_and_getatt() -> None:
    # given a context
    context = _context()

    # when the other intrinsics are resolved
    value = resolve(
        {
            "sub": {"Fn::Sub": ["${Name}-${AWS::Partition}", {"Name": {"Ref": "StageName"}}]},
            "join": {"Fn::Join": ["/", [{"Ref": "Api"}, {"Fn::GetAtt": ["Api", "ApiEndpoint"]}]]},
            "select": {"Fn::Select": [1, {"Ref": "Zones"}]},
            "if": {"Fn::If": ["IsLive", "on", {"Ref": "AWS::NoValue"}]},
            "gone": {"Fn::If": ["IsLive", {"Ref": "AWS::NoValue"}, "off"]},
        },
        context,
    )

    # then each is evaluated, and NoValue drops the key
    assert value == {
        "sub": "live-aws",
        "join": "abc123/wss://abc123.example",
        "select": "b",
        "if": "on",
    }


def test_resolve_unknown_reference_raises_template_error() -> None:
    # given a context / when a missing resource is referenced / then it says so
    with pytest.raises(TemplateError, match="Missing"):
        resolve({"Ref": "Missing"}, _context())
    with pytest.raises(TemplateError, match="Nope"):
        resolve({"Fn::GetAtt": ["Api", "Nope"]}, _context())


def test_template_functions_merge_globals_environment() -> None:
    # given the real template with a parameter override
    template = Template(TEMPLATE, parameters={"LogLevel": "DEBUG"})

    # when its functions are read
    functions = {function.logical_id: function for function in template.functions()}

    # then each has its code, handler and Globals' variables under its own
    assert set(functions) == {
        "AuthorizerFunction",
        "HttpAuthorizerFunction",
        "ConnectionsFunction",
        "GameFunction",
        "ClockFunction",
        "AccountsFunction",
        "AccountTriggersFunction",
        "AccountJobsFunction",
        "PaymentsFunction",
        "EconomyFunction",
        "RewardsFunction",
        "ResultsFunction",
        "BoardsFunction",
        "PrizesFunction",
        "ProgressionFunction",
        "ProgressionJobsFunction",
        "PushFunction",
        "SocialFunction",
        "ClubsFunction",
        "ClubsJobsFunction",
        "TournamentsFunction",
        "TournamentsJobsFunction",
        "OpenDbJobsFunction",
    }
    clock = functions["ClockFunction"]
    assert (clock.code_uri, clock.handler, clock.memory_size) == (
        "functions/clock/",
        "app.handler",
        512,
    )
    assert clock.environment["TABLE_NAME"] == "yamb-local-GameTable"
    assert clock.environment["POWERTOOLS_LOG_LEVEL"] == "DEBUG"
    assert clock.environment["LANE_STATE_MACHINE_ARN"] == (
        "arn:aws:states:us-east-1:123456789012:stateMachine:yamb-local-lane"
    )
    assert clock.environment["WAKE_STATE_MACHINE_ARN"] == (
        "arn:aws:states:us-east-1:123456789012:stateMachine:yamb-local-wake"
    )
    assert clock.environment["CONNECTIONS_ENDPOINT"].endswith(".amazonaws.com/live")
    # the push function's ARN, an output of its nested application (Web Push)
    assert clock.environment["PUSH_FUNCTION_NAME"].endswith(":function:yamb-local-PushFunction")
    authorizer = functions["AuthorizerFunction"]
    assert authorizer.memory_size == 256
    assert {"USER_POOL_ID", "USER_POOL_CLIENT_ID"} <= set(authorizer.environment)


def test_template_routes_map_route_keys_to_functions() -> None:
    # given the real template / when its routes are read
    routes = {route.route_key: route for route in Template(TEMPLATE).routes()}

    # then every route key leads to the function of its integration
    assert {"$connect", "$disconnect", "$default", "roll", "write"} <= set(routes)
    assert routes["$connect"].function == "ConnectionsFunction"
    assert routes["$connect"].authorizer == "ConnectAuthorizer"
    assert routes["$disconnect"].function == "ConnectionsFunction"
    assert routes["$default"].function == "GameFunction"
    assert routes["roll"].function == "GameFunction"
    assert routes["roll"].authorizer is None


def test_template_connect_authorizer_is_the_authorizer_function() -> None:
    # given the real template / when the $connect authorizer is read
    authorizer = Template(TEMPLATE).connect_authorizer()

    # then it is the authorizer function reading the token query parameter
    assert authorizer is not None
    assert authorizer.function == "AuthorizerFunction"
    assert authorizer.identity_source == ("route.request.querystring.token",)
    assert authorizer.authorizer_type == "REQUEST"


def test_load_handler_imports_each_app_under_its_own_name(tmp_path: Path) -> None:
    # given two functions that both have an app.py using a shared module
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "devstack_probe_shared.py").write_text("PREFIX = 'shared'\n")
    for name in ("one", "two"):
        code = tmp_path / "functions" / name
        code.mkdir(parents=True)
        (code / "app.py").write_text(
            "from devstack_probe_shared import PREFIX\n"
            f"def handler(event, context):\n    return f'{{PREFIX}}-{name}-{{event}}'\n"
        )

    def spec(name: str) -> FunctionSpec:
        return FunctionSpec(
            f"Fn{name}", f"functions/{name}/", "app.handler", None, None, None, {}, {}
        )

    # when both handlers are loaded
    one = load_handler(tmp_path, spec("one"))
    two = load_handler(tmp_path, spec("two"))

    # then each is its own module
    assert one(1, None) == "shared-one-1"
    assert two(2, None) == "shared-two-2"


# ------------------------------------------------------------------------------------ LocalAws


@pytest.fixture(scope="module")
def stack() -> Iterator[LocalAws]:
    with LocalAws(TEMPLATE) as aws:
        yield aws


def _start(aws: LocalAws, machine: str, payload: dict[str, Any]) -> str:
    response = aws.client("stepfunctions").start_execution(
        stateMachineArn=aws.physical_ids[machine],
        name=f"test-{uuid.uuid4()}",
        input=json.dumps(payload),
    )
    return str(response["executionArn"])


def _history(aws: LocalAws, execution: str) -> list[dict[str, Any]]:
    stepfunctions = aws.client("stepfunctions")
    return list(stepfunctions.get_execution_history(executionArn=execution)["events"])


def _until(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never held")
        time.sleep(0.02)


def test_local_aws_table_has_gsi_and_ttl(stack: LocalAws) -> None:
    # given the stack / when the table is described
    dynamodb = stack.client("dynamodb")
    table = dynamodb.describe_table(TableName=stack.physical_ids["GameTable"])["Table"]
    ttl = dynamodb.describe_time_to_live(TableName=stack.physical_ids["GameTable"])

    # then it has the template's keys, index, billing mode and TTL
    assert table["TableName"] == "yamb-local-GameTable"
    assert [key["AttributeName"] for key in table["KeySchema"]] == ["pk", "sk"]
    assert [index["IndexName"] for index in table["GlobalSecondaryIndexes"]] == ["gsi1"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert ttl["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED",
        "AttributeName": "expires_at",
    }


def test_local_aws_player_id_token_verifies_against_jwks(stack: LocalAws) -> None:
    # given a player signed up through the app client
    stack.create_player("Ana", PASSWORD, "ana@example.com")
    client_id = stack.physical_ids["UserPoolClient"]
    issuer = f"https://cognito-idp.us-east-1.amazonaws.com/{stack.physical_ids['UserPool']}"

    # when she signs in and the token is checked against the pool's key set
    token = stack.id_token("Ana", PASSWORD)
    key = jwt.PyJWKSet.from_dict(stack.jwks())[jwt.get_unverified_header(token)["kid"]]
    claims = jwt.decode(token, key=key, algorithms=["RS256"], audience=client_id, issuer=issuer)

    # then it is her signed ID token
    assert claims["token_use"] == "id"
    # (players sign in with their address: the pool's username is the generated sub)
    assert claims["cognito:username"] == claims["sub"]
    assert claims["email"] == "ana@example.com"
    assert claims["email_verified"] in (True, "true")  # moto: the string "true"
    assert stack.issuer() == issuer


def test_local_aws_function_environment_uses_created_ids_and_overrides(stack: LocalAws) -> None:
    # given the stack / when a function's environment is asked with an override
    environment = stack.function_environment(
        "AuthorizerFunction", overrides={"CONNECTIONS_ENDPOINT": "http://127.0.0.1:1/"}
    )

    # then it names what was created, and the override wins
    assert environment["TABLE_NAME"] == stack.physical_ids["GameTable"]
    assert environment["USER_POOL_ID"] == stack.physical_ids["UserPool"]
    assert environment["USER_POOL_CLIENT_ID"] == stack.physical_ids["UserPoolClient"]
    assert environment["LANE_STATE_MACHINE_ARN"] == stack.physical_ids["LaneStateMachine"]
    assert environment["WAKE_STATE_MACHINE_ARN"] == stack.physical_ids["WakeStateMachine"]
    assert environment["CONNECTIONS_ENDPOINT"] == "http://127.0.0.1:1/"


def test_local_aws_env_points_boto3_at_the_server(
    stack: LocalAws, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a process environment from env()
    for name, value in stack.env().items():
        monkeypatch.setenv(name, value)

    # when a plain boto3 client lists tables
    names = boto3.client("dynamodb").list_tables()["TableNames"]

    # then it reached the local server
    assert stack.physical_ids["GameTable"] in names


def test_local_aws_wake_waits_then_calls_clock_function(stack: LocalAws) -> None:
    # given a clock function that records when it was called
    calls: list[tuple[datetime, Any, str]] = []

    def clock(event: Any, context: Any) -> None:
        calls.append((stack.clock.now(), event, context.function_name))

    stack.register_function("ClockFunction", clock)
    at = _moment(stack, 1)

    # when a wake one second ahead starts, waiting for real
    execution = _start(stack, "WakeStateMachine", {"gameId": "g1", "at": at})
    result = stack.wait_for_execution(execution, timeout=15)

    # then the clock ran after that moment with the game, named as the template names it
    assert result["status"] == "SUCCEEDED"
    ((called_at, event, function_name),) = calls
    assert event == {"source": "wake", "gameId": "g1"}
    assert function_name == "yamb-local-ClockFunction"
    assert called_at >= datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def test_local_aws_clock_advance_ends_a_long_wait_at_once(stack: LocalAws) -> None:
    # given a wake an hour ahead
    stack.register_function("ClockFunction", lambda event, context: None)
    execution = _start(stack, "WakeStateMachine", {"gameId": "g1", "at": _moment(stack, 3600)})
    _until(lambda: any(e["type"] == "WaitStateEntered" for e in _history(stack, execution)))

    # when the stack's clock moves an hour on
    started = time.monotonic()
    stack.advance(hours=1)

    # then the wake is over at once
    assert stack.wait_for_execution(execution)["status"] == "SUCCEEDED"
    assert time.monotonic() - started < 5


def test_local_aws_stop_execution_aborts_a_waiting_wake(stack: LocalAws) -> None:
    # given a wake a minute ahead
    called = threading.Event()
    stack.register_function("ClockFunction", lambda event, context: called.set())
    execution = _start(stack, "WakeStateMachine", {"gameId": "g1", "at": _moment(stack, 60)})
    _until(lambda: any(e["type"] == "WaitStateEntered" for e in _history(stack, execution)))

    # when it is stopped
    stack.client("stepfunctions").stop_execution(executionArn=execution, cause="turn played")
    result = stack.wait_for_execution(execution, timeout=5)

    # then it is aborted and the clock never ran
    assert result["status"] == "ABORTED"
    assert not called.wait(0.2)


@pytest.fixture
def replays(stack: LocalAws) -> Iterator[Any]:
    """Takes what the timers handed the retry queue since the test began: the queue's delivery
    delay is lifted while it runs (moto's delay waits on real time)."""
    sqs = stack.client("sqs")
    url = stack.physical_ids["TimerRetryQueue"]
    delay = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["DelaySeconds"])
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"DelaySeconds": "0"})

    def bodies() -> list[dict[str, Any]]:
        taken = []
        while messages := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages"):
            for message in messages:
                taken.append(json.loads(message["Body"]))
                sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        return taken

    bodies()
    yield bodies
    sqs.set_queue_attributes(QueueUrl=url, Attributes=delay["Attributes"])


def _until_ended(stack: LocalAws, execution: str) -> dict[str, Any]:
    """Moves the stack's clock on until the execution ends: its retries wait on it."""
    stepfunctions = stack.client("stepfunctions")
    for _ in range(40):
        stack.clock.advance(seconds=30)
        time.sleep(0.05)
        if stepfunctions.describe_execution(executionArn=execution)["status"] != "RUNNING":
            break
    return stack.wait_for_execution(execution)


def _failing_clock(calls: list[Any]) -> Any:
    def clock(event: Any, context: Any) -> None:
        calls.append(event)
        raise LookupError("no such game")

    return clock


def test_local_aws_creates_the_timer_retry_queue_with_its_dead_letter_queue(
    stack: LocalAws,
) -> None:
    # given the stack / when the retry queue is described
    sqs = stack.client("sqs")
    attributes = sqs.get_queue_attributes(
        QueueUrl=stack.physical_ids["TimerRetryQueue"], AttributeNames=["All"]
    )["Attributes"]
    dead_letters = sqs.get_queue_attributes(
        QueueUrl=stack.physical_ids["TimerDeadLetterQueue"], AttributeNames=["QueueArn"]
    )["Attributes"]

    # then it has the template's settings, and redrives into the dead-letter queue
    assert attributes["DelaySeconds"] == "10"
    assert attributes["VisibilityTimeout"] == "60"
    assert attributes["SqsManagedSseEnabled"] == "true"
    assert json.loads(attributes["RedrivePolicy"]) == {
        "deadLetterTargetArn": dead_letters["QueueArn"],
        "maxReceiveCount": 5,
    }
    assert stack.context.get_att("TimerRetryQueue", "Arn") == attributes["QueueArn"]


def test_local_aws_wake_whose_clock_function_keeps_failing_is_replayed_through_the_queue(
    stack: LocalAws, replays: Any
) -> None:
    # given a clock function that always raises
    calls: list[Any] = []
    stack.register_function("ClockFunction", _failing_clock(calls))

    # when a wake is reached (its retries wait on the stack's clock: move it on)
    execution = _start(stack, "WakeStateMachine", {"gameId": "g1", "at": _moment(stack, 0)})
    result = _until_ended(stack, execution)

    # then every retry was spent, the wake went to the retry queue, and the execution ends well
    assert len(calls) == 9
    assert replays() == [{"source": "wake", "gameId": "g1"}]
    assert result["status"] == "SUCCEEDED"


def test_local_aws_lane_whose_clock_function_keeps_failing_is_replayed_as_lost(
    stack: LocalAws, replays: Any
) -> None:
    # given a lane of a 30 s clock, and a clock function that always raises
    calls: list[Any] = []
    stack.register_function("ClockFunction", _failing_clock(calls))
    game_id = f"g-{uuid.uuid4().hex[:8]}"
    execution = _lane(stack, game_id, seconds=30)

    # when no heartbeat comes, and every call of the clock function fails
    result = _until_ended(stack, execution)

    # then the lane hands its game to the retry queue as lost (nothing will arm it again)
    assert calls[0] == {"source": "lane", "gameId": game_id, "lane": 7}
    assert replays() == [{"source": "lane_lost", "gameId": game_id, "lane": 7}]
    assert result["status"] == "SUCCEEDED"


def _lane_item(stack: LocalAws, game_id: str) -> dict[str, Any] | None:
    item = stack.client("dynamodb").get_item(
        TableName=stack.physical_ids["GameTable"],
        Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "LANE"}},
    )
    return item.get("Item")


def _lane(stack: LocalAws, game_id: str, seconds: int = 60) -> str:
    payload = {"gameId": game_id, "lane": 7, "seconds": seconds, "expiresAt": 2_000_000_000}
    execution = _start(stack, "LaneStateMachine", payload)
    _until(lambda: _lane_item(stack, game_id) is not None)
    return execution


def test_local_aws_lane_stores_its_token_and_heartbeats_keep_it_waiting(stack: LocalAws) -> None:
    # given a lane of a 60 s clock, and a clock function that records its calls
    calls: list[Any] = []
    stack.register_function("ClockFunction", lambda event, context: calls.append(event))
    game_id = f"g-{uuid.uuid4().hex[:8]}"
    execution = _lane(stack, game_id)
    item = _lane_item(stack, game_id)
    assert item is not None
    assert item["lane"] == {"N": "7"}
    token = item["token"]["S"]

    # when a heartbeat comes every 50 s for 150 s
    stepfunctions = stack.client("stepfunctions")
    for _ in range(3):
        stack.advance(seconds=50)
        time.sleep(0.15)
        stepfunctions.send_task_heartbeat(taskToken=token)

    # then the lane still waits, and never woke the game
    time.sleep(0.2)
    assert stepfunctions.describe_execution(executionArn=execution)["status"] == "RUNNING"
    assert calls == []
    stepfunctions.stop_execution(executionArn=execution)


def test_local_aws_lane_without_heartbeat_wakes_the_game_and_arms_again(stack: LocalAws) -> None:
    # given a lane whose clock function asks it to arm again once, then to end
    calls: list[Any] = []

    def clock(event: Any, context: Any) -> dict[str, Any]:
        calls.append(event)
        return {**event, "seconds": 30, "expiresAt": 2_000_000_000, "rearm": len(calls) == 1}

    stack.register_function("ClockFunction", clock)
    game_id = f"g-{uuid.uuid4().hex[:8]}"
    execution = _lane(stack, game_id)
    first_token = (_lane_item(stack, game_id) or {})["token"]["S"]

    # when no heartbeat comes for 61 s
    stack.advance(seconds=61)
    _until(lambda: len(calls) == 1)
    _until(lambda: (_lane_item(stack, game_id) or {})["token"]["S"] != first_token)

    # then the game was woken once, and the lane armed again with a new token; when that one
    # runs out too, the clock function ends the lane
    assert calls == [{"source": "lane", "gameId": game_id, "lane": 7}]
    stack.advance(seconds=31)
    assert stack.wait_for_execution(execution)["status"] == "SUCCEEDED"
    assert len(calls) == 2


def test_local_aws_lane_stopped_while_waiting_for_its_heartbeat_ends_at_once(
    stack: LocalAws,
) -> None:
    # given a lane of a 60 s clock waiting for its heartbeat, the clock not moving
    calls: list[Any] = []
    stack.register_function("ClockFunction", lambda event, context: calls.append(event))
    execution = _lane(stack, f"g-{uuid.uuid4().hex[:8]}")

    # when it is stopped
    stack.client("stepfunctions").stop_execution(executionArn=execution)

    # then it ends within a second, as StopExecution ends one on AWS, without waking the game
    assert stack.wait_for_execution(execution, timeout=1.0)["status"] == "ABORTED"
    assert calls == []


def test_local_aws_lane_that_cannot_store_its_token_is_reported_lost(stack: LocalAws) -> None:
    # given a lane whose game id makes its item's key too long for DynamoDB
    calls: list[Any] = []
    stack.register_function("ClockFunction", lambda event, context: calls.append(event))
    payload = {"gameId": "x" * 3000, "lane": 2, "seconds": 60, "expiresAt": 2_000_000_000}

    # when it starts
    execution = _start(stack, "LaneStateMachine", payload)
    result = stack.wait_for_execution(execution)

    # then the clock function hears that the lane is lost, and the execution ends
    assert result["status"] == "SUCCEEDED"
    assert calls == [{"source": "lane_lost", "gameId": "x" * 3000, "lane": 2}]


def test_local_aws_second_instance_in_process_is_refused(stack: LocalAws) -> None:
    # given a running stack / when another starts in the same process / then it is refused
    with pytest.raises(RuntimeError, match="already runs"):
        LocalAws(TEMPLATE)
    assert stack.client("dynamodb").list_tables()["TableNames"]


def _racing(calls: list[Any]) -> list[str]:
    """Runs the calls at the same moment, one thread each; what each ended with."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = [""] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            calls[index]()
            outcomes[index] = "ok"
        except ClientError as error:
            outcomes[index] = error.response["Error"]["Code"]

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def _dynamodb_without_retries(stack: LocalAws) -> Any:
    # A 500 from the embedded DynamoDB must show, not be retried away by botocore.
    return boto3.client(
        "dynamodb",
        endpoint_url=stack.endpoint_url,
        region_name=stack.region,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"max_attempts": 1}, max_pool_connections=32),
    )


def test_local_aws_dynamodb_conditional_writes_racing_for_one_item_let_exactly_one_win(
    stack: LocalAws,
) -> None:
    # given 16 writers of one new item, each on the condition that it does not exist yet
    dynamodb = _dynamodb_without_retries(stack)
    table = stack.physical_ids["GameTable"]
    key = f"race-{uuid.uuid4()}"

    def put(writer: int) -> Any:
        return lambda: dynamodb.put_item(
            TableName=table,
            Item={"pk": {"S": key}, "sk": {"S": "item"}, "writer": {"N": str(writer)}},
            ConditionExpression="attribute_not_exists(pk)",
        )

    # when they write at the same moment, 20 rounds
    rounds = [_racing([put(writer) for writer in range(16)]) for _ in range(20)]
    # then in the first round exactly one won, in every later round none, and nothing failed
    assert sorted(set(rounds[0])) == ["ConditionalCheckFailedException", "ok"]
    assert rounds[0].count("ok") == 1
    assert all(outcome == "ConditionalCheckFailedException" for r in rounds[1:] for outcome in r)


def test_local_aws_dynamodb_transactions_beside_writes_never_fail_inside(stack: LocalAws) -> None:
    # given transactions (moto copies the whole table for each) and plain writes of one table
    dynamodb = _dynamodb_without_retries(stack)
    table = stack.physical_ids["GameTable"]
    prefix = f"busy-{uuid.uuid4()}"

    def transaction(index: int) -> Any:
        return lambda: dynamodb.transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": table,
                        "Item": {"pk": {"S": f"{prefix}-t{index}-{n}"}, "sk": {"S": "item"}},
                    }
                }
                for n in range(2)
            ]
        )

    def put(index: int) -> Any:
        return lambda: dynamodb.put_item(
            TableName=table, Item={"pk": {"S": f"{prefix}-p{index}"}, "sk": {"S": "item"}}
        )

    # when 8 of each run at the same moment, 10 rounds
    outcomes = [
        outcome
        for round_ in range(10)
        for outcome in _racing(
            [transaction(round_ * 8 + n) for n in range(8)]
            + [put(round_ * 8 + n) for n in range(8)]
        )
    ]
    # then every one of them succeeded
    assert set(outcomes) == {"ok"}, sorted(set(outcomes))
