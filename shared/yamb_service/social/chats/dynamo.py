"""The chats on the game table:

- a private message, on each side: `PLAYER#<owner>` / `DM#<other>#<message id>` (`entry`: the
  ChatLine as JSON; ids sort by time, so a conversation is one query, newest first);
- a conversation, on each side: `PLAYER#<owner>` / `CONV#<other>` (`entry`: the Conversation as
  JSON, `tally`: its unread count, added to in the message's transaction);
- the general chat's window: `CHAT#GENERAL` / `WINDOW` (`body`: the GeneralWindow as JSON,
  `version`);
- a connection that has the general chat open: `CHAT#GENERAL` / `L#<connection id>`
  (`player_id`, `expires_at`: two hours, API Gateway's longest connection).
"""

from datetime import datetime, timedelta

from pynamodb.exceptions import (
    DoesNotExist,
    PutError,
    PynamoDBException,
    TransactWriteError,
    UpdateError,
)
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite
from yamb.social.chats import ChatLine, Conversation, GeneralWindow

from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, busy_or, player_key

_GENERAL, _WINDOW, _LISTENER = "CHAT#GENERAL", "WINDOW", "L#"
# A private message is kept until its side closes the conversation, a year at most.
MESSAGE_LIFETIME = timedelta(days=365)
CONNECTION_LIFETIME = timedelta(hours=2)


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


def _conversation_key(other: str) -> str:
    return f"CONV#{other}"


def _messages_prefix(other: str) -> str:
    return f"DM#{other}#"


class DynamoChatStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    # ---------------------------------------------------------------- private

    def send_private(self, line: ChatLine, sender: Conversation, recipient: Conversation) -> None:
        item = self._item
        expires = _epoch(line.sent_at + MESSAGE_LIFETIME)
        try:
            with TransactWrite(connection=item._get_connection().connection) as write:
                for side in (sender, recipient):
                    write.save(
                        item(
                            player_key(side.owner),
                            f"{_messages_prefix(side.other)}{line.id}",
                            entry=line.model_dump_json(),
                            expires_at=expires,
                        )
                    )
                    actions: list[Action] = [
                        item.entry.set(side.model_dump_json(exclude={"unread"}))
                    ]
                    if side is recipient:
                        actions.append(item.tally.add(1))
                    write.update(
                        item(player_key(side.owner), _conversation_key(side.other)), actions
                    )
        except TransactWriteError as error:
            raise busy_or(error) from error

    def conversations(self, owner: str) -> list[Conversation]:
        item = self._item
        try:
            found = [
                Conversation.model_validate_json(stored.entry or "{}").model_copy(
                    update={"unread": int(stored.tally or 0)}
                )
                for stored in item.query(player_key(owner), item.sk.startswith("CONV#"))
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error
        return sorted(found, key=lambda conversation: conversation.last_at, reverse=True)

    def messages(
        self, owner: str, other: str, before: str | None, limit: int
    ) -> tuple[list[ChatLine], str | None]:
        item = self._item
        prefix = _messages_prefix(other)
        condition = item.sk < f"{prefix}{before}" if before else item.sk.startswith(prefix)
        found: list[ChatLine] = []
        try:
            for stored in item.query(
                player_key(owner), condition, scan_index_forward=False, limit=limit + 1
            ):
                if not stored.sk.startswith(prefix):
                    break
                found.append(ChatLine.model_validate_json(stored.entry or "{}"))
        except PynamoDBException as error:
            raise busy_or(error) from error
        more = len(found) > limit
        page = list(reversed(found[:limit]))
        before_id = page[0].id if more and page else None
        # A message hidden by reports is kept for the review but shown to nobody.
        return [line for line in page if not line.hidden], before_id

    def mark_read(self, owner: str, other: str) -> bool:
        item = self._item
        try:
            item(player_key(owner), _conversation_key(other)).update(
                actions=[item.tally.set(0)], condition=item.sk.exists()
            )
        except UpdateError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def close(self, owner: str, other: str) -> bool:
        item = self._item
        try:
            keys = [
                stored.sk
                for stored in item.query(
                    player_key(owner),
                    item.sk.startswith(_messages_prefix(other)),
                    attributes_to_get=["pk", "sk"],
                )
            ]
            with item.batch_write() as batch:
                for sort_key in keys:
                    batch.delete(item(player_key(owner), sort_key))
            # The conversation last: a close cut short leaves it open, to be closed again.
            item(player_key(owner), _conversation_key(other)).delete(condition=item.sk.exists())
        except PynamoDBException as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def private_message(self, owner: str, other: str, message_id: str) -> ChatLine | None:
        try:
            stored = self._item.get(
                player_key(owner), f"{_messages_prefix(other)}{message_id}", consistent_read=True
            )
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        return ChatLine.model_validate_json(stored.entry or "{}")

    def set_private_hidden(self, owner: str, other: str, message_id: str, hidden: bool) -> bool:
        line = self.private_message(owner, other, message_id)
        if line is None:
            return False
        item = self._item
        try:
            item(player_key(owner), f"{_messages_prefix(other)}{message_id}").update(
                actions=[
                    item.entry.set(line.model_copy(update={"hidden": hidden}).model_dump_json())
                ],
                condition=item.sk.exists(),
            )
        except UpdateError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    # ---------------------------------------------------------------- general

    def window(self) -> tuple[GeneralWindow, int]:
        try:
            stored = self._item.get(_GENERAL, _WINDOW, consistent_read=True)
        except DoesNotExist:
            return GeneralWindow(), 0
        except PynamoDBException as error:
            raise busy_or(error) from error
        return GeneralWindow.model_validate_json(stored.body or b"{}"), int(stored.version or 0)

    def save_window(self, window: GeneralWindow, version: int) -> bool:
        item = self._item
        condition = item.version.does_not_exist() if version == 0 else item.version == version
        stored = item(
            _GENERAL, _WINDOW, body=window.model_dump_json().encode(), version=version + 1
        )
        try:
            stored.save(condition=condition, add_version_condition=False)
        except PutError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def listen(self, connection_id: str, player_id: str, now: datetime) -> None:
        stored = self._item(
            _GENERAL,
            f"{_LISTENER}{connection_id}",
            player_id=player_id,
            expires_at=_epoch(now + CONNECTION_LIFETIME),
        )
        try:
            stored.save(add_version_condition=False)
        except PynamoDBException as error:
            raise busy_or(error) from error

    def stop_listening(self, connection_ids: list[str]) -> None:
        try:
            with self._item.batch_write() as batch:
                for connection_id in connection_ids:
                    batch.delete(self._item(_GENERAL, f"{_LISTENER}{connection_id}"))
        except PynamoDBException as error:
            raise busy_or(error) from error

    def listeners(self) -> list[str]:
        # A connection gone without its $disconnect is dropped when a batch finds it gone (410).
        item = self._item
        try:
            return [
                stored.sk.removeprefix(_LISTENER)
                for stored in item.query(
                    _GENERAL, item.sk.startswith(_LISTENER), attributes_to_get=["pk", "sk"]
                )
            ]
        except PynamoDBException as error:
            raise busy_or(error) from error
