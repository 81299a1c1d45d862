"""The local stack's HTTP API half: the template's HttpApi events and schedules
(devstack.template), the gateway's HTTP API emulation with payload format 2.0 events and Lambda
authorizers (devstack.http_api), its /_local tools (mailbox, jobs), and a LocalStack wiring them
from a small template of its own (fake functions: the project's are not needed)."""

import base64
import http.client
import json
import re
import textwrap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from devstack.gateway import GatewayThread, HttpAuthorizer, HttpRoute, LocalGateway, iso8601_utc
from devstack.lambda_context import LocalLambdaContext
from devstack.mail import Mail
from devstack.template import CorsConfiguration, Template, TemplateError

ROOT = Path(__file__).resolve().parents[2]
WAIT = 5.0

Handler = Callable[[dict[str, Any], Any], Any]


def template_of(directory: Path, text: str) -> Template:
    path = directory / "template.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Template(path)


# ------------------------------------------------------------------------------ template reading

HTTP_TEMPLATE = """
    Transform: AWS::Serverless-2016-10-31
    Globals:
      HttpApi:
        CorsConfiguration:
          AllowOrigins: ["https://play.example"]
          AllowMethods: [GET, POST]
          AllowHeaders: [Authorization]
          ExposeHeaders: [x-request]
          AllowCredentials: true
          MaxAge: 600
    Resources:
      Api:
        Type: AWS::Serverless::HttpApi
        Properties:
          Auth:
            DefaultAuthorizer: Token
            Authorizers:
              Token:
                FunctionArn: !GetAtt AuthFn.Arn
                AuthorizerPayloadFormatVersion: "2.0"
                EnableSimpleResponses: true
                Identity: {Headers: [Authorization], ReauthorizeEvery: 0}
              Query:
                FunctionArn: !GetAtt AuthFn.Arn
                AuthorizerPayloadFormatVersion: "2.0"
                Identity: {QueryStrings: [token], Headers: [X-Key]}
      AuthFn:
        Type: AWS::Serverless::Function
        Properties: {CodeUri: fn/, Handler: app.authorize}
      Accounts:
        Type: AWS::Serverless::Function
        Properties:
          CodeUri: fn/
          Handler: app.handler
          Events:
            Register:
              Type: HttpApi
              Properties: {ApiId: !Ref Api, Method: post, Path: /accounts, Auth: {Authorizer: NONE}}
            Me: {Type: HttpApi, Properties: {ApiId: !Ref Api, Method: GET, Path: /me}}
            Keyed:
              Type: HttpApi
              Properties:
                ApiId: !Ref Api
                Path: /keyed/{id}
                Auth: {Authorizer: Query}
                TimeoutInMillis: 5000
            Daily:
              Type: ScheduleV2
              Properties:
                ScheduleExpression: cron(15 3 * * ? *)
                ScheduleExpressionTimezone: UTC
                Input: '{"job": "daily"}'
            Hourly:
              Type: Schedule
              Properties: {Schedule: rate(1 hour), Enabled: false}
      Other:
        Type: AWS::Serverless::Function
        Properties:
          CodeUri: fn/
          Handler: app.other
          Events:
            Fallback: {Type: HttpApi}
    """


def test_template_http_routes_choose_the_default_none_or_named_authorizer(tmp_path: Path) -> None:
    # given a template whose API has a default authorizer and routes that keep, drop or replace it
    template = template_of(tmp_path, HTTP_TEMPLATE)

    # when its HTTP routes are read
    routes = {route.route_key: route for route in template.http_routes()}

    # then each has its method, path, function and the authorizer that applies
    assert set(routes) == {"POST /accounts", "GET /me", "ANY /keyed/{id}", "$default"}
    assert routes["POST /accounts"].authorizer is None
    assert routes["GET /me"].authorizer == "Token"
    assert routes["ANY /keyed/{id}"].authorizer == "Query"
    assert routes["ANY /keyed/{id}"].timeout_ms == 5000
    assert {route.function for route in routes.values()} == {"Accounts", "Other"}
    assert routes["POST /accounts"].api == "Api"
    # an event without ApiId belongs to the implicit API, which has no authorizer here
    assert routes["$default"].api == "ServerlessHttpApi"
    assert routes["$default"].authorizer is None
    assert template.http_apis() == ["Api", "ServerlessHttpApi"]


def test_template_http_authorizers_read_function_identity_and_response_kind(
    tmp_path: Path,
) -> None:
    # given the template / when the API's authorizers are read
    authorizers = template_of(tmp_path, HTTP_TEMPLATE).http_authorizers("Api")

    # then each names its function, its identity sources and whether responses are simple
    token, query = authorizers["Token"], authorizers["Query"]
    assert token.function == "AuthFn"
    assert token.identity_source == ("$request.header.Authorization",)
    assert (token.enable_simple_responses, token.payload_format_version) == (True, "2.0")
    assert token.reauthorize_every == 0
    assert query.identity_source == ("$request.header.X-Key", "$request.querystring.token")
    assert query.enable_simple_responses is False
    assert query.reauthorize_every == 300  # SAM's default


def test_template_http_route_naming_an_unknown_authorizer_is_refused(tmp_path: Path) -> None:
    # given a route whose authorizer the API does not declare
    text = HTTP_TEMPLATE.replace("Auth: {Authorizer: Query}", "Auth: {Authorizer: Nope}")
    template = template_of(tmp_path, text)

    # when the routes are read / then the template is refused, naming it
    with pytest.raises(TemplateError, match="Nope"):
        template.http_routes()


def test_template_http_cors_merges_globals(tmp_path: Path) -> None:
    # given CORS in Globals.HttpApi / when the API's configuration is read
    cors = template_of(tmp_path, HTTP_TEMPLATE).http_cors("Api")

    # then every field is there
    assert cors == CorsConfiguration(
        allow_origins=("https://play.example",),
        allow_methods=("GET", "POST"),
        allow_headers=("Authorization",),
        expose_headers=("x-request",),
        allow_credentials=True,
        max_age=600,
    )


