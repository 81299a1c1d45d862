"""The deployment posture of template.yaml: what a production stack must keep (issue 9). The
template is read as the local stack reads it (devstack.template: intrinsics resolved with the
parameters' defaults); the last test plays a game through the handlers on moto and checks that
each function's DynamoDB calls are ones its policy allows."""

import copy
import importlib.util
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.client import BaseClient
from moto.apigatewaymanagementapi.models import ApiGatewayManagementApiBackend
from moto.core.exceptions import JsonRESTError
from yamb.accounts.profile import AccountStatus, Profile
from yamb.progression.tasks import parse_catalogue
from yamb.results import periods
from yamb.results.boards import Board
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock as service_clock
from yamb_service.common import config
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
from yamb_service.game import wiring
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.progression.badges.dynamo import DynamoBadgeStore
from yamb_service.progression.badges.service import BadgeService
from yamb_service.progression.referral.dynamo import DynamoReferralStore
from yamb_service.progression.referral.service import ReferralService
from yamb_service.progression.tasks.dynamo import DynamoTasksStore
from yamb_service.progression.tasks.service import TaskService
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.results.service import PrizeService, ResultsRecorder, ResultsService

from devstack.policy import dynamodb_refusals
from devstack.template import Template, load_template
from testkit.service import START, Clock
from testkit.table import REGION
from tests.integration.conftest import load_event

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
# Every function of the template and of the nested templates it names (stacks/*.yaml).
FUNCTIONS = tuple(Template(TEMPLATE).resources_of_type("AWS::Serverless::Function"))
MACHINES = ("LaneStateMachine", "WakeStateMachine")
SERVICE_FUNCTIONS = ("ConnectionsFunction", "GameFunction", "ClockFunction")
# What the repositories call on the table (yamb_service/game/dynamo.py: DeleteItem for a gone
# spectator's item); the game function also lists the open games through the index.
TABLE_ACTIONS = {
    "dynamodb:Query",
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
}


@pytest.fixture(scope="module")
def body() -> dict[str, Any]:
    """The root template and its nested applications read as one (devstack.template): nested
    parameters are what the root passes, `!GetAtt App.Outputs.X` the nested output's value."""
    return Template(TEMPLATE).body


@pytest.fixture(scope="module")
def globals_() -> dict[str, Any]:
    """Globals.Function of the templates that hold functions (the same in each)."""
    template = Template(TEMPLATE)
    found = [template.function_globals(function) for function in FUNCTIONS]
    assert all(each == found[0] for each in found)
    return found[0]


@pytest.fixture(scope="module")
def template() -> Template:
    return Template(TEMPLATE)


def resources(body: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: r for name, r in body["Resources"].items() if r["Type"] == kind}


def properties(body: dict[str, Any], logical_id: str) -> dict[str, Any]:
    return dict(body["Resources"][logical_id]["Properties"])


def statements(template: Template, logical_id: str) -> list[dict[str, Any]]:
    """The function's or machine's inline policy statements, resolved."""
    found = []
    for policy in template.properties(logical_id).get("Policies", []):
        if isinstance(policy, dict) and "Statement" in policy:
            found.extend(template.resolve(policy["Statement"]))
    return found


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def granted(template: Template, logical_id: str, service: str) -> set[tuple[str, str]]:
    """(action, resource) pairs the inline statements allow for one service ("dynamodb")."""
    pairs = set()
    for statement in statements(template, logical_id):
        assert statement["Effect"] == "Allow"
        for action in as_list(statement["Action"]):
            if action.startswith(f"{service}:"):
                pairs |= {(action, resource) for resource in as_list(statement["Resource"])}
    return pairs


# ------------------------------------------------------------------------- deadlines kept


def test_timer_retry_queue_encrypted_with_a_dead_letter_queue(
    body: dict[str, Any], globals_: dict[str, Any]
) -> None:
    # given the template / when the retry queue and its dead-letter queue are read
    queue = properties(body, "TimerRetryQueue")
    dead_letters = properties(body, "TimerDeadLetterQueue")
    timeout = globals_["Timeout"]

    # then both are encrypted, a replay waits a little, a delivery outlasts the function, and a
    # few receives move the event to the dead-letter queue
    assert queue["SqsManagedSseEnabled"] is True
    assert dead_letters["SqsManagedSseEnabled"] is True
    assert 0 < queue["DelaySeconds"] <= 60
    assert queue["VisibilityTimeout"] >= 6 * timeout
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["TimerDeadLetterQueue", "Arn"]},
        "maxReceiveCount": 5,
    }
    assert dead_letters["MessageRetentionPeriod"] == 14 * 24 * 3600


