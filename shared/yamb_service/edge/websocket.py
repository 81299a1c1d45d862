"""The edge of the functions: API Gateway WebSocket events and client frames in, validated.

Whatever a client sends, the answer is a short error frame with a stable code (and its
requestId when one could be read), never an exception: frames are size-capped before parsing,
numbers too long, nesting too deep and lone surrogates are refused, and a refusal's message names
at most a few problems, clipped, in plain characters.
"""

import json
import re
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from yamb.errors import ErrorCode, joined
from yamb.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, Plural, Text
from yamb.i18n.validation import location, problem
from yamb.protocol import ACTION_MODELS, ACTION_NAMES, MAX_FRAME_BYTES, ClientAction, clip

from yamb_service.edge.caller import Caller

# Any action of the protocol is well under 2 KB; API Gateway lets frames up to 32 KB through
# (MAX_FRAME_BYTES), and a refused frame's requestId is looked for in all of what it lets through.
MAX_ACTION_BYTES = 8 * 1024
MAX_PROBLEMS_SHOWN = 3
MAX_ACTION_NAME = 30
MAX_PROBLEM_CHARS = 120
# Echoed only when it is what the protocol allows (the RequestId pattern and length).
ECHOABLE_REQUEST_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class BadFrameError(Exception):
    """A frame refused before any action was read; its sentence is rendered in the caller's
    language where it is answered (GameService.reply_error), and clipped there."""

    def __init__(
        self, code: ErrorCode, message: Text | Plural | str, request_id: str | None = None
    ) -> None:
        super().__init__(str(message))
        self.code: ErrorCode = code
        self.text = message
        self.message = str(message)
        self.request_id = request_id


class _AuthorizerContext(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    player_id: str = Field(alias="playerId", min_length=1)
    nickname: str | None = Field(default=None, max_length=64)
    # The token's expiry as the authorizer put it in its context (a string there).
    expires_at: int | None = Field(default=None, alias="expiresAt")
    # The account's language (an older authorizer's context has none: English).
    language: str | None = Field(default=None, max_length=8)


class _RequestContext(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    connection_id: str = Field(alias="connectionId", min_length=1)
    route_key: str = Field(alias="routeKey")
    authorizer: _AuthorizerContext


class WebSocketEvent(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    request_context: _RequestContext = Field(alias="requestContext")
    body: str | None = None

    @property
    def caller(self) -> Caller:
        context = self.request_context
        return Caller(
            player_id=context.authorizer.player_id,
            connection_id=context.connection_id,
            expires_at=context.authorizer.expires_at,
            nickname=context.authorizer.nickname or None,
            language=_language(context.authorizer.language),
        )


def _language(chosen: str | None) -> Language:
    for language in LANGUAGES:
        if chosen == language:
            return language
    return DEFAULT_LANGUAGE


def parse_event(event: dict[str, Any]) -> WebSocketEvent:
    return WebSocketEvent.model_validate(event)


def echoable(request_id: object) -> str | None:
    """A bad frame's requestId is echoed so the client can match the error, but only when it is
    one the protocol allows: the error frame stays small and plain whatever the client sent."""
    if isinstance(request_id, str) and ECHOABLE_REQUEST_ID.match(request_id):
        return request_id
    return None


def read_frame(body: str | None) -> Any:
    """The frame's JSON value; BadFrameError when it is too large, not JSON, or beyond what the
    parser takes (numbers of thousands of digits, nesting thousands deep)."""
    text = body or ""
    if (
        len(text) > MAX_ACTION_BYTES
        or len(text.encode("utf-8", "surrogatepass")) > MAX_ACTION_BYTES
    ):
        raise BadFrameError(
            "frame_too_large",
            Text(
                "an action is at most {max_action_bytes} bytes", max_action_bytes=MAX_ACTION_BYTES
            ),
            _request_id_in(text),
        )
    try:
        return json.loads(text)
    except RecursionError:
        raise BadFrameError(
            "bad_request", Text("the frame is nested too deeply"), _request_id_in(text)
        ) from None
    except ValueError:  # JSONDecodeError, and integers beyond the 4,300-digit limit
        raise BadFrameError(
            "bad_request", Text("a frame is a JSON object with an action"), _request_id_in(text)
        ) from None


_REQUEST_ID_FIELD = re.compile(r'"requestId"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"')


def _request_id_in(text: str) -> str | None:
    """The requestId of a frame refused before it was read (too large, not JSON, beyond the
    parser), when it shows a valid one anywhere in the 32 KB API Gateway lets through: read as
    JSON when it is (a large frame is, often), else found in its text."""
    seen = text[:MAX_FRAME_BYTES]
    if len(seen) == len(text):
        try:
            data = json.loads(seen)
        except (ValueError, RecursionError):
            pass
        else:
            return echoable(data.get("requestId")) if isinstance(data, dict) else None
    found = _REQUEST_ID_FIELD.search(seen)
    return found.group(1) if found else None


def _problem(issue: Any) -> Text:
    """One field's problem: its place (clipped: it may be the client's own key) and what pydantic
    found, in the reader's language when it is a kind our catalogue says (yamb.i18n.validation);
    else pydantic's English, clipped (a validator's message may quote the client's value)."""
    where = clip(location(issue, "frame"), MAX_PROBLEM_CHARS // 2)
    found = problem(issue)
    if isinstance(found, str):
        found = clip(found, MAX_PROBLEM_CHARS)
    return Text("{field}: {problem}", field=where, problem=found)


def parse_action(body: str | None) -> ClientAction:
    """The client frame as one of the protocol's actions, or BadFrameError saying what is wrong.
    The union's discriminator is read first, and the frame validated with the model it names."""
    data = read_frame(body)
    if not isinstance(data, dict):
        raise BadFrameError("bad_request", Text("a frame is a JSON object with an action"))
    request_id = echoable(data.get("requestId"))
    name = data.get("action")
    if name is None:
        raise BadFrameError("bad_request", Text("frame: the action is missing"), request_id)
    model = ACTION_MODELS.get(name) if isinstance(name, str) else None
    if model is None:
        message = Text(
            "unknown action '{action}'; the actions are: {actions}",
            action=clip(str(name), MAX_ACTION_NAME),
            actions=", ".join(ACTION_NAMES),
        )
        raise BadFrameError("unknown_action", message, request_id)
    try:
        return cast(ClientAction, model.model_validate(data))
    except ValidationError as error:
        issues = error.errors(include_url=False, include_input=False)
        problems: list[Text | Plural | str] = [
            _problem(issue) for issue in issues[:MAX_PROBLEMS_SHOWN]
        ]
        if len(issues) > MAX_PROBLEMS_SHOWN:
            hidden = len(issues) - MAX_PROBLEMS_SHOWN
            problems.append(Plural("and {count} more problem", "and {count} more problems", hidden))
        raise BadFrameError("bad_request", joined(problems), request_id) from None
    except RecursionError:
        raise BadFrameError(
            "bad_request", Text("the frame is nested too deeply"), request_id
        ) from None
