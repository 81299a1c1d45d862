"""The table's stream as the functions that follow finished games take it (rewards, results):
each `ENDED` insert is one game's end. Records are handled one by one and a failed one is
reported alone (ReportBatchItemFailures), so the stream retries just it; what a function does
with a game's end must be idempotent, as a record may come again.

The loop is ours, not Powertools' batch utility: that utility imports asyncio, every event
source's data classes and the parser's models (about 40 ms of each cold start, decisions.md 99)
for what these few lines do. It answers as the utility's `BatchProcessor` for DynamoDB streams
does: each failed record's `SequenceNumber` in `batchItemFailures`, and when every record of the
batch failed an error (BatchFailedError), so that Lambda retries the whole batch."""

import base64
import traceback
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.session.results import GameResult

from yamb_service.common.observability import logger


class BatchFailedError(Exception):
    """Every record of the batch failed (as Powertools' BatchProcessingError): the message
    carries each record's exception."""


def game_end(record: dict[str, Any]) -> GameResult | None:
    """The game's end a stream record carries (None, logged: a record without one)."""
    image = (record.get("dynamodb") or {}).get("NewImage") or {}
    if "body" not in image:
        logger.warning("stream record without a game's end", event_id=record.get("eventID"))
        return None
    # The attribute as the stream's JSON gives it ({"B": base64 text}), its one value taken.
    (value,) = image["body"].values()
    ended = GameResult.model_validate_json(base64.b64decode(str(value)))
    logger.append_keys(game_id=ended.game_id)
    return ended


def handle_game_ends(
    event: dict[str, Any], context: LambdaContext, on_end: Callable[[GameResult], object]
) -> dict[str, Any]:
    """`on_end` for each game's end of a batch; the failed records, for the stream to retry."""
    records = event.get("Records")
    if not records or not isinstance(records, list):
        raise ValueError("not a batch of DynamoDB stream records")
    failed: list[dict[str, str]] = []
    errors: list[BaseException] = []
    for record in records:
        try:
            ended = game_end(record)
            if ended is not None:
                on_end(ended)
        except Exception as error:
            errors.append(error)
            failed.append({"itemIdentifier": record["dynamodb"]["SequenceNumber"]})
    if errors and len(errors) == len(records):
        raise BatchFailedError(
            f"All records failed processing. {len(errors)} individual errors:\n"
            + "\n".join("".join(traceback.format_exception(error)) for error in errors)
        )
    return {"batchItemFailures": failed}