def test_template_schedules_are_named_function_event_with_parsed_input(tmp_path: Path) -> None:
    # given a function with a ScheduleV2 and a (disabled) Schedule event
    template = template_of(tmp_path, HTTP_TEMPLATE)

    # when the schedules are read
    schedules = {schedule.name: schedule for schedule in template.schedules()}

    # then they are named as SAM names their resources, with expression and Input as JSON
    assert set(schedules) == {"AccountsDaily", "AccountsHourly"}
    daily = schedules["AccountsDaily"]
    assert (daily.function, daily.kind, daily.expression) == (
        "Accounts",
        "ScheduleV2",
        "cron(15 3 * * ? *)",
    )
    assert (daily.input, daily.timezone, daily.enabled) == ({"job": "daily"}, "UTC", True)
    assert schedules["AccountsHourly"].enabled is False
    assert schedules["AccountsHourly"].expression == "rate(1 hour)"
    # a function with several schedules must be told which
    with pytest.raises(TemplateError, match="several"):
        template.schedule("Accounts")
    assert template.schedule("AccountsDaily") is not None


def test_schedule_payload_is_the_input_plus_now(tmp_path: Path) -> None:
    # given the schedules
    schedules = {s.name: s for s in template_of(tmp_path, HTTP_TEMPLATE).schedules()}

    # when their payloads are built with and without a moment
    daily = schedules["AccountsDaily"].payload("2027-01-05T03:15:00Z")
    plain = schedules["AccountsDaily"].payload()
    rule = schedules["AccountsHourly"].payload("2027-01-05T03:00:00Z")

    # then the Input gets "now"; a rule without Input sends its Scheduled Event
    assert daily == {"job": "daily", "now": "2027-01-05T03:15:00Z"}
    assert plain == {"job": "daily"}
    assert rule["detail-type"] == "Scheduled Event"
    assert rule["source"] == "aws.events"
    assert rule["now"] == rule["time"] == "2027-01-05T03:00:00Z"


def test_template_real_template_http_routes_lead_to_its_functions() -> None:
    # given the project's template (being extended: only what must hold whatever the routes)
    template = Template(ROOT / "template.yaml")
    functions = {spec.logical_id for spec in template.functions()}

    # when its HTTP API is read
    routes = template.http_routes()

    # then every route and authorizer leads to a function of the template, with payload 2.0
    assert routes
    for api in template.http_apis():
        for authorizer in template.http_authorizers(api).values():
            assert authorizer.function in functions
            assert authorizer.payload_format_version == "2.0"
    assert {route.function for route in routes} <= functions
    assert all(
        route.route_key.split(" ")[0] in {"GET", "POST", "PUT", "PATCH", "DELETE"}
        for route in routes
    )


def test_iso8601_utc_normalises_moments() -> None:
    # given moments in several spellings / when normalised / then UTC with a Z
    assert iso8601_utc("2027-01-05T03:15:00Z") == "2027-01-05T03:15:00Z"
    assert iso8601_utc("2027-01-05T04:15:00+01:00") == "2027-01-05T03:15:00Z"
    assert iso8601_utc("2027-01-05T03:15") == "2027-01-05T03:15:00Z"
    assert iso8601_utc(datetime(2027, 1, 5, 3, 15, 0, 500, tzinfo=UTC)).endswith(".000500Z")
    with pytest.raises(ValueError, match="ISO 8601"):
        iso8601_utc("tomorrow")


# ------------------------------------------------------------------------------ HTTP emulation


class Calls:
    """Thread-safe record of (event, context) per handler name."""

    def __init__(self) -> None:
        self._calls: list[tuple[str, dict[str, Any], Any]] = []
        self._lock = threading.Lock()

    def handler(self, name: str, reply: Handler | Any = None) -> Handler:
        def handle(event: dict[str, Any], context: Any) -> Any:
            with self._lock:
                self._calls.append((name, event, context))
            return reply(event, context) if callable(reply) else reply

        return handle

    def of(self, name: str) -> list[tuple[dict[str, Any], Any]]:
        with self._lock:
            return [(event, context) for n, event, context in self._calls if n == name]

    def event(self, name: str) -> dict[str, Any]:
        (call,) = self.of(name)
        return call[0]


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        values = self.all(name)
        return values[0] if values else None

    def all(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key.lower() == name.lower()]

    def json(self) -> Any:
        return json.loads(self.body)


def call(
    gateway: GatewayThread | LocalGateway,
    method: str,
    path: str,
    *,
    body: bytes = b"",
    headers: Sequence[tuple[str, str]] = (),
) -> Answer:
    server = gateway.gateway if isinstance(gateway, GatewayThread) else gateway
    connection = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name, value)
        if body or method in ("POST", "PUT", "PATCH"):
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body or None)
        response = connection.getresponse()
        return Answer(response.status, response.getheaders(), response.read())
    finally:
        connection.close()


@contextmanager
def http_gateway(
    routes: Sequence[HttpRoute], cors: CorsConfiguration | None = None, **options: Any
) -> Iterator[GatewayThread]:
    with LocalGateway({}, http_routes=routes, cors=cors, **options).run_in_thread() as gateway:
        yield gateway


def allow_with(context: dict[str, Any]) -> Handler:
    return lambda event, _: {"isAuthorized": True, "context": context}


