"""The account flows (A1-A8) on the embedded AWS: the accounts, authorizer, trigger and job
functions of template.yaml run in-process on moto (Cognito with its triggers, SES with its
templates, DynamoDB), called with the events API Gateway, Cognito and EventBridge Scheduler
send. Logins go to Cognito itself (by SRP), so its triggers run as on AWS."""

import copy
import functools
import json
import re
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from botocore.client import BaseClient
from botocore.exceptions import ClientError
from yamb.competition.standings import Entry
from yamb.competition.tournaments import TournamentPlan, new_tournament
from yamb.session import lobby
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.accounts import service as account_service_module
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.accounts.service import DailyJobError
from yamb_service.accounts.wiring import account_service
from yamb_service.common.dynamo import item_model
from yamb_service.competition.tournament_dynamo import DynamoTournamentStore
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.edge.identity import SIGN_IN_SKEW_SECONDS
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.game.live_connections import PlayerConnections
from yamb_service.progression.wiring import referrals_on

from devstack.stack import LocalStack
from devstack.template import Template
from tests.integration.test_template import dynamodb_allowed, iam_actions, refusals

# The web client's screens a mailed link may open, and the API route each one posts to.
CLIENT_SCREENS = {"/reset": "/accounts/password-reset"}


def link_route(url: str) -> tuple[str, str]:
    """A mailed link's API route and token: the link's own, or, for a web client's screen
    (`<web>/#/reset?token=`), the route that screen calls."""
    parsed = urlparse(url)
    if parsed.fragment:
        screen, _, query = parsed.fragment.partition("?")
        return CLIENT_SCREENS[screen], parse_qs(query)["token"][0]
    return parsed.path, parse_qs(parsed.query)["token"][0]


ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
PASSWORD = "dice-and-4242"


def _event(name: str) -> dict[str, Any]:
    return dict(json.loads((EVENTS / name).read_text(encoding="utf-8")))


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: str

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def code(self) -> str | None:
        return self.json.get("error", {}).get("code") if self.status >= 400 else None


class Accounts:
    """The stack's account functions, called as API Gateway, Cognito and the scheduler do."""

    def __init__(self, stack: LocalStack) -> None:
        self.stack = stack
        self.aws = stack.aws
        self.handlers = stack._handlers
        self.cognito = self.aws.client("cognito-idp")
        settings = (self.aws.physical_ids["GameTable"], self.aws.region, self.aws.endpoint_url)
        self.settings = settings
        games = item_model(*settings)
        self.store = DynamoAccountStore(games, DynamoGameRepository(games).result)
        self.games = DynamoGameRepository(games)
        self.wallets = DynamoWalletStore(games)

    # -------------------------------------------------------------- HTTP API

    def http(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        query: str = "",
        accept: str = "application/json",
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        """The request as the HTTP API passes it: through the authorizer on /me routes."""
        event = _event("http_me.json")
        event["headers"].update(headers or {})
        if headers and "host" in headers:  # API Gateway's domainName is the Host header too
            event["requestContext"]["domainName"] = headers["host"]
        event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} {path}"
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = method
        event["requestContext"]["requestId"] = uuid.uuid4().hex
        event["rawQueryString"] = query
        event["queryStringParameters"] = {k: v[-1] for k, v in parse_qs(query).items()} or None
        event["headers"]["accept"] = accept
        event["headers"].pop("authorization", None)
        event["requestContext"].pop("authorizer", None)
        if form is not None:
            event["headers"]["content-type"] = "application/x-www-form-urlencoded"
            event["body"] = "&".join(f"{k}={v}" for k, v in form.items())
        elif body is not None:
            event["body"] = body if isinstance(body, str) else json.dumps(body)
        else:
            event.pop("body", None)
        if path.startswith("/me"):
            if token is None:
                return Reply(401, {}, json.dumps({"message": "Unauthorized"}))
            allowed = self.http_authorizer(token)
            if not allowed["isAuthorized"]:
                return Reply(403, {}, json.dumps({"message": "Forbidden"}))
            event["headers"]["authorization"] = token
            event["requestContext"]["authorizer"] = {"lambda": allowed["context"]}
        answer = self.handlers["AccountsFunction"](
            event, self.aws.lambda_context("AccountsFunction")
        )
        return Reply(answer["statusCode"], answer.get("headers") or {}, answer.get("body") or "")

    def http_authorizer(self, token: str) -> dict[str, Any]:
        event = _event("http_authorizer.json")
        event["headers"]["authorization"] = f"Bearer {token}"
        event["identitySource"] = [f"Bearer {token}"]
        return dict(
            self.handlers["HttpAuthorizerFunction"](
                event, self.aws.lambda_context("HttpAuthorizerFunction")
            )
        )

    def connect_allowed(self, token: str) -> bool:
        """Whether a WebSocket handshake with this token passes the $connect authorizer."""
        event = _event("authorizer.json")
        event["queryStringParameters"] = {"token": token}
        try:
            self.handlers["AuthorizerFunction"](
                event, self.aws.lambda_context("AuthorizerFunction")
            )
        except Exception as error:
            assert str(error) == "Unauthorized"
            return False
        return True

    # -------------------------------------------------------------- Cognito, mail, jobs

    def login(self, email: str, password: str = PASSWORD) -> str:
        """A sign-in as the web client makes it: by SRP (the embedded Cognito checks it)."""
        return self.aws.id_token(email, password)

    def totp_login(self, email: str, password: str, session: str) -> str:
        """The ID token of a sign-in that answered the authenticator app's challenge (moto
        takes any code unless MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP is set)."""
        del password  # verified by the call that opened `session`
        answer = self.cognito.admin_respond_to_auth_challenge(
            UserPoolId=self.aws.user_pool_id(),
            ClientId=self.aws.user_pool_client_id(),
            ChallengeName="SOFTWARE_TOKEN_MFA",
            Session=session,
            ChallengeResponses={"USERNAME": email, "SOFTWARE_TOKEN_MFA_CODE": "123456"},
        )
        return str(answer["AuthenticationResult"]["IdToken"])

    def login_refusal(self, email: str, password: str = PASSWORD) -> str:
        with pytest.raises(ClientError) as refused:
            self.login(email, password)
        error = refused.value.response["Error"]
        return f"{error['Code']}: {error.get('Message', '')}"

    def mails(self, to: str) -> list[dict[str, Any]]:
        return [
            {
                "to": mail.to,
                "subject": mail.subject,
                "text": mail.text or "",
                "html": mail.html or "",
                "links": mail.links,
            }
            for mail in self.aws.mails()
            if to in mail.to
        ]

    def link(self, to: str) -> tuple[str, str]:
        """The path and token of the link in the latest mail to `to`."""
        (url,) = self.mails(to)[-1]["links"]
        return link_route(url)

    def follow(self, to: str) -> Reply:
        """The latest link to `to` used as a person does: its page, then its button (a post
        of its token); the page's refusal when the link does not work."""
        path, token = self.link(to)
        page = self.http("GET", path, query=f"token={token}", accept="text/html")
        if page.status != 200:
            return self.http("GET", path, query=f"token={token}")
        assert f"value='{token}'" in page.body and "<form method=post" in page.body
        return self.http("POST", path, {"token": token})

    def register(self, nickname: str, email: str, password: str = PASSWORD) -> Reply:
        return self.http(
            "POST", "/accounts", {"nickname": nickname, "email": email, "password": password}
        )

    def player(self, nickname: str) -> tuple[str, str]:
        """A verified account; its player id and a fresh token."""
        email = f"{nickname.lower()}-{uuid.uuid4().hex[:6]}@example.com"
        registered = self.register(nickname, email)
        assert registered.status == 202, registered.body
        assert self.follow(email).status == 200
        return email, self.login(email)

    def job(self, event: dict[str, Any]) -> dict[str, Any]:
        return dict(
            self.handlers["AccountJobsFunction"](
                event, self.aws.lambda_context("AccountJobsFunction")
            )
        )

    def daily(self, after: timedelta) -> dict[str, Any]:
        now = self.aws.clock.now() + after
        return self.job({**_event("account_jobs_daily.json"), "now": now.isoformat()})

    def users(self) -> int:
        pool = self.aws.user_pool_id()
        return len(self.cognito.list_users(UserPoolId=pool)["Users"])


