"""The rules of a game's chat: what a message may hold, and how often one sender may send.

Pure: the caller stores a sender's `ChatRate` (it is a pydantic model) and passes the time.
"""

import math
import unicodedata
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from yamb.decency import find_offence
from yamb.errors import YambError
from yamb.i18n import Plural, Text

MAX_CHAT_CHARS = 200
# One sender: at most CHAT_BURST messages in any CHAT_WINDOW_SECONDS, and CHAT_MIN_GAP_SECONDS
# at least between two messages.
CHAT_BURST = 5
CHAT_WINDOW_SECONDS = 10.0
CHAT_MIN_GAP_SECONDS = 1.0
# The lines a game keeps for a page that opens it later (a reload, a spectator coming in).
HISTORY_LINES = 50

# A malformed message (a control character) is refused like any malformed request.
type ChatRefusal = Literal[
    "chat_empty", "chat_too_long", "chat_indecent", "chat_too_fast", "bad_request"
]

# Whitespace that is a control character: read as a space.
_WHITESPACE_CONTROLS = frozenset("\t\n\r")
# Invisible characters that reorder the text around them (a spoofing trick), refused as controls.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ChatRefused(YambError):  # noqa: N818 (the name the chat service imports)
    """The chat message was not sent; `code` says why."""

    def __init__(self, message: Text | Plural | str, *, code: ChatRefusal) -> None:
        super().__init__(message, code=code)


def _is_control(char: str) -> bool:
    category = unicodedata.category(char)
    if category == "Cc":
        return char not in _WHITESPACE_CONTROLS
    return category == "Cs" or char in _BIDI_CONTROLS


def validate_message(text: str, language: str | None = None) -> str:
    """The message as it is sent: NFC, stripped, each run of whitespace one space. Refused if it
    holds a control character, is empty, is longer than MAX_CHAT_CHARS or is not decent (for a
    writer of `language`: another language's entry that is an ordinary word of theirs is not an
    offence)."""
    for position, char in enumerate(text):
        if _is_control(char):
            raise ChatRefused(
                Text(
                    "a chat message cannot hold control characters (U+{code_point} at position "
                    "{position})",
                    code_point=format(ord(char), "04X"),
                    position=position + 1,
                ),
                code="bad_request",
            )
    cleaned = " ".join(unicodedata.normalize("NFC", text).split())
    if not cleaned:
        raise ChatRefused(Text("a chat message cannot be empty"), code="chat_empty")
    if len(cleaned) > MAX_CHAT_CHARS:
        raise ChatRefused(
            Text(
                "a chat message is at most {max_chat_chars} characters (this one has {count})",
                max_chat_chars=MAX_CHAT_CHARS,
                count=len(cleaned),
            ),
            code="chat_too_long",
        )
    if find_offence(cleaned, language) is not None:
        raise ChatRefused(
            Text("this message was not sent: it contains a word the chat does not allow"),
            code="chat_indecent",
        )
    return cleaned


class ChatRate(BaseModel):
    """The recent messages of ONE sender: when each was sent, oldest first (the last CHAT_BURST
    at most, within CHAT_WINDOW_SECONDS of the last). Times are timezone-aware, as every time of
    a session."""

    sent: list[datetime] = Field(default_factory=list)

    def wait(self, now: datetime) -> float:
        """Seconds before the sender may send again (0 if they may now)."""
        if not self.sent:
            return 0.0
        waits = [CHAT_MIN_GAP_SECONDS - (now - self.sent[-1]).total_seconds()]
        recent = [moment for moment in self.sent if _age(moment, now) < CHAT_WINDOW_SECONDS]
        if len(recent) >= CHAT_BURST:
            waits.append(CHAT_WINDOW_SECONDS - _age(recent[-CHAT_BURST], now))
        return max(0.0, *waits)

    def check(self, now: datetime) -> None:
        """Refuses a message sent `now` if it comes too soon; records nothing."""
        wait = self.wait(now)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise ChatRefused(
                Plural(
                    "you are sending chat messages too fast: wait {count} second before the next",
                    "you are sending chat messages too fast: wait {count} seconds before the next",
                    seconds,
                ),
                code="chat_too_fast",
            )

    def record(self, now: datetime) -> None:
        """A message was sent `now`: remembered, and what no longer counts forgotten."""
        kept = [moment for moment in self.sent if _age(moment, now) < CHAT_WINDOW_SECONDS]
        self.sent = sorted([*kept, now])[-CHAT_BURST:]


class LoggedLine(BaseModel):
    """A line of a game's chat as the game keeps it."""

    sender: str
    nickname: str | None = None
    spectator: bool = False
    text: str
    sent_at: datetime


class ChatLog(BaseModel):
    """A game's last HISTORY_LINES chat lines, oldest first."""

    lines: list[LoggedLine] = Field(default_factory=list)

    def add(self, line: LoggedLine) -> None:
        self.lines = [*self.lines, line][-HISTORY_LINES:]


def _age(moment: datetime, now: datetime) -> float:
    return (now - moment).total_seconds()
