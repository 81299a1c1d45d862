"""A timer woke a game (a lane's heartbeat ran out, or a one-shot wake reached its instant):
every deadline due by now applies; a lane gets back its next input.

The same function takes the replays of the timer retry queue: a timer whose calls here kept
failing hands its event to the queue (statemachines/), and each record's body is that event."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.game.timers import CLOCK_EVENTS, ClockEvent, LaneLost, LaneWoken
from yamb_service.game.wiring import game_service

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any] | None:
    if "Records" in event:
        return _replay(event, context)
    woken = CLOCK_EVENTS.validate_python(event)
    decision = _wake(woken, lost=isinstance(woken, LaneLost))
    logger.info("woken", rearm=None if decision is None else decision["rearm"])
    return decision


def _wake(woken: ClockEvent, *, lost: bool) -> dict[str, Any] | None:
    lane = woken.lane if isinstance(woken, LaneWoken | LaneLost) else None
    logger.append_keys(game_id=woken.game_id, source=woken.source, lane=lane)
    decision = game_service().wake(woken.game_id, lane=lane, lost=lost)
    return None if decision is None else decision.model_dump(by_alias=True)


def _replay(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """A batch of the timer retry queue: each record wakes its game; a record that fails is
    reported alone and comes back after the queue's visibility timeout."""
    # Only here: the Step Functions path's cold start does not import the batch utility.
    from aws_lambda_powertools.utilities.batch import (  # noqa: PLC0415
        BatchProcessor,
        EventType,
        process_partial_response,
    )

    def replayed(record: "SQSRecord") -> None:
        logger.remove_keys(["game_id", "source", "lane"])  # those of the previous record
        receives = int(record.attributes.approximate_receive_count or 0)
        try:
            woken = CLOCK_EVENTS.validate_json(record.body)
            # No execution waits for an answer any more: a lane's event means the lane is lost.
            _wake(woken, lost=isinstance(woken, LaneWoken | LaneLost))
        except Exception:
            logger.exception("replay failed", message_id=record.message_id, receives=receives)
            raise
        logger.info("replayed", message_id=record.message_id, receives=receives)

    return dict(
        process_partial_response(
            event=event,
            record_handler=replayed,
            processor=BatchProcessor(event_type=EventType.SQS),
            context=context,
        )
    )
