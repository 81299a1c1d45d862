"""The embedded-AWS half of the local stack: moto in server mode, provisioned from the template.

`LocalAws(template)` starts moto's `ThreadedMotoServer` on a free local port, switches it to
executing Step Functions state machines and to the Docker-free Lambda backend, and creates what the
template declares: the DynamoDB tables (with GSIs, TTL, point-in-time recovery), the Cognito user
pools (with their LambdaConfig, ARNs resolved) and their clients, the SQS queues (dead-letter queues
first), the state machines (definition file, substitutions resolved, an IAM role each), the SES
identities (`AWS::SES::EmailIdentity`: SES v1 `VerifyEmailIdentity` for an address,
`VerifyDomainIdentity` for a domain, so that v1 and v2 sends from it work; the stack has no SES
template: its mails are composed in their recipient's language and sent simple), and the SSM
parameters a function may read
(`ssm:GetParameter` in its policy: the deployer creates those, not the template) as SecureStrings
with local values (`local_secret_value`: the local Stripe webhook secret is
`local-yamb-stripe-webhook-secret`). Nothing polls a queue: a function's SQS event source
is not run here, nor a schedule (the stack runs those by hand). A Lambda Task of a state machine
(`arn:aws:states:::lambda:invoke`) calls the Python callable registered for that function with
`register_function`, in this process. Wait states and heartbeat timeouts run on `clock`
(devstack.clock), which tests move forward.

Cognito triggers. moto stores a pool's LambdaConfig and calls none of it; here the triggers that
name a function of the template call its registered callable in-process (`invoke_function`, the
registry `register_function` fills; a trigger whose function has no callable is skipped with a
warning), with Cognito's event shape (version "1", triggerSource, region, userPoolId, userName,
callerContext {awsSdkVersion, clientId}, request, response):

* SignUp runs PreSignUp (``PreSignUp_SignUp``; request userAttributes, validationData (None
  without), clientMetadata from the call's ClientMetadata; response autoConfirmUser,
  autoVerifyEmail, autoVerifyPhone false). An exception fails SignUp with
  UserLambdaValidationException "PreSignUp failed with error <message>." and removes the user;
  autoConfirmUser and autoVerifyEmail / autoVerifyPhone in the answer are honoured;
* a password sign-in (InitiateAuth USER_PASSWORD_AUTH, AdminInitiateAuth ADMIN_USER_PASSWORD_AUTH
  and ADMIN_NO_SRP_AUTH) of an existing user runs PreAuthentication first
  (``PreAuthentication_Authentication``; validationData is the call's ClientMetadata, as on AWS),
  and once tokens are issued PostAuthentication (``PostAuthentication_Authentication``;
  userAttributes with sub, email and cognito:user_status, newDeviceUsed false, clientMetadata).
  An exception fails the sign-in with UserLambdaValidationException "<Trigger> failed with error
  <message>." (the tokens issued are revoked). An answer that is not an object is
  InvalidLambdaResponseException. Not run: AdminCreateUser's PreSignUp and the other triggers;
* an SRP sign-in (InitiateAuth USER_SRP_AUTH, then RespondToAuthChallenge PASSWORD_VERIFIER) runs
  PreAuthentication at its first step and PostAuthentication once tokens are issued, as does a
  sign-in finished by the authenticator app's code (SOFTWARE_TOKEN_MFA).

Flows. moto takes any AuthFlow whatever the app client's ExplicitAuthFlows; here a flow the
client leaves out is InvalidParameterException "<flow> flow not enabled for this client", as on
AWS (a client with no ExplicitAuthFlows takes any).

SRP. moto 5.2.5 answers USER_SRP_AUTH with a random SRP_B and SALT and takes any signature:
any password signed in. Here the server half is real (devstack.srp, from the user's password,
which moto keeps): a wrong password is NotAuthorizedException "Incorrect username or password.".

What moto 5.2.5 does with `UsernameAttributes: [email]` (measured), and what is patched here:

* SignUp's Username must be an e-mail (else InvalidParameterException "Username should be either
  an email or a phone number."); it becomes the `email` attribute. The Cognito username is a
  generated id, equal to `sub` (SignUp's UserSub, ListUsers' Username, the ID token's
  cognito:username, the access token's username); the trigger events' userName is that id.
* Admin calls (AdminGetUser, AdminConfirmSignUp, AdminUpdateUserAttributes, ...) and the sign-ins
  take the e-mail or that id. moto matches the e-mail case-sensitively and ignores
  `UsernameConfiguration.CaseSensitive: false`: patched (any case matches, a sign-up of an address
  in another case is UsernameExistsException). A second sign-up of an address is
  UsernameExistsException whose message is the address (AWS: "An account with the given email
  already exists."); AdminUpdateUserAttributes to a taken address is AliasExistsException.
* The ID token's `email` claim is the name given at sign-in, replaced by the attribute when the
  client reads `email` (moto puts only the client's ReadAttributes in the ID token).
* moto files tokens under the name given at sign-in: after an e-mail change a refresh failed
  with a 500 and GetUser with UserNotFoundException, and a global sign-out under another of the
  user's names revoked nothing. Patched: tokens are filed under the username (the sub).
* moto stamps each token's `auth_time` with the moment it is made, a refresh's too; Cognito keeps
  the sign-in's (the one-device rule tells sign-ins apart by it). Patched: the tokens of a
  sign-in (its origin_jti) carry the moment of that sign-in.
* PreventUserExistenceErrors is stored but ignored (an unknown user is UserNotFoundException):
  patched, an unknown user is NotAuthorizedException "Incorrect username or password.".
* ClientMetadata and ValidationData never reach the backend: read by the patches for the
  triggers.

SES, the local mailbox (`mails`, devstack.mail). moto keeps what was sent in
``moto.ses.models.ses_backends[account][region].sent_messages`` (SES v2 sends through the same v1
backend) but keeps one body part of a simple mail (the HTML one when both are given) and no
moment. The sends are noted here (both parts, the moment on `clock`) for `mails()`.

moto keeps its state in process-wide backends, so one `LocalAws` runs per process at a time; `stop`
wipes that state and puts moto's global configuration back.
"""

from __future__ import annotations

import base64
import contextvars
import copy
import importlib
import json
import logging
import math
import os
import threading
import time
import traceback
import urllib.request
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Self, cast

import boto3
from botocore.config import Config
from botocore.model import ListShape, MapShape, Shape, StructureShape

from devstack import srp
from devstack.clock import LocalClock
from devstack.lambda_context import LocalLambdaContext
from devstack.mail import Mail, MailNote, mails_from_ses
from devstack.template import (
    FUNCTION_TYPES,
    STATE_MACHINE_TYPES,
    Template,
    TemplateError,
)

__all__ = ["Handler", "LocalAws"]

LOG = logging.getLogger(__name__)

Handler = Callable[[Any, Any], Any]

ACCESS_KEY = "testing"
EXECUTION_DONE = ("SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED")
# The last history event of an execution that waits: a lane's task for a heartbeat (its
# callback submitted), a wake in its Wait state.
WAITING_EVENTS = ("TaskSubmitted", "WaitStateEntered")
COGNITO_STANDARD_ATTRIBUTES = (
    "address",
    "birthdate",
    "email",
    "email_verified",
    "family_name",
    "gender",
    "given_name",
    "locale",
    "middle_name",
    "name",
    "nickname",
    "phone_number",
    "phone_number_verified",
    "picture",
    "preferred_username",
    "profile",
    "updated_at",
    "website",
    "zoneinfo",
)


# ------------------------------------------------------------------------------ moto patches
#
# The patches are installed while a LocalAws runs and read the running instance at call time.

_lock = threading.Lock()
_running: LocalAws | None = None
_REAL_TIME = LocalClock()


