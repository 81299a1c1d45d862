"""The results' HTTP API: leaderboards (R1, R3), a player's statistics (R4), head-to-head
(S4), favorites (S1's one-way follow), and the public page (R5: HTML for people, JSON for
machines; no sign-in). Each route parses its request, calls one method of the results service
and maps the answer or the error to a reply."""

import gc

gc.disable()  # until the first invocation is over: yamb_service.common.warmup

import html
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.utilities.typing import LambdaContext
from yamb.results import periods
from yamb.results.boards import board
from yamb.results.errors import ResultsError
from yamb.results.messages import StatisticsView
from yamb_service.common.observability import logger, metrics
from yamb_service.common.warmup import collector_after_first_call
from yamb_service.edge.http_api import add_common_handlers, error_reply, json_reply, resolve
from yamb_service.results.wiring import results_service

app = APIGatewayHttpResolver()

_STATUS = {
    "unknown_player": 404,
    "favorite_self": 400,
    "too_many_favorites": 409,
    "busy": 503,
}
_BOARD_PARAMETERS = frozenset({"format", "columns", "side", "period", "kind"})


def _player_id() -> str:
    return str(app.current_event.request_context.authorizer.get_lambda["playerId"])


def _query(name: str, default: str) -> str:
    """The parameter, or `default` when absent; an empty value is a value (and refused)."""
    value = app.current_event.get_query_string_value(name)
    return default if value is None else value


@app.get("/boards")
def leaderboard() -> Response[str]:
    unknown = set(app.current_event.query_string_parameters or {}) - _BOARD_PARAMETERS
    if unknown:
        name = sorted(unknown)[0]
        raise ResultsError(
            f"unknown filter {name!r}: format, columns, side, period, kind", field=name
        )
    service = results_service()
    period = periods.parse(_query("period", "all"), service.now())
    target = board(
        _query("format", "individual"), _query("columns", "main"), _query("side", "best"), period
    )
    return json_reply(200, service.board(_player_id(), target, _query("kind", "all")))


@app.get("/players/<nickname>/statistics")
def statistics(nickname: str) -> Response[str]:
    return json_reply(200, results_service().statistics(nickname))


@app.get("/players/<nickname>/head-to-head")
def head_to_head(nickname: str) -> Response[str]:
    before = app.current_event.get_query_string_value("before") or None
    return json_reply(200, results_service().head_to_head(_player_id(), nickname, before))


@app.get("/me/favorites")
def favorites() -> Response[str]:
    return json_reply(200, results_service().favorites(_player_id()))


@app.put("/me/favorites/<nickname>")
def follow(nickname: str) -> Response[str]:
    return json_reply(200, results_service().follow(_player_id(), nickname, on=True))


@app.delete("/me/favorites/<nickname>")
def unfollow(nickname: str) -> Response[str]:
    return json_reply(200, results_service().follow(_player_id(), nickname, on=False))


@app.get("/pages/<nickname>")
def public_page(nickname: str) -> Response[str]:
    try:
        view = results_service().public_page(nickname)
    except ResultsError as error:
        if error.code != "unknown_player" or not _wants_page():
            raise
        return _page(404, "No such page", "This player has no public page.")
    if _wants_page():
        return _page(200, view.nickname, "", _statistics_html(view))
    return json_reply(200, view)


def _wants_page() -> bool:
    accept = app.current_event.headers.get("accept") or ""
    return "text/html" in accept and "application/json" not in accept


def _page(status: int, title: str, text: str, content: str = "") -> Response[str]:
    # A page switched off is gone at once: only a page that exists may be kept a minute.
    cache = "public, max-age=60" if status == 200 else "no-store"
    paragraph = f"<p>{html.escape(text)}</p>" if text else ""
    body = (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)} · Yamb</title>"
        "<body style='font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem'>"
        f"<h1>{html.escape(title)}</h1>{paragraph}{content}</body></html>"
    )
    return Response(
        status_code=status,
        content_type="text/html; charset=utf-8",
        body=body,
        headers={"Cache-Control": cache, "Referrer-Policy": "no-referrer"},
    )


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share * 100:.0f} %"


def _statistics_html(view: StatisticsView) -> str:
    e = html.escape
    figures = [
        ("Games", str(view.games)),
        ("Wins", _percent(view.win_rate)),
        ("Main board", "-" if view.main_board_place is None else f"#{view.main_board_place}"),
        ("Medals", str(view.medals.gold + view.medals.silver + view.medals.bronze)),
        ("Won / lost", f"{view.wins} / {view.losses}"),
        ("Abandoned", str(view.abandoned)),
        ("Bonus", _percent(view.rates.bonus)),
        ("Yamb", _percent(view.rates.yamb)),
        ("Poker", _percent(view.rates.poker)),
        ("Crossed out", _percent(view.rates.crossed_out)),
    ]
    rows = "".join(f"<tr><th align=left>{e(n)}</th><td>{e(v)}</td></tr>" for n, v in figures)
    records = "".join(
        f"<tr><th align=left>{e(kind)}</th><td>{record.score}</td></tr>"
        for kind, record in sorted(view.records.items())
    )
    about = f"<p>{e(view.description)}</p>" if view.description else ""
    flag = f"<p>Country: {e(view.country)}</p>" if view.country else ""
    return f"{about}{flag}<table>{rows}</table>" + (
        f"<h2>Records</h2><table>{records}</table>" if records else ""
    )


# ---------------------------------------------------------------------- errors


@app.exception_handler(ResultsError)
def refused(error: ResultsError) -> Response[str]:
    logger.info("request refused", code=error.code, field=error.field)
    return error_reply(_STATUS.get(error.code, 400), error.code, error.message, error.field)


add_common_handlers(app)


@app.not_found
def not_found(error: Exception) -> Response[str]:
    if app.current_event.path.startswith("/pages/") and _wants_page():
        return _page(404, "No such page", "This player has no public page.")  # e.g. an id name
    return error_reply(404, "not_found", "no such route")


@collector_after_first_call
@logger.inject_lambda_context(clear_state=True, correlation_id_path="requestContext.requestId")
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return dict(resolve(app, event, context))
