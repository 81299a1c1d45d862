"""The table's stream as the functions that follow finished games take it (rewards, results):
each `ENDED` insert is one game's end. Records are handled one by one and a failed one is
reported alone (ReportBatchItemFailures), so the stream retries just it; what a function does
with a game's end must be idempotent, as a record may come again."""

import base64
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.session.results import GameResult

from yamb_service.common.observability import logger

_processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def game_end(record: DynamoDBRecord) -> GameResult | None:
    """The game's end a stream record carries (None, logged: a record without one)."""
    image = record.dynamodb.new_image if record.dynamodb is not None else None
    if not image or "body" not in image:
        logger.warning("stream record without a game's end", event_id=record.event_id)
        return None
    ended = GameResult.model_validate_json(base64.b64decode(str(image["body"])))
    logger.append_keys(game_id=ended.game_id)
    return ended


def handle_game_ends(
    event: dict[str, Any], context: LambdaContext, on_end: Callable[[GameResult], object]
) -> dict[str, Any]:
    """`on_end` for each game's end of a batch; the failed records, for the stream to retry."""

    def handle(record: DynamoDBRecord) -> None:  # powertools passes it as `record=`
        ended = game_end(record)
        if ended is not None:
            on_end(ended)

    return dict(
        process_partial_response(
            event=event, record_handler=handle, processor=_processor, context=context
        )
    )
