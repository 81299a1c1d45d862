"""The public fairness page of a game (GET /games/{gameId}/fairness, no sign-in): read from the
game item, nothing written (built in yamb_service.competition.wiring)."""

from collections.abc import Callable

from yamb.i18n import Text
from yamb.results.errors import ResultsError
from yamb.session.fairness_page import PublicFairnessView
from yamb.session.model import GameSession
from yamb.session.views import fairness_of

from yamb_service.game.ports import GameNotFoundError


def public_fairness(session: GameSession) -> PublicFairnessView | None:
    """The game's fairness as anyone may read it, as its frames show it; None for real dice
    (nothing to verify)."""
    shown = fairness_of(session)
    if shown is None:
        return None
    return PublicFairnessView(game_id=session.game_id, status=session.status, **shown.model_dump())


class PublicFairness:
    def __init__(self, load: Callable[[str], GameSession]) -> None:
        self._load = load

    def page(self, game_id: str) -> PublicFairnessView:
        unknown = ResultsError(
            Text("no game '{game}' with verifiable dice", game=game_id),
            code="unknown_game",
            field="gameId",
        )
        try:
            view = public_fairness(self._load(game_id))
        except GameNotFoundError:
            raise unknown from None
        if view is None:
            raise unknown
        return view
