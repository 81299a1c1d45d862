"""The asking side: a function hands a push to the push function as an asynchronous Lambda
invocation (Lambda queues it and retries it twice), so that neither pywebpush nor a push
service's answer is on the game's, the clock's or the prizes' path."""

from collections.abc import Callable
from typing import Any

from yamb.push.messages import PushRequest

from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.push.ports import NoPusher, Pusher


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


def pusher(function_name: str | None, make_client: Callable[[], Any]) -> Pusher:
    """A function's `Pusher`: `make_client` makes its Lambda client on the first push (none
    without a push function)."""
    return LambdaPusher(make_client, function_name) if function_name else NoPusher()
