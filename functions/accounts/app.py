"""The accounts' HTTP API (docs/accounts.md): each route parses its request into a model, calls
one method of the account service and maps the answer or the error to a reply. A body is JSON,
or a form as a mailed link's page posts it. The mailed links (GET) answer a page for people, or
JSON when asked for it."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

import html
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.accounts.errors import AccountError
from yamb.accounts.links import LinkKind
from yamb.accounts.messages import (
    AcceptedView,
    AccountView,
    EmailChangeRequest,
    EmailRequest,
    NicknameRequest,
    PasswordChangeRequest,
    RegisterRequest,
    ResetRequest,
    TokenRequest,
    TokensView,
)
from yamb.accounts.passwords import MIN_PASSWORD_CHARS
from yamb.accounts.preferences import PreferencesChange
from yamb.i18n import Plural, Text, negotiate, render
from yamb.progression.errors import ProgressionError
from yamb.push.messages import PushDeviceView, PushKeyView, PushSubscriptionRequest
from yamb_service.accounts.wiring import account_service, push_devices
from yamb_service.common.config import account_settings
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.edge.http_api import (
    NO_STORE,
    HttpApi,
    Parameter,
    Response,
    Routes,
    add_common_handlers,
    body,
    error_reply,
    is_form,
    json_reply,
    on_error,
    player_id,
    reader_language,
    resolve,
)

app = HttpApi()
routes = Routes(
    app,
    statuses={
        "bad_request": 400,
        "password_wrong": 403,
        "account_locked": 403,
        "not_enough_tokens": 402,
        "account_not_found": 404,
        "link_invalid": 404,
        "link_expired": 410,
        "nickname_taken": 409,
        "email_taken": 409,
        "conflict": 409,
        "nickname_too_soon": 429,
        "busy": 503,
        "internal": 500,
        "unknown_referral_code": 404,
        "push_devices_full": 409,
    },
)
_ACCEPTED = Text("if the address belongs to an account that needs it, a mail is on its way")
# A sign-up's answer, whether the address was free (a new account) or an account's (its owner
# is told by mail): the same, so that nobody learns whose address it is.
_SIGNED_UP = Text("check your mail: the link in it confirms the address")


def _wants_page() -> bool:
    """A person following a mailed link (a browser asks for HTML), not a client's fetch."""
    accept = app.current_event.headers.get("accept") or ""
    return "text/html" in accept and "application/json" not in accept


def _said(message: Text | str) -> str:
    """A sentence of an answer, in the reader's language (yamb_service.edge.http_api)."""
    return render(message, reader_language())


def _page(
    status: int, title: Text | str, text: Text | Plural | str, form: str = ""
) -> Response[str]:
    """A page for people, its title and text in the reader's language."""
    language = reader_language()
    title, text = render(title, language), render(text, language)
    body = (
        f"<!doctype html><html lang={language}><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        "<body style='font-family:system-ui;max-width:32rem;margin:3rem auto;padding:0 1rem'>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>{form}</body></html>"
    )
    return Response(
        status_code=status,
        content_type="text/html; charset=utf-8",
        body=body,
        headers={"Cache-Control": NO_STORE, "Referrer-Policy": "no-referrer"},
    )


def _link_base() -> str:
    """Where the mailed links lead: this API's configured address (LINK_BASE_URL), never one
    taken from the request (its Host header is the caller's to choose)."""
    base = account_settings().link_base_url
    if not base:
        raise RuntimeError("LINK_BASE_URL is unset: mailed links would lead nowhere")
    return base


_TOKEN = (Parameter("token", "The mailed link's one-time token."),)


def _token() -> str:
    token = app.current_event.get_query_string_value("token")
    if not token:
        raise AccountError(Text("the link has no token"), code="link_invalid")
    return token


# ---------------------------------------------------------------------- public routes


@routes.post(
    "/accounts",
    "A sign-up accepted: a mail to the address confirms it (or, when the address is an"
    " account's, tells its owner); the answer is the same either way",
    AcceptedView,
    status=202,
    request=RegisterRequest,
    public=True,
)
def register() -> Response[str]:
    request = body(app.current_event, RegisterRequest, forms=True)
    account_service().register(
        nickname=request.nickname,
        email=request.email,
        password=request.password,
        link_base=_link_base(),
        referral_code=request.referral_code,
        # The page signed up on (its Accept-Language): the account's first language.
        language=negotiate(app.current_event.headers.get("accept-language")),
    )
    return json_reply(202, AcceptedView(message=_said(_SIGNED_UP)))


@routes.post(
    "/accounts/verification",
    "The verification mail sent again",
    AcceptedView,
    status=202,
    request=EmailRequest,
    public=True,
)
def request_verification() -> Response[str]:
    account_service().request_verification(
        body(app.current_event, EmailRequest, forms=True).email, _link_base()
    )
    return json_reply(202, AcceptedView(message=_said(_ACCEPTED)))


