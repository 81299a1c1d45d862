"""Fair play's route on the social HTTP API (functions/social): a player's own yellow cards."""

from yamb.social.fairplay import FairplayStanding, standing_of

from yamb_service.edge.http_api import HttpApi, Response, Routes, json_reply, player_id
from yamb_service.social.wiring import fairplay_store

router = HttpApi()
routes = Routes(router)


@routes.get(
    "/me/fairplay",
    "Your fair-play standing: yellow cards (three ban the account) and checks passed",
    FairplayStanding,
)
def standing() -> Response[str]:
    record = fairplay_store().get(player_id(router.current_event))
    return json_reply(200, standing_of(record))