# The account functions, whose DynamoDB calls each test of this module records: after each test,
# every call is one template.yaml grants (`_calls_within_their_policies`); one test plays the flows
# that make every kind of call and finds each grant used.
ACCOUNT_FUNCTIONS = (
    "AccountsFunction",
    "AccountTriggersFunction",
    "AccountJobsFunction",
    "AuthorizerFunction",
    "HttpAuthorizerFunction",
)
# What each function needed in the test running now, as IAM actions on the table or its index.
DYNAMODB_NEEDS: dict[str, set[tuple[str, str]]] = {name: set() for name in ACCOUNT_FUNCTIONS}
# Their calls (operation, parameters) in the test running now: each is evaluated against the
# function's statements, `dynamodb:LeadingKeys` conditions included (devstack.policy).
DYNAMODB_CALLS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    name: [] for name in ACCOUNT_FUNCTIONS
}
_running = threading.local()


def _recording(name: str, handler: Any) -> Any:
    """The handler, its DynamoDB calls counted as `name`'s (per thread: Cognito runs the
    trigger in its own)."""

    def run(event: Any, context: Any) -> Any:
        _running.function = name
        try:
            return handler(event, context)
        finally:
            _running.function = None

    return run


@pytest.fixture(scope="module")
def accounts() -> Iterator[Accounts]:
    make_api_call = BaseClient._make_api_call

    def recording(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        function = getattr(_running, "function", None)
        if function is not None and client.meta.service_model.service_name == "dynamodb":
            DYNAMODB_NEEDS[function] |= iam_actions(operation, params)
            DYNAMODB_CALLS[function].append((operation, copy.deepcopy(params)))
        return make_api_call(client, operation, params)

    with pytest.MonkeyPatch.context() as patch, LocalStack(ROOT) as stack:
        patch.setattr(BaseClient, "_make_api_call", recording)
        for name in ACCOUNT_FUNCTIONS:
            stack._handlers[name] = _recording(name, stack._handlers[name])
            stack.aws.register_function(name, stack._handlers[name])
        yield Accounts(stack)


@pytest.fixture(scope="module")
def grants() -> dict[str, set[tuple[str, str]]]:
    """What each account function's policy allows on DynamoDB, named as `iam_actions` does."""
    template = Template(ROOT / "template.yaml")
    return {name: dynamodb_allowed(template, name) for name in ACCOUNT_FUNCTIONS}


@pytest.fixture(autouse=True)
def _calls_within_their_policies(
    accounts: Accounts, grants: dict[str, set[tuple[str, str]]]
) -> Iterator[dict[str, set[tuple[str, str]]]]:
    """Every DynamoDB call an account function makes in a test is one its policy allows (moto
    checks no policy); the calls of the test, function by function."""
    for needs in DYNAMODB_NEEDS.values():
        needs.clear()
    for calls in DYNAMODB_CALLS.values():
        calls.clear()
    yield DYNAMODB_NEEDS
    refused = {name: needs - grants[name] for name, needs in DYNAMODB_NEEDS.items()}
    assert not any(refused.values()), f"calls their policies refuse: {refused}"
    template = _template()
    assert not [
        refusal
        for name, calls in DYNAMODB_CALLS.items()
        for refusal in refusals(template, name, calls)
    ]


@functools.cache
def _template() -> Template:
    return Template(ROOT / "template.yaml")


def _unique(prefix: str) -> str:
    # Digits only: random letters may spell a word the decency filter refuses (a flaky test).
    return f"{prefix}{uuid.uuid4().int % 10**6:06d}"


# ----------------------------------------------------------------------------- A1 register


def test_register_verify_login_and_read_the_account(accounts: Accounts) -> None:
    # given a new player's sign-up
    nickname, email = _unique("Ana"), f"{_unique('ana')}@example.com"
    registered = accounts.register(nickname, email)

    # then the account exists unverified, and Cognito refuses the login until the link
    assert registered.status == 202
    owner = accounts.store.nickname_owner(nickname)
    profile = None if owner is None else accounts.store.get(owner)
    assert profile is not None and profile.status == "unverified"
    assert "account_unverified" in accounts.login_refusal(email)
    (mail,) = accounts.mails(email)
    assert nickname in mail["text"] and PASSWORD not in mail["text"] + mail["html"]

    # when the mailed link's page is opened (twice: a mail scanner first), then its button
    path, token = accounts.link(email)
    for _ in range(2):
        page = accounts.http("GET", path, query=f"token={token}", accept="text/html")
        assert page.status == 200 and "Confirm your e-mail address" in page.body
    confirmed = accounts.http("POST", path, form={"token": token})

    # then the account is active, the login works and /me shows the account
    assert confirmed.status == 200 and "E-mail confirmed" in confirmed.body
    token = accounts.login(email)
    me = accounts.http("GET", "/me", token=token)
    assert me.status == 200
    assert me.json["nickname"] == nickname
    assert me.json["status"] == "active"
    assert me.json["preferences"]["country"] is None  # Yamb world
    assert me.json["nicknameChange"] == {"changesMade": 0, "nextPrice": 100, "availableAt": None}
    assert accounts.connect_allowed(token)


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        (
            {"nickname": "{taken_other_case}", "email": "{email}", "password": PASSWORD},
            409,
            "nickname_taken",
            "nickname",
        ),
        (
            {"nickname": "Big_Fuck", "email": "{email}", "password": PASSWORD},
            400,
            "nickname_indecent",
            "nickname",
        ),
        (
            {"nickname": "a" * 17, "email": "{email}", "password": PASSWORD},
            400,
            "nickname_too_long",
            "nickname",
        ),
        (
            {"nickname": "{fresh}", "email": "not-an-address", "password": PASSWORD},
            400,
            "email_invalid",
            "email",
        ),
        (
            {"nickname": "{fresh}", "email": "{email}", "password": "weakpass"},
            400,
            "password_weak",
            "password",
        ),
        (
            {"nickname": "{fresh}", "email": "{email}", "password": PASSWORD, "admin": True},
            400,
            "bad_request",
            "admin",
        ),
        ({"nickname": "{fresh}", "email": "{email}"}, 400, "bad_request", "password"),
        ("{not json", 400, "bad_request", None),
    ],
)
def test_register_bad_input_gets_its_code_and_writes_nothing(
    accounts: Accounts, body: Any, status: int, code: str, field: str | None
) -> None:
    # given an account that holds a nickname and an address
    holder_nickname, holder_email = _unique("Holder"), f"{_unique('holder')}@example.com"
    assert accounts.register(holder_nickname, holder_email).status == 202
    users = accounts.users()
    values = {
        "taken_other_case": holder_nickname.upper(),
        "fresh": _unique("Fresh"),
        "email": f"{_unique('new')}@example.com",
    }
    if isinstance(body, dict):
        body = {
            name: value.format(**values) if isinstance(value, str) else value
            for name, value in body.items()
        }

    # when a sign-up breaks a rule
    reply = accounts.http("POST", "/accounts", body)

    # then it gets a clear error with a stable code, and no user, profile or reservation exists
    assert (reply.status, reply.code) == (status, code)
    assert reply.json["error"]["field"] == field
    assert accounts.users() == users
    if isinstance(body, dict) and body.get("nickname") == values["fresh"]:
        assert accounts.store.nickname_owner(values["fresh"]) is None


