"""Builds the push domain's collaborators, once per execution environment, on first use: the
push function's service (the VAPID private key read from SSM when the first push goes out). The
accounts function's devices are built by its own wiring (yamb_service.accounts.wiring, which must
not reach pywebpush), the asking side's `Pusher` by yamb_service.push.invoke."""

from collections.abc import Callable
from functools import cache

from botocore.config import Config

from yamb_service.accounts.dynamo import load_profile
from yamb_service.common.config import push_settings
from yamb_service.common.dynamo import ItemModel, botocore_session, item_model
from yamb_service.push.dynamo import DynamoSubscriptions
from yamb_service.push.ports import PushSender
from yamb_service.push.sender import LocalOutboxSender, WebPushSender
from yamb_service.push.service import PushService

_CONFIG = Config(retries={"mode": "standard", "max_attempts": 4}, connect_timeout=2, read_timeout=5)


@cache
def push_service() -> PushService:
    settings = push_settings()
    item = item_model(settings.table_name, settings.aws_region, settings.aws_endpoint_url)
    sender: PushSender
    if settings.local_push_outbox_url:
        sender = LocalOutboxSender(settings.local_push_outbox_url)
    else:
        sender = WebPushSender(_private_key(item), settings.push_contact)
    return PushService(
        DynamoSubscriptions(item),
        lambda player_id: load_profile(item, player_id),
        sender,
        settings.web_base_url,
    )


def _private_key(item: ItemModel) -> Callable[[], str]:
    settings = push_settings()

    @cache
    def read() -> str:
        ssm = botocore_session(item).create_client(
            "ssm",
            region_name=settings.aws_region,
            endpoint_url=settings.aws_endpoint_url,
            config=_CONFIG,
        )
        answer = ssm.get_parameter(
            Name=settings.push_vapid_private_key_parameter, WithDecryption=True
        )
        return str(answer["Parameter"]["Value"])

    return read