def test_http_event_is_payload_format_2_0(tmp_path: Path) -> None:
    # given a public POST route
    calls = Calls()
    routes = [HttpRoute("POST /accounts", calls.handler("accounts"), function_name="yamb-fn")]
    with http_gateway(routes) as gateway:
        # when a client posts JSON with a query string, cookies and a repeated header
        answer = call(
            gateway,
            "POST",
            "/accounts?b=2&a=1&a=x%20y",
            body=b'{"email": "ana@example.com"}',
            headers=[
                ("Content-Type", "application/json"),
                ("Cookie", "theme=dark; lang=fr"),
                ("X-Multi", "one"),
                ("X-Multi", "two"),
                ("User-Agent", "probe/1"),
            ],
        )
        port = gateway.gateway.port

    # then the function got API Gateway's 2.0 event
    assert answer.status == 200
    event, context = calls.of("accounts")[0]
    assert event["version"] == "2.0"
    assert event["routeKey"] == "POST /accounts"
    assert event["rawPath"] == "/accounts"
    assert event["rawQueryString"] == "b=2&a=1&a=x%20y"
    assert event["cookies"] == ["theme=dark", "lang=fr"]
    assert event["queryStringParameters"] == {"b": "2", "a": "1,x y"}
    headers = event["headers"]
    assert all(name == name.lower() for name in headers)
    assert "cookie" not in headers
    assert headers["x-multi"] == "one,two"
    assert headers["content-type"] == "application/json"
    assert headers["x-forwarded-proto"] == "http"
    assert headers["x-forwarded-for"] == "127.0.0.1"
    assert headers["x-amzn-trace-id"].startswith("Root=1-")
    assert event["body"] == '{"email": "ana@example.com"}'
    assert event["isBase64Encoded"] is False
    assert "pathParameters" not in event
    request = event["requestContext"]
    assert request["domainName"] == f"127.0.0.1:{port}"
    assert request["domainPrefix"] == "127"
    assert request["http"] == {
        "method": "POST",
        "path": "/accounts",
        "protocol": "HTTP/1.1",
        "sourceIp": "127.0.0.1",
        "userAgent": "probe/1",
    }
    assert (request["stage"], request["routeKey"]) == ("$default", "POST /accounts")
    assert (request["accountId"], request["apiId"]) == ("123456789012", "local-http-api")
    assert re.fullmatch(r"\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} \+0000", request["time"])
    assert abs(request["timeEpoch"] - time.time() * 1000) < 60_000
    assert request["requestId"] and answer.header("apigw-requestid") == request["requestId"]
    assert "authorizer" not in request
    assert isinstance(context, LocalLambdaContext)
    assert context.function_name == "yamb-fn"


def test_http_event_without_query_cookies_or_body_leaves_them_out() -> None:
    # given a GET route / when it is called bare
    calls = Calls()
    with http_gateway([HttpRoute("GET /me", calls.handler("me"))]) as gateway:
        call(gateway, "GET", "/me")

    # then the keys without a value are absent, as on AWS
    event = calls.event("me")
    assert event["rawQueryString"] == ""
    for key in ("cookies", "queryStringParameters", "pathParameters", "body"):
        assert key not in event
    assert event["isBase64Encoded"] is False


def test_http_route_choice_prefers_literal_then_parameter_then_greedy() -> None:
    # given overlapping routes
    calls = Calls()
    routes = [
        HttpRoute("GET /games/new", calls.handler("new")),
        HttpRoute("GET /games/{gameId}", calls.handler("game")),
        HttpRoute("GET /games/{gameId}/moves/{move}", calls.handler("move")),
        HttpRoute("ANY /files/{path+}", calls.handler("files")),
        HttpRoute("POST /files/upload", calls.handler("upload")),
    ]
    with http_gateway(routes) as gateway:
        # when each shape of path is asked
        call(gateway, "GET", "/games/new")
        call(gateway, "GET", "/games/g%201")
        call(gateway, "GET", "/games/g1/moves/7")
        call(gateway, "DELETE", "/files/a/b/c.txt")
        call(gateway, "POST", "/files/upload")
        missing = call(gateway, "GET", "/games")
        wrong_method = call(gateway, "POST", "/games/g1")

    # then the most specific route got each, with its path parameters (decoded)
    assert "pathParameters" not in calls.event("new")
    assert calls.event("game")["pathParameters"] == {"gameId": "g 1"}
    assert calls.event("game")["routeKey"] == "GET /games/{gameId}"
    assert calls.event("move")["pathParameters"] == {"gameId": "g1", "move": "7"}
    assert calls.event("files")["pathParameters"] == {"path": "a/b/c.txt"}
    assert calls.event("files")["routeKey"] == "ANY /files/{path+}"
    assert len(calls.of("upload")) == 1
    assert (missing.status, missing.json()) == (404, {"message": "Not Found"})
    assert (wrong_method.status, wrong_method.json()) == (404, {"message": "Not Found"})


def test_http_default_route_takes_what_no_other_matches() -> None:
    # given a $default route beside a real one
    calls = Calls()
    routes = [HttpRoute("GET /me", calls.handler("me")), HttpRoute("$default", calls.handler("d"))]
    with http_gateway(routes) as gateway:
        # when an unknown path is asked
        answer = call(gateway, "PUT", "/anything/here")

    # then $default answers it, with its route key
    assert answer.status == 200
    assert calls.event("d")["routeKey"] == "$default"
    assert calls.of("me") == []


@pytest.mark.parametrize(
    ("content_type", "encoded"),
    [
        ("application/octet-stream", True),
        ("image/png", True),
        ("application/x-www-form-urlencoded", True),
        (None, True),
        ("text/plain; charset=utf-8", False),
        ("application/vnd.api+json", False),
    ],
)
def test_http_body_is_base64_unless_text(content_type: str | None, encoded: bool) -> None:
    # given a route / when a body of that content type is posted
    calls = Calls()
    body = b"a=1&b=\xc3\xa9"
    headers = [] if content_type is None else [("Content-Type", content_type)]
    with http_gateway([HttpRoute("POST /upload", calls.handler("upload"))]) as gateway:
        call(gateway, "POST", "/upload", body=body, headers=headers)

    # then it is passed base64-encoded exactly when API Gateway would
    event = calls.event("upload")
    assert event["isBase64Encoded"] is encoded
    assert event["body"] == (base64.b64encode(body).decode() if encoded else body.decode())


def test_http_authorizer_is_not_called_without_its_identity_header() -> None:
    # given a route behind an authorizer reading the Authorization header
    calls = Calls()
    authorizer = HttpAuthorizer(calls.handler("auth", {"isAuthorized": True}))
    with http_gateway([HttpRoute("GET /me", calls.handler("me"), authorizer)]) as gateway:
        # when a request comes without it, or with it empty
        bare = call(gateway, "GET", "/me")
        empty = call(gateway, "GET", "/me", headers=[("Authorization", "")])

    # then API Gateway answers 401 itself: neither the authorizer nor the function ran
    for answer in (bare, empty):
        assert (answer.status, answer.json()) == (401, {"message": "Unauthorized"})
    assert calls.of("auth") == []
    assert calls.of("me") == []


