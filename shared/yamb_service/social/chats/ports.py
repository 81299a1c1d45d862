"""What the chats need from storage (yamb_service.social.chats.dynamo), with domain types."""

from datetime import datetime
from typing import Protocol

from yamb.social.chats import ChatLine, Conversation, GeneralWindow


class ChatStore(Protocol):
    # ---------------------------------------------------------------- private
    def send_private(self, line: ChatLine, sender: Conversation, recipient: Conversation) -> None:
        """The message kept on both sides and both conversations moved on (the recipient's
        unread count one more), in one transaction."""

    def conversations(self, owner: str) -> list[Conversation]:
        """The owner's open conversations, newest first."""

    def messages(
        self, owner: str, other: str, before: str | None, limit: int
    ) -> tuple[list[ChatLine], str | None]:
        """The conversation's newest `limit` messages older than `before`, oldest first, and
        the id to ask `before` for the rest (None: none left)."""

    def mark_read(self, owner: str, other: str) -> bool:
        """The conversation's unread count back to 0; False when there is no conversation."""

    def close(self, owner: str, other: str) -> bool:
        """The owner's side of the conversation and its history removed; False when none."""

    def private_message(self, owner: str, other: str, message_id: str) -> ChatLine | None:
        """One message of the owner's conversation with `other`, as the owner has it."""

    def set_private_hidden(self, owner: str, other: str, message_id: str, hidden: bool) -> bool:
        """One side's copy of a message hidden (or shown again); False when that side has
        none (closed since)."""

    # ---------------------------------------------------------------- general
    def window(self) -> tuple[GeneralWindow, int]:
        """The general chat's window and the version to write it back on."""

    def save_window(self, window: GeneralWindow, version: int) -> bool:
        """Written if nobody did since `version`; False when another write came first."""

    def listen(self, connection_id: str, player_id: str, now: datetime) -> None:
        """The connection receives the general chat's batches (for as long as a connection
        lives at most)."""

    def stop_listening(self, connection_ids: list[str]) -> None: ...

    def listeners(self) -> list[str]:
        """The connections that have the general chat open."""
