"""The Lambda context object of one local invocation: the attributes handlers and Powertools
read. The gateway and the embedded AWS both hand it to the handlers they call."""

import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DEFAULT_MEMORY_MB = 128


@dataclass
class LocalLambdaContext:
    function_name: str
    invoked_function_arn: str
    timeout_seconds: float
    memory_limit_in_mb: int = DEFAULT_MEMORY_MB
    function_version: str = "$LATEST"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    log_group_name: str = ""
    log_stream_name: str = field(
        default_factory=lambda: f"{datetime.now(UTC):%Y/%m/%d}/[$LATEST]{uuid.uuid4().hex}"
    )
    identity: Any = None
    client_context: Any = None
    tenant_id: str | None = None
    _deadline: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        if not self.log_group_name:
            self.log_group_name = f"/aws/lambda/{self.function_name}"
        self._deadline = time.monotonic() + self.timeout_seconds

    def get_remaining_time_in_millis(self) -> int:
        """Milliseconds left before this invocation's timeout (never negative)."""
        return max(0, int((self._deadline - time.monotonic()) * 1000))
