"""The public fairness page of a game (GET /games/{gameId}/fairness, no sign-in): read from the
game item, nothing written (built in yamb_service.competition.wiring)."""

from collections.abc import Callable

from yamb.i18n import Text
from yamb.results.errors import ResultsError
from yamb.session.fairness_page import PublicFairnessView, public_fairness
from yamb.session.model import GameSession

from yamb_service.game.ports import GameNotFoundError


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