def test_register_racing_sign_ups_for_one_nickname_give_one_account(accounts: Accounts) -> None:
    # given ten sign-ups at once for one nickname, in several letter cases, each its own address
    nickname = _unique("racer")
    spellings = [nickname, nickname.upper(), nickname.capitalize()]
    users = accounts.users()
    replies: list[Reply] = []
    start = threading.Barrier(10)

    def sign_up(index: int) -> None:
        start.wait()
        replies.append(
            accounts.register(spellings[index % 3], f"racer{index}-{uuid.uuid4().hex[:4]}@x.com")
        )

    threads = [threading.Thread(target=sign_up, args=(index,)) for index in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then exactly one account exists: one 202, nine nickname_taken, one more Cognito user
    assert sorted(reply.status for reply in replies) == [202] + [409] * 9
    assert {reply.code for reply in replies if reply.status == 409} == {"nickname_taken"}
    winner = accounts.store.nickname_owner(nickname)
    assert winner is not None and accounts.store.get(winner) is not None
    assert accounts.users() == users + 1


def test_verify_link_reused_tampered_or_expired_is_refused(accounts: Accounts) -> None:
    # given two sign-ups
    first, second = f"{_unique('a')}@example.com", f"{_unique('b')}@example.com"
    accounts.register(_unique("First"), first)
    accounts.register(_unique("Second"), second)
    path, token = accounts.link(first)

    # when the first link is used twice and a tampered one once
    assert accounts.http("POST", path, {"token": token}).status == 200
    reused = accounts.http("POST", path, {"token": token})
    tampered = accounts.http("POST", path, {"token": f"{token[:-2]}xy"})
    missing = accounts.http("GET", path)

    # then only the first use works
    assert (reused.status, reused.code) == (404, "link_invalid")
    assert (tampered.status, tampered.code) == (404, "link_invalid")
    assert (missing.status, missing.code) == (404, "link_invalid")

    # when the second waits 7 days, then its link has expired; a new one on request works
    accounts.aws.advance(days=7, seconds=1)
    expired = accounts.follow(second)
    assert (expired.status, expired.code) == (410, "link_expired")
    asked = accounts.http("POST", "/accounts/verification", {"email": second})
    assert asked.status == 202
    assert accounts.follow(second).json["status"] == "active"


def test_request_verification_says_the_same_for_any_address(accounts: Accounts) -> None:
    # given a verified account and an unknown address
    email, _ = accounts.player(_unique("Known"))
    before = len(accounts.aws.mails())

    # when new links are asked for both (and for a malformed address)
    replies = [
        accounts.http("POST", "/accounts/verification", {"email": address})
        for address in (email, "nobody@example.com", "nonsense")
    ]

    # then each gets the same answer and no mail goes
    assert {reply.status for reply in replies} == {202}
    assert len({reply.body for reply in replies}) == 1
    assert len(accounts.aws.mails()) == before


# ----------------------------------------------------------------------------- A3, A6


def test_password_reset_by_link_signs_out_every_device(accounts: Accounts) -> None:
    # given a player signed in on two devices
    email, first = accounts.player(_unique("Reset"))
    second = accounts.login(email)

    # when they ask for a reset and open the mailed link
    assert accounts.http("POST", "/accounts/password-reset", {"email": email}).status == 202
    mail = accounts.mails(email)[-1]
    assert PASSWORD not in mail["text"] + mail["html"]
    path, token = accounts.link(email)
    page = accounts.http("GET", path, query=f"token={token}", accept="text/html")
    assert page.status == 200 and "<form" in page.body and "type=password" in page.body

    # then a weak password is refused and the link still works for a good one
    weak = accounts.http("POST", f"{path}/confirm", form={"token": token, "password": "short"})
    assert weak.status == 400 and "password needs" in weak.body
    new_password = "new-dice-7777"
    done = accounts.http("POST", f"{path}/confirm", form={"token": token, "password": new_password})
    assert done.status == 200

    # and every device is signed out at once: both tokens stop for HTTP and $connect
    for token_before in (first, second):
        assert accounts.http("GET", "/me", token=token_before).status == 403
        assert not accounts.connect_allowed(token_before)
    assert "NotAuthorized" in accounts.login_refusal(email)
    assert accounts.http("GET", "/me", token=accounts.login(email, new_password)).status == 200
    reused = accounts.http("POST", f"{path}/confirm", {"token": token, "password": "other-pass-11"})
    assert reused.code == "link_invalid"


def test_password_reset_link_lives_two_hours(accounts: Accounts) -> None:
    email, _ = accounts.player(_unique("Late"))
    accounts.http("POST", "/accounts/password-reset", {"email": email})
    accounts.aws.advance(hours=2, seconds=1)
    late = accounts.follow(email)
    assert (late.status, late.code) == (410, "link_expired")


def test_password_change_keeps_this_device_and_signs_out_the_others(accounts: Accounts) -> None:
    # given a player on two devices
    email, this_device = accounts.player(_unique("Change"))
    other_device = accounts.login(email)

    # when the old password given is wrong, then nothing changes
    wrong = accounts.http(
        "POST",
        "/me/password",
        {"oldPassword": "not-it-1", "newPassword": "brand-new-one-1"},
        token=this_device,
    )
    assert (wrong.status, wrong.code) == (403, "password_wrong")
    weak = accounts.http(
        "POST", "/me/password", {"oldPassword": PASSWORD, "newPassword": "weak"}, token=this_device
    )
    assert (weak.code, weak.json["error"]["field"]) == ("password_weak", "newPassword")

    # when it is right
    changed = accounts.http(
        "POST",
        "/me/password",
        {"oldPassword": PASSWORD, "newPassword": "brand-new-one-1"},
        token=this_device,
    )

    # then this device goes on with the fresh tokens it got, and the other is signed out
    assert changed.status == 200
    fresh = changed.json["idToken"]
    assert accounts.http("GET", "/me", token=fresh).status == 200
    assert accounts.connect_allowed(fresh)
    assert accounts.http("GET", "/me", token=other_device).status == 403
    assert not accounts.connect_allowed(other_device)
    assert accounts.login(email, "brand-new-one-1")


def test_app_client_takes_no_plain_password_from_the_public(accounts: Accounts) -> None:
    # given a verified player
    email, _ = accounts.player(_unique("Plain"))

    # when a client posts their password to Cognito's public endpoint (USER_PASSWORD_AUTH)
    with pytest.raises(ClientError) as refused:
        accounts.cognito.initiate_auth(
            ClientId=accounts.aws.user_pool_client_id(),
            AuthFlow="USER_PASSWORD_AUTH",
            AuthParameters={"USERNAME": email, "PASSWORD": PASSWORD},
        )

    # then the app client refuses the flow: only SRP (and the admin flow, with IAM) sign in
    error = refused.value.response["Error"]
    assert error["Code"] == "InvalidParameterException"
    assert "USER_PASSWORD_AUTH flow not enabled" in error["Message"]
    assert accounts.login(email)


def test_password_change_with_an_authenticator_app_asks_this_device_to_sign_in_again(
    accounts: Accounts,
) -> None:
    # given a player who added an authenticator app (TOTP) to their account
    email, this_device = accounts.player(_unique("Totp"))
    signed_in = accounts.cognito.admin_initiate_auth(
        UserPoolId=accounts.aws.user_pool_id(),
        ClientId=accounts.aws.user_pool_client_id(),
        AuthFlow="ADMIN_USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": email, "PASSWORD": PASSWORD},
    )
    access = signed_in["AuthenticationResult"]["AccessToken"]
    accounts.cognito.associate_software_token(AccessToken=access)
    accounts.cognito.verify_software_token(AccessToken=access, UserCode="123456")
    accounts.cognito.set_user_mfa_preference(
        AccessToken=access,
        SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True},
    )

    # when the password is changed with the right old one
    changed = accounts.http(
        "POST",
        "/me/password",
        {"oldPassword": PASSWORD, "newPassword": "brand-new-one-1"},
        token=this_device,
    )

    # then it is changed, every device signed out, and this one told to sign in again (a
    # sign-in now needs the app's code, which the server does not have): no tokens
    assert changed.status == 200
    assert changed.json["signInAgain"] is True and changed.json["idToken"] is None
    assert accounts.http("GET", "/me", token=this_device).status == 403
    again = accounts.cognito.admin_initiate_auth(
        UserPoolId=accounts.aws.user_pool_id(),
        ClientId=accounts.aws.user_pool_client_id(),
        AuthFlow="ADMIN_USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": email, "PASSWORD": "brand-new-one-1"},
    )
    assert again["ChallengeName"] == "SOFTWARE_TOKEN_MFA"

    # and a wrong old password is still refused, with the app or without
    wrong = accounts.http(
        "POST",
        "/me/password",
        {"oldPassword": PASSWORD, "newPassword": "other-new-one-2"},
        token=accounts.totp_login(email, "brand-new-one-1", again["Session"]),
    )
    assert (wrong.status, wrong.code) == (403, "password_wrong")