def _confirm_page(action: str, token: str, title: Text, text: Text, button: Text) -> Response[str]:
    """A mailed link's page: a button that posts the token. Following the link changes
    nothing, so a mail scanner's visit does not use it up."""
    form = (
        f"<form method=post action='{action}'>"
        f"<input type=hidden name=token value='{html.escape(token, quote=True)}'>"
        f"<button>{html.escape(_said(button))}</button></form>"
    )
    return _page(200, title, text, form)


@routes.get(
    "/accounts/verify",
    "A mailed verification link checked (HTML: a page whose button posts the token)",
    AcceptedView,
    public=True,
    page=True,
    parameters=_TOKEN,
)
def verify_page() -> Response[str]:
    token = _token()
    profile = account_service().check_link(token, LinkKind.VERIFY)
    if not _wants_page():
        return json_reply(
            200, AcceptedView(message=_said(Text("the link is valid: POST its token to use it")))
        )
    return _confirm_page(
        "/accounts/verify",
        token,
        Text("Confirm your e-mail address"),
        Text("For {nickname}.", nickname=profile.nickname),
        Text("Confirm"),
    )


@routes.post(
    "/accounts/verify",
    "The e-mail address verified",
    AccountView,
    request=TokenRequest,
    public=True,
    page=True,
    form=True,
)
def verify() -> Response[str]:
    profile = account_service().verify(body(app.current_event, TokenRequest, forms=True).token)
    if _is_form():
        return _page(
            200,
            Text("E-mail confirmed"),
            Text("Welcome, {nickname}: you can sign in and play now.", nickname=profile.nickname),
        )
    return json_reply(200, AccountView.of(profile))


@routes.post(
    "/accounts/password-reset",
    "A password reset mail sent",
    AcceptedView,
    status=202,
    request=EmailRequest,
    public=True,
)
def request_reset() -> Response[str]:
    account_service().request_reset(
        body(app.current_event, EmailRequest, forms=True).email,
        _link_base(),
        client_base=account_settings().web_base_url,
    )
    return json_reply(202, AcceptedView(message=_said(_ACCEPTED)))


@routes.get(
    "/accounts/password-reset",
    "A mailed reset link checked (HTML: a page with a new password's form)",
    AcceptedView,
    public=True,
    page=True,
    parameters=_TOKEN,
)
def reset_page() -> Response[str]:
    token = _token()
    profile = account_service().check_link(token, LinkKind.RESET)
    if not _wants_page():
        return json_reply(200, AcceptedView(message=_said(Text("the link is valid"))))
    form = (
        "<form method=post action='/accounts/password-reset/confirm'>"
        f"<input type=hidden name=token value='{html.escape(token, quote=True)}'>"
        f"<label>{html.escape(_said(Text('New password')))} "
        "<input type=password name=password required "
        f"minlength={MIN_PASSWORD_CHARS} autocomplete=new-password></label> "
        f"<button>{html.escape(_said(Text('Save')))}</button></form>"
    )
    return _page(
        200,
        Text("Choose a new password"),
        Text("For {nickname}.", nickname=profile.nickname),
        form,
    )


@routes.post(
    "/accounts/password-reset/confirm",
    "A new password set with a mailed link's token; every device signed out",
    AcceptedView,
    request=ResetRequest,
    public=True,
    page=True,
    form=True,
)
def reset_password() -> Response[str]:
    request = body(app.current_event, ResetRequest, forms=True)
    account_service().reset_password(request.token, request.password)
    if _is_form():
        return _page(
            200,
            Text("Password changed"),
            Text("Every device was signed out: sign in again."),
        )
    return json_reply(
        200, AcceptedView(message=_said(Text("password changed; every device was signed out")))
    )


def _is_form() -> bool:
    return is_form(app.current_event)


@routes.get(
    "/accounts/email-change",
    "A mailed e-mail change link checked (HTML: a page whose button posts the token)",
    AcceptedView,
    public=True,
    page=True,
    parameters=_TOKEN,
)
def email_change_page() -> Response[str]:
    token = _token()
    profile = account_service().check_link(token, LinkKind.EMAIL)
    if not _wants_page():
        return json_reply(
            200, AcceptedView(message=_said(Text("the link is valid: POST its token to use it")))
        )
    return _confirm_page(
        "/accounts/email-change",
        token,
        Text("Confirm your new e-mail address"),
        Text(
            "For {nickname}: you will sign in with {email}.",
            nickname=profile.nickname,
            email=profile.pending_email,
        ),
        Text("Confirm"),
    )


@routes.post(
    "/accounts/email-change",
    "A new e-mail address confirmed",
    AccountView,
    request=TokenRequest,
    public=True,
    page=True,
    form=True,
)
def confirm_email_change() -> Response[str]:
    profile = account_service().confirm_email_change(
        body(app.current_event, TokenRequest, forms=True).token
    )
    if _is_form():
        return _page(
            200,
            Text("E-mail changed"),
            Text("Sign in with {email} from now on.", email=profile.email),
        )
    return json_reply(200, AccountView.of(profile))


