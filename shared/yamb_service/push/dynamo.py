"""The devices' push subscriptions on the game table (docs/data-model.md): `PLAYER#<id>` /
`PUSH#<device id>`, the subscription as JSON (`push`). Under the player's key, so that the
functions that read them hold `dynamodb:LeadingKeys` `PLAYER#*` and no more."""

from pynamodb.exceptions import DoesNotExist, PynamoDBException
from yamb.push.messages import MAX_DEVICES, PushSubscriptionRequest

from yamb_service.common.dynamo import ItemModel, busy_or, player_key
from yamb_service.push.ports import Device

_PREFIX = "PUSH#"


class DynamoSubscriptions:
    def __init__(self, item: ItemModel) -> None:
        self._item = item

    def put(self, player_id: str, device: Device) -> bool:
        known = {d.device_id for d in self.devices(player_id)}
        if device.device_id not in known and len(known) >= MAX_DEVICES:
            return False
        stored = self._item(
            player_key(player_id),
            _PREFIX + device.device_id,
            push=device.subscription.model_dump_json(by_alias=True),
        )
        try:
            stored.save()
        except PynamoDBException as error:
            raise busy_or(error) from error
        return True

    def delete(self, player_id: str, device_id: str) -> None:
        try:
            self._item(player_key(player_id), _PREFIX + device_id).delete()
        except DoesNotExist:
            return
        except PynamoDBException as error:
            raise busy_or(error) from error

    def devices(self, player_id: str) -> list[Device]:
        try:
            found = list(self._item.query(player_key(player_id), self._item.sk.startswith(_PREFIX)))
        except PynamoDBException as error:
            raise busy_or(error) from error
        return [
            Device(
                item.sk.removeprefix(_PREFIX),
                PushSubscriptionRequest.model_validate_json(item.push),
            )
            for item in found
            if item.push
        ]
