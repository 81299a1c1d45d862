"""The referral routes of progression's HTTP API (functions/progression): the player's code,
link, referrer and invitees; taking a referrer; choosing an invitee's scheme."""

from yamb.progression.referral_messages import (
    InviteeView,
    ReferralView,
    ReferrerRequest,
    ReferrerView,
    SchemeRequest,
)

from yamb_service.edge.http_api import HttpApi, Response, Routes, body, json_reply, player_id
from yamb_service.progression.wiring import referral_service

router = HttpApi()
routes = Routes(router)


@routes.get("/me/referral", "The caller's code and link, referrer and invitees", ReferralView)
def referral() -> Response[str]:
    return json_reply(200, referral_service().referral(player_id(router.current_event)))


@routes.put(
    "/me/referrer", "A referrer taken, by their code", ReferrerView, request=ReferrerRequest
)
def take_referrer() -> Response[str]:
    event = router.current_event
    code = body(event, ReferrerRequest).code
    return json_reply(200, referral_service().take_referrer(player_id(event), code))


@routes.put(
    "/me/referral/invitees/{nickname}/scheme",
    "The reward scheme chosen for an invitee",
    InviteeView,
    request=SchemeRequest,
)
def choose_scheme(nickname: str) -> Response[str]:
    event = router.current_event
    scheme = body(event, SchemeRequest).scheme
    service = referral_service()
    return json_reply(200, service.choose_scheme(player_id(event), nickname, scheme, service.now()))