def test_email_change_takes_effect_through_the_new_address_only(accounts: Accounts) -> None:
    # given a player and another account's address
    email, token = accounts.player(_unique("Mover"))
    other, _ = accounts.player(_unique("Other"))
    new_email = f"{_unique('moved')}@example.com"

    # then a taken, unchanged or malformed address is refused
    for address, code in (
        (other, "email_taken"),
        (email, "email_unchanged"),
        ("x@", "email_invalid"),
    ):
        change = {"email": address, "password": PASSWORD}
        assert accounts.http("POST", "/me/email", change, token=token).code == code

    # when they ask to move to a new address, with their password
    asked = accounts.http(
        "POST", "/me/email", {"email": new_email, "password": PASSWORD}, token=token
    )

    # then the old address stays the login until the link sent to the new one is followed,
    # and the old address is told where the account is going
    assert asked.status == 202 and asked.json["pendingEmail"] == new_email
    assert accounts.login(email)
    notice = accounts.mails(email)[-1]
    assert "is being changed" in notice["subject"] and new_email in notice["text"]
    assert notice["subject"] != accounts.mails(new_email)[-1]["subject"]
    confirmed = accounts.follow(new_email)
    assert confirmed.status == 200 and confirmed.json["email"] == new_email
    assert accounts.login(new_email)
    assert "NotAuthorized" in accounts.login_refusal(email) or "UserNotFound" in (
        accounts.login_refusal(email)
    )


def test_sign_out_everywhere_stops_every_token_at_once(accounts: Accounts) -> None:
    _, token = accounts.player(_unique("Leaver"))
    assert accounts.http("POST", "/me/sign-out", token=token).status == 200
    assert accounts.http("GET", "/me", token=token).status == 403
    assert not accounts.connect_allowed(token)


