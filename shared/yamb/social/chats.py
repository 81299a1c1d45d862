"""The rules of the general and private chats (S3), pure: what a line holds, how long the
general chat's window is, and how often its lines go out.

- **Private**: a conversation is kept on each side until that side closes it (for them alone);
  a message to an offline player waits in their conversation for their next login.
- **General**: all connected players who have it open; a short window is kept (the last
  WINDOW_LINES lines of the last WINDOW_MINUTES), not a history. Its lines go out in batches,
  one frame per listener every `flush_interval(listeners)`, so that the general chat never
  takes more than BROADCAST_BUDGET of API Gateway's requests a second, whatever the number of
  listeners (decision 185: the arithmetic).
"""

import math
import secrets
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from yamb.clubs.tag import TagView

# The general chat's window: what a player who opens it reads.
WINDOW_LINES = 50
WINDOW_MINUTES = 10
# Lines go out at most this often, and then as one frame per listener.
FLUSH_SECONDS = 2.0
# PostToConnection requests a second the general chat may spend at most: a tenth of the
# account's default API Gateway throttle (10,000 a second), which game frames share.
BROADCAST_BUDGET = 1_000
# Listeners at most: the deliverer's invocation waits its batch out (3 s at 3,000) and posts at
# the budget (3 s more), well inside the game function's 10 s. Beyond it the general chat says
# it is full (decision 185).
MAX_LISTENERS = 3_000
# A private conversation's page.
CONVERSATION_PAGE = 50


def flush_interval(listeners: int) -> float:
    """Seconds between two deliveries of the general chat to `listeners` connections: never
    under FLUSH_SECONDS, and long enough that a delivery stays within BROADCAST_BUDGET."""
    return max(FLUSH_SECONDS, math.ceil(listeners / BROADCAST_BUDGET))


def message_id(now: datetime) -> str:
    """A line's id: sortable by when it was sent (milliseconds), unique by its random part."""
    return f"{int(now.timestamp() * 1000):013d}-{secrets.token_hex(4)}"


class ChatLine(BaseModel):
    """A line of the general chat, or a private message."""

    id: str
    sender: str
    nickname: str
    text: str
    sent_at: datetime
    # Hidden by three reports until reviewed (S5): kept, but shown to nobody.
    hidden: bool = False
    # The sender's main club's tag as they wrote (C1).
    club: TagView | None = None


class GeneralWindow(BaseModel):
    """The general chat's recent lines, and how far they have been delivered."""

    lines: list[ChatLine] = Field(default_factory=list)
    # The last line delivered to the listeners (None: none yet).
    delivered_through: str | None = None
    # When a delivery is due; None: nobody is delivering (the next line's sender does).
    flush_due: datetime | None = None

    def add(self, line: ChatLine, now: datetime) -> None:
        """The line kept; lines past the window dropped."""
        since = now - timedelta(minutes=WINDOW_MINUTES)
        self.lines = [kept for kept in self.lines if kept.sent_at >= since]
        self.lines.append(line)
        self.lines = self.lines[-WINDOW_LINES:]

    def recent(self, now: datetime) -> list[ChatLine]:
        since = now - timedelta(minutes=WINDOW_MINUTES)
        return [line for line in self.lines if line.sent_at >= since and not line.hidden]

    def line(self, line_id: str) -> ChatLine | None:
        return next((line for line in self.lines if line.id == line_id), None)

    def set_hidden(self, line_id: str, hidden: bool) -> bool:
        """The line hidden (or shown again); False when the window no longer holds it."""
        for position, line in enumerate(self.lines):
            if line.id == line_id:
                self.lines[position] = line.model_copy(update={"hidden": hidden})
                return True
        return False

    def undelivered(self) -> list[ChatLine]:
        shown = [line for line in self.lines if not line.hidden]
        if self.delivered_through is None:
            return shown
        return [line for line in shown if line.id > self.delivered_through]


class Conversation(BaseModel):
    """One side's private conversation with another player."""

    owner: str
    other: str
    nickname: str  # the other's, as of the last message
    last_text: str
    last_at: datetime
    unread: int = 0