def test_clock_function_polls_the_retry_queue_record_by_record(body: dict[str, Any]) -> None:
    # given the template / when the clock function's event sources are read
    events = properties(body, "ClockFunction")["Events"]

    # then the retry queue feeds it small batches whose failures it reports one by one
    (replay,) = events.values()
    assert replay["Type"] == "SQS"
    assert replay["Properties"]["Queue"] == {"Fn::GetAtt": ["TimerRetryQueue", "Arn"]}
    assert replay["Properties"]["BatchSize"] <= 10
    assert replay["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


@pytest.mark.parametrize(
    ("machine", "file", "replay"),
    [
        (
            "LaneStateMachine",
            "lane.asl.json",
            {"source": "lane_lost", "gameId.$": "$.gameId", "lane.$": "$.lane"},
        ),
        ("WakeStateMachine", "wake.asl.json", {"source": "wake", "gameId.$": "$.gameId"}),
    ],
)
def test_state_machine_clock_calls_end_in_the_retry_queue(
    body: dict[str, Any], template: Template, machine: str, file: str, replay: dict[str, str]
) -> None:
    # given a timer machine's definition and its properties
    definition = json.loads((ROOT / "statemachines" / file).read_text(encoding="utf-8"))
    states = definition["States"]
    clock_calls = {
        name: state
        for name, state in states.items()
        if state.get("Parameters", {}).get("FunctionName") == "${ClockFunctionArn}"
    }
    machine_properties = properties(body, machine)

    # then every call of the clock function catches what its retries leave into a task that
    # sends the event to the retry queue, which the machine may do and names by its URL
    assert clock_calls
    for state in clock_calls.values():
        assert state["Retry"]
        (catch,) = [c for c in state["Catch"] if c["ErrorEquals"] == ["States.ALL"]]
        sender = states[catch["Next"]]
        assert sender["Resource"] == "arn:aws:states:::sqs:sendMessage"
        assert sender["Parameters"] == {
            "QueueUrl": "${TimerRetryQueueUrl}",
            "MessageBody": replay,
        }
        assert sender["Retry"]
    assert machine_properties["DefinitionSubstitutions"]["TimerRetryQueueUrl"] == {
        "Ref": "TimerRetryQueue"
    }
    assert {
        "SQSSendMessagePolicy": {"QueueName": {"Fn::GetAtt": ["TimerRetryQueue", "QueueName"]}}
    } in (machine_properties["Policies"])
    assert template.properties(machine)["Logging"]["Level"] == "ERROR"


# ------------------------------------------------------------------------- alarms


def alarmed_metrics(body: dict[str, Any]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(namespace, metric) → the dimensions of each alarm (single metric or metric math)."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for alarm in resources(body, "AWS::CloudWatch::Alarm").values():
        props = alarm["Properties"]
        metrics = [props] if "MetricName" in props else []
        metrics += [
            m["MetricStat"]["Metric"] for m in props.get("Metrics", []) if "MetricStat" in m
        ]
        for metric in metrics:
            dimensions = {d["Name"]: d["Value"] for d in metric.get("Dimensions", [])}
            found.setdefault((metric["Namespace"], metric["MetricName"]), []).append(dimensions)
    return found


def test_alarms_every_alarm_notifies_the_alerts_topic(body: dict[str, Any]) -> None:
    # given the template / when its alarms are read
    alarms = resources(body, "AWS::CloudWatch::Alarm")

    # then each tells the one topic when it fires and when it clears
    assert len(alarms) >= 18
    for alarm in alarms.values():
        assert alarm["Properties"]["AlarmActions"] == [{"Ref": "AlertsTopic"}]
        assert alarm["Properties"]["OKActions"] == [{"Ref": "AlertsTopic"}]
        assert alarm["Properties"]["TreatMissingData"] == "notBreaching"


def test_alarms_cover_functions_api_timers_table_and_the_services_counts(
    body: dict[str, Any], globals_: dict[str, Any]
) -> None:
    # given the template / when the metrics its alarms watch are read
    watched = alarmed_metrics(body)
    service = globals_["Environment"]["Variables"]["POWERTOOLS_SERVICE_NAME"]

    # then each function's errors and throttles, the WebSocket integration errors, failed timer
    # executions, the dead letters, the table's throttles and conflicts, and the service's own
    # counts of trouble are watched
    for function in FUNCTIONS:
        for metric in ("Errors", "Throttles"):
            assert {"FunctionName": {"Ref": function}} in watched[("AWS/Lambda", metric)]
    assert watched[("AWS/ApiGateway", "IntegrationError")] == [
        {"ApiId": {"Ref": "WebSocketApi"}, "Stage": {"Ref": "StageName"}}
    ]
    assert watched[("AWS/States", "ExecutionsFailed")] == [
        {"StateMachineArn": {"Ref": machine}} for machine in MACHINES
    ]
    queues = (
        "TimerDeadLetterQueue",
        "RewardsDeadLetterQueue",
        "ResultsDeadLetterQueue",
        "AccountJobsDeadLetterQueue",
        "PrizesDeadLetterQueue",
        "ProgressionJobsDeadLetterQueue",
        "ClubsJobsDeadLetterQueue",
        "TournamentsJobsDeadLetterQueue",
        "OpenDbJobsDeadLetterQueue",
    )
    assert sorted(
        (d["QueueName"]["Fn::GetAtt"][0], d["QueueName"]["Fn::GetAtt"][1])
        for d in watched[("AWS/SQS", "ApproximateNumberOfMessagesVisible")]
    ) == sorted((queue, "QueueName") for queue in queues)
    table = {"TableName": {"Ref": "GameTable"}}
    for metric in ("ReadThrottleEvents", "WriteThrottleEvents", "ConditionalCheckFailedRequests"):
        assert table in watched[("AWS/DynamoDB", metric)]
    for metric in (
        "WriteConflict",
        "ActionFailed",
        "TimerRequestFailed",
        "FrameNotDelivered",
        "JobFailed",
    ):
        assert watched[("Yamb", metric)] == [{"service": service}]
    assert globals_["Environment"]["Variables"]["POWERTOOLS_METRICS_NAMESPACE"] == "Yamb"


def test_alerts_email_is_required_and_always_subscribed() -> None:
    # given the root template and the monitoring stack
    root = load_template(TEMPLATE)["Parameters"]["AlertEmail"]
    nested = load_template(ROOT / "stacks" / "monitoring.yaml")["Parameters"]["AlertEmail"]
    template = Template(TEMPLATE, parameters={"AlertEmail": "ops@example.com"})

    # when the parameter is read / then a deployment must give an address (no default, an
    # empty or malformed value refused by its pattern)
    for spec in (root, nested):
        assert "Default" not in spec
        pattern = re.compile(spec["AllowedPattern"])
        assert pattern.fullmatch("ops@example.com")
        for refused in ("", "ops", "ops@example", "a b@example.com"):
            assert not pattern.fullmatch(refused), refused
    # and the address is subscribed to the alerts topic, whatever else is set
    (subscription,) = template.resources_of_type("AWS::SNS::Subscription")
    assert "Condition" not in template.body["Resources"][subscription]
    assert template.resolve(template.properties(subscription)["Endpoint"]) == "ops@example.com"
    # the local stack reads the template without one (nothing is mailed locally)
    assert Template(TEMPLATE).context.parameters["AlertEmail"] == "alerts@yamb.localhost"


SCHEDULED_JOBS = (
    "AccountJobsFunction",
    "PrizesFunction",
    "ProgressionJobsFunction",
    "ClubsJobsFunction",
    "TournamentsJobsFunction",
    "OpenDbJobsFunction",
)


def test_scheduled_jobs_fail_into_an_encrypted_dead_letter_queue_that_alarms(
    body: dict[str, Any],
) -> None:
    # given every function a schedule invokes (asynchronously: Scheduler hands the event over)
    scheduled = sorted(
        name
        for name, resource in resources(body, "AWS::Serverless::Function").items()
        if any(
            event["Type"] in ("ScheduleV2", "Schedule")
            for event in (resource["Properties"].get("Events") or {}).values()
        )
    )
    assert scheduled == sorted(SCHEDULED_JOBS)
    for function in scheduled:
        props = properties(body, function)
        # when its failure handling is read
        config = props["EventInvokeConfig"]
        failure = config["DestinationConfig"]["OnFailure"]
        queue = failure["Destination"]["Fn::GetAtt"][0]
        # then a failed run is retried by Lambda, then sent with its error to an SQS queue
        # that is encrypted and keeps it 14 days
        assert failure["Type"] == "SQS"
        assert config["MaximumRetryAttempts"] == 2
        assert body["Resources"][queue]["Type"] == "AWS::SQS::Queue"
        assert properties(body, queue) == {
            "MessageRetentionPeriod": 1209600,
            "SqsManagedSseEnabled": True,
        }
        # and what the schedule could not deliver at all goes to the same queue
        for event in props["Events"].values():
            schedule = event["Properties"]
            assert schedule["DeadLetterConfig"] == {"Arn": {"Fn::GetAtt": [queue, "Arn"]}}
            assert schedule["RetryPolicy"]["MaximumRetryAttempts"] >= 1
        # and an alarm fires on its first message
        key = function.removesuffix("Function")
        assert single_metric(body, f"{key}DeadLetterAlarm") == (
            "AWS/SQS",
            "ApproximateNumberOfMessagesVisible",
            {"QueueName": {"Fn::GetAtt": [queue, "QueueName"]}},
        )
        assert fires_at(body, f"{key}DeadLetterAlarm") == (
            "Maximum",
            1,
            "GreaterThanOrEqualToThreshold",
        )


# The token economy's failures (docs/economy.md): rewards that failed for good, the rewards and
# payments functions' errors, and Stripe's webhook answered 5xx.


def single_metric(body: dict[str, Any], alarm: str) -> tuple[str, str, dict[str, Any]]:
    """A single-metric alarm's namespace, metric and dimensions."""
    props = properties(body, alarm)
    dimensions = {d["Name"]: d["Value"] for d in props.get("Dimensions", [])}
    return props["Namespace"], props["MetricName"], dimensions


def fires_at(body: dict[str, Any], alarm: str) -> tuple[str, int, str]:
    props = properties(body, alarm)
    return props["Statistic"], props["Threshold"], props["ComparisonOperator"]


def test_alarms_rewards_dead_letters_watch_the_queue_the_stream_fails_into(
    body: dict[str, Any],
) -> None:
    # given the queue the rewards function's stream event source hands its failed records to
    ended = properties(body, "RewardsFunction")["Events"]["Ended"]
    destination = ended["Properties"]["DestinationConfig"]["OnFailure"]["Destination"]
    queue = destination["Fn::GetAtt"][0]

    # when the rewards' dead-letter alarm is read
    watched = single_metric(body, "RewardsDeadLetterAlarm")

    # then it fires on the first message visible in that queue
    assert ended["Type"] == "DynamoDB"
    assert body["Resources"][queue]["Type"] == "AWS::SQS::Queue"
    assert watched == (
        "AWS/SQS",
        "ApproximateNumberOfMessagesVisible",
        {"QueueName": {"Fn::GetAtt": [queue, "QueueName"]}},
    )
    assert fires_at(body, "RewardsDeadLetterAlarm") == (
        "Maximum",
        1,
        "GreaterThanOrEqualToThreshold",
    )


@pytest.mark.parametrize(
    ("alarm", "function", "threshold"),
    [
        ("RewardsErrorsAlarm", "RewardsFunction", 5),
        ("PaymentsErrorsAlarm", "PaymentsFunction", 1),
        ("ProgressionJobsErrorsAlarm", "ProgressionJobsFunction", 1),
    ],
)
def test_alarms_economy_function_errors_watch_their_function(
    body: dict[str, Any], alarm: str, function: str, threshold: int
) -> None:
    # given an economy function's errors alarm / when the metric it watches is read
    watched = single_metric(body, alarm)

    # then it is that function's Lambda errors, summed over the window
    assert body["Resources"][function]["Type"] == "AWS::Serverless::Function"
    assert watched == ("AWS/Lambda", "Errors", {"FunctionName": {"Ref": function}})
    assert fires_at(body, alarm) == ("Sum", threshold, "GreaterThanOrEqualToThreshold")


def test_alarms_progression_rewards_not_paid_sum_referral_and_badge_failures(
    body: dict[str, Any],
) -> None:
    # given the template / when the progression rewards' alarm is read
    alarm = body["Resources"]["ProgressionRewardFailedAlarm"]["Properties"]
    watched = {
        m["Id"]: m["MetricStat"]["Metric"]["MetricName"]
        for m in alarm["Metrics"]
        if "MetricStat" in m
    }
    [sum_of] = [m for m in alarm["Metrics"] if "Expression" in m]

    # then it fires at the first referral week or badge level that failed to pay
    assert watched == {"referrals": "ReferralPaymentFailed", "badges": "BadgePaymentFailed"}
    assert sum_of["Expression"] == "referrals + badges"
    assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (1, "GreaterThanOrEqualToThreshold")


def test_alarms_stripe_webhook_5xx_counted_from_the_http_access_log(body: dict[str, Any]) -> None:
    # given the payments function's webhook route and the HTTP API's access log
    webhook = properties(body, "PaymentsStripeWebhookRoute")
    route_key = webhook["RouteKey"]
    access_log = properties(body, "HttpApiStage")["AccessLogSettings"]
    line = json.loads(re.sub(r"\$[\w.]+", "x", access_log["Format"]))

    # when the webhook's metric filter and its 5xx alarm are read
    log_filter = properties(body, "StripeWebhookServerErrorsFilter")
    (metric,) = log_filter["MetricTransformations"]
    watched = single_metric(body, "StripeWebhookServerErrorsAlarm")

    # then the filter counts that route's 5xx answers in the API's access log (its status a
    # string, so "5*" matches 500 to 504), and the alarm fires on the first one
    assert body["Resources"]["StripeWebhookServerErrorsFilter"]["Type"] == "AWS::Logs::MetricFilter"
    assert webhook["ApiId"] == {"Ref": "HttpApi"}
    assert route_key == "POST /webhooks/stripe"
    assert access_log["DestinationArn"] == {"Fn::GetAtt": ["HttpAccessLogGroup", "Arn"]}
    assert {"routeKey", "status"} <= set(line)
    assert '"status":"$context.status"' in access_log["Format"]
    assert log_filter["LogGroupName"] == {"Ref": "HttpAccessLogGroup"}
    assert log_filter["FilterPattern"] == (
        f'{{ ($.routeKey = "{route_key}") && ($.status = "5*") }}'
    )
    assert (metric["MetricValue"], metric["Unit"]) == ("1", "Count")
    assert watched == (metric["MetricNamespace"], metric["MetricName"], {})
    assert fires_at(body, "StripeWebhookServerErrorsAlarm") == (
        "Sum",
        1,
        "GreaterThanOrEqualToThreshold",
    )


# ------------------------------------------------------------------------- logs


def test_stage_access_log_has_no_query_string(body: dict[str, Any]) -> None:
    # given the stage's access log settings
    settings = properties(body, "Stage")["AccessLogSettings"]
    text = settings["Format"]

    # when its variables are read, and each is replaced by a value
    variables = re.findall(r"\$[\w.]+", text)
    line = json.loads(re.sub(r"\$[\w.]+", "x", text))

    # then it is one JSON object of $context variables, none of which holds the query string
    # (the ID token travels there), into a log group with retention
    assert variables
    assert all(v.startswith("$context.") for v in variables)
    assert not [v for v in variables if re.search("querystring|request\\.|token", v, re.I)]
    assert {"requestId", "routeKey", "status", "connectionId"} <= set(line)
    assert settings["DestinationArn"] == {"Fn::GetAtt": ["AccessLogGroup", "Arn"]}
    assert properties(body, "AccessLogGroup")["RetentionInDays"] == {"Ref": "LogRetentionDays"}
    # the account's logging role is bootstrap.yaml's, once per account and region
    assert "ApiGatewayAccount" not in body["Resources"]
    bootstrap = load_template(ROOT / "bootstrap.yaml")["Resources"]
    assert bootstrap["ApiGatewayAccount"]["Properties"]["CloudWatchRoleArn"] == {
        "Fn::GetAtt": ["ApiGatewayLogsRole", "Arn"]
    }


def test_functions_log_to_a_log_group_of_their_own_with_retention(body: dict[str, Any]) -> None:
    # given the template / when each function's logging config is read
    groups = [properties(body, f)["LoggingConfig"]["LogGroup"]["Ref"] for f in FUNCTIONS]

    # then each names a log group of its own, kept for the retention parameter's days
    assert len(set(groups)) == len(FUNCTIONS)
    for group in groups:
        assert body["Resources"][group]["Type"] == "AWS::Logs::LogGroup"
        assert properties(body, group)["RetentionInDays"] == {"Ref": "LogRetentionDays"}


@pytest.mark.parametrize("machine", MACHINES)
def test_state_machine_logs_errors_without_execution_data(
    body: dict[str, Any], template: Template, machine: str
) -> None:
    # given a timer machine / when its logging is read
    logging = properties(body, machine)["Logging"]
    (destination,) = logging["Destinations"]
    group = destination["CloudWatchLogsLogGroup"]["LogGroupArn"]["Fn::GetAtt"][0]
    actions = {a for s in statements(template, machine) for a in as_list(s["Action"])}

    # then errors only, no inputs or outputs, into a log group with retention it may deliver to
    assert (logging["Level"], logging["IncludeExecutionData"]) == ("ERROR", False)
    assert properties(body, group)["RetentionInDays"] == {"Ref": "LogRetentionDays"}
    assert {"logs:CreateLogDelivery", "logs:PutResourcePolicy"} <= actions


# ------------------------------------------------------------------------- limits


def test_stage_throttling_burst_covers_rate_and_lobby_routes_are_tighter(
    body: dict[str, Any], template: Template
) -> None:
    # given the stage's throttling / when its default and route settings are read
    stage = properties(body, "Stage")
    default = stage["DefaultRouteSettings"]
    routes = stage["RouteSettings"]
    route_keys = {route.route_key for route in template.routes()}

    # then every burst is at least its rate, the costlier routes are tighter than the turn
    # actions, and every throttled route exists before the stage names it
    for settings in (default, *routes.values()):
        assert settings["ThrottlingBurstLimit"] >= settings["ThrottlingRateLimit"] > 0
    for route in ("$connect", "create_game", "join_game", "watch_game", "sync", "list_games"):
        assert routes[route]["ThrottlingRateLimit"] < default["ThrottlingRateLimit"]
    assert set(routes) <= route_keys
    route_ids = {r.logical_id for r in template.routes() if r.route_key in routes}
    assert route_ids <= set(body["Resources"]["Stage"]["DependsOn"])


@pytest.mark.parametrize(
    ("parameters", "authorizer", "game"),
    [({}, 50, 100), ({"AuthorizerConcurrency": 0, "GameConcurrency": 0}, None, None)],
)
def test_reserved_concurrency_of_authorizer_and_game_from_parameters(
    parameters: dict[str, Any], authorizer: int | None, game: int | None
) -> None:
    # given the template deployed with the defaults, or with no reservation (a new account)
    template = Template(TEMPLATE, parameters=parameters)

    # when the functions' reserved concurrency is read
    def reserved(function: str) -> int | None:
        declared = template.properties(function).get("ReservedConcurrentExecutions")
        value = template.resolve({"Reserved": declared}) if declared is not None else {}
        return int(value["Reserved"]) if "Reserved" in value else None

    # then the authorizer and the game function have theirs, the others none
    assert reserved("AuthorizerFunction") == authorizer
    assert reserved("GameFunction") == game
    assert reserved("ConnectionsFunction") is None
    assert reserved("ClockFunction") is None


@pytest.mark.parametrize(
    ("parameters", "origin"),
    [
        ({}, "https://yamb.example"),
        ({"WebUrl": "https://play.example.org"}, "https://play.example.org"),
    ],
)
def test_http_api_cors_allows_the_web_clients_origin_alone(
    parameters: dict[str, str], origin: str
) -> None:
    # given the template deployed with the default web client's address, or another
    template = Template(TEMPLATE, parameters=parameters)

    # when the HTTP API's CORS configuration is read
    (api,) = template.http_apis()
    cors = template.http_cors(api)

    # then the web client's origin is the one origin allowed, never any origin
    assert cors is not None
    assert cors.allow_origins == (origin,)
    assert not cors.allow_credentials


@pytest.mark.parametrize(
    "url",
    [
        "https://yamb.example",
        "https://play.example.org:8443",
        "http://yamb.example",
        "https://yamb.example/",
        "https://yamb.example/app",
        "*",
    ],
)
def test_web_url_parameter_is_an_https_origin(url: str) -> None:
    # given the WebUrl parameter's pattern (CloudFormation refuses a value outside it)
    pattern = Template(TEMPLATE).body["Parameters"]["WebUrl"]["AllowedPattern"]

    # when a value is checked / then only an https origin without a path passes
    assert bool(re.fullmatch(pattern, url)) == (
        url in ("https://yamb.example", "https://play.example.org:8443")
    )


@pytest.mark.parametrize(
    ("mode", "expected"), [({}, "Active"), ({"TracingMode": "PassThrough"}, "PassThrough")]
)
def test_tracing_mode_from_a_parameter(mode: dict[str, str], expected: str) -> None:
    # given the template with the default or another tracing mode / when Globals are resolved
    template = Template(TEMPLATE, parameters=mode)

    # then every function traces as the parameter says
    for function in FUNCTIONS:
        assert template.resolve(template.function_globals(function)["Tracing"]) == expected


# ------------------------------------------------------------------------- identity and data


def test_identity_tokens_last_ten_minutes_and_the_refresh_token_stays(body: dict[str, Any]) -> None:
    # given the app client / when its token validity is read
    client = properties(body, "UserPoolClient")

    # then ID and access tokens last 10 minutes, the refresh token 30 days
    assert (client["IdTokenValidity"], client["AccessTokenValidity"]) == (10, 10)
    assert client["RefreshTokenValidity"] == 30
    assert client["TokenValidityUnits"] == {
        "IdToken": "minutes",
        "AccessToken": "minutes",
        "RefreshToken": "days",
    }
    assert "ALLOW_REFRESH_TOKEN_AUTH" in client["ExplicitAuthFlows"]


def test_table_and_user_pool_are_protected_from_deletion(body: dict[str, Any]) -> None:
    # given the table and the user pool / then neither can be deleted by mistake
    assert properties(body, "GameTable")["DeletionProtectionEnabled"] is True
    assert properties(body, "UserPool")["DeletionProtection"] == "ACTIVE"
    for name in ("GameTable", "UserPool"):
        assert body["Resources"][name]["DeletionPolicy"] == "Retain"


def test_user_pool_closes_every_way_around_the_accounts_api(body: dict[str, Any]) -> None:
    # given the user pool and its app client
    pool, client = properties(body, "UserPool"), properties(body, "UserPoolClient")

    # then only POST /accounts creates users, Cognito's own reset is closed, and a client can
    # write neither the address nor the sign-out generation (an empty list would mean all)
    assert pool["AdminCreateUserConfig"]["AllowAdminCreateUserOnly"] is True
    assert pool["AccountRecoverySetting"]["RecoveryMechanisms"] == [
        {"Name": "admin_only", "Priority": 1}
    ]
    assert pool["UsernameAttributes"] == ["email"]
    assert "AutoVerifiedAttributes" not in pool
    writable = client["WriteAttributes"]
    assert writable and not {"email", "email_verified", "custom:session"} & set(writable)
    assert "custom:session" in client["ReadAttributes"]
    assert set(pool["LambdaConfig"]) == {"PostAuthentication"}


def test_user_pool_offers_totp_enforces_threat_protection_and_takes_no_password_sign_in(
    body: dict[str, Any],
) -> None:
    # given the user pool and its app client
    pool, client = properties(body, "UserPool"), properties(body, "UserPoolClient")

    # then a player may add an authenticator app (TOTP, no SMS), threat protection blocks
    # risky sign-ins (its plan is Plus), and players sign in by SRP only: the one password
    # flow is the admin one, which needs IAM (the accounts function's password check)
    assert (pool["MfaConfiguration"], pool["EnabledMfas"]) == ("OPTIONAL", ["SOFTWARE_TOKEN_MFA"])
    assert pool["UserPoolTier"] == "PLUS"
    assert pool["UserPoolAddOns"] == {"AdvancedSecurityMode": "ENFORCED"}
    assert sorted(client["ExplicitAuthFlows"]) == [
        "ALLOW_ADMIN_USER_PASSWORD_AUTH",
        "ALLOW_REFRESH_TOKEN_AUTH",
        "ALLOW_USER_SRP_AUTH",
    ]


def test_password_policy_is_the_one_the_accounts_check(body: dict[str, Any]) -> None:
    from yamb.accounts import passwords

    policy = properties(body, "UserPool")["Policies"]["PasswordPolicy"]
    assert policy["MinimumLength"] == passwords.MIN_PASSWORD_CHARS == 12
    assert (policy["RequireLowercase"], policy["RequireNumbers"]) == (True, True)
    assert (policy["RequireUppercase"], policy["RequireSymbols"]) == (False, False)


def test_account_functions_may_make_the_cognito_calls_their_code_makes(
    template: Template,
) -> None:
    # given the Cognito operations the identity adapter makes (all admin ones, which need IAM:
    # the password check too)
    source = (ROOT / "shared" / "yamb_service" / "accounts" / "cognito.py").read_text(
        encoding="utf-8"
    )
    operations = set(re.findall(r'"(admin_[a-z_]+)"', source))
    actions = {
        "cognito-idp:" + "".join(part.capitalize() for part in operation.split("_"))
        for operation in operations
    }
    pool = template.context.get_att("UserPool", "Arn")

    # then the accounts function may make all of them but disabling (bans are the jobs'),
    # and the jobs function what the daily job and bans make
    granted_accounts = {
        action for action, _ in granted(template, "AccountsFunction", "cognito-idp")
    }
    granted_jobs = {action for action, _ in granted(template, "AccountJobsFunction", "cognito-idp")}
    assert granted_accounts == actions - {"cognito-idp:AdminDisableUser"}
    assert granted_jobs == {
        "cognito-idp:AdminDeleteUser",
        "cognito-idp:AdminDisableUser",
        "cognito-idp:AdminUpdateUserAttributes",
        "cognito-idp:AdminUserGlobalSignOut",
    }
    for function in ("AccountsFunction", "AccountJobsFunction"):
        assert {resource for _, resource in granted(template, function, "cognito-idp")} == {pool}


def test_template_functions_that_close_a_live_connection_may_manage_connections(
    template: Template,
) -> None:
    # given the functions that tell a player's live connection why and close it: a sign-out
    # everywhere (accounts, jobs), a new sign-in elsewhere (the PostAuthentication trigger, A2)
    # when their grants on API Gateway's management API are read
    for function in ("AccountsFunction", "AccountJobsFunction", "AccountTriggersFunction"):
        grants = granted(template, function, "execute-api")

        # then each may post to and delete the WebSocket API's connections, nothing more
        assert {action for action, _ in grants} == {"execute-api:ManageConnections"}, function
        (resource,) = {resource for _, resource in grants}
        assert str(resource).endswith("/@connections/*"), function


# ------------------------------------------------------------------------- least privilege


def test_functions_dynamodb_actions_are_the_ones_their_code_calls(template: Template) -> None:
    # given the template / when each function's DynamoDB grants are read
    table = template.context.get_att("GameTable", "Arn")

    # then the three service functions may query, read, put, update and delete items of the
    # table (the game function query the index too), and nothing else: no scan; the batch calls
    # are social's (docs/social.md): the game function reads both sides' blocks at once and
    # deletes a closed conversation in batches, it and the connections function drop the
    # general chat's listeners in batches
    for function in SERVICE_FUNCTIONS:
        expected = {(action, table) for action in TABLE_ACTIONS}
        if function == "GameFunction":
            expected.add(("dynamodb:Query", f"{table}/index/gsi1"))
            expected |= {("dynamodb:BatchGetItem", table), ("dynamodb:BatchWriteItem", table)}
        if function == "ConnectionsFunction":
            expected.add(("dynamodb:BatchWriteItem", table))
        assert granted(template, function, "dynamodb") == expected
        policies = template.properties(function)["Policies"]
        assert all("Statement" in policy for policy in policies), "no SAM policy templates"
    # the authorizers read a profile; the account functions write whole profiles on their
    # version (PutItem), use links up and move reservations (DeleteItem), the accounts function
    # counts the mails to an address (UpdateItem), and only the daily job lists accounts (the
    # index); its purge reads a game's partition (Query) to rename seats, and the tournaments'
    # list (the index) and their entries (BatchGetItem) to rename the player's
    read, put, delete = "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"
    account_grants = {
        "AuthorizerFunction": {read},
        "HttpAuthorizerFunction": {read},
        "AccountsFunction": {read, put, delete, "dynamodb:Query", "dynamodb:UpdateItem"},
        "AccountTriggersFunction": {read, put, "dynamodb:Query"},
        "AccountJobsFunction": {read, put, delete, "dynamodb:Query", "dynamodb:BatchGetItem"},
    }
    for function, actions in account_grants.items():
        expected = {(action, table) for action in actions}
        if function == "AccountJobsFunction":
            expected.add(("dynamodb:Query", f"{table}/index/gsi1"))
        assert granted(template, function, "dynamodb") == expected, function


def test_invoke_permissions_name_one_function_and_its_caller(template: Template) -> None:
    # given the Lambda permissions / when their source ARNs are resolved
    permissions = {
        name: template.resolve(template.properties(name))
        for name in template.resources_of_type("AWS::Lambda::Permission")
    }
    api = template.context.ref("WebSocketApi")
    prefix = f"arn:aws:execute-api:us-east-1:123456789012:{api}"

    # then each lets API Gateway invoke one function from one authorizer, route or stage, and
    # each function behind HTTP API routes from any route of that API (one permission each)
    http = f"arn:aws:execute-api:us-east-1:123456789012:{template.context.ref('HttpApi')}"
    pairs = sorted((p["SourceArn"], p["FunctionName"]) for p in permissions.values())
    http_functions = sorted({route.function for route in template.http_routes()})
    assert len(http_functions) == 8
    assert pairs == sorted(
        [
            (
                f"{prefix}/authorizers/{template.context.ref('ConnectAuthorizer')}",
                template.context.ref("AuthorizerFunction"),
            ),
            (f"{prefix}/live/$connect", template.context.ref("ConnectionsFunction")),
            (f"{prefix}/live/$disconnect", template.context.ref("ConnectionsFunction")),
            (f"{prefix}/live/*", template.context.ref("GameFunction")),
            (f"{http}/authorizers/*", template.context.ref("HttpAuthorizerFunction")),
            (
                template.context.get_att("UserPool", "Arn"),
                template.context.ref("AccountTriggersFunction"),
            ),
            *((f"{http}/*", template.context.ref(function)) for function in http_functions),
        ]
    )
    assert {p["Principal"] for p in permissions.values()} == {
        "apigateway.amazonaws.com",
        "cognito-idp.amazonaws.com",
    }


# A game played through the handlers on moto, every DynamoDB call recorded with the function
# that made it.


@dataclass
class Player:
    player_id: str
    connection_id: str


ANA = Player("ana", "conn-ana")
BEN = Player("ben", "conn-ben")
CLEO = Player("cleo", "conn-cleo")
CONTEXT_ARN = f"arn:aws:lambda:{REGION}:123456789012:function:yamb-test-clock"
REQUEST_IDS = itertools.count(1)
# Connections that answer 410 Gone, as a closed one does.
GONE: set[str] = set()


@dataclass
class LambdaContext:
    function_name: str = "yamb-test-function"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = CONTEXT_ARN
    aws_request_id: str = "00000000-0000-0000-0000-000000000000"


def load_handler(name: str) -> Callable[[dict[str, Any], Any], Any]:
    path = ROOT / "functions" / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"yamb_function_{name}_privilege", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.handler  # type: ignore[no-any-return]


def from_player(name: str, player: Player, **frame: Any) -> dict[str, Any]:
    event = copy.deepcopy(load_event(f"{name}.json"))
    context = event["requestContext"]
    context["connectionId"] = player.connection_id
    context["authorizer"]["playerId"] = player.player_id
    context["authorizer"]["principalId"] = player.player_id
    if "body" in event:
        body = json.loads(event["body"]) | frame
        body["requestId"] = f"{name}-{next(REQUEST_IDS)}"
        event["body"] = json.dumps(body)
    return event


# Each function's DynamoDB calls (operation, parameters) in the test running now, as the
# recorders below see them: judged by `refusals`, dynamodb:LeadingKeys included.
RAW_BY_CALLER: dict[str, list[tuple[str, dict[str, Any]]]] = {}


def refusals(
    template: Template, function: str, calls: list[tuple[str, dict[str, Any]]]
) -> list[str]:
    """The DynamoDB calls (operation, parameters) the function's statements refuse, their
    `dynamodb:LeadingKeys` conditions evaluated (devstack.policy: moto checks no policy)."""
    table = template.context.get_att("GameTable", "Arn")
    granted_ = statements(template, function)
    return [
        f"{function}: {operation}: {refused}"
        for operation, params in calls
        for refused in dynamodb_refusals(granted_, table, operation, params)
    ]


def iam_actions(operation: str, params: dict[str, Any]) -> set[tuple[str, str]]:
    """The (action, table or index) a DynamoDB call needs: a transaction's parts each."""
    if operation == "TransactWriteItems":
        parts = {"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem"}
        parts["ConditionCheck"] = "ConditionCheckItem"
        return {
            (f"dynamodb:{parts[kind]}", "table")
            for item in params["TransactItems"]
            for kind in item
        }
    resource = f"index/{params['IndexName']}" if "IndexName" in params else "table"
    return {(f"dynamodb:{operation}", resource)}


@pytest.fixture
def recorded_calls(
    table: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[dict[str, set[tuple[str, str]]], Callable[[str], Any]]]:
    """Each function's DynamoDB needs while the game is played, and a way to call a function
    by its logical id with the environment template.yaml gives it."""
    stepfunctions = boto3.client("stepfunctions", region_name=REGION)
    arns = {}
    for kind in ("lane", "wake"):
        definition = (ROOT / "statemachines" / f"{kind}.asl.json").read_text(encoding="utf-8")
        for name, value in {
            "ClockFunctionArn": CONTEXT_ARN,
            "TableName": table,
            "TimerRetryQueueUrl": "https://sqs.us-east-1.amazonaws.com/123456789012/retry",
        }.items():
            definition = definition.replace("${" + name + "}", value)
        arns[kind] = stepfunctions.create_state_machine(
            name=f"yamb-privilege-{kind}-{next(REQUEST_IDS)}",
            definition=definition,
            roleArn=f"arn:aws:iam::123456789012:role/yamb-privilege-{kind}",
        )["stateMachineArn"]
    for name, value in {
        "TABLE_NAME": table,
        "CONNECTIONS_ENDPOINT": "https://example.execute-api.us-east-1.amazonaws.com/live",
        "LANE_STATE_MACHINE_ARN": arns["lane"],
        "WAKE_STATE_MACHINE_ARN": arns["wake"],
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    config.service_settings.cache_clear()
    wiring.game_service.cache_clear()
    handlers = {
        "ConnectionsFunction": load_handler("connections"),
        "GameFunction": load_handler("game"),
        "ClockFunction": load_handler("clock"),
    }
    needs: dict[str, set[tuple[str, str]]] = {name: set() for name in handlers}
    calling: list[str] = []
    make_api_call = BaseClient._make_api_call

    RAW_BY_CALLER.clear()

    def recording(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if client.meta.service_model.service_name == "dynamodb" and calling:
            needs[calling[-1]] |= iam_actions(operation, params)
            RAW_BY_CALLER.setdefault(calling[-1], []).append((operation, copy.deepcopy(params)))
        return make_api_call(client, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", recording)
    post_to_connection = ApiGatewayManagementApiBackend.post_to_connection

    def posting(backend: Any, data: bytes, connection_id: str) -> None:
        if connection_id in GONE:
            error = JsonRESTError("GoneException", "")
            error.code = 410
            raise error
        post_to_connection(backend, data, connection_id)

    monkeypatch.setattr(ApiGatewayManagementApiBackend, "post_to_connection", posting)
    GONE.clear()

    def call(function: str, event: dict[str, Any]) -> Any:
        calling.append(function)
        try:
            return handlers[function](event, LambdaContext())
        finally:
            calling.pop()

    yield needs, call
    config.service_settings.cache_clear()
    wiring.game_service.cache_clear()


@pytest.mark.filterwarnings("ignore:No application metrics to publish")
def test_functions_dynamodb_calls_of_a_game_are_allowed_by_their_policies(
    template: Template,
    recorded_calls: tuple[dict[str, set[tuple[str, str]]], Callable[..., Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    needs, call = recorded_calls
    clock = Clock(START)
    monkeypatch.setattr(service_clock, "clock", clock)

    # given three players connected, a game created, listed, joined, watched, started, synced
    # and rolled in
    for player in (ANA, BEN, CLEO):
        assert call("ConnectionsFunction", from_player("connect", player)) == {"statusCode": 200}
    call("GameFunction", from_player("create_game", ANA, settings={"players": 2, "preset": 1}))
    game_id = wiring.game_service().players.get("ana").game_id
    call("GameFunction", from_player("list_games", BEN))
    call("GameFunction", from_player("join_game", BEN, gameId=game_id))
    call("GameFunction", from_player("watch_game", CLEO, gameId=game_id))
    call("GameFunction", from_player("start_game", ANA, gameId=game_id))
    call("GameFunction", from_player("sync", BEN))
    call("GameFunction", from_player("roll", ANA, gameId=game_id))
    session = wiring.game_service().games.load(game_id).session

    # when cleo's connection is gone without a word, ana's clock runs out (her lane wakes the
    # game, and cleo's spectator item goes), the queue replays that lane as lost, ben's clock
    # runs out too (a wake), he drops out and stays away past his return countdown (a wake: he
    # disappears, with a cooldown), and ana syncs
    GONE.add(CLEO.connection_id)
    clock.advance(seconds=61)
    call("ClockFunction", {"source": "lane", "gameId": game_id, "lane": session.timers.lane})
    replay = {"source": "lane_lost", "gameId": game_id, "lane": session.timers.lane}
    sqs_event = load_event("clock_sqs.json")
    sqs_event["Records"] = [sqs_event["Records"][1] | {"body": json.dumps(replay)}]
    assert call("ClockFunction", sqs_event) == {"batchItemFailures": []}
    clock.advance(seconds=61)
    call("ClockFunction", {"source": "wake", "gameId": game_id})
    call("ConnectionsFunction", from_player("disconnect", BEN))
    clock.advance(minutes=10)
    call("ClockFunction", {"source": "wake", "gameId": game_id})
    call("GameFunction", from_player("sync", ANA))
    assert wiring.game_service().players.get("ben").blocked_until is not None

    # then every call each function made is one its policy allows, and each made some
    table = template.context.get_att("GameTable", "Arn")
    for function, made in needs.items():
        allowed = {
            (action, "table" if resource == table else resource.removeprefix(f"{table}/"))
            for action, resource in granted(template, function, "dynamodb")
        }
        assert made, function
        assert made <= allowed, (function, made - allowed)
        assert not refusals(template, function, RAW_BY_CALLER[function])
    assert ("dynamodb:Query", "index/gsi1") in needs["GameFunction"]
    assert {("dynamodb:GetItem", "table"), ("dynamodb:DeleteItem", "table")} <= needs[
        "ClockFunction"
    ]


@pytest.mark.filterwarnings("ignore:No application metrics to publish")
def dynamodb_needs_by_caller(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[dict[str, set[tuple[str, str]]], list[str]]:
    """moto checks no policy: each DynamoDB call made while `calling` names a function (its
    last entry) is recorded in `needs` under it, as the (action, table or index) it needs."""
    needs: dict[str, set[tuple[str, str]]] = {}
    calling: list[str] = []
    make_api_call = BaseClient._make_api_call

    RAW_BY_CALLER.clear()

    def recording(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if client.meta.service_model.service_name == "dynamodb" and calling:
            needs.setdefault(calling[-1], set()).update(iam_actions(operation, params))
            RAW_BY_CALLER.setdefault(calling[-1], []).append((operation, copy.deepcopy(params)))
        return make_api_call(client, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", recording)
    return needs, calling


def dynamodb_allowed(template: Template, function: str) -> set[tuple[str, str]]:
    """What the function's policy allows, named as `iam_actions` names a need."""
    table = template.context.get_att("GameTable", "Arn")
    return {
        (action, "table" if resource == table else resource.removeprefix(f"{table}/"))
        for action, resource in granted(template, function, "dynamodb")
    }


def test_functions_dynamodb_calls_of_results_are_allowed_by_their_policies(
    template: Template, own_item: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    item = own_item
    # moto checks no policy: each call the results code makes is recorded under the function
    # that makes it on AWS, and compared with what its policy allows.
    week = datetime(2026, 11, 25, 12, tzinfo=UTC)
    store = DynamoResultsStore(item, sleep=lambda _: None)
    accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
    for name in ("iam-a", "iam-b", "iam-c", "iam-d"):
        accounts.create(
            Profile(
                player_id=name,
                nickname=name,
                email=None,
                status=AccountStatus.ACTIVE,
                created_at=week,
            )
        )

    def game(game_id: str, totals: dict[str, int], settings: GameSettings) -> GameResult:
        best = max(totals.values())
        return GameResult(
            game_id=game_id,
            settings=settings,
            ended_at=week,
            winners=[p for p, t in totals.items() if t == best],
            players=[
                PlayerResult(player_id=p, total=t, full=True, left=False, turns=26)
                for p, t in totals.items()
            ],
            recorded=True,
        )

    ranked = GameSettings(ranked=True, preset=1, players=2, turn_seconds=60)
    pairs = GameSettings(ranked=True, preset=3, players=4, pairs=True, turn_seconds=60)
    needs, calling = dynamodb_needs_by_caller(monkeypatch)

    # given the recorder's games (a score that moves, a pair), the boards' reads and favorites,
    # and a week's payout
    calling.append("ResultsFunction")
    recorder = ResultsRecorder(store, accounts, now=lambda: week)
    recorder.record(game("iam-g1", {"iam-a": 300, "iam-b": 200}, ranked))
    recorder.record(game("iam-g2", {"iam-a": 400, "iam-b": 250}, ranked))
    recorder.record(game("iam-g3", {"iam-a": 1, "iam-b": 2, "iam-c": 3, "iam-d": 4}, pairs))
    calling[-1] = "BoardsFunction"
    service = ResultsService(store, accounts, now=lambda: week)
    service.board("iam-d", Board("individual", "main", "best", periods.ALL_TIME), "all")
    service.board("iam-a", Board("pairs", "3", "best", periods.ALL_TIME), "all")
    service.board("iam-a", Board("individual", "1", "best", periods.ALL_TIME), "favorites")
    service.statistics("iam-a")
    service.public_page("iam-a")
    service.head_to_head("iam-a", "iam-b", None)
    service.follow("iam-a", "iam-b", on=True)
    service.follow("iam-a", "iam-b", on=False)
    calling[-1] = "PrizesFunction"
    payday = datetime(2026, 11, 30, 0, 10, tzinfo=UTC)
    wallets = DynamoWalletStore(item, sleep=lambda _: None)
    prizes = PrizeService(store, wallets, accounts, now=lambda: payday, settle_seconds=0)
    assert prizes.pay("week", payday).paid
    calling.pop()

    # then each made calls, and each call is one its policy allows
    for function in ("ResultsFunction", "BoardsFunction", "PrizesFunction"):
        assert needs[function], function
        missing = needs[function] - dynamodb_allowed(template, function)
        assert not missing, (function, missing)
        assert not refusals(template, function, RAW_BY_CALLER[function])


def test_functions_dynamodb_calls_of_progression_are_allowed_by_their_policies(
    template: Template, own_item: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    item = own_item
    # moto checks no policy: each call the progression code makes is recorded under the
    # function that makes it on AWS (the stream's game ends run in the results function, the
    # verification's rewards in the accounts function), and compared with what it may do.
    monday = datetime(2026, 11, 30, tzinfo=UTC)
    clock = {"now": monday + timedelta(days=1)}
    accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
    for name in ("iam-a", "iam-b", "iam-c"):
        accounts.create(
            Profile(
                player_id=name,
                nickname=name,
                email=None,
                status=AccountStatus.ACTIVE,
                created_at=monday - timedelta(weeks=8),
            )
        )
    wallets = DynamoWalletStore(item, sleep=lambda _: None)
    book = parse_catalogue(
        '{"tasks": [{"id": "play-1", "group": "engagement", "title": "Play", '
        '"counter": "games", "target": 1}]}'
    )
    tasks = TaskService(
        DynamoTasksStore(item), wallets, accounts, book=lambda: book, now=lambda: clock["now"]
    )
    referrals = ReferralService(
        DynamoReferralStore(item),
        DynamoResultsStore(item),
        accounts,
        wallets,
        lambda: clock["now"],
        web_base_url="https://yamb.example",
    )
    badges = BadgeService(
        DynamoBadgeStore(item),
        wallets,
        accounts,
        lambda: clock["now"],
        results=DynamoResultsStore(item),
        wardrobes=DynamoWardrobeStore(item),
    )
    ranked = GameResult(
        game_id="iam-g1",
        settings=GameSettings(ranked=True, preset=1, players=3, turn_seconds=60),
        ended_at=clock["now"],
        winners=["iam-b"],
        players=[
            PlayerResult(player_id=p, total=t, full=True, left=False, turns=26)
            for p, t in (("iam-a", 300), ("iam-b", 400), ("iam-c", 200))
        ],
        recorded=True,
    )
    needs, calling = dynamodb_needs_by_caller(monkeypatch)

    # given b takes a's referral code and verifies, the week's tasks are chosen, a ranked game
    # of the three ends, tasks and badges are read and claimed, a scheme chosen, a week paid
    calling.append("ProgressionFunction")
    code = referrals.referral("iam-a").code
    referrals.take_referrer("iam-b", code)
    calling[-1] = "AccountsFunction"
    referrals.on_verified("iam-b", clock["now"])
    assert badges.enrol_pioneer("iam-b", clock["now"]) == 1
    calling[-1] = "ProgressionJobsFunction"
    tasks.choose_week(monday)
    calling[-1] = "ResultsFunction"
    tasks.record_game(ranked)
    referrals.record_game(ranked)
    badges.record_game(ranked)
    calling[-1] = "ProgressionFunction"
    tasks.view("iam-b")
    assert tasks.claim("iam-b", "play-1").tokens == 5
    referrals.choose_scheme("iam-a", "iam-b", "long", clock["now"])
    assert badges.mine("iam-b").paid
    badges.of_player("iam-b")
    calling[-1] = "ProgressionJobsFunction"
    clock["now"] = monday + timedelta(weeks=1)
    assert referrals.pay_week(periods.previous("week", clock["now"]), clock["now"]).paid == 1
    calling.pop()

    # then each made calls, and each call is one its policy allows
    for function in (
        "ProgressionFunction",
        "ProgressionJobsFunction",
        "ResultsFunction",
        "AccountsFunction",
    ):
        assert needs[function], function
        missing = needs[function] - dynamodb_allowed(template, function)
        assert not missing, (function, missing)
        assert not refusals(template, function, RAW_BY_CALLER[function])


# ------------------------------------------------------------------------- every function's alarms


def _watching(body: dict[str, Any], namespace: str, metric: str) -> dict[str, list[str]]:
    """Dimension value (a function's `Ref`) -> the alarms watching that metric of it."""
    found: dict[str, list[str]] = {}
    for name, alarm in resources(body, "AWS::CloudWatch::Alarm").items():
        props = alarm["Properties"]
        metrics = [m["MetricStat"]["Metric"] for m in props.get("Metrics", []) if "MetricStat" in m]
        if "MetricName" in props:
            metrics.append(props)
        for watched in metrics:
            if (watched["Namespace"], watched["MetricName"]) != (namespace, metric):
                continue
            for dimension in watched.get("Dimensions", []):
                if dimension["Name"] == "FunctionName":
                    found.setdefault(dimension["Value"]["Ref"], []).append(name)
    return found


@pytest.mark.parametrize("metric", ["Errors", "Throttles"])
def test_every_function_has_errors_and_throttles_alarms(body: dict[str, Any], metric: str) -> None:
    # given every function of the root and nested templates
    assert len(FUNCTIONS) == 23
    # when the alarms on Lambda's metric are read
    watching = _watching(body, "AWS/Lambda", metric)
    # then each function has one, and no alarm watches something that is not a function
    assert sorted(watching) == sorted(FUNCTIONS)
    assert all(len(alarms) == 1 for alarms in watching.values()), watching


def test_every_http_function_has_a_5xx_alarm_on_exactly_its_routes(
    body: dict[str, Any], template: Template
) -> None:
    # given each function behind HTTP API routes, and its routes' keys
    routes: dict[str, set[str]] = {}
    for route in template.http_routes():
        routes.setdefault(route.function, set()).add(route.route_key)
    access_log = {"Ref": "HttpAccessLogGroup"}
    for function, keys in routes.items():
        # when its 5xx metric filters (several when its routes do not fit in one pattern) and
        # its alarm are read
        key = function.removesuffix("Function")
        filters = [
            properties(body, name)
            for name in body["Resources"]
            if re.fullmatch(rf"{key}ServerErrorsFilter\d*", name)
        ]
        counted: list[str] = []
        metrics = set()
        for log_filter in filters:
            (metric,) = log_filter["MetricTransformations"]
            metrics.add((metric["MetricNamespace"], metric["MetricName"]))
            pattern = log_filter["FilterPattern"]
            assert log_filter["LogGroupName"] == access_log
            assert pattern.startswith('{ ($.status = "5*") && (')
            assert len(pattern) <= 1024  # CloudWatch Logs' limit on a filter pattern
            counted += re.findall(r'\$\.routeKey = "([^"]+)"', pattern)
        # then together they count the access log's 5xx of exactly the function's routes, each
        # once, into one metric
        assert sorted(counted) == sorted(keys), function
        ((namespace, name),) = metrics
        # and an alarm watches that metric
        assert single_metric(body, f"{key}ServerErrorsAlarm") == (namespace, name, {})
    # and the whole API's 5xx (what no function answered: a failed authorizer) is watched too
    assert single_metric(body, "HttpApiServerErrorsAlarm")[:2] == ("AWS/ApiGateway", "5xx")


def test_monitoring_alarms_are_what_devstack_alarms_writes() -> None:
    # given stacks/monitoring.yaml / when its generated parts are written again from the
    # template's functions and routes (make alarms)
    from devstack import alarms

    # then nothing changes, and every function has its alarm settings
    assert set(alarms.functions(Template(TEMPLATE))) == set(alarms.SETTINGS)
    assert alarms.render() == alarms.MONITORING.read_text(encoding="utf-8")


def test_nested_applications_get_every_parameter_they_declare() -> None:
    # given the root template and each local nested application
    root = load_template(TEMPLATE)
    for name, resource in root["Resources"].items():
        if resource["Type"] != "AWS::Serverless::Application":
            continue
        nested = load_template(ROOT / resource["Properties"]["Location"])
        declared = {
            p for p, spec in (nested.get("Parameters") or {}).items() if "Default" not in spec
        }
        # then the root passes exactly what it declares (those without a default at least)
        passed = set(resource["Properties"]["Parameters"])
        assert declared <= passed <= set(nested["Parameters"]), name


def test_mail_routes_are_bounded_per_route_and_per_source(body: dict[str, Any]) -> None:
    # given the routes anyone may call that mail someone, the HTTP API's stage and edge.yaml's
    # web ACL (in front of the API through CloudFront)
    mail_routes = {"POST /accounts", "POST /accounts/verification", "POST /accounts/password-reset"}
    stage = properties(body, "HttpApiStage")
    route_ids = {
        logical_id: resource["Properties"]["RouteKey"]
        for logical_id, resource in body["Resources"].items()
        if resource.get("Type") == "AWS::ApiGatewayV2::Route"
    }
    acl = load_template(ROOT / "edge.yaml")["Resources"]["HttpApiWebAcl"]["Properties"]

    # then each of them is throttled below the default (in all), after its route exists
    default = stage["DefaultRouteSettings"]["ThrottlingRateLimit"]
    settings = stage["RouteSettings"]
    assert mail_routes <= set(settings)
    for route in mail_routes:
        assert 0 < settings[route]["ThrottlingRateLimit"] < default
        assert settings[route]["ThrottlingBurstLimit"] >= settings[route]["ThrottlingRateLimit"]
    named = {route_ids[logical_id] for logical_id in body["Resources"]["HttpApiStage"]["DependsOn"]}
    assert mail_routes <= named

    # and the web ACL bounds each source's POSTs to exactly those paths (and the e-mail
    # change's), before its bound on every request
    (rule, *others) = sorted(acl["Rules"], key=lambda rule: rule["Priority"])
    rate = rule["Statement"]["RateBasedStatement"]
    assert rate["AggregateKeyType"] == "IP" and "Block" in rule["Action"]
    method, path = rate["ScopeDownStatement"]["AndStatement"]["Statements"]
    assert method["ByteMatchStatement"]["SearchString"] == "POST"
    pattern = re.compile(path["RegexMatchStatement"]["RegexString"])
    for route in (*mail_routes, "POST /me/email"):
        assert pattern.search(route.split(" ")[1])
    for other in ("/accounts/verify", "/accounts/password-reset/confirm", "/me", "/boards"):
        assert not pattern.search(other)
    assert [other["Statement"]["RateBasedStatement"]["AggregateKeyType"] for other in others] == [
        "IP"
    ]


# ------------------------------------------------------------------------- leading keys


def _item_call(operation: str, pk: str) -> tuple[str, dict[str, Any]]:
    """A call of the action on one item of the partition (a batch or a transaction's part
    where the action is only one of those)."""
    key = {"pk": {"S": pk}, "sk": {"S": "X"}}
    if operation == "BatchGetItem":
        return operation, {"RequestItems": {"t": {"Keys": [key]}}}
    if operation == "BatchWriteItem":
        return operation, {"RequestItems": {"t": [{"DeleteRequest": {"Key": key}}]}}
    if operation == "ConditionCheckItem":
        part = {"ConditionCheck": {"TableName": "t", "Key": key, "ConditionExpression": "x"}}
        return "TransactWriteItems", {"TransactItems": [part]}
    field = "Item" if operation == "PutItem" else "Key"
    return operation, {"TableName": "t", field: key}


def _index_query(value: str) -> tuple[str, dict[str, Any]]:
    return "Query", {
        "TableName": "t",
        "IndexName": "gsi1",
        "KeyConditionExpression": "#0 = :0",
        "ExpressionAttributeNames": {"#0": "gsi1pk"},
        "ExpressionAttributeValues": {":0": {"S": value}},
    }


def test_every_functions_table_grants_are_limited_by_leading_keys(template: Template) -> None:
    # given every function's statements that name the table or its index
    table = template.context.get_att("GameTable", "Arn")
    for function in FUNCTIONS:
        on_table = [
            statement
            for statement in statements(template, function)
            if any(str(r).startswith(table) for r in as_list(statement["Resource"]))
        ]
        assert on_table, function
        # when their conditions are read / then each names the partition prefixes it may reach,
        # none of them everything
        for statement in on_table:
            condition = statement.get("Condition", {}).get("ForAllValues:StringLike", {})
            prefixes = as_list(condition.get("dynamodb:LeadingKeys", []))
            assert prefixes, (function, statement["Action"])
            assert all(p.rstrip("*") and not p.startswith("*") for p in prefixes), function


@pytest.mark.parametrize(
    ("function", "own", "others"),
    [
        (
            "GameFunction",
            [
                _item_call("UpdateItem", "GAME#g"),
                _index_query("OPEN#lobby"),
                _item_call("GetItem", "NICK#ana"),
                _item_call("BatchWriteItem", "CHAT#GENERAL"),
            ],
            ["IDEM#k", "BOARD#main", "ACCOUNTS#deleting", "LINK#x"],
        ),
        (
            "ConnectionsFunction",
            [_item_call("PutItem", "CONN#c"), _item_call("BatchWriteItem", "CHAT#GENERAL")],
            ["NICK#a", "IDEM#k"],
        ),
        ("ClockFunction", [_item_call("DeleteItem", "GAME#g")], ["LINK#x", "PERIOD#p"]),
        (
            "EconomyFunction",
            [_item_call("UpdateItem", "PLAYER#a"), _item_call("GetItem", "NICK#ana")],
            ["GAME#g", "BOARD#main", "LINK#x"],
        ),
        ("RewardsFunction", [_item_call("PutItem", "IDEM#win")], ["GAME#g", "NICK#a"]),
        (
            "ResultsFunction",
            # the week's chosen tasks are read to count a game toward them
            [_item_call("UpdateItem", "BOARD#b"), _item_call("GetItem", "WEEK#2026-W49")],
            ["NICK#a", "IDEM#k"],
        ),
        ("BoardsFunction", [_index_query("BOARD#b")], ["IDEM#k", "LINK#x", "PERIOD#p"]),
        ("PrizesFunction", [_item_call("PutItem", "PERIOD#p")], ["GAME#g", "NICK#a"]),
        ("ProgressionFunction", [_item_call("PutItem", "REFCODE#c")], ["GAME#g", "BOARD#b"]),
        (
            "ProgressionJobsFunction",
            [_item_call("PutItem", "WEEK#2026-W49"), _index_query("REFERRALS")],
            ["GAME#g", "NICK#a", "BOARD#b"],
        ),
        ("AuthorizerFunction", [_item_call("GetItem", "PLAYER#a")], ["GAME#g", "NICK#a"]),
        ("HttpAuthorizerFunction", [_item_call("GetItem", "PLAYER#a")], ["LINK#x", "IDEM#k"]),
        (
            "AccountsFunction",
            [
                _item_call("PutItem", "NICK#ana"),
                _item_call("DeleteItem", "LINK#d"),
                _item_call("GetItem", "GAME#g1"),
                _item_call("PutItem", "PIONEERS"),
            ],
            ["BOARD#main", "PERIOD#2026-W48", "CONN#c1"],
        ),
        (
            "AccountTriggersFunction",
            [_item_call("PutItem", "PLAYER#a"), _item_call("PutItem", "IDEM#badge")],
            ["NICK#a", "GAME#g"],
        ),
        (
            "AccountJobsFunction",
            [
                _item_call("DeleteItem", "NICK#ana"),
                _index_query("ACCOUNTS#deleting"),
                _item_call("BatchGetItem", "TOURNAMENT#t1"),
                _item_call("PutItem", "TOURNAMENT#t1"),
                _index_query("TOURNAMENTS"),
            ],
            ["IDEM#k", "REFCODE#c", "PERIOD#p"],
        ),
    ],
)
def test_functions_reach_only_their_own_partitions(
    template: Template,
    function: str,
    own: list[tuple[str, dict[str, Any]]],
    others: list[str],
) -> None:
    # given a function's statements with their dynamodb:LeadingKeys conditions
    # when calls on its own partitions, and each of its actions on others' partitions, are judged
    actions = {
        action.removeprefix("dynamodb:") for action, _ in granted(template, function, "dynamodb")
    }
    foreign = [
        _item_call(action, pk) for pk in others for action in sorted(actions) if action != "Query"
    ]
    if "Query" in actions:
        foreign += [_index_query(pk) for pk in others]
        foreign += [
            (
                "Query",
                {
                    "TableName": "t",
                    "KeyConditionExpression": "#0 = :0",
                    "ExpressionAttributeNames": {"#0": "pk"},
                    "ExpressionAttributeValues": {":0": {"S": pk}},
                },
            )
            for pk in others
        ]

    # then its own are allowed, and every call on another partition is refused
    assert refusals(template, function, own) == []
    assert len(refusals(template, function, foreign)) == len(foreign), function


def test_boards_function_reads_a_game_partition_and_writes_none(template: Template) -> None:
    # given the boards function, which reads a game's item for its public fairness page
    game_query = (
        "Query",
        {
            "TableName": "t",
            "KeyConditionExpression": "#0 = :0",
            "ExpressionAttributeNames": {"#0": "pk"},
            "ExpressionAttributeValues": {":0": {"S": "GAME#g"}},
        },
    )
    writes = [_item_call(action, "GAME#g") for action in ("PutItem", "DeleteItem", "GetItem")]

    # then it may query the game's partition, and may not write (nor get) an item there
    assert refusals(template, "BoardsFunction", [game_query]) == []
    assert len(refusals(template, "BoardsFunction", writes)) == len(writes)
