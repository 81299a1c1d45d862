"""The one place that creates the Logger and the Metrics of every function."""

import functools
from collections.abc import Callable

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger()
metrics = Metrics()
# Where a WebSocket event carries API Gateway's request id (Powertools' REST path: the same).
CORRELATION_ID = "requestContext.requestId"
# What a scheduled job's failed run counts (stacks/monitoring.yaml alarms on it).
JOB_FAILED = "JobFailed"

__all__ = ["CORRELATION_ID", "JOB_FAILED", "MetricUnit", "counts_job_failure", "logger", "metrics"]


def counts_job_failure[**P, R](handler: Callable[P, R]) -> Callable[P, R]:
    """A scheduled job's handler (under `metrics.log_metrics`, which flushes on a raise too): a
    run that raises counts one JobFailed and raises on, so that Lambda retries the event and,
    past its retries, sends it to the job's dead-letter queue. Never a failure answered as a
    success."""

    @functools.wraps(handler)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return handler(*args, **kwargs)
        except Exception:
            metrics.add_metric(name=JOB_FAILED, unit=MetricUnit.Count, value=1)
            logger.exception("the job failed")
            raise

    return run