def test_http_authorizer_deny_answers_403() -> None:
    # given an authorizer saying no
    calls = Calls()
    authorizer = HttpAuthorizer(calls.handler("auth", {"isAuthorized": False}))
    with http_gateway([HttpRoute("GET /me", calls.handler("me"), authorizer)]) as gateway:
        # when a request with a token comes
        answer = call(gateway, "GET", "/me", headers=[("Authorization", "bad")])

    # then it is Forbidden and the function did not run
    assert (answer.status, answer.json()) == (403, {"message": "Forbidden"})
    assert len(calls.of("auth")) == 1
    assert calls.of("me") == []


def _raise(message: str) -> Handler:
    def fail(event: dict[str, Any], context: Any) -> Any:
        raise RuntimeError(message)

    return fail


@pytest.mark.parametrize(
    "answer",
    [_raise("boom"), {"isAuthorized": "yes"}, "allowed", {"isAuthorized": True, "context": [1]}],
    ids=["raises", "not-a-boolean", "not-an-object", "context-not-an-object"],
)
def test_http_authorizer_failure_answers_500(answer: Any) -> None:
    # given an authorizer that fails or answers what API Gateway does not accept
    calls = Calls()
    authorizer = HttpAuthorizer(calls.handler("auth", answer))
    with http_gateway([HttpRoute("GET /me", calls.handler("me"), authorizer)]) as gateway:
        # when a request with a token comes
        reply = call(gateway, "GET", "/me", headers=[("Authorization", "t")])

    # then it is an Internal Server Error and the function did not run
    assert (reply.status, reply.json()) == (500, {"message": "Internal Server Error"})
    assert calls.of("me") == []


def test_http_authorizer_event_and_context_reach_the_function() -> None:
    # given an authorizer allowing with a context, on a route with a path parameter
    calls = Calls()
    context = {"playerId": "p-1", "generation": 3, "flags": {"premium": True}}
    authorizer = HttpAuthorizer(
        calls.handler("auth", allow_with(context)), function_name="http-authorizer"
    )
    route = HttpRoute("PATCH /me/settings/{key}", calls.handler("settings"), authorizer)
    with http_gateway([route], http_api_id="api123") as gateway:
        # when a request with a token comes
        answer = call(
            gateway,
            "PATCH",
            "/me/settings/theme?x=1",
            body=b"{}",
            headers=[("Authorization", "Bearer t0k"), ("Content-Type", "application/json")],
        )

    # then the authorizer got the 2.0 REQUEST event and the function its context
    assert answer.status == 200
    auth_event, auth_context = calls.of("auth")[0]
    assert auth_event["version"] == "2.0"
    assert auth_event["type"] == "REQUEST"
    assert auth_event["routeArn"] == (
        "arn:aws:execute-api:us-east-1:123456789012:api123/$default/PATCH/me/settings/theme"
    )
    assert auth_event["identitySource"] == ["Bearer t0k"]
    assert auth_event["routeKey"] == "PATCH /me/settings/{key}"
    assert auth_event["rawPath"] == "/me/settings/theme"
    assert auth_event["rawQueryString"] == "x=1"
    assert auth_event["headers"]["authorization"] == "Bearer t0k"
    assert auth_event["pathParameters"] == {"key": "theme"}
    assert auth_event["requestContext"]["http"]["method"] == "PATCH"
    assert "authorizer" not in auth_event["requestContext"]
    assert auth_context.function_name == "http-authorizer"
    event = calls.event("settings")
    assert event["requestContext"]["authorizer"] == {"lambda": context}


def test_http_authorizer_without_simple_responses_is_read_as_a_policy() -> None:
    # given an authorizer answering IAM policies: allowing /open, denying the rest
    calls = Calls()

    def decide(event: dict[str, Any], context: Any) -> Any:
        effect = "Allow" if event["rawPath"] == "/open" else "Deny"
        statement = {"Action": "execute-api:Invoke", "Effect": effect, "Resource": "*"}
        return {
            "principalId": "p-1",
            "policyDocument": {"Version": "2012-10-17", "Statement": [statement]},
            "context": {"playerId": "p-1"},
        }

    authorizer = HttpAuthorizer(decide, enable_simple_responses=False)
    routes = [
        HttpRoute("GET /open", calls.handler("open"), authorizer),
        HttpRoute("GET /shut", calls.handler("shut"), authorizer),
    ]
    with http_gateway(routes) as gateway:
        # when both routes are called with a token
        opened = call(gateway, "GET", "/open", headers=[("Authorization", "t")])
        shut = call(gateway, "GET", "/shut", headers=[("Authorization", "t")])

    # then the policy decides, and an allow hands its context on
    assert (opened.status, shut.status) == (200, 403)
    assert calls.event("open")["requestContext"]["authorizer"] == {"lambda": {"playerId": "p-1"}}
    assert calls.of("shut") == []


def test_http_authorizer_answers_are_cached_when_reauthorize_every_is_set() -> None:
    # given two authorizers of the same answer, one caching for a minute, one not at all
    calls = Calls()
    cached = HttpAuthorizer(
        calls.handler("cached", {"isAuthorized": True}), name="cached", reauthorize_every=60
    )
    fresh = HttpAuthorizer(calls.handler("fresh", {"isAuthorized": True}), name="fresh")
    routes = [
        HttpRoute("GET /a", calls.handler("a"), cached),
        HttpRoute("GET /b", calls.handler("b"), fresh),
    ]
    with http_gateway(routes) as gateway:
        # when each route is called three times with the same token
        for _ in range(3):
            call(gateway, "GET", "/a", headers=[("Authorization", "t")])
            call(gateway, "GET", "/b", headers=[("Authorization", "t")])

    # then the caching one ran once, the other every time
    assert (len(calls.of("cached")), len(calls.of("fresh"))) == (1, 3)
    assert (len(calls.of("a")), len(calls.of("b"))) == (3, 3)


