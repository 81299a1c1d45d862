"""The reports' routes (S5), their review by operators, and the contact form (S6), on the
social HTTP API (functions/social)."""

from yamb.social.moderation_messages import (
    CasesView,
    ContactRequest,
    ContactView,
    ReportRequest,
    ReportView,
    ReviewRequest,
)
from yamb.social.reports import Case

from yamb_service.edge.http_api import HttpApi, Response, Routes, body, json_reply, player_id
from yamb_service.social.wiring import moderation_service

router = HttpApi()
routes = Routes(router)


@routes.post(
    "/reports",
    "Report a player or one message (the content is attached by the server); the third "
    "different reporter hides it until reviewed",
    ReportView,
    status=201,
    request=ReportRequest,
)
def report() -> Response[str]:
    event = router.current_event
    filed = moderation_service().report(player_id(event), body(event, ReportRequest))
    return json_reply(201, filed)


@routes.get(
    "/moderation/cases", "The reports waiting for review, oldest first (operators)", CasesView
)
def cases() -> Response[str]:
    return json_reply(200, moderation_service().queue(player_id(router.current_event)))


@routes.post(
    "/moderation/cases/{caseId}",
    "Review a case: dismiss (shown again), hide, warn (a mail to the player) or ban (operators)",
    Case,
    request=ReviewRequest,
)
def review(case_id: str) -> Response[str]:
    event = router.current_event
    reviewed = moderation_service().review(player_id(event), case_id, body(event, ReviewRequest))
    return json_reply(200, reviewed)


@routes.post(
    "/contact",
    "A message to the author, delivered by mail (3 a day)",
    ContactView,
    status=201,
    request=ContactRequest,
)
def contact() -> Response[str]:
    event = router.current_event
    sent = moderation_service().contact(player_id(event), body(event, ContactRequest))
    return json_reply(201, sent)
