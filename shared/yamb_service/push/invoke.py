"""The asking side: a function hands a push to the push function as an asynchronous Lambda
invocation (Lambda queues it and retries it twice), so that neither pywebpush nor a push
service's answer is on the game's, the clock's or the prizes' path."""

from collections.abc import Callable
from typing import Any

from botocore.config import Config
from yamb.push.messages import PushRequest

from yamb_service.common.dynamo import ItemModel, botocore_session
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.push.ports import NoPusher, Pusher

_CONFIG = Config(retries={"mode": "standard", "max_attempts": 4}, connect_timeout=2, read_timeout=5)


class LambdaPusher:
    def __init__(self, make_client: Callable[[], Any], function_name: str) -> None:
        self._make_client = make_client
        self._client: Any = None
        self._function = function_name

    def push(self, request: PushRequest) -> None:
        try:
            if self._client is None:
                self._client = self._make_client()
            self._client.invoke(
                FunctionName=self._function,
                InvocationType="Event",
                Payload=request.model_dump_json(by_alias=True, exclude_none=True).encode(),
            )
        except Exception:
            # A push is a courtesy: the write that called for it stands.
            logger.exception("push not handed over", kind=request.kind)
            metrics.add_metric(name="PushNotQueued", unit=MetricUnit.Count, value=1)


def pusher(
    item: ItemModel, function_name: str | None, region: str, endpoint_url: str | None
) -> Pusher:
    """A function's `Pusher`: a Lambda client made on its first push (none without a push
    function)."""
    if not function_name:
        return NoPusher()

    def client() -> Any:
        return botocore_session(item).create_client(
            "lambda", region_name=region, endpoint_url=endpoint_url, config=_CONFIG
        )

    return LambdaPusher(client, function_name)
