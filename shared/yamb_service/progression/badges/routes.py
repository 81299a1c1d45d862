"""The badge routes (E8) of progression's HTTP API (functions/progression): the player's own
badges (paying what is due, as a login does) and another player's levels."""

from yamb.progression.badge_messages import BadgesView, PublicBadgesView

from yamb_service.edge.http_api import (
    HttpApi,
    Response,
    Routes,
    json_reply,
    player_id,
    reader_language,
)
from yamb_service.progression.wiring import badge_service

router = HttpApi()
routes = Routes(router)


@routes.get("/me/badges", "The caller's badges (what is due paid first)", BadgesView)
def my_badges() -> Response[str]:
    event = router.current_event
    return json_reply(200, badge_service().mine(player_id(event), reader_language(event)))


@routes.get("/players/{nickname}/badges", "A player's badge levels", PublicBadgesView)
def player_badges(nickname: str) -> Response[str]:
    return json_reply(
        200, badge_service().of_player(nickname, reader_language(router.current_event))
    )