def test_http_openapi_document_is_served_without_authorization(tmp_path: Path) -> None:
    # given a gateway whose HTTP API routes all need a token, and an OpenAPI document
    document = tmp_path / "openapi.yaml"
    document.write_text("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n")
    refuse = HttpAuthorizer(lambda event, _: {"isAuthorized": False}, ("$request.header.x",))
    routes = [HttpRoute("ANY /{proxy+}", Calls().handler("any"), authorizer=refuse)]

    # when the document is asked for without a token, by a page of another origin
    with http_gateway(routes, openapi=document) as gateway:
        served = call(gateway, "GET", "/openapi.yaml", headers=[("Origin", "http://x.test")])
        url = gateway.gateway.openapi_url
    with http_gateway(routes) as gateway:
        missing = call(gateway, "GET", "/openapi.yaml")

    # then it is served as it is on disk, to any origin, ahead of the API's routes
    assert served.status == 200
    assert served.body.decode() == document.read_text()
    assert served.header("Content-Type") == "application/yaml; charset=utf-8"
    assert served.header("Access-Control-Allow-Origin") == "*"
    assert url.endswith("/openapi.yaml")
    # and a gateway without one answers 404
    assert missing.status == 404


def test_http_function_exception_answers_500() -> None:
    # given a function that raises / when it is called / then API Gateway's 500
    with http_gateway([HttpRoute("GET /boom", _raise("boom"))]) as gateway:
        answer = call(gateway, "GET", "/boom")
    assert (answer.status, answer.json()) == (500, {"message": "Internal Server Error"})


def test_http_structured_response_maps_status_headers_cookies_and_base64_body() -> None:
    # given a function answering a 2.0 structured response with a base64 body
    reply = {
        "statusCode": 201,
        "headers": {"Content-Type": "image/png", "X-Count": 3, "X-Flag": True},
        "cookies": ["session=abc; HttpOnly", "theme=dark"],
        "body": base64.b64encode(b"\x89PNG\x00").decode(),
        "isBase64Encoded": True,
        "multiValueHeaders": {"X-Ignored": ["a", "b"]},
    }
    with http_gateway([HttpRoute("GET /img", lambda event, context: reply)]) as gateway:
        # when it is called
        answer = call(gateway, "GET", "/img")

    # then the client gets the status, the headers, a Set-Cookie per cookie and the raw bytes
    assert answer.status == 201
    assert answer.header("Content-Type") == "image/png"
    assert (answer.header("X-Count"), answer.header("X-Flag")) == ("3", "true")
    assert answer.all("Set-Cookie") == ["session=abc; HttpOnly", "theme=dark"]
    assert answer.body == b"\x89PNG\x00"
    assert answer.header("X-Ignored") is None  # not part of format 2.0


@pytest.mark.parametrize(
    ("result", "body"),
    [([1, "two"], [1, "two"]), ({"ok": True}, {"ok": True}), ("hello", "hello"), (None, None)],
    ids=["list", "dict-without-status", "string", "none"],
)
def test_http_result_without_status_code_is_a_json_200(result: Any, body: Any) -> None:
    # given a function returning a plain value / when it is called
    with http_gateway([HttpRoute("GET /v", lambda event, context: result)]) as gateway:
        answer = call(gateway, "GET", "/v")

    # then it is the JSON body of a 200
    assert answer.status == 200
    assert answer.header("Content-Type") == "application/json"
    assert answer.json() == body


@pytest.mark.parametrize(
    "result",
    [
        {"statusCode": "abc"},
        {"statusCode": 200, "body": {"not": "a string"}},
        {"statusCode": 200, "body": "%%%", "isBase64Encoded": True},
        {"statusCode": 200, "cookies": "a=b"},
        {"statusCode": 200, "body": object()},
    ],
    ids=["status", "body-object", "bad-base64", "cookies-string", "not-json"],
)
def test_http_malformed_response_answers_500(result: Any) -> None:
    # given a function answering something API Gateway cannot read / when called / then 500
    with http_gateway([HttpRoute("GET /v", lambda event, context: result)]) as gateway:
        answer = call(gateway, "GET", "/v")
    assert (answer.status, answer.json()) == (500, {"message": "Internal Server Error"})


def test_http_function_outliving_the_route_timeout_answers_503() -> None:
    # given a route whose integration times out after 0.2 s, and a slower function
    released = threading.Event()

    def slow(event: dict[str, Any], context: Any) -> Any:
        released.wait(2)
        return {"statusCode": 200}

    with http_gateway([HttpRoute("GET /slow", slow, timeout=0.2)]) as gateway:
        try:
            # when it is called
            answer = call(gateway, "GET", "/slow")
        finally:
            released.set()

    # then API Gateway gives up with 503
    assert (answer.status, answer.json()) == (503, {"message": "Service Unavailable"})


def test_http_route_functions_each_read_their_own_event_when_called_at_once() -> None:
    # given two functions built on Powertools resolvers (which keep the event being resolved on
    # a class attribute shared by every resolver in a process), each reading the body, waiting,
    # then a header, as the Stripe webhook reads its payload and its signature
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

    def function(path: str) -> Handler:
        app = APIGatewayHttpResolver()

        @app.post(path)
        def echo() -> dict[str, Any]:
            body = app.current_event.json_body["n"]
            time.sleep(0.005)
            return {"body": body, "header": int(app.current_event.headers["x-n"])}

        return app.resolve

    routes = [HttpRoute("POST /a", function("/a")), HttpRoute("POST /b", function("/b"))]
    with http_gateway(routes) as gateway:

        def ask(n: int) -> Answer:
            path = "/a" if n % 2 else "/b"
            body = json.dumps({"n": n}).encode()
            return call(gateway, "POST", path, body=body, headers=[("X-N", str(n))])

        # when 24 requests come from 8 threads at once
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(ask, range(24)))

    # then every answer is its own request's body and header
    assert [answer.json() for answer in answers] == [{"body": n, "header": n} for n in range(24)]