# ---------------------------------------------------------------------- the player's own


@routes.get("/me", "The caller's account", AccountView)
def me() -> Response[str]:
    return json_reply(200, AccountView.of(account_service().profile(player_id(app.current_event))))


@routes.patch("/me/settings", "Preferences changed", AccountView, request=PreferencesChange)
def update_settings() -> Response[str]:
    change = body(app.current_event, PreferencesChange, forms=True)
    profile = account_service().update_preferences(player_id(app.current_event), change)
    return json_reply(200, AccountView.of(profile))


@routes.post("/me/nickname", "The nickname changed", AccountView, request=NicknameRequest)
def change_nickname() -> Response[str]:
    nickname = body(app.current_event, NicknameRequest, forms=True).nickname
    profile = account_service().change_nickname(player_id(app.current_event), nickname)
    return json_reply(200, AccountView.of(profile))


@routes.post(
    "/me/password",
    "The password changed: every other device signed out, new tokens for this one",
    TokensView,
    request=PasswordChangeRequest,
)
def change_password() -> Response[str]:
    request = body(app.current_event, PasswordChangeRequest, forms=True)
    tokens = account_service().change_password(
        player_id(app.current_event), request.old_password, request.new_password
    )
    if tokens is None:
        return json_reply(200, TokensView(sign_in_again=True))
    return json_reply(
        200,
        TokensView(
            id_token=tokens.id_token,
            access_token=tokens.access_token,
            refresh_token=tokens.refresh_token,
            expires_in=tokens.expires_in,
        ),
    )


@routes.post(
    "/me/email",
    "An e-mail change requested with the password (a mail to the new address confirms it;"
    " the old address is told)",
    AccountView,
    status=202,
    request=EmailChangeRequest,
)
def change_email() -> Response[str]:
    request = body(app.current_event, EmailChangeRequest, forms=True)
    player = player_id(app.current_event)
    profile = account_service().request_email_change(
        player, request.email, request.password, _link_base()
    )
    return json_reply(202, AccountView.of(profile))


@routes.post("/me/sign-out", "Every device signed out", AcceptedView)
def sign_out() -> Response[str]:
    player = player_id(app.current_event)
    account_service().sign_out_everywhere(player, reason=Text("signed out on request"))
    return json_reply(200, AcceptedView(message=_said(Text("every device was signed out"))))


@routes.delete(
    "/me", "The account's deletion requested (done after a grace period)", AccountView, status=202
)
def request_deletion() -> Response[str]:
    profile = account_service().request_deletion(player_id(app.current_event))
    return json_reply(202, AccountView.of(profile))


# ---------------------------------------------------------------------- Web Push (A8)


@routes.get(
    "/push/vapid-key",
    "The VAPID public key a page subscribes to pushes with (null: no pushes here)",
    PushKeyView,
    public=True,
)
def push_key() -> Response[str]:
    key = account_settings().push_vapid_public_key or None
    return json_reply(200, PushKeyView(public_key=key))


@routes.put(
    "/me/push-subscriptions",
    "This device's push subscription kept (or renewed): its pushes go to it",
    PushDeviceView,
    request=PushSubscriptionRequest,
)
def subscribe_device() -> Response[str]:
    request = body(app.current_event, PushSubscriptionRequest)
    device = push_devices().subscribe(player_id(app.current_event), request)
    return json_reply(200, PushDeviceView(device_id=device))


@routes.delete(
    "/me/push-subscriptions/{deviceId}",
    "A device's push subscription removed (no more pushes to it; removing it again is no error)",
    PushDeviceView,
)
def unsubscribe_device(device_id: str) -> Response[str]:
    push_devices().unsubscribe(player_id(app.current_event), device_id)
    return json_reply(200, PushDeviceView(device_id=device_id))


# ---------------------------------------------------------------------- errors


@on_error(app, AccountError)
def accounterror_reply(error: AccountError) -> Response[str]:
    status = routes.statuses.get(error.code, 400)
    logger.info("request refused", code=error.code, field=error.field)
    if _wants_page() and app.current_event.request_context.http.method == "GET":
        return _page(status, Text("This link does not work"), error.text)
    if _is_form():
        return _page(status, Text("That did not work"), error.text)
    return error_reply(status, error.code, error.text, error.field)


@on_error(app, ProgressionError)
def referral_refused(error: ProgressionError) -> Response[str]:
    """A registration's referral code that no player has: nothing was made."""
    logger.info("request refused", code=error.code, field=error.field)
    status = 404 if error.code == "unknown_referral_code" else 400
    return error_reply(status, error.code, error.text, error.field)


add_common_handlers(app)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