def _original(attribute: str, owner: str | None = None) -> Any:
    """What a patch replaced: the `attribute` of the class (or module) named `owner`."""
    for patched, name, original in _originals:
        if name == attribute and (owner is None or getattr(patched, "__name__", "") == owner):
            return original
    raise LookupError(attribute)  # pragma: no cover - only called while patched


def _patched_invoke(  # noqa: PLR0917 - moto's positional signature
    backend: Any,
    function_name: str,
    qualifier: str | None,
    body: Any,
    headers: Any,
    response_headers: Any,
) -> str | bytes | None:
    local = _running
    if local is not None and local.owns_function(function_name):
        return local.invoke_registered(function_name, body, response_headers)
    original = _original("invoke")
    return cast(
        "str | bytes | None",
        original(backend, function_name, qualifier, body, headers, response_headers),
    )


def _clock() -> LocalClock:
    local = _running
    return _REAL_TIME if local is None else local.clock


def _patched_timestamp_wait_seconds(self: Any, env: Any) -> int:
    # moto subtracts a naive local `datetime.now()` from the UTC timestamp and truncates: off by
    # the UTC offset outside UTC, and up to a second early. AWS waits until the timestamp.
    from moto.stepfunctions.parser.asl.component.common.error_name.failure_event import (  # noqa: PLC0415
        FailureEventException,
    )

    self.string.eval(env=env)
    timestamp_text: str = env.stack.pop()
    timestamp = self._from_timestamp_string(timestamp=timestamp_text)
    if timestamp is None:
        raise FailureEventException(self._create_failure_event(env, timestamp_text))
    delta = timestamp.replace(tzinfo=UTC) - _clock().now()
    return max(0, math.ceil(float(delta.total_seconds())))


def _patched_wait_interval(self: Any, env: Any, wait_seconds: int) -> None:
    # Waits on the local clock; stop_execution still interrupts (it sets the event).
    clock = _clock()
    clock.wait_until(
        clock.now() + timedelta(seconds=wait_seconds),
        lambda timeout: bool(env.program_state_event.wait(timeout)) or not env.is_running(),
    )


def _patched_wait_for_task_token_heartbeat(
    self: Any, env: Any, callback_endpoint: Any, heartbeat_endpoint: Any
) -> Any:
    # A task waiting for its token with a heartbeat: each heartbeat window is measured on the
    # local clock, and a stop ends the wait at once, as StopExecution does on AWS (moto's wait
    # only sees the stop when the window runs out: a stopped lane would linger a turn clock).
    from moto.stepfunctions.parser.asl.eval.callback.callback import (  # noqa: PLC0415
        CallbackOutcomeSuccess,
        HeartbeatTimedOut,
    )

    clock = _clock()
    outcome = None
    while env.is_running() and outcome is None:
        with heartbeat_endpoint._mutex:
            received = heartbeat_endpoint._next_heartbeat_event.is_set()
            heartbeat_endpoint._next_heartbeat_event.clear()
        if not received:
            received = clock.wait_until(
                clock.now() + timedelta(seconds=heartbeat_endpoint._heartbeat_seconds),
                lambda timeout: (
                    bool(heartbeat_endpoint._next_heartbeat_event.wait(timeout))
                    or not env.is_running()
                ),
            )
        if not received and env.is_running():
            outcome = HeartbeatTimedOut()
        else:
            outcome = callback_endpoint.get_outcome()
    if outcome is None and not env.is_running():
        # Stopped: moto would count no outcome as a timeout and fail the execution. An empty
        # success lets it end ABORTED (its history shows the task succeeding first; nothing
        # reads that).
        return CallbackOutcomeSuccess(callback_endpoint.callback_id, "{}")
    return outcome


# ---------------------------------------------------------------------- Cognito triggers
#
# The response layer notes what the backend is not handed (ClientMetadata, ValidationData), in a
# context variable of the request's thread; the backend patches run the pool's triggers.

_cognito_request: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "devstack_cognito_request", default=None
)


def _noting_cognito_request(action: str) -> Callable[[Any], Any]:
    def patched(self: Any) -> Any:
        token = _cognito_request.set(
            {
                "ClientMetadata": self._get_param("ClientMetadata"),
                "ValidationData": self._get_param("ValidationData"),
            }
        )
        try:
            return _original(action, "CognitoIdpResponse")(self)
        finally:
            _cognito_request.reset(token)

    return patched


def _request_parameter(name: str) -> Any:
    noted = _cognito_request.get()
    return None if noted is None else noted.get(name)


def _lambda_validation_error(message: str) -> Exception:
    from moto.core.exceptions import JsonRESTError  # noqa: PLC0415

    return JsonRESTError("UserLambdaValidationException", message)


def _patched_get_user(self: Any, username: str) -> Any:
    # moto matches usernames and e-mails case-sensitively; a pool created with
    # UsernameConfiguration.CaseSensitive false matches them in any case, as on AWS.
    user = _original("_get_user", "CognitoIdpUserPool")(self, username)
    configuration = self.extended_config.get("UsernameConfiguration") or {}
    if user is not None or username is None or configuration.get("CaseSensitive", True):
        return user
    folded = str(username).casefold()
    attributes = self.extended_config.get("UsernameAttributes") or []
    for candidate in self.users.values():
        if str(candidate.username).casefold() == folded or any(
            str(candidate.attribute_lookup.get(name) or "").casefold() == folded
            for name in attributes
        ):
            return candidate
    return None


def _canonical(pool: Any, username: str) -> str:
    user = pool._get_user(username)
    return str(user.username) if user is not None else username


def _patched_create_refresh_token(self: Any, client_id: str, username: str) -> Any:
    # moto files tokens under the name given at sign-in (an e-mail, any case): after an e-mail
    # change the user's tokens lead nowhere (a refresh fails with a 500), and a sign-out by
    # another of the user's names revokes nothing. They are filed under the user's username.
    token, origin_jti = _original("create_refresh_token", "CognitoIdpUserPool")(
        self, client_id, username
    )
    self.refresh_tokens[token] = (client_id, _canonical(self, username), origin_jti)
    return token, origin_jti


# moto stamps every token's `auth_time` with the moment it is made; Cognito keeps the sign-in's
# in the tokens a refresh makes (the one-device rule, product A2, tells sign-ins apart by it).
# Each sign-in's moment is kept by its origin_jti, and given to the tokens made under it.
_auth_time: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "devstack_auth_time", default=None
)
_sign_in_moments: dict[str, int] = {}
_sign_in_lock = threading.Lock()


def _sign_in_moment(origin_jti: str) -> int:
    with _sign_in_lock:
        return _sign_in_moments.setdefault(origin_jti, int(time.time()))


def _patched_create_jwt(  # noqa: PLR0917 - moto's positional signature
    self: Any,
    client_id: str,
    username: str,
    token_use: str,
    expires_in: int = 60 * 60,
    extra_data: dict[str, Any] | None = None,
) -> Any:
    moment = _auth_time.get()
    if moment is not None:
        extra_data = {**(extra_data or {}), "auth_time": moment}
    return _original("create_jwt", "CognitoIdpUserPool")(
        self, client_id, username, token_use, expires_in, extra_data
    )


def _token_of_its_sign_in(kind: str, issued: str) -> Callable[..., Any]:
    """moto's `create_<kind>_token` giving the token its sign-in's moment (`auth_time`, kept
    when refreshed, as Cognito does) and recorded in `issued` under the user's one name."""

    def create(self: Any, client_id: str, username: str, origin_jti: str) -> Any:
        moment = _auth_time.set(_sign_in_moment(origin_jti))
        try:
            token, expires_in = _original(f"create_{kind}_token", "CognitoIdpUserPool")(
                self, client_id, username, origin_jti
            )
        finally:
            _auth_time.reset(moment)
        getattr(self, issued)[token] = (client_id, _canonical(self, username))
        return token, expires_in

    return create