CORS = CorsConfiguration(
    allow_origins=("*",),
    allow_methods=("GET", "POST", "PATCH", "DELETE"),
    allow_headers=("Authorization", "Content-Type"),
    max_age=300,
)


def test_http_cors_preflight_is_answered_by_the_gateway() -> None:
    # given an API with CORS and a route behind an authorizer
    calls = Calls()
    authorizer = HttpAuthorizer(calls.handler("auth", {"isAuthorized": True}))
    routes = [HttpRoute("PATCH /me/settings", calls.handler("settings"), authorizer)]
    with http_gateway(routes, CORS) as gateway:
        # when a browser sends its preflight
        answer = call(
            gateway,
            "OPTIONS",
            "/me/settings",
            headers=[
                ("Origin", "https://play.example"),
                ("Access-Control-Request-Method", "PATCH"),
                ("Access-Control-Request-Headers", "authorization,content-type"),
            ],
        )

    # then the gateway answers it, without the authorizer or the function
    assert answer.status == 204
    assert answer.header("access-control-allow-origin") == "*"
    assert answer.header("access-control-allow-methods") == "GET,POST,PATCH,DELETE"
    assert answer.header("access-control-allow-headers") == "Authorization,Content-Type"
    assert answer.header("access-control-max-age") == "300"
    assert calls.of("auth") == calls.of("settings") == []


def test_http_cors_headers_on_responses_replace_the_functions_own() -> None:
    # given a function setting a CORS header of its own, and a listed origin
    reply = {"statusCode": 200, "headers": {"Access-Control-Allow-Origin": "https://evil.example"}}
    cors = CorsConfiguration(allow_origins=("https://play.example",), expose_headers=("x-a",))
    with http_gateway([HttpRoute("GET /me", lambda event, context: reply)], cors) as gateway:
        # when the allowed origin, another origin, and no origin call it; and a 404
        allowed = call(gateway, "GET", "/me", headers=[("Origin", "https://play.example")])
        other = call(gateway, "GET", "/me", headers=[("Origin", "https://other.example")])
        bare = call(gateway, "GET", "/me")
        missing = call(gateway, "GET", "/nope", headers=[("Origin", "https://play.example")])

    # then only the listed origin gets the API's CORS headers; the function's never pass
    assert allowed.all("access-control-allow-origin") == ["https://play.example"]
    assert allowed.header("access-control-expose-headers") == "x-a"
    assert other.header("access-control-allow-origin") is None
    assert bare.header("access-control-allow-origin") is None
    assert missing.header("access-control-allow-origin") == "https://play.example"


def test_http_routes_leave_the_websocket_management_api_alone() -> None:
    # given a gateway with an HTTP $default route
    calls = Calls()
    with http_gateway([HttpRoute("$default", calls.handler("d"))]) as gateway:
        # when the management API is called for an unknown connection
        answer = call(gateway, "POST", "/local/@connections/nope", body=b"hi")

    # then the management API answers (410 Gone), not the HTTP route
    assert answer.status == 410
    assert calls.of("d") == []


def test_http_route_key_must_be_method_and_path() -> None:
    # given malformed route keys / when routes are made / then they are refused
    for key in ("/no-method", "FETCH /x", "GET /{proxy+}/tail"):
        with pytest.raises(ValueError, match="route key"):
            HttpRoute(key, lambda event, context: None)


# ------------------------------------------------------------------------------ /_local tools


def _mail(number: int, **fields: Any) -> Mail:
    values: dict[str, Any] = {
        "id": f"m{number}",
        "sender": "no-reply@yamb.example",
        "to": (f"p{number}@example.com",),
        "subject": f"mail {number}",
        "text": f"text {number}",
        "html": None,
        "sent_at": datetime(2027, 1, 5, 3, number, tzinfo=UTC),
        "links": (),
    }
    values.update(fields)
    return Mail(**values)


def test_local_mail_page_is_newest_first_and_escapes_all_but_its_link_anchors() -> None:
    # given a mailbox with a hostile mail after a plain one
    hostile = _mail(
        2,
        subject="<script>alert(1)</script>",
        text='<img src=x onerror="alert(2)"> go http://127.0.0.1:1/accounts/verify?t=a&b=c',
        html='<a href="javascript:alert(3)">x</a><b>bold</b>',
        links=("http://127.0.0.1:1/accounts/verify?t=a&b=c", "javascript:alert(4)"),
        sender='"Eve" <eve@evil.example>',
    )
    mails = [_mail(1), hostile]
    with LocalGateway({}, mailbox=lambda to: mails).run_in_thread() as gateway:
        # when a person opens the mailbox page
        answer = call(gateway, "GET", "/_local/mail")

    # then the newest is first, nothing from a mail is markup, and its http link is an anchor
    page = answer.body.decode()
    assert answer.status == 200
    assert answer.header("Content-Type").startswith("text/html")
    assert page.index("&lt;script&gt;") < page.index("mail 1")
    assert "<script>" not in page and "<img" not in page and "<b>bold" not in page
    assert "javascript:alert(3)" not in page.replace("&quot;javascript:alert(3)&quot;", "")
    anchors = re.findall(r'<a href="([^"]*)">', page)
    assert anchors == ["http://127.0.0.1:1/accounts/verify?t=a&amp;b=c"]


def test_local_mail_json_filters_by_address_and_count() -> None:
    # given a mailbox that filters by address as LocalAws does
    mails = [_mail(1), _mail(2, to=("ana@example.com",)), _mail(3, to=("ana@example.com",))]

    def mailbox(to: str | None) -> list[Mail]:
        return mails if to is None else [m for m in mails if m.is_for(to)]

    with LocalGateway({}, mailbox=mailbox).run_in_thread() as gateway:
        # when the JSON is asked for everything, for Ana, and for her newest one
        every = call(gateway, "GET", "/_local/mail.json").json()
        ana = call(gateway, "GET", "/_local/mail.json?to=ANA@example.com").json()
        last = call(gateway, "GET", "/_local/mail.json?to=ana@example.com&last=1").json()
        bad = call(gateway, "GET", "/_local/mail.json?last=many")

    # then each is newest first, as JSON mails
    assert [mail["id"] for mail in every] == ["m3", "m2", "m1"]
    assert [mail["id"] for mail in ana] == ["m3", "m2"]
    assert [mail["id"] for mail in last] == ["m3"]
    assert last[0]["sentAt"] == "2027-01-05T03:03:00.000Z"
    assert last[0]["from"] == "no-reply@yamb.example"
    assert bad.status == 400


