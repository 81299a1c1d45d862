"""The table's stream, filtered to the `ENDED` items that game endings write: each finished game
is recorded into statistics, head-to-heads and leaderboards (yamb_service.results.service), the
players' skill ratings (yamb_service.competition.service), a tournament's standings, then
into the scores of its players' clubs (yamb_service.clubs.board), then into progression:
tasks, referrals, badges (yamb_service.progression.events); a public game is then staged for
its month's open database (yamb_service.opendb). A failed record is
retried alone (yamb_service.edge.game_ends); recording is idempotent, so a retried or repeated
record counts once."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.session.results import GameResult
from yamb_service.clubs.wiring import club_board
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.competition.wiring import (
    ratings_recorder,
    season_service,
    tournament_service,
)
from yamb_service.edge.game_ends import handle_game_ends
from yamb_service.opendb.wiring import opendb_stager
from yamb_service.progression.events import record_game
from yamb_service.results.wiring import results_recorder


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    def recorded(ended: GameResult) -> None:
        results_recorder().record(ended)
        ratings_recorder().record(ended)
        season_service().record(ended)  # its season points (after the ratings: a first league)
        tournament_service().record(ended)  # a tournament's game: its standings
        # After the boards: the clubs of its players score again from their rows (C7).
        club_board().after_result(ended)
        record_game(ended)
        opendb_stager().stage(ended)  # a public game, for its month's export

    return handle_game_ends(event, context, recorded)