_patched_create_access_token = _token_of_its_sign_in("access", "access_tokens")
_patched_create_id_token = _token_of_its_sign_in("id", "id_tokens")


def _patched_sign_out(self: Any, username: str) -> None:
    # Every token of the user, whichever of their names it was given under.
    _original("sign_out", "CognitoIdpUserPool")(self, _canonical(self, username))


def _patched_sign_up(
    self: Any, client_id: str, username: str, password: str, attributes: Any
) -> Any:
    user, details = _original("sign_up", "CognitoIdpBackend")(
        self, client_id, username, password, attributes
    )
    local = _running
    if local is None:
        return user, details
    pool = self.user_pools[user.user_pool_id]
    response = local.run_cognito_trigger(
        pool,
        "PreSignUp",
        trigger_source="PreSignUp_SignUp",
        user_name=user.username,
        client_id=client_id,
        request={
            "userAttributes": {
                name: value for name, value in user.attribute_lookup.items() if name != "sub"
            },
            "validationData": _attribute_map(_request_parameter("ValidationData")),
            "clientMetadata": dict(_request_parameter("ClientMetadata") or {}),
        },
        response={"autoConfirmUser": False, "autoVerifyEmail": False, "autoVerifyPhone": False},
        undo=lambda: pool.users.pop(user.username, None),
    )
    if response is None:
        return user, details
    verified = [
        {"Name": f"{attribute}_verified", "Value": "true"}
        for attribute, flag in (("email", "autoVerifyEmail"), ("phone_number", "autoVerifyPhone"))
        if response.get(flag) is True and attribute in user.attribute_lookup
    ]
    if verified:
        user.update_attributes(verified)
    if response.get("autoConfirmUser") is True:
        from moto.cognitoidp.models import UserStatus  # noqa: PLC0415

        user.status = UserStatus["CONFIRMED"]
        details = None
    return user, details


def _attribute_map(value: Any) -> dict[str, str] | None:
    """SignUp's ValidationData (a list of Name/Value pairs) as the trigger sees it."""
    if not value:
        return None
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    return {str(item["Name"]): str(item.get("Value", "")) for item in value}


_PASSWORD_FLOWS = ("USER_PASSWORD_AUTH", "ADMIN_USER_PASSWORD_AUTH", "ADMIN_NO_SRP_AUTH")


# What ExplicitAuthFlows must hold for each AuthFlow (AWS's names; REFRESH_TOKEN is an alias).
_FLOW_SWITCHES = {
    "USER_SRP_AUTH": "ALLOW_USER_SRP_AUTH",
    "USER_PASSWORD_AUTH": "ALLOW_USER_PASSWORD_AUTH",
    "REFRESH_TOKEN_AUTH": "ALLOW_REFRESH_TOKEN_AUTH",
    "REFRESH_TOKEN": "ALLOW_REFRESH_TOKEN_AUTH",
    "CUSTOM_AUTH": "ALLOW_CUSTOM_AUTH",
    "ADMIN_USER_PASSWORD_AUTH": "ALLOW_ADMIN_USER_PASSWORD_AUTH",
}


def _check_flow_allowed(pool: Any, client_id: str, auth_flow: str) -> None:
    """AWS refuses a flow the app client's ExplicitAuthFlows leaves out; moto takes any."""
    client = pool.clients.get(client_id)
    allowed = (client.extended_config.get("ExplicitAuthFlows") or []) if client else []
    switch = _FLOW_SWITCHES.get(auth_flow)
    if allowed and switch is not None and switch not in allowed:
        from moto.cognitoidp.exceptions import InvalidParameterException  # noqa: PLC0415

        raise InvalidParameterException(f"{auth_flow} flow not enabled for this client")


def _patched_initiate_auth(
    self: Any, client_id: str, auth_flow: str, auth_parameters: dict[str, str]
) -> Any:
    def run() -> Any:
        return _original("initiate_auth", "CognitoIdpBackend")(
            self, client_id, auth_flow, auth_parameters
        )

    pool = next((p for p in self.user_pools.values() if client_id in p.clients), None)
    local = _running
    if local is None or pool is None:
        return run()
    _check_flow_allowed(pool, client_id, auth_flow)
    if auth_flow == "USER_SRP_AUTH":
        return local.start_srp(self, pool, client_id, auth_parameters, run)
    return local.authenticate(pool, client_id, auth_flow, auth_parameters, run)


def _patched_respond_to_auth_challenge(
    self: Any,
    session: str,
    client_id: str,
    challenge_name: str,
    challenge_responses: dict[str, str],
) -> Any:
    def run() -> Any:
        return _original("respond_to_auth_challenge", "CognitoIdpBackend")(
            self, session, client_id, challenge_name, challenge_responses
        )

    pool = next((p for p in self.user_pools.values() if client_id in p.clients), None)
    local = _running
    if local is None or pool is None:
        return run()
    return local.answer_challenge(pool, client_id, challenge_name, challenge_responses, run)


def _patched_admin_initiate_auth(
    self: Any, user_pool_id: str, client_id: str, auth_flow: str, auth_parameters: dict[str, str]
) -> Any:
    def run() -> Any:
        return _original("admin_initiate_auth", "CognitoIdpBackend")(
            self, user_pool_id, client_id, auth_flow, auth_parameters
        )

    pool = self.user_pools.get(user_pool_id)
    local = _running
    if local is None or pool is None or client_id not in pool.clients:
        return run()
    _check_flow_allowed(pool, client_id, auth_flow)
    return local.authenticate(pool, client_id, auth_flow, auth_parameters, run)


# ---------------------------------------------------------------------- SES mailbox
#
# moto keeps one body part of a simple mail and no moment: the response layer notes both parts,
# the backend patches note the moment.

_mail_parts: contextvars.ContextVar[tuple[str | None, str | None] | None] = contextvars.ContextVar(
    "devstack_mail_parts", default=None
)


def _patched_ses_send_email_response(self: Any) -> Any:
    token = _mail_parts.set(
        (self._get_param("Message.Body.Text.Data"), self._get_param("Message.Body.Html.Data"))
    )
    try:
        return _original("send_email", "EmailResponse")(self)
    finally:
        _mail_parts.reset(token)


def _patched_sesv2_send_email_response(self: Any) -> Any:
    params = json.loads(self.body or "{}")
    content = params.get("Content") or {}
    body = (content.get("Simple") or {}).get("Body") or {}
    token = _mail_parts.set(
        ((body.get("Text") or {}).get("Data"), (body.get("Html") or {}).get("Data"))
    )
    try:
        return _original("send_email", "SESV2Response")(self)
    finally:
        _mail_parts.reset(token)


def _noting_mail(action: str) -> Callable[..., Any]:
    def patched(self: Any, *args: Any, **kwargs: Any) -> Any:
        sent = _original(action, "SESBackend")(self, *args, **kwargs)
        local = _running
        if local is not None:
            local.note_mail(self, sent)
        return sent

    return patched


