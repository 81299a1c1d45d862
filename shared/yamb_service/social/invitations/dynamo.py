"""Invitations on the game table:

- the invitee's one pending invitation: `PLAYER#<invitee>` / `INVITATION` (`entry`: the
  Invitation as JSON, `expires_at`: its end, after which it is replaced and TTL removes it);
- a refusal: `GAME#<gameId>` / `REFUSED#<invitee>` (`expires_at`: the game's lifetime), so that
  nobody invites that player to that game again.
"""

from datetime import datetime, timedelta

from pynamodb.constants import ALL_OLD
from pynamodb.exceptions import DeleteError, DoesNotExist, PutError, PynamoDBException
from yamb.social.invitations import Invitation

from yamb_service.common.dynamo import LOST_RACE_ERRORS, ItemModel, busy_or, player_key

_INVITATION = "INVITATION"
REFUSAL_LIFETIME = timedelta(days=30)


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


class DynamoInvitationStore:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def put(self, invitation: Invitation, now: datetime) -> bool:
        item = self._item
        stored = item(
            player_key(invitation.invitee),
            _INVITATION,
            entry=invitation.model_dump_json(),
            expires_at=_epoch(invitation.expires_at),
        )
        try:
            stored.save(
                condition=item.sk.does_not_exist() | (item.expires_at <= _epoch(now)),
                add_version_condition=False,
            )
        except PutError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return False
            raise busy_or(error) from error
        return True

    def pending(self, invitee: str, now: datetime) -> Invitation | None:
        try:
            stored = self._item.get(player_key(invitee), _INVITATION, consistent_read=True)
        except DoesNotExist:
            return None
        except PynamoDBException as error:
            raise busy_or(error) from error
        invitation = Invitation.model_validate_json(stored.entry or "{}")
        return invitation if invitation.pending(now) else None

    def take(self, invitee: str, invitation_id: str) -> Invitation | None:
        item = self._item
        try:
            old = item._get_connection().delete_item(
                player_key(invitee),
                range_key=_INVITATION,
                condition=item.entry.contains(f'"invitation_id":"{invitation_id}"'),
                return_values=ALL_OLD,
            )
        except DeleteError as error:
            if error.cause_response_code in LOST_RACE_ERRORS:
                return None
            raise busy_or(error) from error
        entry = (old.get("Attributes") or {}).get("entry", {}).get("S")
        return Invitation.model_validate_json(entry) if entry else None

    def refused(self, game_id: str, invitee: str) -> bool:
        try:
            self._item.get(f"GAME#{game_id}", f"REFUSED#{invitee}", attributes_to_get=["pk"])
        except DoesNotExist:
            return False
        except PynamoDBException as error:
            raise busy_or(error) from error
        return True

    def mark_refused(self, game_id: str, invitee: str, expires_at: datetime) -> None:
        try:
            self._item(
                f"GAME#{game_id}",
                f"REFUSED#{invitee}",
                expires_at=_epoch(expires_at + REFUSAL_LIFETIME),
            ).save(add_version_condition=False)
        except PynamoDBException as error:
            raise busy_or(error) from error
