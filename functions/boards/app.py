"""The results' HTTP API: leaderboards (R1, R3), rating boards (issue 32), a player's
statistics (R4), head-to-head (S4), favorites (S1's one-way follow), the public page (R5:
HTML for people, JSON for machines; no sign-in), and the open game database (issue 32: the
months exported and a link to each file, no sign-in). Each route parses its request, calls one
method of the results or ratings service and maps the answer or the error to a reply."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

import base64
import hashlib
import re
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.competition.messages import RatingBoardView
from yamb.competition.ratings import pool
from yamb.i18n import Language, Text, negotiate
from yamb.opendb.errors import OpenDbError
from yamb.opendb.views import DatabaseFileLink, DatabaseView
from yamb.results import periods
from yamb.results.boards import board
from yamb.results.errors import ResultsError
from yamb.results.messages import (
    BoardView,
    FavoritesView,
    HeadToHeadView,
    PastGamesView,
    StatisticsView,
)
from yamb.results.page import missing_page, statistics_page
from yamb.session.fairness_page import PublicFairnessView
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.competition.wiring import public_fairness_reader, ratings_service
from yamb_service.edge.http_api import (
    NO_SUCH_ROUTE,
    HttpApi,
    Parameter,
    Response,
    Routes,
    add_common_handlers,
    error_reply,
    json_reply,
    on_error,
    player_id,
    resolve,
)
from yamb_service.results.wiring import results_service

app = HttpApi()

routes = Routes(
    app,
    statuses={
        "unknown_player": 404,
        "unknown_game": 404,
        "deal_in_play": 409,
        "favorite_self": 400,
        "too_many_favorites": 409,
        "unknown_file": 404,
        "busy": 503,
    },
)
_BOARD_PARAMETERS = (
    Parameter("format", "individual (default) or pairs", enum=("individual", "pairs")),
    Parameter("columns", "main (default: the best per preset summed) or a preset 1-7"),
    Parameter("side", "best (default) or sum", enum=("best", "sum")),
    Parameter("period", "all (default), month, week, a month (2026-12) or an ISO week (2026-W49)"),
    Parameter("kind", "all (default) or favorites"),
)


# The public page's one style sheet, allowed by its hash: the page runs no script and loads
# nothing (docs/results.md).
_STYLE = "body{font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem}"
_STYLE_HASH = base64.b64encode(hashlib.sha256(_STYLE.encode()).digest()).decode()
PAGE_HEADERS = {
    "Content-Security-Policy": (
        f"default-src 'none'; style-src 'sha256-{_STYLE_HASH}'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _only(parameters: tuple[Parameter, ...], refusal: Callable[[str], Text]) -> None:
    """Refuses a query parameter the route does not know, naming the first one."""
    unknown = set(app.current_event.query_string_parameters or {}) - {p.name for p in parameters}
    if unknown:
        name = sorted(unknown)[0]
        raise ResultsError(refusal(name), field=name)


def _query(name: str, default: str) -> str:
    """The parameter, or `default` when absent; an empty value is a value (and refused)."""
    value = app.current_event.get_query_string_value(name)
    return default if value is None else value


@routes.get("/boards", "A leaderboard", BoardView, parameters=_BOARD_PARAMETERS)
def leaderboard() -> Response[str]:
    _only(
        _BOARD_PARAMETERS,
        lambda name: Text(
            "unknown filter '{name}': format, columns, side, period, kind", name=name
        ),
    )
    service = results_service()
    period = periods.parse(_query("period", "all"), service.now())
    target = board(
        _query("format", "individual"), _query("columns", "main"), _query("side", "best"), period
    )
    viewer = player_id(app.current_event)
    return json_reply(200, service.board(viewer, target, _query("kind", "all")))


_RATING_PARAMETERS = (
    Parameter("format", "individual (default) or pairs", enum=("individual", "pairs")),
    Parameter(
        "family",
        "yamb-1 (default) to yamb-7 (Yamb by column preset), classic, scandinavian, yacht or "
        "generala",
    ),
)


@routes.get(
    "/ratings",
    "A rating board: skill ratings, best first",
    RatingBoardView,
    parameters=_RATING_PARAMETERS,
)
def rating_board() -> Response[str]:
    _only(
        _RATING_PARAMETERS, lambda name: Text("unknown filter '{name}': format, family", name=name)
    )
    target = pool(_query("format", "individual"), _query("family", "yamb-1"))
    return json_reply(200, ratings_service().board(player_id(app.current_event), target))


@routes.get("/players/{nickname}/statistics", "A player's statistics", StatisticsView)
def statistics(nickname: str) -> Response[str]:
    viewer = player_id(app.current_event)
    return json_reply(200, results_service().statistics(nickname, viewer))


@routes.get(
    "/players/{nickname}/head-to-head",
    "The caller's games against a player",
    HeadToHeadView,
    parameters=(Parameter("before", "The page before this one (a previous page's cursor)."),),
)
def head_to_head(nickname: str) -> Response[str]:
    event = app.current_event
    before = event.get_query_string_value("before") or None
    return json_reply(200, results_service().head_to_head(player_id(event), nickname, before))


@routes.get(
    "/me/games",
    "The caller's own past games, newest first",
    PastGamesView,
    parameters=(Parameter("before", "The page before this one (a previous page's cursor)."),),
)
def past_games() -> Response[str]:
    event = app.current_event
    before = event.get_query_string_value("before") or None
    return json_reply(200, results_service().past_games(player_id(event), before))


@routes.get("/me/favorites", "The players the caller follows", FavoritesView)
def favorites() -> Response[str]:
    return json_reply(200, results_service().favorites(player_id(app.current_event)))


@routes.put("/me/favorites/{nickname}", "A player followed", FavoritesView)
def follow(nickname: str) -> Response[str]:
    viewer = player_id(app.current_event)
    return json_reply(200, results_service().follow(viewer, nickname, on=True))


@routes.delete("/me/favorites/{nickname}", "A player no longer followed", FavoritesView)
def unfollow(nickname: str) -> Response[str]:
    viewer = player_id(app.current_event)
    return json_reply(200, results_service().follow(viewer, nickname, on=False))


@routes.get(
    "/pages/{nickname}",
    "A player's public page: JSON, or HTML for a browser (cached a minute)",
    StatisticsView,
    public=True,
    page=True,
)
def public_page(nickname: str) -> Response[str]:
    try:
        view = results_service().public_page(nickname)
    except ResultsError as error:
        if error.code != "unknown_player" or not _wants_page():
            raise
        return _page(404, missing_page(_visitor_language(), _STYLE))
    if _wants_page():
        return _page(200, statistics_page(view, _visitor_language(), _STYLE))
    reply = json_reply(200, view)
    reply.headers.update(PAGE_HEADERS)
    return reply


@routes.get(
    "/games/{gameId}/fairness",
    "A game's dice commitment, the same for everyone (cached 5 s, a day once ended)",
    PublicFairnessView,
    public=True,
)
def game_fairness(game_id: str) -> Response[str]:
    if not _GAME_ID.fullmatch(game_id):
        raise ResultsError(
            Text("a game id is 1 to 40 letters, digits, - or _"),
            code="unknown_game",
            field="gameId",
        )
    view = public_fairness_reader().page(game_id)
    reply = json_reply(200, view)
    ended = view.status in ("finished", "cancelled")
    reply.headers["Cache-Control"] = f"public, max-age={86_400 if ended else 5}"
    return reply


_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


@routes.get(
    "/database",
    "The open game database: every month exported, its files, their sizes and SHA-256, and "
    "the licence (cached an hour)",
    DatabaseView,
    public=True,
)
def game_database() -> Response[str]:
    from yamb_service.opendb.wiring import opendb_reader  # noqa: PLC0415 - its first request

    return json_reply(200, opendb_reader().view(), cache="public, max-age=3600")


@routes.get(
    "/database/{file}",
    "A file of the open game database: a redirect to where it downloads (cached 5 minutes)",
    DatabaseFileLink,
    status=302,
    public=True,
)
def game_database_file(file: str) -> Response[str]:
    from yamb_service.opendb.wiring import opendb_reader  # noqa: PLC0415 - its first request

    url = opendb_reader().link(file)
    reply = json_reply(302, DatabaseFileLink(url=url), cache="public, max-age=300")
    reply.headers["Location"] = url
    return reply


def _wants_page() -> bool:
    accept = app.current_event.headers.get("accept") or ""
    return "text/html" in accept and "application/json" not in accept


def _visitor_language() -> Language:
    """The page's language: the visitor's browser's (Accept-Language); a public page has no
    signed-in reader."""
    return negotiate(app.current_event.headers.get("accept-language"))


def _page(status: int, body: str) -> Response[str]:
    # A page switched off is gone at once: only a page that exists may be kept a minute, and
    # a cache keeps one copy per language.
    cache = "public, max-age=60" if status == 200 else "no-store"
    return Response(
        status_code=status,
        content_type="text/html; charset=utf-8",
        body=body,
        headers={
            "Cache-Control": cache,
            "Content-Language": _visitor_language(),
            "Vary": "Accept, Accept-Language",
        }
        | PAGE_HEADERS,
    )


# ---------------------------------------------------------------------- errors


@on_error(app, OpenDbError)
def database_refused(error: OpenDbError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    return error_reply(routes.statuses.get(error.code, 400), error.code, error.text, error.field)


@on_error(app, ResultsError)
def refused(error: ResultsError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    status = routes.statuses.get(error.code, 400)
    return error_reply(status, error.code, error.text, error.field)


add_common_handlers(app)


@app.not_found
def not_found(error: Exception) -> Response[str]:
    if app.current_event.path.startswith("/pages/") and _wants_page():
        return _page(404, missing_page(_visitor_language(), _STYLE))  # e.g. an id name
    return error_reply(404, "not_found", NO_SUCH_ROUTE)


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(app, event, context)