_WAIT = "moto.stepfunctions.parser.asl.component.state.wait.wait_function"
_CALLBACK_TASK = "moto.stepfunctions.parser.asl.component.state.exec.state_task.service"
_COGNITO = "moto.cognitoidp"
_PATCHES = (
    ("moto.awslambda_simple.models", "LambdaSimpleBackend", "invoke", _patched_invoke),
    (f"{_COGNITO}.models", "CognitoIdpUserPool", "_get_user", _patched_get_user),
    *(
        (f"{_COGNITO}.models", "CognitoIdpUserPool", name, patch)
        for name, patch in (
            ("create_refresh_token", _patched_create_refresh_token),
            ("create_access_token", _patched_create_access_token),
            ("create_id_token", _patched_create_id_token),
            ("create_jwt", _patched_create_jwt),
            ("sign_out", _patched_sign_out),
        )
    ),
    (f"{_COGNITO}.models", "CognitoIdpBackend", "sign_up", _patched_sign_up),
    (f"{_COGNITO}.models", "CognitoIdpBackend", "initiate_auth", _patched_initiate_auth),
    (
        f"{_COGNITO}.models",
        "CognitoIdpBackend",
        "respond_to_auth_challenge",
        _patched_respond_to_auth_challenge,
    ),
    (
        f"{_COGNITO}.models",
        "CognitoIdpBackend",
        "admin_initiate_auth",
        _patched_admin_initiate_auth,
    ),
    *(
        (f"{_COGNITO}.responses", "CognitoIdpResponse", action, _noting_cognito_request(action))
        for action in (
            "sign_up",
            "initiate_auth",
            "admin_initiate_auth",
            "respond_to_auth_challenge",
        )
    ),
    ("moto.ses.responses", "EmailResponse", "send_email", _patched_ses_send_email_response),
    ("moto.sesv2.responses", "SESV2Response", "send_email", _patched_sesv2_send_email_response),
    *(
        ("moto.ses.models", "SESBackend", action, _noting_mail(action))
        for action in ("send_email", "send_templated_email", "send_raw_email")
    ),
    (f"{_WAIT}.wait_function", "WaitFunction", "_wait_interval", _patched_wait_interval),
    (f"{_WAIT}.timestamp", "Timestamp", "_get_wait_seconds", _patched_timestamp_wait_seconds),
    (
        f"{_CALLBACK_TASK}.state_task_service_callback",
        "StateTaskServiceCallback",
        "_wait_for_task_token_heartbeat",
        _patched_wait_for_task_token_heartbeat,
    ),
)


class _ClockTime:
    """What a retrier sees as the `time` module: its sleep between attempts waits on the local
    clock."""

    def sleep(self, seconds: float) -> None:
        clock = _clock()
        clock.wait_until(clock.now() + timedelta(seconds=seconds), lambda timeout: False)


# Module attributes replaced: (module, attribute, replacement).
_MODULE_PATCHES: tuple[tuple[str, str, Any], ...] = (
    ("moto.stepfunctions.parser.asl.component.common.retry.retrier_decl", "time", _ClockTime()),
)
_originals: list[tuple[Any, str, Any]] = []


def _install_patches() -> None:
    from devstack import moto_dynamodb  # noqa: PLC0415 - moto is imported when a stack starts

    for module_name, class_name, attribute, replacement in (*_PATCHES, *moto_dynamodb.PATCHES):
        owner = getattr(importlib.import_module(module_name), class_name)
        _originals.append((owner, attribute, owner.__dict__[attribute]))
        setattr(owner, attribute, replacement)
    for module_name, attribute, replacement in _MODULE_PATCHES:
        module = importlib.import_module(module_name)
        _originals.append((module, attribute, getattr(module, attribute)))
        setattr(module, attribute, replacement)


def _remove_patches() -> None:
    while _originals:
        owner, attribute, original = _originals.pop()
        setattr(owner, attribute, original)


_MOTO_STATE_ERRORS = "moto.stepfunctions.parser.asl.component.eval_component"


def _heartbeat_timeouts(record: logging.LogRecord) -> bool:
    """Drops moto's error line for a heartbeat timeout: for a lane that is how a turn ends."""
    message = record.getMessage()
    return not ("Error=States.Timeout" in message and "waitForTaskToken" in message)


# ------------------------------------------------------------------------------ shape fitting


def _fit(shape: Shape, value: Any) -> Any:
    """Keep what an API input shape accepts: CloudFormation props carry extra keys and strings."""
    if isinstance(shape, StructureShape):
        if not isinstance(value, Mapping):
            raise TemplateError(f"{shape.name}: expected a mapping, got {value!r}")
        members = shape.members
        dropped = sorted(set(value) - set(members))
        if dropped:
            LOG.debug("%s: not passed to the API: %s", shape.name, ", ".join(dropped))
        return {key: _fit(members[key], item) for key, item in value.items() if key in members}
    if isinstance(shape, ListShape):
        return [_fit(shape.member, item) for item in value]
    if isinstance(shape, MapShape):
        return {str(key): _fit(shape.value, item) for key, item in value.items()}
    if shape.type_name in ("integer", "long"):
        return int(value)
    if shape.type_name == "boolean":
        return value if isinstance(value, bool) else str(value).lower() == "true"
    if shape.type_name == "string":
        return str(value)
    return value


def _substitute(value: Any, substitutions: Mapping[str, str]) -> Any:
    """Replace `${Key}` in every string (keys too) of a state machine definition."""
    if isinstance(value, str):
        for key, replacement in substitutions.items():
            value = value.replace("${" + key + "}", replacement)
        return value
    if isinstance(value, dict):
        return {
            _substitute(key, substitutions): _substitute(item, substitutions)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_substitute(item, substitutions) for item in value]
    return value


# ------------------------------------------------------------------------------ LocalAws


