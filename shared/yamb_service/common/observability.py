"""The one place that creates the Logger and the Metrics of every function."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger()
metrics = Metrics()
# Where a WebSocket event carries API Gateway's request id (Powertools' REST path: the same).
CORRELATION_ID = "requestContext.requestId"

__all__ = ["CORRELATION_ID", "MetricUnit", "logger", "metrics"]
