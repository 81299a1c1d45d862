"""The tournaments' HTTP API (issue 32, docs/competition.md): the list and a tournament's page
with its live standings (public, cached a few seconds), an entry (signed in: its fee taken from
the wallet), a tournament created by an operator, and the current season's league table. Each
route parses its request, calls one method of its service and maps the answer or the error to a
reply."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

import re
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.competition.seasons import LEAGUES
from yamb.competition.tournament_views import (
    NewTournament,
    SeasonView,
    TournamentEntryView,
    TournamentListView,
    TournamentPageView,
    TournamentSummaryView,
    tournament_page,
)
from yamb.competition.tournaments import TournamentError
from yamb.i18n import Text
from yamb_service.common import clock
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.competition.season_views import season_view
from yamb_service.competition.wiring import operators, season_service, tournament_service
from yamb_service.edge.http_api import (
    NO_SUCH_ROUTE,
    HttpApi,
    Parameter,
    Response,
    Routes,
    add_common_handlers,
    body,
    error_reply,
    json_reply,
    on_error,
    player_id,
    resolve,
)

app = HttpApi()
routes = Routes(app, statuses={})
_TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The standings move as games end: a reader may be a few seconds behind, no more.
LIVE = "public, max-age=3"


def _checked(tournament_id: str) -> str:
    if not _TOURNAMENT_ID.fullmatch(tournament_id):
        raise TournamentError(
            Text("there is no such tournament"), code="unknown_tournament", status=404
        )
    return tournament_id


@routes.get("/tournaments", "Tournaments: coming, running and past, latest first",
            TournamentListView, public=True)  # fmt: skip
def listed() -> Response[str]:
    found = [TournamentSummaryView.of(t) for t in tournament_service().listed()]
    return json_reply(200, TournamentListView(tournaments=found), cache=LIVE)


@routes.get("/tournaments/{tournamentId}", "A tournament: its standings, games and dice, the "
            "caller's entry marked", TournamentPageView)  # fmt: skip
def page(tournament_id: str) -> Response[str]:
    # Signed in: the page marks the caller's entry and game, so no cache may share it.
    state = tournament_service().state(_checked(tournament_id))
    viewer = player_id(app.current_event)
    view = tournament_page(state.tournament, state.entries, state.games.values(), viewer)
    return json_reply(200, view)


@routes.post("/tournaments/{tournamentId}/entry", "The caller enters (its fee paid in tokens)",
             TournamentEntryView)  # fmt: skip
def enter(tournament_id: str) -> Response[str]:
    event = app.current_event
    nickname = str(event.request_context.authorizer.get_lambda.get("nickname") or "")
    entry = tournament_service().enter(
        _checked(tournament_id), player_id(event), nickname, clock.now()
    )
    view = TournamentEntryView(
        tournament_id=tournament_id, nickname=entry.nickname, paid=entry.paid
    )
    return json_reply(201, view)


@routes.post("/tournaments", "A tournament created by an operator", TournamentSummaryView)
def create() -> Response[str]:
    event = app.current_event
    plan = body(event, NewTournament)
    if not operators().is_operator(player_id(event)):
        raise TournamentError(
            Text("only an operator can create a tournament"), code="not_an_operator", status=403
        )
    tournament = tournament_service().create(plan, clock.now())
    return json_reply(201, TournamentSummaryView.of(tournament))


_SEASON_PARAMETERS = (
    Parameter("league", "bronze, silver, gold, platinum or diamond (default: the caller's)"),
)


@routes.get("/seasons/current", "The current season: a league's table and the caller's badges",
            SeasonView, parameters=_SEASON_PARAMETERS)  # fmt: skip
def current_season() -> Response[str]:
    event = app.current_event
    asked = event.get_query_string_value("league")
    if asked is not None and asked not in LEAGUES:
        raise TournamentError(
            Text("unknown league '{league}': bronze, silver, gold, platinum or diamond",
                 league=asked),
            code="unknown_league", status=400,
        )  # fmt: skip
    view = season_view(season_service(), player_id(event), clock.now(), asked)
    return json_reply(200, view)


@on_error(app, TournamentError)
def refused(error: TournamentError) -> Response[str]:
    logger.info("request refused", code=error.code)
    return error_reply(error.status, error.code, error.text, error.field)


add_common_handlers(app)


@app.not_found
def not_found(error: Exception) -> Response[str]:
    return error_reply(404, "not_found", NO_SUCH_ROUTE)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
