"""The public fairness page of a game (GET /games/{gameId}/fairness, no sign-in): read from the
game item, nothing written (built in yamb_service.competition.wiring). A duplicate tournament's
ended game is refused (`deal_in_play`) until the tournament is over: its seed would show every
other entrant's dice to come (yamb.session.deals); while it runs, its page shows no seed, as
any running game's."""

from collections.abc import Callable

from yamb.i18n import Text
from yamb.results.errors import ResultsError
from yamb.session import deals
from yamb.session.effects import GameActionError
from yamb.session.fairness_page import PublicFairnessView
from yamb.session.model import GameSession
from yamb.session.views import fairness_of

from yamb_service.game.ports import GameNotFoundError, NoTournaments, TournamentsOver


def public_fairness(session: GameSession, *, deal_over: bool = False) -> PublicFairnessView | None:
    """The game's fairness as anyone may read it, as its frames show it (with a deal game's
    seed when `deal_over`); None for real dice (nothing to verify)."""
    shown = fairness_of(session, deal_over=deal_over)
    if shown is None:
        return None
    return PublicFairnessView(game_id=session.game_id, status=session.status, **shown.model_dump())


class PublicFairness:
    def __init__(
        self, load: Callable[[str], GameSession], tournaments: TournamentsOver | None = None
    ) -> None:
        self._load = load
        self._tournaments = tournaments or NoTournaments()

    def page(self, game_id: str) -> PublicFairnessView:
        unknown = ResultsError(
            Text("no game '{game}' with verifiable dice", game=game_id),
            code="unknown_game",
            field="gameId",
        )
        try:
            session = self._load(game_id)
        except GameNotFoundError:
            raise unknown from None
        deal_over = False
        if deals.deal_of(session) is not None and not session.in_play:
            try:
                deals.require_shown(session, self._tournaments.over)
            except GameActionError as refused:
                raise ResultsError(refused.text, code="deal_in_play", field="gameId") from None
            deal_over = True
        view = public_fairness(session, deal_over=deal_over)
        if view is None:
            raise unknown
        return view
