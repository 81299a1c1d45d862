"""The errors every domain's services may raise alike."""

from yamb.errors import ErrorCode, YambError
from yamb.i18n import Text


class ServiceBusyError(YambError):
    """AWS throttled or failed a request, past botocore's own retries: nothing was changed, or
    the change stands and a repeat of the same request (same requestId) is answered as applied;
    either way sending it again is safe."""

    code: ErrorCode = "busy"

    def __init__(self) -> None:
        super().__init__(Text("the server is busy: send the same action again in a moment"))
