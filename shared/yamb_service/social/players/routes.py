"""The players list's routes (S1) and blocks' (S2) on the social HTTP API
(functions/social)."""

from yamb.i18n import Text
from yamb.social.players import PlayersPage

from yamb_service.edge.http_api import (
    BadRequestError,
    HttpApi,
    Parameter,
    Response,
    Routes,
    json_reply,
    player_id,
)
from yamb_service.social.wiring import players_service

router = HttpApi()
routes = Routes(router)


@routes.get(
    "/players",
    "A page of the players by nickname, with presence (or those whose nickname starts with "
    "`prefix`, compared as nicknames are; `kind=favorites`: the players you follow, online "
    "first; `kind=blocked`: those you blocked)",
    PlayersPage,
    parameters=(
        Parameter(
            "kind", "all (the default), favorites or blocked", enum=("all", "favorites", "blocked")
        ),
        Parameter("prefix", "The nickname's first letters (kind=all)"),
        Parameter("cursor", "The `cursor` of the page before (kind=all)"),
    ),
)
def list_players() -> Response[str]:
    event = router.current_event
    reader = player_id(event)
    kind = event.get_query_string_value("kind") or "all"
    service = players_service()
    if kind == "favorites":
        return json_reply(200, service.favorites(reader))
    if kind == "blocked":
        return json_reply(200, service.blocked(reader))
    if kind != "all":
        raise BadRequestError(Text("kind is all, favorites or blocked"), field="kind")
    return json_reply(
        200,
        service.page(
            reader,
            prefix=event.get_query_string_value("prefix") or "",
            cursor=event.get_query_string_value("cursor"),
        ),
    )


@routes.put(
    "/me/blocks/{nickname}", "Block a player: they cannot message or invite you", PlayersPage
)
def block(nickname: str) -> Response[str]:
    return json_reply(200, players_service().block(player_id(router.current_event), nickname))


@routes.delete("/me/blocks/{nickname}", "Lift a block", PlayersPage)
def unblock(nickname: str) -> Response[str]:
    return json_reply(200, players_service().unblock(player_id(router.current_event), nickname))