class LocalAws:
    """moto in server mode with the template's tables, user pools and state machines."""

    def __init__(
        self,
        template: str | Path | Template,
        *,
        stack_name: str = "yamb-local",
        parameters: Mapping[str, Any] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        environment_overrides: Mapping[str, str] | None = None,
        quiet: bool = True,
    ) -> None:
        """Start moto and create the template's resources.

        `environment_overrides` replace variables in every
        `function_environment` (e.g. CONNECTIONS_ENDPOINT → the local gateway).
        """
        self.template = (
            template
            if isinstance(template, Template)
            else Template(template, stack_name=stack_name, parameters=parameters)
        )
        self.context = self.template.context
        self.region = self.context.region
        self.account_id = self.context.account_id
        # Wait states and heartbeat timeouts wait on it; tests move it forward.
        self.clock = LocalClock()
        self.environment_overrides = dict(environment_overrides or {})
        self.physical_ids: dict[str, str] = {}
        self._handlers: dict[str, Handler] = {}
        self._function_names: dict[str, str] = {}
        self._mail_notes: dict[str, MailNote] = {}
        self._mail_lock = threading.Lock()
        # SRP sign-ins between their two steps, by secret block (devstack.srp).
        self._srp_lock = threading.Lock()
        self._srp_sessions: dict[str, srp.SrpSession] = {}
        # Players signed up by create_player in a pool whose usernames are e-mails: name → e-mail.
        self._player_emails: dict[str, str] = {}
        self._clients: dict[str, Any] = {}
        self._clients_lock = threading.Lock()
        self._quiet = quiet
        self._stopped = True
        self._server: Any = None
        self._claim()
        try:
            self._start(host, port)
            self._provision()
        except BaseException:
            self.stop()
            raise

    # -------------------------------------------------------------- server

    def _claim(self) -> None:
        global _running  # noqa: PLW0603
        from moto.core.config import default_user_config  # noqa: PLC0415

        with _lock:
            if _running is not None:
                raise RuntimeError("a LocalAws already runs in this process (moto state is global)")
            _running = self
        self._stopped = False
        self._saved_config = copy.deepcopy(default_user_config)
        self._saved_moto_port = os.environ.get("MOTO_PORT")
        werkzeug = logging.getLogger("werkzeug")
        self._saved_werkzeug_level = werkzeug.level
        if self._quiet:
            werkzeug.setLevel(logging.WARNING)
        logging.getLogger(_MOTO_STATE_ERRORS).addFilter(_heartbeat_timeouts)
        _install_patches()

    def _start(self, host: str, port: int) -> None:
        from moto.server import ThreadedMotoServer  # noqa: PLC0415

        self._server = ThreadedMotoServer(ip_address=host, port=port, verbose=False)
        self._server.start()
        bound_host, bound_port = self._server.get_host_and_port()
        self.endpoint_url = f"http://{bound_host}:{bound_port}"
        # The Step Functions interpreter calls Lambda at http://localhost:$MOTO_PORT (default 5000).
        os.environ["MOTO_PORT"] = str(bound_port)
        self._moto_api(
            "config",
            {"stepfunctions": {"execute_state_machine": True}, "lambda": {"use_docker": False}},
        )

    def _moto_api(self, path: str, body: Mapping[str, Any] | None = None) -> bytes:
        request = urllib.request.Request(
            f"{self.endpoint_url}/moto-api/{path}",
            data=json.dumps(body or {}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return cast(bytes, response.read())

    def stop(self) -> None:
        """Stop the server, wipe moto's state and restore its global configuration."""
        global _running  # noqa: PLW0603
        if self._stopped:
            return
        self._stopped = True
        from moto.core.config import default_user_config  # noqa: PLC0415

        if self._server is not None:
            try:
                self._moto_api("reset")
            except OSError:  # pragma: no cover - the server is gone anyway
                LOG.warning("moto reset failed", exc_info=True)
            self._server.stop()
        default_user_config.update(self._saved_config)  # set_config only replaces keys
        if self._saved_moto_port is None:
            os.environ.pop("MOTO_PORT", None)
        else:
            os.environ["MOTO_PORT"] = self._saved_moto_port
        logging.getLogger("werkzeug").setLevel(self._saved_werkzeug_level)
        logging.getLogger(_MOTO_STATE_ERRORS).removeFilter(_heartbeat_timeouts)
        _remove_patches()
        with _lock:
            _running = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -------------------------------------------------------------- clients and environment

    def client(self, service: str) -> Any:
        """A boto3 client (cached per service) against the server with dummy credentials."""
        with self._clients_lock:
            if service not in self._clients:
                self._clients[service] = boto3.client(
                    service,
                    endpoint_url=self.endpoint_url,
                    region_name=self.region,
                    aws_access_key_id=ACCESS_KEY,
                    aws_secret_access_key=ACCESS_KEY,
                    config=Config(account_id_endpoint_mode="disabled"),
                )
            return self._clients[service]

    def env(self) -> dict[str, str]:
        """Environment variables that point boto3 (any process) at this server."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint_url,
            "AWS_DEFAULT_REGION": self.region,
            "AWS_REGION": self.region,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": ACCESS_KEY,
            "AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled",
        }

    def function_environment(
        self, logical_id: str, overrides: Mapping[str, str] | None = None
    ) -> dict[str, str]:
        """The function's resolved Environment variables (Globals merged), then the overrides."""
        environment = self.template.function(logical_id).environment
        environment.update(self.environment_overrides)
        environment.update(overrides or {})
        return environment

    def function_arn(self, logical_id: str) -> str:
        return str(self.context.get_att(logical_id, "Arn"))

    def lambda_context(self, logical_id: str) -> LocalLambdaContext:
        """A fresh context object for one invocation of the function."""
        spec = self.template.function(logical_id)
        return LocalLambdaContext(
            function_name=str(self.context.ref(logical_id)),
            invoked_function_arn=self.function_arn(logical_id),
            memory_limit_in_mb=spec.memory_size or 128,
            timeout_seconds=float(spec.timeout or 3),
        )

    # -------------------------------------------------------------- functions

    def register_function(self, logical_id: str, handler: Handler) -> None:
        """Run `handler(payload, context)` when a state machine invokes this function."""
        if logical_id not in self._function_names.values():
            raise TemplateError(f"{logical_id!r} is not a function of the template")
        self._handlers[logical_id] = handler

    def unregister_function(self, logical_id: str) -> None:
        """Forget the function's callable (a state machine's call of it then fails, a trigger
        of it is skipped)."""
        self._handlers.pop(logical_id, None)

    def has_handler(self, function: str) -> bool:
        """Whether a callable is registered for the function (logical id, name or ARN)."""
        logical_id = self._logical_id(function)
        return logical_id is not None and logical_id in self._handlers

    def _logical_id(self, function: str) -> str | None:
        if function in self._function_names.values():
            return function
        return self._function_logical_id(function)

    def invoke_function(self, function: str, event: Any) -> Any:
        """Call the callable registered for `function` (logical id, name or ARN) with `event`
        and a fresh Lambda context, in this thread; its result, or its exception."""
        logical_id = self._logical_id(function)
        if logical_id is None:
            raise TemplateError(f"{function!r} is not a function of the template")
        handler = self._handlers.get(logical_id)
        if handler is None:
            raise LookupError(f"no in-process handler registered for {logical_id}")
        return handler(event, self.lambda_context(logical_id))

    def owns_function(self, function_name: str) -> bool:
        return self._function_logical_id(function_name) is not None

    def _function_logical_id(self, function_name: str) -> str | None:
        # Name, ARN or partial ARN (123456789012:function:name), maybe with a :qualifier.
        name = function_name
        if ":function:" in name:
            name = name.split(":function:", 1)[1]
        name = name.split(":", 1)[0]
        return self._function_names.get(name)

    def invoke_registered(self, function_name: str, body: Any, response_headers: Any) -> bytes:
        """Invoke the registered callable the way Lambda would (called from moto's thread)."""
        from moto.awslambda.exceptions import UnknownFunctionException  # noqa: PLC0415

        logical_id = self._function_logical_id(function_name)
        handler = None if logical_id is None else self._handlers.get(logical_id)
        if logical_id is None or handler is None:
            LOG.error("no in-process handler registered for %s", function_name)
            raise UnknownFunctionException(function_name)
        raw = body.decode() if isinstance(body, bytes) else body
        try:
            event = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            event = raw
        try:
            return json.dumps(handler(event, self.lambda_context(logical_id))).encode()
        except Exception as error:
            LOG.exception("%s failed", logical_id)
            response_headers["x-amz-function-error"] = "Unhandled"
            return json.dumps(
                {
                    "errorMessage": str(error),
                    "errorType": type(error).__name__,
                    "stackTrace": traceback.format_tb(error.__traceback__),
                }
            ).encode()

    # -------------------------------------------------------------- provisioning

    def _provision(self) -> None:
        for logical_id in self.template.resources_of_type(*FUNCTION_TYPES):
            self._function_names[str(self.context.ref(logical_id))] = logical_id
        for logical_id in self.template.resources_of_type("AWS::DynamoDB::Table"):
            self._create_table(logical_id)
        for logical_id in self.template.resources_of_type("AWS::Cognito::UserPool"):
            self._create_user_pool(logical_id)
        for logical_id in self.template.resources_of_type("AWS::Cognito::UserPoolClient"):
            self._create_user_pool_client(logical_id)
        # A queue's redrive policy names its dead-letter queue, which must exist first.
        queues = list(self.template.resources_of_type("AWS::SQS::Queue"))
        redriven = {q for q in queues if "RedrivePolicy" in self.template.properties(q)}
        for logical_id in sorted(queues, key=lambda q: q in redriven):
            self._create_queue(logical_id)
        for logical_id in self.template.resources_of_type(*STATE_MACHINE_TYPES):
            self._create_state_machine(logical_id)
        for logical_id in self.template.resources_of_type("AWS::SES::EmailIdentity"):
            self._create_email_identity(logical_id)
        for logical_id in self.template.resources_of_type("AWS::S3::Bucket"):
            self._create_bucket(logical_id)
        self._create_secure_parameters()

    def _input(self, service: str, operation: str, parameters: Mapping[str, Any]) -> Any:
        model = self.client(service).meta.service_model.operation_model(operation)
        return _fit(model.input_shape, parameters)

    def _create_table(self, logical_id: str) -> None:
        properties = dict(self.template.resolve(self.template.properties(logical_id)))
        name = str(self.context.ref(logical_id))
        properties["TableName"] = name
        if "SSESpecification" in properties:
            sse = properties["SSESpecification"]
            properties["SSESpecification"] = {
                "Enabled": sse.get("SSEEnabled", False),
                **{key: sse[key] for key in ("SSEType", "KMSMasterKeyId") if key in sse},
            }
        if "StreamSpecification" in properties:
            properties["StreamSpecification"] = {
                "StreamEnabled": True,
                **properties["StreamSpecification"],
            }
        dynamodb = self.client("dynamodb")
        table = dynamodb.create_table(**self._input("dynamodb", "CreateTable", properties))
        description = table["TableDescription"]
        if "TimeToLiveSpecification" in properties:
            dynamodb.update_time_to_live(
                TableName=name,
                TimeToLiveSpecification=self._input(
                    "dynamodb",
                    "UpdateTimeToLive",
                    {"TimeToLiveSpecification": properties["TimeToLiveSpecification"]},
                )["TimeToLiveSpecification"],
            )
        if "PointInTimeRecoverySpecification" in properties:
            dynamodb.update_continuous_backups(
                TableName=name,
                **self._input(
                    "dynamodb",
                    "UpdateContinuousBackups",
                    {
                        "PointInTimeRecoverySpecification": properties[
                            "PointInTimeRecoverySpecification"
                        ]
                    },
                ),
            )
        attributes = {"Arn": description["TableArn"]}
        if "LatestStreamArn" in description:
            attributes["StreamArn"] = description["LatestStreamArn"]
        self._created(logical_id, name, **attributes)

    def _create_user_pool(self, logical_id: str) -> None:
        properties = dict(self.template.resolve(self.template.properties(logical_id)))
        properties["PoolName"] = properties.pop("UserPoolName", f"{self.context.stack_name}-pool")
        pool = self.client("cognito-idp").create_user_pool(
            **self._input("cognito-idp", "CreateUserPool", properties)
        )["UserPool"]
        provider = f"cognito-idp.{self.region}.amazonaws.com/{pool['Id']}"
        self._created(
            logical_id,
            pool["Id"],
            Arn=pool["Arn"],
            ProviderName=provider,
            ProviderURL=f"https://{provider}",
            UserPoolId=pool["Id"],
        )

    def _create_user_pool_client(self, logical_id: str) -> None:
        properties = self.template.resolve(self.template.properties(logical_id))
        properties.setdefault("ClientName", logical_id)
        cognito = self.client("cognito-idp")
        if "ReadAttributes" not in properties:
            # AWS lets a client read every attribute by default (so the ID token carries email);
            # moto puts none in the ID token unless ReadAttributes lists them.
            pool = cognito.describe_user_pool(UserPoolId=properties["UserPoolId"])["UserPool"]
            declared = [attribute["Name"] for attribute in pool.get("SchemaAttributes", [])]
            readable = (*COGNITO_STANDARD_ATTRIBUTES, *declared)
            properties["ReadAttributes"] = [
                name for name in dict.fromkeys(readable) if name != "sub"
            ]
        client = cognito.create_user_pool_client(
            **self._input("cognito-idp", "CreateUserPoolClient", properties)
        )["UserPoolClient"]
        attributes = {"ClientId": client["ClientId"]}
        if "ClientSecret" in client:
            attributes["ClientSecret"] = client["ClientSecret"]
        self._created(logical_id, client["ClientId"], **attributes)

    def _create_queue(self, logical_id: str) -> None:
        properties = dict(self.template.resolve(self.template.properties(logical_id)))
        name = str(self.context.get_att(logical_id, "QueueName"))
        properties.pop("QueueName", None)
        properties.pop("Tags", None)
        # CloudFormation takes the queue's attributes as properties; SQS wants them as strings.
        attributes = {
            key: json.dumps(value) if isinstance(value, dict) else _stringify_attribute(value)
            for key, value in properties.items()
        }
        sqs = self.client("sqs")
        url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        self._created(logical_id, url, Arn=arn, QueueName=name, QueueUrl=url)

    def _state_machine_definition(self, properties: Mapping[str, Any]) -> Any:
        if "Definition" in properties:
            return self.template.resolve(properties["Definition"])
        if "DefinitionString" in properties:
            return json.loads(str(self.template.resolve(properties["DefinitionString"])))
        uri = properties.get("DefinitionUri")
        if not isinstance(uri, str):
            raise TemplateError("state machines need Definition or a local DefinitionUri path")
        text = (self.template.root / uri).read_text(encoding="utf-8")
        return json.loads(text) if uri.endswith(".json") else _load_yaml(text)

    def _create_state_machine(self, logical_id: str) -> None:
        raw = self.template.properties(logical_id)
        properties = {
            key: self.template.resolve(value)
            for key, value in raw.items()
            if key not in ("Definition", "Events", "Policies")
        }
        substitutions = {
            key: str(value)
            for key, value in (properties.get("DefinitionSubstitutions") or {}).items()
        }
        definition = _substitute(self._state_machine_definition(raw), substitutions)
        name = str(self.context.get_att(logical_id, "Name"))
        role_arn = properties.get("Role") or properties.get("RoleArn")
        if not role_arn:
            role_arn = self._create_role(
                f"{self.context.stack_name}-{logical_id}-Role"[:64], "states.amazonaws.com"
            )
        machine = self.client("stepfunctions").create_state_machine(
            name=name,
            definition=json.dumps(definition),
            roleArn=str(role_arn),
            type=str(properties.get("Type") or properties.get("StateMachineType") or "STANDARD"),
        )
        arn = machine["stateMachineArn"]
        self._created(logical_id, arn, Arn=arn, Name=name)

    def _create_bucket(self, logical_id: str) -> None:
        """A bucket of the template (the open game database's files), private as there."""
        name = str(self.context.ref(logical_id))
        s3 = self.client("s3")
        s3.create_bucket(Bucket=name)
        s3.put_public_access_block(
            Bucket=name,
            PublicAccessBlockConfiguration={
                "BlockPublicAcls": True,
                "IgnorePublicAcls": True,
                "BlockPublicPolicy": True,
                "RestrictPublicBuckets": True,
            },
        )
        self._created(logical_id, name, Arn=f"arn:aws:s3:::{name}")

    def _create_email_identity(self, logical_id: str) -> None:
        # SES v1 verification (instant under moto), so that v1 and v2 sends from it work.
        identity = str(self.template.resolve(self.template.properties(logical_id))["EmailIdentity"])
        ses = self.client("ses")
        if "@" in identity:
            ses.verify_email_identity(EmailAddress=identity)
        else:
            ses.verify_domain_identity(Domain=identity)
        self._created(logical_id, identity)

    def secure_parameter_names(self) -> list[str]:
        """The SSM parameters the template's functions may read (`ssm:GetParameter`)."""
        names: set[str] = set()
        for logical_id in self.template.resources_of_type(*FUNCTION_TYPES):
            for policy in self.template.properties(logical_id).get("Policies") or []:
                if not (isinstance(policy, Mapping) and "Statement" in policy):
                    continue
                for statement in self.template.resolve(policy["Statement"]):
                    actions = statement.get("Action")
                    actions = actions if isinstance(actions, list) else [actions]
                    if "ssm:GetParameter" not in actions:
                        continue
                    resources = statement.get("Resource")
                    for arn in resources if isinstance(resources, list) else [resources]:
                        if isinstance(arn, str) and ":parameter/" in arn:
                            names.add(arn.split(":parameter", 1)[1])
        return sorted(names)

    def _create_secure_parameters(self) -> None:
        ssm = self.client("ssm")
        for name in self.secure_parameter_names():
            ssm.put_parameter(Name=name, Value=local_secret_value(name), Type="SecureString")
            LOG.debug("created the SecureString parameter %s", name)

    def _create_role(self, name: str, service_principal: str) -> str:
        trust = {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"Service": service_principal},
                    "Action": "sts:AssumeRole",
                }
            ],
        }
        role = self.client("iam").create_role(
            RoleName=name, AssumeRolePolicyDocument=json.dumps(trust)
        )
        return str(role["Role"]["Arn"])

    def _created(self, logical_id: str, physical_id: str, **attributes: Any) -> None:
        self.context.set_resource(logical_id, physical_id, **attributes)
        self.physical_ids[logical_id] = physical_id
        LOG.debug("created %s: %s", logical_id, physical_id)

    # -------------------------------------------------------------- Step Functions

    def settle_timers(self, timeout: float = 10.0) -> None:
        """Waits until every running execution is waiting: a lane for a heartbeat, a wake for
        its moment (none is starting, arming or calling a function). Its history says it is
        waiting a moment before its wait has set the moment it waits for, so the clock must
        also count one wait per execution: an advance in between would be missed."""
        stepfunctions = self.client("stepfunctions")
        machines = [
            m["stateMachineArn"] for m in stepfunctions.list_state_machines()["stateMachines"]
        ]
        deadline = time.monotonic() + timeout
        while True:
            running = [
                execution["executionArn"]
                for machine in machines
                for page in stepfunctions.get_paginator("list_executions").paginate(
                    stateMachineArn=machine, statusFilter="RUNNING"
                )
                for execution in page["executions"]
            ]
            busy = [arn for arn in running if self._last_event(arn) not in WAITING_EVENTS]
            if not busy and self.clock.waits() >= len(running):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{len(busy)} of {len(running)} executions still busy ({busy[:3]}), "
                    f"{self.clock.waits()} waiting on the clock"
                )
            time.sleep(0.02)

    def _last_event(self, execution_arn: str) -> str | None:
        # moto ignores reverseOrder and maxResults: the whole history comes, oldest first.
        events = self.client("stepfunctions").get_execution_history(executionArn=execution_arn)[
            "events"
        ]
        return str(max(events, key=lambda event: event["id"])["type"]) if events else None

    def advance(self, **delta: float) -> datetime:
        """Moves the clock on once every timer waits (so that none starts its wait after the
        move and misses it): `advance(seconds=61)` lets a 60 s turn clock run out."""
        self.settle_timers()
        return self.clock.advance(**delta)

    def wait_for_execution(self, execution_arn: str, timeout: float = 10.0) -> dict[str, Any]:
        """Poll `describe_execution` until the execution ends; its last description."""
        stepfunctions = self.client("stepfunctions")
        deadline = time.monotonic() + timeout
        while True:
            description = cast(
                dict[str, Any], stepfunctions.describe_execution(executionArn=execution_arn)
            )
            if description["status"] in EXECUTION_DONE:
                return description
            if time.monotonic() > deadline:
                raise TimeoutError(f"{execution_arn} still {description['status']}")
            time.sleep(0.02)

    # -------------------------------------------------------------- Cognito

    def _single(self, kind: str, logical_id: str | None) -> str:
        if logical_id is not None:
            return self.physical_ids[logical_id]
        candidates = list(self.template.resources_of_type(kind))
        if len(candidates) != 1:
            raise TemplateError(f"{len(candidates)} {kind} resources: name the one to use")
        return self.physical_ids[candidates[0]]

    def user_pool_id(self, pool: str | None = None) -> str:
        """The id of the user pool `pool` (a logical id), or of the template's only one."""
        return self._single("AWS::Cognito::UserPool", pool)

    def user_pool_client_id(self, client: str | None = None) -> str:
        return self._single("AWS::Cognito::UserPoolClient", client)

    def _pool_of_client(self, client_id: str) -> str:
        for logical_id in self.template.resources_of_type("AWS::Cognito::UserPoolClient"):
            if self.physical_ids.get(logical_id) == client_id:
                properties = self.template.properties(logical_id)
                return str(self.template.resolve(properties["UserPoolId"]))
        raise TemplateError(f"unknown user pool client {client_id!r}")  # pragma: no cover

    def _signs_in_with_email(self, pool_id: str) -> bool:
        pool = self.client("cognito-idp").describe_user_pool(UserPoolId=pool_id)["UserPool"]
        return "email" in (pool.get("UsernameAttributes") or [])

    def create_player(
        self, username: str, password: str, email: str, *, client: str | None = None
    ) -> None:
        """Sign a player up through the app client (its PreSignUp trigger runs), confirmed and
        with a verified email. In a pool whose usernames are e-mails the sign-up is made with
        `email` (Cognito's username is then the generated sub); `id_token(username, ...)` still
        finds the player."""
        client_id = self.user_pool_client_id(client)
        pool_id = self._pool_of_client(client_id)
        cognito = self.client("cognito-idp")
        name = username
        if self._signs_in_with_email(pool_id):
            name = email
        cognito.sign_up(
            ClientId=client_id,
            Username=name,
            Password=password,
            UserAttributes=[{"Name": "email", "Value": email}],
        )
        if name != username:
            self._player_emails[username] = email
        cognito.admin_confirm_sign_up(UserPoolId=pool_id, Username=name)
        cognito.admin_update_user_attributes(
            UserPoolId=pool_id,
            Username=name,
            UserAttributes=[{"Name": "email_verified", "Value": "true"}],
        )

    def id_token(self, username: str, password: str, *, client: str | None = None) -> str:
        """The player's Cognito ID token, signed in as a client does (by SRP when the app client
        allows it: devstack.srp.id_token; its triggers run). `username` may be the name a
        player was created with by `create_player`."""
        return srp.id_token(
            self.client("cognito-idp"),
            self.user_pool_id(),
            self.user_pool_client_id(client),
            self._player_emails.get(username, username),
            password,
        )

    # -------------------------------------------------------------- Cognito triggers

    def run_cognito_trigger(
        self,
        pool: Any,
        trigger: str,
        *,
        trigger_source: str,
        user_name: str,
        client_id: str,
        request: dict[str, Any],
        response: dict[str, Any],
        undo: Callable[[], Any] | None = None,
    ) -> dict[str, Any] | None:
        """Run the pool's `trigger` (a LambdaConfig key) with an event shaped as Cognito's; the
        `response` part of its answer, or None when the pool has no such trigger, or it names
        a function without a registered handler (skipped, with a warning). Its failure runs
        `undo` and raises UserLambdaValidationException ("<trigger> failed with error ...")."""
        arn = (pool.extended_config.get("LambdaConfig") or {}).get(trigger)
        if not arn:
            return None
        logical_id = self._function_logical_id(str(arn))
        if logical_id is None or logical_id not in self._handlers:
            LOG.warning("%s trigger %s: no in-process handler, skipped", trigger, arn)
            return None
        event = {
            "version": "1",
            "triggerSource": trigger_source,
            "region": self.region,
            "userPoolId": pool.id,
            "userName": user_name,
            "callerContext": {"awsSdkVersion": "aws-sdk-unknown-unknown", "clientId": client_id},
            "request": request,
            "response": response,
        }
        try:
            answer = json.loads(json.dumps(self.invoke_function(logical_id, event)))
        except Exception as error:
            LOG.info("%s trigger %s failed: %s", trigger, logical_id, error)
            LOG.debug("%s trigger %s failed", trigger, logical_id, exc_info=True)
            if undo is not None:
                undo()
            raise _lambda_validation_error(f"{trigger} failed with error {error}.") from None
        if not isinstance(answer, dict):
            from moto.core.exceptions import JsonRESTError  # noqa: PLC0415

            if undo is not None:
                undo()
            raise JsonRESTError("InvalidLambdaResponseException", "Unrecognizable lambda output")
        answered = answer.get("response")
        return answered if isinstance(answered, dict) else {}

    @staticmethod
    def _trigger_attributes(user: Any) -> dict[str, str]:
        status = getattr(user.status, "value", user.status)
        return {**user.attribute_lookup, "cognito:user_status": str(status)}

    def authenticate(
        self,
        pool: Any,
        client_id: str,
        auth_flow: str,
        parameters: Mapping[str, str],
        run: Callable[[], Any],
    ) -> Any:
        """A password sign-in (`run` is moto's) with the pool's PreAuthentication and
        PostAuthentication triggers around it, and PreventUserExistenceErrors applied: an
        unknown user is "Incorrect username or password." as a wrong password is."""
        if auth_flow not in _PASSWORD_FLOWS:
            return run()
        from moto.cognitoidp.exceptions import (  # noqa: PLC0415
            NotAuthorizedError,
            UserNotFoundError,
        )

        client = pool.clients.get(client_id)
        hide = (
            client is not None
            and client.extended_config.get("PreventUserExistenceErrors") == "ENABLED"
        )
        user = pool._get_user(parameters.get("USERNAME"))
        if user is None and hide:
            raise NotAuthorizedError("Incorrect username or password.")
        if user is None:
            return run()
        metadata = dict(_request_parameter("ClientMetadata") or {})
        self.run_cognito_trigger(
            pool,
            "PreAuthentication",
            trigger_source="PreAuthentication_Authentication",
            user_name=user.username,
            client_id=client_id,
            request={
                "userAttributes": self._trigger_attributes(user),
                "validationData": metadata or None,
            },
            response={},
        )
        try:
            result = run()
        except UserNotFoundError:
            if hide:
                raise NotAuthorizedError("Incorrect username or password.") from None
            raise
        return self._post_authentication(pool, client_id, user, result, metadata)

    def _pre_authentication(self, pool: Any, client_id: str, username: str | None) -> Any:
        """The user a sign-in names, after PreAuthentication; None for an unknown one (which
        PreventUserExistenceErrors answers as a wrong password)."""
        from moto.cognitoidp.exceptions import NotAuthorizedError  # noqa: PLC0415

        client = pool.clients.get(client_id)
        hide = (
            client is not None
            and client.extended_config.get("PreventUserExistenceErrors") == "ENABLED"
        )
        user = pool._get_user(username)
        if user is None and hide:
            raise NotAuthorizedError("Incorrect username or password.")
        if user is not None:
            self.run_cognito_trigger(
                pool,
                "PreAuthentication",
                trigger_source="PreAuthentication_Authentication",
                user_name=user.username,
                client_id=client_id,
                request={
                    "userAttributes": self._trigger_attributes(user),
                    "validationData": dict(_request_parameter("ClientMetadata") or {}) or None,
                },
                response={},
            )
        return user

    def start_srp(
        self,
        backend: Any,
        pool: Any,
        client_id: str,
        parameters: Mapping[str, str],
        run: Callable[[], Any],
    ) -> Any:
        """USER_SRP_AUTH with a real server half (devstack.srp): moto's answer (its checks of
        the user) with SRP_B and SALT made from the user's password, and a secret block of
        random bytes that is also moto's session for the second step."""
        user = self._pre_authentication(pool, client_id, parameters.get("USERNAME"))
        result = run()
        if user is None:
            return result
        challenge = result["ChallengeParameters"]
        try:
            session = srp.start(
                pool.id, challenge["USER_ID_FOR_SRP"], user.password, parameters["SRP_A"]
            )
        except ValueError:
            from moto.cognitoidp.exceptions import NotAuthorizedError  # noqa: PLC0415

            raise NotAuthorizedError("Incorrect username or password.") from None
        secret_block = base64.standard_b64encode(os.urandom(64)).decode()
        backend.sessions[secret_block] = backend.sessions.pop(result["Session"])
        with self._srp_lock:
            self._srp_sessions[secret_block] = session
        challenge.update(
            {"SALT": session.salt, "SRP_B": session.srp_b, "SECRET_BLOCK": secret_block}
        )
        result["Session"] = secret_block
        return result

    def answer_challenge(
        self,
        pool: Any,
        client_id: str,
        challenge_name: str,
        responses: Mapping[str, str],
        run: Callable[[], Any],
    ) -> Any:
        """RespondToAuthChallenge: PASSWORD_VERIFIER's signature checked against the SRP session
        (a wrong password is "Incorrect username or password."), and PostAuthentication once
        tokens are issued (after SRP, or after the authenticator app's code)."""
        from moto.cognitoidp.exceptions import NotAuthorizedError  # noqa: PLC0415

        if challenge_name == "PASSWORD_VERIFIER":
            secret_block = responses.get("PASSWORD_CLAIM_SECRET_BLOCK") or ""
            with self._srp_lock:
                session = self._srp_sessions.pop(secret_block, None)
            if session is None or not srp.signature_matches(
                session,
                secret_block,
                responses.get("TIMESTAMP") or "",
                responses.get("PASSWORD_CLAIM_SIGNATURE") or "",
            ):
                raise NotAuthorizedError("Incorrect username or password.")
        result = run()
        user = pool._get_user(responses.get("USERNAME"))
        if user is None:
            return result
        metadata = dict(_request_parameter("ClientMetadata") or {})
        return self._post_authentication(pool, client_id, user, result, metadata)

    def _post_authentication(
        self, pool: Any, client_id: str, user: Any, result: Any, metadata: dict[str, Any]
    ) -> Any:
        tokens = result.get("AuthenticationResult") if isinstance(result, dict) else None
        if not tokens:
            return result  # a challenge: no sign-in yet

        def revoke() -> None:
            pool.refresh_tokens.pop(tokens.get("RefreshToken"), None)
            pool.access_tokens.pop(tokens.get("AccessToken"), None)
            pool.id_tokens.pop(tokens.get("IdToken"), None)

        self.run_cognito_trigger(
            pool,
            "PostAuthentication",
            trigger_source="PostAuthentication_Authentication",
            user_name=user.username,
            client_id=client_id,
            request={
                "userAttributes": self._trigger_attributes(user),
                "newDeviceUsed": False,
                "clientMetadata": metadata,
            },
            response={},
            undo=revoke,
        )
        return result

    # -------------------------------------------------------------- SES mailbox

    def note_mail(self, backend: Any, message: Any) -> None:
        """Note what moto keeps not of a mail just sent (called from moto's thread)."""
        text = page = None
        if not hasattr(message, "raw_data") and not hasattr(message, "template"):
            text, page = _mail_parts.get() or (None, None)
        note = MailNote(sent_at=self.clock.now(), text=text, html=page)
        with self._mail_lock:
            self._mail_notes[message.id] = note

    def mails(self, to: str | None = None) -> list[Mail]:
        """Every mail sent through the embedded SES (v1 SendEmail, SendRawEmail; v2 SendEmail
        with Simple or Raw content), newest last; with `to`, those that address (To, Cc or Bcc)
        that address. A templated mail is listed unrendered, with an error."""
        from moto.ses.models import ses_backends  # noqa: PLC0415

        backend = ses_backends[self.account_id][self.region]
        with self._mail_lock:
            notes = dict(self._mail_notes)
        mails = mails_from_ses(backend, notes)
        return mails if to is None else [mail for mail in mails if mail.is_for(to)]

    def issuer(self, pool: str | None = None) -> str:
        """The `iss` of the pool's tokens (the AWS URL: moto signs tokens with it)."""
        return f"https://cognito-idp.{self.region}.amazonaws.com/{self.user_pool_id(pool)}"

    def jwks(self, pool: str | None = None) -> dict[str, Any]:
        """The pool's JSON Web Key Set, as the server serves it at /<pool>/.well-known/jwks.json."""
        url = f"{self.endpoint_url}/{self.user_pool_id(pool)}/.well-known/jwks.json"
        with urllib.request.urlopen(url, timeout=10) as response:
            return cast(dict[str, Any], json.loads(response.read()))


def local_secret_value(name: str) -> str:
    """The local value of a SecureString parameter: its name as a word (`/yamb/stripe/api-key`
    is `local-yamb-stripe-api-key`). Local only: nothing real is ever stored here."""
    return "local-" + "-".join(part for part in name.split("/") if part)


def _stringify_attribute(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _load_yaml(text: str) -> Any:
    import yaml  # noqa: PLC0415 - only YAML definitions need it

    return yaml.safe_load(text)