def test_local_jobs_list_and_run_with_a_chosen_now() -> None:
    # given a gateway with one job, recording how it runs
    runs: list[tuple[str, str | None]] = []

    def run(name: str, now: str | None) -> Any:
        runs.append((name, now))
        if now == "2030-01-01T00:00:00Z":
            raise LookupError("no such day")
        return {"purged": 2}

    jobs = lambda: [{"name": "JobsDaily", "function": "Jobs"}]  # noqa: E731
    with LocalGateway({}, jobs=jobs, run_job=run).run_in_thread() as gateway:
        # when the jobs are listed and run with a moment, a bad moment, an unknown name, a failure
        listed = call(gateway, "GET", "/_local/jobs")
        ran = call(gateway, "POST", "/_local/jobs/JobsDaily?now=2027-01-05T04:15:00%2B01:00")
        bad_now = call(gateway, "POST", "/_local/jobs/JobsDaily?now=soon")
        unknown = call(gateway, "POST", "/_local/jobs/Nope")
        failed = call(gateway, "POST", "/_local/jobs/JobsDaily?now=2030-01-01T00:00:00Z")

    # then the run got the moment in UTC and answered the job's result
    assert listed.json() == [{"name": "JobsDaily", "function": "Jobs"}]
    assert (ran.status, ran.json()) == (200, {"purged": 2})
    assert runs[0] == ("JobsDaily", "2027-01-05T03:15:00Z")
    assert bad_now.status == 400
    assert unknown.status == 404 and "JobsDaily" in unknown.json()["message"]
    assert failed.status == 500
    assert failed.json() == {"errorType": "LookupError", "errorMessage": "no such day"}
    assert len(runs) == 2


# ------------------------------------------------------------------------------ LocalStack

STACK_TEMPLATE = """
    Transform: AWS::Serverless-2016-10-31
    Parameters:
      StageName: {Type: String, Default: live}
      MailFrom: {Type: String, Default: no-reply@yamb.example}
    Globals:
      Function:
        Runtime: python3.13
        Timeout: 10
        Environment:
          Variables:
            POWERTOOLS_METRICS_NAMESPACE: YambTest
            MAIL_FROM: !Ref MailFrom
            POOL_ID: !Ref Pool
            CLIENT_ID: !Ref Client
    Resources:
      Pool:
        Type: AWS::Cognito::UserPool
        Properties: {UsernameAttributes: [email]}
      Client:
        Type: AWS::Cognito::UserPoolClient
        Properties: {UserPoolId: !Ref Pool, ExplicitAuthFlows: [ALLOW_USER_PASSWORD_AUTH]}
      MailIdentity:
        Type: AWS::SES::EmailIdentity
        Properties: {EmailIdentity: !Ref MailFrom}
      Api:
        Type: AWS::Serverless::HttpApi
        Properties:
          Auth:
            DefaultAuthorizer: Token
            Authorizers:
              Token:
                FunctionArn: !GetAtt AuthFunction.Arn
                AuthorizerPayloadFormatVersion: "2.0"
                EnableSimpleResponses: true
                Identity: {Headers: [Authorization], ReauthorizeEvery: 0}
          CorsConfiguration: {AllowOrigins: ["*"], AllowMethods: [GET, POST]}
      AuthFunction:
        Type: AWS::Serverless::Function
        Properties: {CodeUri: fn/, Handler: app.authorize}
      AccountsFunction:
        Type: AWS::Serverless::Function
        Properties:
          CodeUri: fn/
          Handler: app.accounts
          Events:
            Register:
              Type: HttpApi
              Properties: {ApiId: !Ref Api, Method: POST, Path: /accounts, Auth: {Authorizer: NONE}}
            Verify:
              Type: HttpApi
              Properties:
                {ApiId: !Ref Api, Method: POST, Path: /accounts/verify, Auth: {Authorizer: NONE}}
            Me: {Type: HttpApi, Properties: {ApiId: !Ref Api, Method: GET, Path: /me}}
      JobsFunction:
        Type: AWS::Serverless::Function
        Properties:
          CodeUri: fn/
          Handler: app.job
          Timeout: 300
          Events:
            Daily:
              Type: ScheduleV2
              Properties:
                ScheduleExpression: cron(15 3 * * ? *)
                Input: '{"job": "daily"}'
    """

STACK_CODE = """
import json
import os

import boto3


def authorize(event, context):
    return {"isAuthorized": event["identitySource"] == ["good"], "context": {"playerId": "p-1"}}


def accounts(event, context):
    request = event["requestContext"]
    base = f"{event['headers']['x-forwarded-proto']}://{request['domainName']}"
    cognito = boto3.client("cognito-idp")
    if event["routeKey"] == "POST /accounts":
        body = json.loads(event["body"])
        if "password" in body:
            cognito.sign_up(
                ClientId=os.environ["CLIENT_ID"], Username=body["email"], Password=body["password"]
            )
        link = f"{base}/accounts/verify?token={body['email']}"
        boto3.client("ses").send_email(
            Source=os.environ["MAIL_FROM"],
            Destination={"ToAddresses": [body["email"]]},
            Message={
                "Subject": {"Data": "Confirm"},
                "Body": {"Text": {"Data": f"Follow {link}"}, "Html": {"Data": f"<p>{link}</p>"}},
            },
        )
        return {"statusCode": 201, "body": json.dumps({"nickname": body.get("nickname")})}
    if event["routeKey"] == "POST /accounts/verify":
        email = json.loads(event["body"])["token"]
        cognito.admin_confirm_sign_up(UserPoolId=os.environ["POOL_ID"], Username=email)
        return {"statusCode": 200, "body": "{}"}
    return {
        "statusCode": 200,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps(
            {"authorizer": request.get("authorizer"), "function": context.function_name}
        ),
    }


def job(event, context):
    return {"event": event, "function": context.function_name}
"""


