"""The table's stream, filtered to the `ENDED` items that game endings write: each finished game
is recorded into statistics, head-to-heads and leaderboards (yamb_service.results). Records are
handled one by one and a failed one is reported alone (ReportBatchItemFailures), so the stream
retries just it; recording is idempotent, so a retried or repeated record counts once."""

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
from yamb_service.results_wiring import results_recorder
from yamb_service.warmup import collector_after_first_call

processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def record_game(record: DynamoDBRecord) -> None:
    # powertools hands the record as `record=`: the name is part of the contract.
    image = record.dynamodb.new_image if record.dynamodb is not None else None
    if not image or "body" not in image:
        logger.warning("stream record without a game's end", event_id=record.event_id)
        return
    ended = GameResult.model_validate_json(base64.b64decode(str(image["body"])))
    logger.append_keys(game_id=ended.game_id)
    results_recorder().record(ended)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return process_partial_response(
        event=event, record_handler=record_game, processor=processor, context=context
    )
