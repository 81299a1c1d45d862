"""The table's stream, filtered to the `ENDED` items that game endings write: each is turned
into the winners' rewards (yamb_service.rewards). Records are handled one by one and a failed
one is reported alone (ReportBatchItemFailures), so the stream retries just it; paying is
idempotent, so a retried or repeated record pays nothing twice."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.warmup

import base64
from typing import Any

from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.session.results import GameResult
from yamb_service.observability import logger, metrics
from yamb_service.reward_wiring import reward_service
from yamb_service.warmup import collector_after_first_call

processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def pay(record: DynamoDBRecord) -> None:
    image = record.dynamodb.new_image if record.dynamodb is not None else None
    if not image or "body" not in image:
        logger.warning("stream record without a game's end", event_id=record.event_id)
        return
    ended = GameResult.model_validate_json(base64.b64decode(str(image["body"])))
    logger.append_keys(game_id=ended.game_id)
    reward_service().pay(ended)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return process_partial_response(
        event=event, record_handler=pay, processor=processor, context=context
    )