def test_sign_in_whose_previous_device_cannot_be_closed_still_succeeds(
    accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a player signed in, and the management API failing when a connection is closed
    email, first = accounts.player(_unique("Twice"))

    def failing(self: Any, player_id: str, **kwargs: Any) -> None:
        raise RuntimeError("the management API is unreachable")

    monkeypatch.setattr(PlayerConnections, "close", failing)

    # when they sign in again, a while later
    time.sleep(SIGN_IN_SKEW_SECONDS + 1.5)
    second = accounts.login(email)

    # then the sign-in succeeds, and only the new sign-in's token opens the API
    assert accounts.http("GET", "/me", token=second).status == 200
    assert accounts.http("GET", "/me", token=first).status == 403


# ----------------------------------------------------------------------------- A4, A5


def test_settings_change_what_they_name_and_refuse_bad_values(accounts: Accounts) -> None:
    # given a player who played a finished game
    _, token = accounts.player(_unique("Setter"))
    player_id = accounts.http("GET", "/me", token=token).json["playerId"]
    game_id = _unique("game-")
    _store_result(accounts, game_id, player_id)

    # when they change their settings
    body = _event("http_settings.json")["body"]
    changed = accounts.http("PATCH", "/me/settings", body, token=token)
    proud = accounts.http("PATCH", "/me/settings", {"proudGame": game_id}, token=token)

    # then those settings change and the rest stays
    assert changed.status == 200
    preferences = proud.json["preferences"]
    assert (preferences["language"], preferences["country"]) == ("fr", "HR")
    assert preferences["notifications"]["email"]["offers"] is False
    assert preferences["notifications"]["email"]["tournaments"] is True
    assert preferences["proudGame"] == game_id

    # and bad values are refused with the setting they are about
    for change, code, field in (
        ({"country": "XX"}, "country_unknown", "country"),
        ({"proudGame": "not-my-game"}, "game_unknown", "proudGame"),
        ({"description": "merde alors"}, "description_indecent", "description"),
        ({"language": "tlh"}, "bad_request", "language"),
        ({}, "bad_request", None),
    ):
        reply = accounts.http("PATCH", "/me/settings", change, token=token)
        assert (reply.code, reply.json["error"]["field"]) == (code, field)
    assert accounts.http("GET", "/me", token=token).json["preferences"] == preferences


def _store_result(accounts: Accounts, game_id: str, player_id: str) -> None:
    result = GameResult(
        game_id=game_id,
        settings=GameSettings(),
        ended_at=accounts.aws.clock.now(),
        winners=[player_id],
        players=[PlayerResult(player_id=player_id, total=800, full=True, left=False, turns=78)],
    )
    item = accounts.games._result_item(result)
    item.save()


def test_nickname_change_is_priced_weekly_and_frees_the_old_name(accounts: Accounts) -> None:
    # given a player with 350 tokens
    old = _unique("Renamer")
    email, token = accounts.player(old)
    player_id = accounts.http("GET", "/me", token=token).json["playerId"]
    accounts.wallets.apply("grant-350", [Change(player_id, 350, "grant")], datetime.now(UTC))

    # when they change their nickname
    new = _unique("Renamed")
    first = accounts.http("POST", "/me/nickname", {"nickname": new}, token=token)

    # then it costs 100 from the wallet (its ledger says why), the next costs 200 in 7 days,
    # and the old name is free again
    assert first.status == 200
    assert first.json["nickname"] == new and accounts.wallets.wallet(player_id).balance == 250
    paid = accounts.wallets.entries(player_id, 1)[0]
    assert (paid.reason, paid.amount, paid.detail) == ("nickname", -100, new)
    assert first.json["nicknameChange"]["nextPrice"] == 200
    assert accounts.store.nickname_owner(new.upper()) == player_id
    assert accounts.store.nickname_owner(old) is None
    soon = accounts.http("POST", "/me/nickname", {"nickname": _unique("Again")}, token=token)
    assert (soon.status, soon.code) == (429, "nickname_too_soon")
    taker = accounts.register(old, f"{_unique('taker')}@example.com")
    assert taker.status == 202

    # when 7 days have passed, then the second costs 200 and a third has no tokens for it
    accounts.aws.advance(days=7)
    token = accounts.login(email)
    taken = accounts.http("POST", "/me/nickname", {"nickname": old.lower()}, token=token)
    assert (taken.status, taken.code) == (409, "nickname_taken")
    second = accounts.http("POST", "/me/nickname", {"nickname": _unique("Twice")}, token=token)
    assert second.status == 200 and accounts.wallets.wallet(player_id).balance == 50
    accounts.aws.advance(days=7)
    token = accounts.login(email)
    poor = accounts.http("POST", "/me/nickname", {"nickname": _unique("Thrice")}, token=token)
    assert (poor.status, poor.code) == (402, "not_enough_tokens")
    assert accounts.connect_allowed(token)


def test_nickname_change_renames_the_seats_and_a_failure_there_keeps_the_rename(
    accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a player with tokens, and the account service's seat renaming watched
    from yamb_service.accounts.wiring import account_service

    _, token = accounts.player(_unique("Seated"))
    player_id = accounts.http("GET", "/me", token=token).json["playerId"]
    accounts.wallets.apply("grant-seat", [Change(player_id, 500, "grant")], datetime.now(UTC))
    seats = account_service().games
    assert seats is not None
    calls: list[tuple[str, str, bool, int]] = []
    real_rename = seats.rename_seats

    def rename(player: str, nickname: str, now: datetime, *, only_in_play: bool = False) -> int:
        # the game repository, built on first use
        renamed = real_rename(player, nickname, now, only_in_play=only_in_play)
        calls.append((player, nickname, only_in_play, renamed))
        return renamed

    monkeypatch.setattr(seats, "rename_seats", rename)

    # when they change their nickname
    new = _unique("Reseated")
    assert accounts.http("POST", "/me/nickname", {"nickname": new}, token=token).status == 200

    # then their seats were renamed after it (they sit at no game: none changed)
    assert calls == [(player_id, new, True, 0)]

    # when the seats cannot be renamed at the next change, the rename still stands
    def broken(player: str, nickname: str, now: datetime, *, only_in_play: bool = False) -> int:
        raise RuntimeError("the game table is not reachable")

    monkeypatch.setattr(seats, "rename_seats", broken)
    accounts.aws.advance(days=7)
    token = accounts.login(accounts.http("GET", "/me", token=token).json["email"])
    again = _unique("Still")
    reply = accounts.http("POST", "/me/nickname", {"nickname": again}, token=token)
    assert (reply.status, reply.json["nickname"]) == (200, again)


# ----------------------------------------------------------------------------- A7 deletion


def test_deletion_locks_reminds_then_purges_and_frees_the_names(accounts: Accounts) -> None:
    # given a player who played a game, sits at a table under their nickname, then asked to
    # delete their account
    nickname = _unique("Gone")
    email, token = accounts.player(nickname)
    player_id = accounts.http("GET", "/me", token=token).json["playerId"]
    game_id = _unique("game-")
    _store_result(accounts, game_id, player_id)
    table = lobby.create(
        _unique("table-"),
        player_id,
        None,
        GameSettings(),
        accounts.aws.clock.now(),
        server_seed="0" * 64,
        nickname=nickname,
    )
    accounts.games.create(table, players={player_id: "seat"}, now=accounts.aws.clock.now())
    # and entered a tournament beside another player (the entries keep the nicknames)
    tournaments = DynamoTournamentStore(item_model(*accounts.settings))
    tournament_id = _unique("purge-arena-")
    now = accounts.aws.clock.now()
    plan = TournamentPlan(kind="arena", name="Purge arena", starts_at=now + timedelta(hours=1),
                          minutes=10, rules={"columns": ["free"]}, ranked=False)  # fmt: skip
    assert tournaments.create(new_tournament(tournament_id, plan, "ab" * 32, now))
    for who, name in ((player_id, nickname), ("someone-else", "Stays")):
        entry = Entry(player_id=who, nickname=name, joined_at=now)
        assert tournaments.enter(tournaments.state(tournament_id).tournament, entry) == "written"
    asked = accounts.http("DELETE", "/me", token=token)

    # then the account is locked at once, and told when it goes
    assert asked.status == 202 and asked.json["status"] == "deleting"
    assert accounts.http("GET", "/me", token=token).status == 403
    assert not accounts.connect_allowed(token)
    assert "will be deleted" in accounts.mails(email)[-1]["subject"]

    # when the daily job runs on day 23, again the same day, then on day 29
    sent = len(accounts.mails(email))
    accounts.daily(timedelta(days=23, minutes=1))
    accounts.daily(timedelta(days=23, minutes=2))
    accounts.daily(timedelta(days=29, minutes=1))

    # then two reminders went, one each
    reminders = [
        re.findall(r"\((\d+) days? left\)", mail["text"]) for mail in accounts.mails(email)
    ]
    assert reminders[sent:] == [["7"], ["1"]]

    # when it runs after 30 days
    report = accounts.daily(timedelta(days=30, minutes=1))

    # then the account is purged: no personal data, a nickname that is an id, the names free,
    # and the game still in the results
    assert report["purged"] >= 1
    profile = accounts.store.get(player_id)
    assert profile is not None and profile.status == "deleted"
    assert profile.email is None and profile.nickname.startswith("#")
    assert profile.preferences.public_page is False
    assert accounts.store.nickname_owner(nickname) is None
    assert accounts.register(nickname, email).status == 202
    result = accounts.games.result(game_id)
    assert result is not None and result.players[0].player_id == player_id
    # and the table's seat no longer shows the nickname, but the id name
    (seat,) = accounts.games.load(table.game_id).session.seats
    assert (seat.player_id, seat.nickname) == (player_id, profile.nickname)
    # and neither does the tournament's entry, on a new version; the other entrant's is theirs
    entries = tournaments.state(tournament_id).entries
    assert (entries[player_id].nickname, entries[player_id].version) == (profile.nickname, 2)
    assert (entries["someone-else"].nickname, entries["someone-else"].version) == ("Stays", 1)


def test_deletion_cancelled_by_any_login(accounts: Accounts) -> None:
    # given a player who asked to delete their account
    email, token = accounts.player(_unique("Stay"))
    accounts.http("DELETE", "/me", token=token)

    # when they sign in again within 30 days
    accounts.aws.advance(days=10)
    fresh = accounts.login(email)

    # then the account is theirs again, and a mail says so
    me = accounts.http("GET", "/me", token=fresh)
    assert me.status == 200 and me.json["status"] == "active" and me.json["deletion"] is None
    assert accounts.mails(email)[-1]["subject"] == "Yamb: your account is kept"
    accounts.daily(timedelta(days=31))
    kept = accounts.store.get(me.json["playerId"])
    assert kept is not None and kept.status == "active"


def test_daily_job_deletes_never_verified_accounts_after_30_days(accounts: Accounts) -> None:
    # given an account never verified
    nickname, email = _unique("Never"), f"{_unique('never')}@example.com"
    assert accounts.register(nickname, email).status == 202
    player_id = accounts.store.nickname_owner(nickname)
    assert player_id is not None

    # when the job runs on day 29, then on day 30
    accounts.daily(timedelta(days=29))
    kept = accounts.store.get(player_id)
    accounts.daily(timedelta(days=30, minutes=1))

    # then it is kept, then gone with its nickname and address free again
    assert kept is not None
    assert accounts.store.get(player_id) is None
    assert accounts.store.nickname_owner(nickname) is None
    assert accounts.register(nickname, email).status == 202


def test_daily_job_whose_purge_fails_raises_counts_it_and_the_retry_finishes(
    accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given two accounts asked to be deleted; the table refuses the first one's purge
    _, first_token = accounts.player(_unique("Stuck"))
    _, second_token = accounts.player(_unique("Fine"))
    first_id = accounts.http("GET", "/me", token=first_token).json["playerId"]
    second_id = accounts.http("GET", "/me", token=second_token).json["playerId"]
    accounts.http("DELETE", "/me", token=first_token)
    accounts.http("DELETE", "/me", token=second_token)
    purge = DynamoAccountStore.purge

    def failing(store: DynamoAccountStore, profile: Any, *, release: str) -> None:
        if profile.player_id == first_id:
            raise RuntimeError("the table is down")
        purge(store, profile, release=release)

    counted: list[tuple[str, float]] = []
    monkeypatch.setattr(DynamoAccountStore, "purge", failing)
    monkeypatch.setattr(
        account_service_module.metrics,
        "add_metric",
        lambda name, value, **_: counted.append((name, value)),
    )

    # when the daily job runs after 30 days
    with pytest.raises(DailyJobError) as raised:
        accounts.daily(timedelta(days=30, minutes=1))

    # then it fails (Lambda counts an error, retries, then dead-letters the event) naming the
    # account, counts the failure, and the other account was purged all the same
    assert raised.value.report.failed == [first_id]
    assert first_id in str(raised.value)
    assert ("AccountsNotHandled", 1) in counted and ("JobFailed", 1) in counted
    second = accounts.store.get(second_id)
    assert second is not None and second.status == "deleted"

    # when the table is back and the job runs again (Lambda's retry), then it finishes the
    # purge and succeeds
    monkeypatch.setattr(DynamoAccountStore, "purge", purge)
    report = accounts.daily(timedelta(days=30, minutes=2))
    first = accounts.store.get(first_id)
    assert report["failed"] == [] and first is not None and first.status == "deleted"
    assert first.email is None and first.nickname.startswith("#")


# ----------------------------------------------------------------------------- bans, jobs


def test_ban_signs_out_every_device_and_refuses_the_login(accounts: Accounts) -> None:
    email, token = accounts.player(_unique("Cheater"))
    player_id = accounts.http("GET", "/me", token=token).json["playerId"]
    ban = {**_event("account_jobs_ban.json"), "playerId": player_id}
    assert accounts.job(ban)["status"] == "banned"
    assert accounts.http("GET", "/me", token=token).status == 403
    assert not accounts.connect_allowed(token)
    # (AWS refuses a disabled user before any trigger; the trigger refuses a banned one too)
    refusal = accounts.login_refusal(email)
    assert "account_banned" in refusal or "disabled" in refusal


@pytest.mark.parametrize(
    "event",
    [{"job": "weekly"}, {"task": "ban"}, {"job": "daily", "now": "yesterday"}, {}],
)
def test_account_jobs_refuse_an_unknown_or_malformed_event(
    accounts: Accounts, event: dict[str, Any]
) -> None:
    with pytest.raises(Exception, match="validation error"):
        accounts.job(event)


def test_account_mail_goes_whatever_the_notification_switches(accounts: Accounts) -> None:
    # given a player who switched every e-mail group off
    email, token = accounts.player(_unique("Quiet"))
    off = {"returnReminders": False, "tournaments": False, "offers": False}
    accounts.http("PATCH", "/me/settings", {"notifications": {"email": off}}, token=token)

    # when they ask for a password reset, then its mail goes all the same
    before = len(accounts.mails(email))
    accounts.http("POST", "/accounts/password-reset", {"email": email})
    assert len(accounts.mails(email)) == before + 1
    assert re.search(r"/#/reset\?token=", accounts.mails(email)[-1]["text"])


def test_register_losing_the_nickname_in_the_transaction_leaves_no_user(
    accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a nickname taken, and a sign-up that raced past the early check (it saw it free)
    from yamb_service.accounts.wiring import account_service

    nickname = _unique("Taken")
    assert accounts.register(nickname, f"{_unique('first')}@example.com").status == 202
    monkeypatch.setattr(account_service().store, "nickname_owner", lambda nickname: None)
    users = accounts.users()
    email = f"{_unique('late')}@example.com"

    # when it reaches the transaction
    reply = accounts.register(nickname.lower(), email)

    # then the transaction refuses it, and its Cognito user is gone again: the address is free
    assert (reply.status, reply.code) == (409, "nickname_taken")
    assert accounts.users() == users
    monkeypatch.undo()
    assert accounts.register(_unique("Other"), email).status == 202


def test_reset_link_stays_usable_when_its_step_fails(
    accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a reset link, and Cognito busy the first time the password is set
    from yamb_service.accounts.wiring import account_service
    from yamb_service.common.errors import ServiceBusyError

    email, _ = accounts.player(_unique("Busy"))
    accounts.http("POST", "/accounts/password-reset", {"email": email})
    path, token = accounts.link(email)
    identity = account_service().identity
    real = identity.set_password
    calls: list[str] = []

    def busy_once(player_id: str, password: str, *, field: str = "password") -> None:
        calls.append(player_id)
        if len(calls) == 1:
            raise ServiceBusyError
        real(player_id, password, field=field)

    monkeypatch.setattr(identity, "set_password", busy_once)

    # when the player sends the new password, is told to try again, and does
    first = accounts.http("POST", f"{path}/confirm", {"token": token, "password": "again-and-99"})
    second = accounts.http("POST", f"{path}/confirm", {"token": token, "password": "again-and-99"})

    # then the second try works with the same link, and the link is then used up
    assert (first.status, first.code) == (503, "busy")
    assert second.status == 200
    assert accounts.login(email, "again-and-99")
    third = accounts.http("POST", f"{path}/confirm", {"token": token, "password": "third-one-99"})
    assert third.code == "link_invalid"


def test_daily_runs_at_once_send_each_reminder_once(accounts: Accounts) -> None:
    # given an account whose deletion was asked
    email, token = accounts.player(_unique("Twice"))
    accounts.http("DELETE", "/me", token=token)
    sent = len(accounts.mails(email))

    # when two runs of the daily job overlap on day 23
    start = threading.Barrier(2)

    def run() -> None:
        start.wait()
        accounts.daily(timedelta(days=23, minutes=1))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then one reminder went
    assert len(accounts.mails(email)) == sent + 1


def test_purge_begun_cannot_be_cancelled_and_a_cancelled_one_is_not_purged(
    accounts: Accounts,
) -> None:
    # given two accounts asked to be deleted; the first one's purge has begun (a run that
    # died after its first step), the second one's owner signed in again
    first_email, first_token = accounts.player(_unique("Begun"))
    second_email, second_token = accounts.player(_unique("Back"))
    first_id = accounts.http("GET", "/me", token=first_token).json["playerId"]
    second_id = accounts.http("GET", "/me", token=second_token).json["playerId"]
    accounts.http("DELETE", "/me", token=first_token)
    accounts.http("DELETE", "/me", token=second_token)
    begun = accounts.store.get(first_id)
    assert begun is not None
    accounts.store.save(begun.model_copy(update={"status": "purging"}))
    accounts.login(second_email)

    # then a login no longer cancels the first, and the next run finishes its purge, but
    # leaves the second (its owner came back)
    assert "account_deleted" in accounts.login_refusal(first_email)
    accounts.daily(timedelta(hours=1))
    purged, kept = accounts.store.get(first_id), accounts.store.get(second_id)
    assert purged is not None and purged.status == "deleted" and purged.email is None
    assert kept is not None and kept.status == "active"
    assert accounts.login(second_email)


def test_daily_job_with_a_far_offset_now_deletes_nothing_early(accounts: Accounts) -> None:
    # given an account never verified, 29 days and 14 hours old on a clock 14 hours ahead
    nickname, email = _unique("Offset"), f"{_unique('offset')}@example.com"
    assert accounts.register(nickname, email).status == 202
    player_id = accounts.store.nickname_owner(nickname)
    assert player_id is not None
    now = (accounts.aws.clock.now() + timedelta(days=29, hours=14)).astimezone(
        timezone(timedelta(hours=14))
    )

    # when the job runs as of that moment written with its +14:00 offset
    accounts.job({"job": "daily", "now": now.isoformat()})

    # then the account is still there (30 days are not over in UTC)
    assert accounts.store.get(player_id) is not None


def test_register_reclaims_an_address_a_dead_sign_up_left_behind(
    accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a Cognito user with no profile (a sign-up that died between its two steps); its
    # creation date is moto's real time, read on the stack's clock (which other tests moved)
    from yamb_service.accounts.wiring import account_service

    email = f"{_unique('orphan')}@example.com"
    accounts.cognito.admin_create_user(
        UserPoolId=accounts.aws.user_pool_id(), Username=email, MessageAction="SUPPRESS"
    )
    identity = account_service().identity
    real_find = identity.find
    offset = accounts.aws.clock.now() - datetime.now(UTC)

    def find_on_the_stack_clock(address: str) -> Any:
        user = real_find(address)
        return user if user is None else replace(user, created_at=user.created_at + offset)

    monkeypatch.setattr(identity, "find", find_on_the_stack_clock)

    # when someone signs up with its address at once, then 15 minutes later
    early = accounts.register(_unique("Early"), email)
    accounts.aws.advance(minutes=16)
    late = accounts.register(_unique("Late"), email)

    # then the first makes nothing (it may be a sign-up still under way) and mails nobody, though
    # it is answered as any sign-up is; the second gets the address
    assert early.status == 202 and early.body == late.body
    assert len(accounts.mails(email)) == 1
    assert late.status == 202
    assert accounts.follow(email).json["status"] == "active"


def test_register_with_a_referral_code_pays_the_inviter_at_verification(
    accounts: Accounts,
) -> None:
    # given ana, verified, and her referral code (E7: yamb_service.progression.referral.service)
    _, token = accounts.player(_unique("Ana"))
    ana = accounts.http("GET", "/me", token=token).json["playerId"]
    code = referrals_on(accounts.wallets.table_item, accounts.aws.clock.now).code(ana)

    # when eve registers with it, then follows her link
    email = f"{_unique('eve')}@example.com"
    body = {"nickname": _unique("Eve"), "email": email, "password": PASSWORD, "referralCode": code}
    registered = accounts.http("POST", "/accounts", body)
    verified = accounts.follow(email)

    # then eve's account exists and ana got the verification's 25 tokens
    assert registered.status == 202 and verified.status == 200
    assert accounts.wallets.wallet(ana).balance == 25


# ------------------------------------------------------------------------------ mail abuse


def test_register_with_a_used_address_answers_alike_and_tells_the_owner(
    accounts: Accounts,
) -> None:
    # given a verified account, and an account whose address is not verified yet
    owner_email, _ = accounts.player(_unique("Owner"))
    pending_email = f"{_unique('pending')}@example.com"
    assert accounts.register(_unique("Pending"), pending_email).status == 202
    old_path, old_token = accounts.link(pending_email)
    users = accounts.users()

    # when someone signs up with each address (in another letter case) and with a fresh one
    fresh_email = f"{_unique('fresh')}@example.com"
    used = accounts.register(_unique("Thief"), owner_email.upper())
    unverified = accounts.register(_unique("Again"), pending_email)
    fresh = accounts.register(_unique("Fresh"), fresh_email)

    # then every answer is the same, and only the fresh address made a user
    assert {(reply.status, reply.body) for reply in (used, unverified, fresh)} == {
        (fresh.status, fresh.body)
    }
    assert fresh.status == 202
    assert accounts.users() == users + 1

    # and the verified owner is told someone tried (no link in it); the unverified one gets a
    # new verification link, which ends the one before
    told = accounts.mails(owner_email)[-1]
    assert told["subject"] == "Yamb: someone tried to sign up with your address"
    assert not told["links"]
    replaced = accounts.http("POST", old_path, {"token": old_token})
    assert (replaced.status, replaced.code) == (404, "link_invalid")
    assert accounts.follow(pending_email).json["status"] == "active"


def test_a_new_verification_link_ends_the_old_one(accounts: Accounts) -> None:
    # given a sign-up whose verification mail was asked for again
    email = f"{_unique('twice')}@example.com"
    accounts.register(_unique("Twice"), email)
    first_path, first_token = accounts.link(email)
    assert accounts.http("POST", "/accounts/verification", {"email": email}).status == 202
    _, second_token = accounts.link(email)
    assert second_token != first_token

    # when the first link is used, then the second
    first = accounts.http("POST", first_path, {"token": first_token})
    second = accounts.http("POST", first_path, {"token": second_token})

    # then the first no longer works; the newest does
    assert (first.status, first.code) == (404, "link_invalid")
    assert second.status == 200 and second.json["status"] == "active"


def test_using_a_reset_link_ends_every_other_one(accounts: Accounts) -> None:
    # given two reset mails asked one after the other
    email, _ = accounts.player(_unique("Resets"))
    accounts.http("POST", "/accounts/password-reset", {"email": email})
    path, first_token = accounts.link(email)
    accounts.http("POST", "/accounts/password-reset", {"email": email})
    _, second_token = accounts.link(email)

    # when the first link is confirmed, then the second, each with its own password
    first = accounts.http(
        "POST", f"{path}/confirm", {"token": first_token, "password": "first-choice-1"}
    )
    second = accounts.http(
        "POST", f"{path}/confirm", {"token": second_token, "password": "second-choice-2"}
    )
    again = accounts.http(
        "POST", f"{path}/confirm", {"token": second_token, "password": "third-choice-3"}
    )

    # then only one of them set a password: the newest, once
    assert (first.status, first.code) == (404, "link_invalid")
    assert second.status == 200
    assert (again.status, again.code) == (404, "link_invalid")
    assert accounts.login(email, "second-choice-2")
    assert "NotAuthorized" in accounts.login_refusal(email, "first-choice-1")


def test_mail_to_one_address_is_bounded_and_every_answer_is_alike(accounts: Accounts) -> None:
    # given a verified account (its verification mail was the first of this hour)
    email, _ = accounts.player(_unique("Flooded"))
    before = len(accounts.mails(email))

    # when 30 resets and 30 verification mails are asked for it at once, and as many for an
    # address nobody has
    requests = [
        (route, address)
        for route in ("/accounts/password-reset", "/accounts/verification")
        for address in (email, f"{_unique('nobody')}@example.com")
        for _ in range(30)
    ]
    replies: list[Reply] = []
    start = threading.Barrier(len(requests))

    def ask(route: str, address: str) -> None:
        start.wait()
        replies.append(accounts.http("POST", route, {"email": address}))

    threads = [threading.Thread(target=ask, args=request) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then every answer is the same 202, and the address got two more mails: three this hour
    assert len(replies) == len(requests)
    assert {(reply.status, reply.body) for reply in replies} == {(202, replies[0].body)}
    assert len(accounts.mails(email)) == before + 2

    # and of the two links mailed at once one works (the one stored last)
    routes = [link_route(link) for mail in accounts.mails(email)[before:] for link in mail["links"]]
    live = [accounts.http("GET", path, query=f"token={token}").status for path, token in routes]
    assert sorted(live) == [200, 404]

    # when an hour has passed, then one more goes
    accounts.aws.advance(hours=1)
    accounts.http("POST", "/accounts/password-reset", {"email": email})
    assert len(accounts.mails(email)) == before + 3


def test_mailed_links_lead_to_the_configured_address_whatever_the_host(
    accounts: Accounts,
) -> None:
    # given a request that names another host, as a forged Host header does
    email, _ = accounts.player(_unique("Hosted"))
    forged = {"host": "evil.example", "x-forwarded-proto": "http", "x-forwarded-host": "evil"}

    # when it asks for a reset
    reply = accounts.http("POST", "/accounts/password-reset", {"email": email}, headers=forged)

    # then the mailed link leads to the configured web client's reset screen (WEB_BASE_URL),
    # not to the host the request named
    assert reply.status == 202
    (link,) = accounts.mails(email)[-1]["links"]
    assert link.startswith(f"{accounts.stack.web_url.rstrip('/')}/#/reset?token=")
    assert "evil" not in accounts.mails(email)[-1]["text"]

    # and a verification mail asked the same way leads to the configured API's page
    unverified = f"{_unique('Unver').lower()}@example.com"
    accounts.register(_unique("Unver"), unverified)
    accounts.http("POST", "/accounts/verification", {"email": unverified}, headers=forged)
    (link,) = accounts.mails(unverified)[-1]["links"]
    assert link.startswith(f"{accounts.stack.gateway.http_url}/accounts/verify?token=")

    # and with no web client configured a reset link leads to the API's own page
    account_service().request_reset(email, accounts.stack.gateway.http_url, client_base=None)
    (link,) = accounts.mails(email)[-1]["links"]
    assert link.startswith(f"{accounts.stack.gateway.http_url}/accounts/password-reset?token=")


def test_email_change_needs_the_password_and_a_reset_ends_it(accounts: Accounts) -> None:
    # given a player whose ID token someone else holds
    email, token = accounts.player(_unique("Stolen"))
    new_email = f"{_unique('thief')}@example.com"

    # when an e-mail change is asked without the password, or with a wrong one
    missing = accounts.http("POST", "/me/email", {"email": new_email}, token=token)
    wrong = accounts.http(
        "POST", "/me/email", {"email": new_email, "password": "guess-1234"}, token=token
    )

    # then it is refused, nothing is pending and no mail goes to the new address
    assert (missing.status, missing.code, missing.json["error"]["field"]) == (
        400,
        "bad_request",
        "password",
    )
    assert (wrong.status, wrong.code, wrong.json["error"]["field"]) == (
        403,
        "password_wrong",
        "password",
    )
    assert accounts.http("GET", "/me", token=token).json["pendingEmail"] is None
    assert accounts.mails(new_email) == []

    # when a change with the password is asked, and the owner, told, resets the password
    change = {"email": new_email, "password": PASSWORD}
    assert accounts.http("POST", "/me/email", change, token=token).status == 202
    assert "is being changed" in accounts.mails(email)[-1]["subject"]
    accounts.http("POST", "/accounts/password-reset", {"email": email})
    path, reset = accounts.link(email)
    done = accounts.http("POST", f"{path}/confirm", {"token": reset, "password": "mine-again-1"})

    # then the change's link no longer works, and the account keeps its address
    assert done.status == 200
    refused = accounts.follow(new_email)
    assert (refused.status, refused.code) == (404, "link_invalid")
    assert accounts.login(email, "mine-again-1")


def test_account_functions_dynamodb_calls_are_what_their_policies_allow(
    accounts: Accounts,
    grants: dict[str, set[tuple[str, str]]],
    _calls_within_their_policies: dict[str, set[tuple[str, str]]],
) -> None:
    # given the flows that between them make every kind of DynamoDB call the account functions
    # make in this module's tests: a sign-up with a referral code, a deletion that a login
    # cancels, one that the daily job carries out, and a ban
    test_register_with_a_referral_code_pays_the_inviter_at_verification(accounts)
    test_deletion_cancelled_by_any_login(accounts)
    test_deletion_locks_reminds_then_purges_and_frees_the_names(accounts)
    test_ban_signs_out_every_device_and_refuses_the_login(accounts)

    # then each function's grants are exactly what it needed: nothing refused, nothing spare
    needs = _calls_within_their_policies
    for function in ACCOUNT_FUNCTIONS:
        assert needs[function], f"{function} made no DynamoDB call: the recording is broken"
        assert grants[function] == needs[function], function
