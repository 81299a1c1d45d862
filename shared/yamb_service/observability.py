"""The one place that creates the Logger and the Metrics of every function."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger()
metrics = Metrics()

__all__ = ["MetricUnit", "logger", "metrics"]