@pytest.fixture(scope="module")
def local_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from devstack.stack import LocalStack

    root = tmp_path_factory.mktemp("http-stack")
    (root / "template.yaml").write_text(textwrap.dedent(STACK_TEMPLATE), encoding="utf-8")
    (root / "fn").mkdir()
    (root / "fn" / "app.py").write_text(STACK_CODE, encoding="utf-8")
    with LocalStack(root) as stack:
        yield stack


def test_local_stack_serves_the_templates_http_api_with_its_authorizer(local_stack: Any) -> None:
    # given the stack of a template with a public and an authorized route
    gateway = local_stack.gateway

    # when a client signs up, then asks /me without, with a bad and with a good token
    registered = call(
        gateway,
        "POST",
        "/accounts",
        body=b'{"email": "ana@example.com"}',
        headers=[("Content-Type", "application/json")],
    )
    bare = call(gateway, "GET", "/me")
    bad = call(gateway, "GET", "/me", headers=[("Authorization", "bad")])
    page = local_stack.web_origins[0]
    good = call(gateway, "GET", "/me", headers=[("Authorization", "good"), ("Origin", page)])
    other = call(
        gateway, "GET", "/me", headers=[("Authorization", "good"), ("Origin", "https://x")]
    )

    # then the routes are the template's, their functions named as the template names them
    assert (registered.status, registered.json()) == (201, {"nickname": None})
    assert (bare.status, bad.status, good.status) == (401, 403, 200)
    assert good.json()["authorizer"] == {"lambda": {"playerId": "p-1"}}
    # and CORS allows the stack's own web client's origin, no other (the template's WebUrl)
    assert good.header("access-control-allow-origin") == page
    assert other.header("access-control-allow-origin") is None
    # and the mail the function sent through the embedded SES is in the mailbox, with its link
    (mail,) = local_stack.aws.mails(to="ana@example.com")
    verify = f"{local_stack.gateway.http_url}/accounts/verify?token=ana@example.com"
    assert mail.links == (verify,)


def test_local_stack_run_job_passes_the_schedules_input_and_now(local_stack: Any) -> None:
    # given the stack of a template with a daily job
    # when it is run by its schedule's name with a moment, by its function without one
    dated = local_stack.run_job("JobsFunctionDaily", now="2027-01-05T04:15:00+01:00")
    plain = local_stack.run_job("JobsFunction")

    # then the function got the schedule's Input, plus now in UTC when given
    assert dated == {
        "event": {"job": "daily", "now": "2027-01-05T03:15:00Z"},
        "function": "yamb-local-JobsFunction",
    }
    assert plain["event"] == {"job": "daily"}
    with pytest.raises(TemplateError, match="JobsFunctionDaily"):
        local_stack.run_job("Nope")


def test_local_stack_local_endpoints_and_cli(
    local_stack: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from devstack import __main__ as cli
    from devstack import stack as stack_module

    # given the running stack's state file, and a mail in its mailbox
    monkeypatch.setattr(stack_module, "STATE_FILE", tmp_path / "state.json")
    stack_module.write_state(local_stack)
    state = json.loads((tmp_path / "state.json").read_text())
    gateway = local_stack.gateway
    call(
        gateway,
        "POST",
        "/accounts",
        body=b'{"email": "ben@example.com"}',
        headers=[("Content-Type", "application/json")],
    )

    # when the jobs endpoint runs the job, and the CLI lists jobs, runs one and shows mail
    ran = call(gateway, "POST", "/_local/jobs/JobsFunctionDaily?now=2027-01-05T03:15:00Z")
    page = call(gateway, "GET", "/_local/mail?to=ben@example.com")
    assert cli.job(None, None, True) == 0
    listed = capsys.readouterr().out
    assert cli.job("JobsFunctionDaily", "2027-02-01T00:00:00Z", False) == 0
    ran_by_cli = json.loads(capsys.readouterr().out)
    assert cli.mail("ben@example.com", 1) == 0
    mailed = capsys.readouterr().out

    # then the state says where everything is, and each tool answered
    assert state["httpApiUrl"] == local_stack.gateway.http_url
    assert state["mailboxUrl"] == f"{local_stack.gateway.http_url}/_local/mail"
    assert ran.json()["event"] == {"job": "daily", "now": "2027-01-05T03:15:00Z"}
    assert page.status == 200 and "ben@example.com" in page.body.decode()
    assert "JobsFunctionDaily  cron(15 3 * * ? *)" in listed
    assert ran_by_cli["event"]["now"] == "2027-02-01T00:00:00Z"
    assert "ben@example.com" in mailed
    assert f"{local_stack.gateway.http_url}/accounts/verify?token=ben@example.com" in mailed


def test_local_stack_player_token_registers_over_http_and_uses_the_mailed_link(
    local_stack: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from devstack import stack as stack_module

    # given the stack of a template whose accounts API registers players and mails a link
    monkeypatch.setattr(stack_module, "STATE_FILE", tmp_path / "state.json")
    stack_module.write_state(local_stack)
    name = "a-local-player-with-a-long-name"

    # when a player's token is asked twice, and the CLI's for another player
    first = local_stack.player_token(name)
    again = local_stack.player_token(name)
    other = stack_module.local_token("cleo")

    # then each is an ID token of a verified account with its e-mail, registered once
    tokens = ((first, f"{name}@example.com"), (again, f"{name}@example.com"))
    for token, email in (*tokens, (other, "cleo@example.com")):
        claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
        assert claims["email"] == email
    assert len(local_stack.aws.mails(to=f"{name}@example.com")) == 1
    nickname = stack_module.local_nickname(name)
    assert len(nickname) == 16 and nickname.startswith("a-local-pl")
    assert stack_module.local_nickname("ana") == "ana"
