"""The clubs' routes (C1-C5) on the clubs' HTTP API (functions/clubs)."""

from yamb.clubs.messages import (
    AnswerRequest,
    ClubBoardView,
    ClubsPage,
    ClubView,
    DecisionRequest,
    DonatedView,
    DonationRequest,
    EditRequest,
    FoundRequest,
    HandOverRequest,
    InvitationView,
    InviteRequest,
    JoinedView,
    JoinRequest,
    MyClubsView,
    OrderRequest,
    RenameRequest,
    RoleRequest,
    TreasuryView,
)

from yamb_service.clubs.wiring import club_board, clubs_service
from yamb_service.edge.http_api import (
    IDEMPOTENCY_KEY,
    HttpApi,
    Parameter,
    Response,
    Routes,
    body,
    json_reply,
    player_id,
)

router = HttpApi()
routes = Routes(router)


def _me() -> str:
    return player_id(router.current_event)


# ---------------------------------------------------------------------- finding and founding


@routes.get(
    "/clubs",
    "Open clubs by name (or those whose name starts with `prefix`, whatever the case and "
    "look-alike letters), 20 a page",
    ClubsPage,
    parameters=(
        Parameter("prefix", "The name's first letters"),
        Parameter("after", "The `next` of the page before"),
    ),
)
def list_clubs() -> Response[str]:
    event = router.current_event
    page = clubs_service().page(
        _me(),
        prefix=event.get_query_string_value("prefix") or "",
        after=event.get_query_string_value("after") or "",
    )
    return json_reply(200, page)


@routes.post(
    "/clubs",
    "Found a club, free: you are its admin (one club, three with premium; admin of one)",
    ClubView,
    status=201,
    request=FoundRequest,
)
def found() -> Response[str]:
    return json_reply(201, clubs_service().found(_me(), body(router.current_event, FoundRequest)))


@routes.get(
    "/clubs/{clubId}",
    "A club's page: members, roles; for members the donations and the treasury, for its admin "
    "and deputies the requests",
    ClubView,
)
def club(club_id: str) -> Response[str]:
    return json_reply(200, clubs_service().view(_me(), club_id))


@routes.patch(
    "/clubs/{clubId}",
    "Change the tag, colours, avatar, description or entry (the admin)",
    ClubView,
    request=EditRequest,
)
def edit(club_id: str) -> Response[str]:
    asked = body(router.current_event, EditRequest)
    return json_reply(200, clubs_service().edit(_me(), club_id, asked))


@routes.delete(
    "/clubs/{clubId}",
    "Close the club (its admin, once the last member): the name is free again",
    MyClubsView,
)
def close(club_id: str) -> Response[str]:
    return json_reply(200, clubs_service().close(_me(), club_id))


# ---------------------------------------------------------------------- entry


@routes.post(
    "/clubs/{clubId}/join",
    "Join an open club (or one that invited you) at once; ask to join one by approval",
    JoinedView,
    request=JoinRequest,
    request_required=False,
)
def join(club_id: str) -> Response[str]:
    event = router.current_event
    asked = body(event, JoinRequest) if event.body else JoinRequest()
    return json_reply(200, clubs_service().join(_me(), club_id, asked.message))


@routes.delete("/clubs/{clubId}/request", "Take back your request to join", MyClubsView)
def withdraw(club_id: str) -> Response[str]:
    service = clubs_service()
    service.withdraw(_me(), club_id)
    return json_reply(200, service.mine(_me()))


@routes.post(
    "/clubs/{clubId}/requests/{nickname}",
    "Accept or refuse a request to join (the admin or a deputy)",
    ClubView,
    request=DecisionRequest,
)
def decide(club_id: str, nickname: str) -> Response[str]:
    asked = body(router.current_event, DecisionRequest)
    return json_reply(200, clubs_service().decide(_me(), club_id, nickname, accept=asked.accept))


@routes.post(
    "/clubs/{clubId}/invitations",
    "Invite a player: it waits for them, even offline (the admin or a deputy)",
    InvitationView,
    status=201,
    request=InviteRequest,
)
def invite(club_id: str) -> Response[str]:
    asked = body(router.current_event, InviteRequest)
    return json_reply(201, clubs_service().invite(_me(), club_id, asked.nickname))


@routes.post(
    "/me/clubs/invitations/{clubId}",
    "Answer a club's invitation: yes joins it",
    MyClubsView,
    request=AnswerRequest,
)
def answer(club_id: str) -> Response[str]:
    asked = body(router.current_event, AnswerRequest)
    return json_reply(200, clubs_service().answer(_me(), club_id, accept=asked.accept))


# ---------------------------------------------------------------------- members and roles


@routes.get(
    "/me/clubs",
    "Your clubs in your order (the first is the main club, its tag beside your nickname) and "
    "the invitations waiting for you",
    MyClubsView,
)
def mine() -> Response[str]:
    return json_reply(200, clubs_service().mine(_me()))


@routes.put(
    "/me/clubs/order",
    "Order your clubs: the first is the main club",
    MyClubsView,
    request=OrderRequest,
)
def order() -> Response[str]:
    asked = body(router.current_event, OrderRequest)
    return json_reply(200, clubs_service().order(_me(), asked.club_ids))


@routes.post(
    "/me/clubs/{clubId}/seen",
    "Mark the club's announcements read (they stop counting as unread)",
    MyClubsView,
)
def seen(club_id: str) -> Response[str]:
    return json_reply(200, clubs_service().seen(_me(), club_id))


@routes.delete("/me/clubs/{clubId}", "Leave a club (its admin hands it over first)", MyClubsView)
def leave(club_id: str) -> Response[str]:
    return json_reply(200, clubs_service().leave(_me(), club_id))


@routes.delete(
    "/clubs/{clubId}/members/{nickname}",
    "Remove a member (a deputy removes members, the admin deputies too)",
    ClubView,
)
def kick(club_id: str, nickname: str) -> Response[str]:
    return json_reply(200, clubs_service().kick(_me(), club_id, nickname))


@routes.put(
    "/clubs/{clubId}/members/{nickname}/role",
    "Make a member deputy, or a deputy member again (the admin)",
    ClubView,
    request=RoleRequest,
)
def set_role(club_id: str, nickname: str) -> Response[str]:
    asked = body(router.current_event, RoleRequest)
    return json_reply(200, clubs_service().set_role(_me(), club_id, nickname, asked.role))


@routes.post(
    "/clubs/{clubId}/admin",
    "Hand the club over to a member: they are its admin, you a member",
    ClubView,
    request=HandOverRequest,
)
def hand_over(club_id: str) -> Response[str]:
    asked = body(router.current_event, HandOverRequest)
    return json_reply(200, clubs_service().hand_over(_me(), club_id, asked.nickname))


# ---------------------------------------------------------------------- the treasury


@routes.post(
    "/clubs/{clubId}/donations",
    "Give tokens to the treasury (at least 10, never refunded)",
    DonatedView,
    status=201,
    request=DonationRequest,
    parameters=(IDEMPOTENCY_KEY,),
)
def donate(club_id: str) -> Response[str]:
    event = router.current_event
    asked = body(event, DonationRequest)
    key = event.headers.get("idempotency-key") or ""
    return json_reply(201, clubs_service().donate(_me(), club_id, asked.amount, key))


@routes.get(
    "/clubs/{clubId}/treasury", "The treasury's balance and movements (members)", TreasuryView
)
def treasury(club_id: str) -> Response[str]:
    return json_reply(200, clubs_service().treasury(_me(), club_id))


@routes.post(
    "/clubs/{clubId}/level",
    "Buy the next level from the treasury: 5 more seats (the admin or a deputy)",
    ClubView,
)
def level(club_id: str) -> Response[str]:
    return json_reply(200, clubs_service().raise_level(_me(), club_id))


@routes.post(
    "/clubs/{clubId}/name",
    "Rename the club, paid from the treasury: each rename costs twice the one before (the admin)",
    ClubView,
    request=RenameRequest,
)
def rename(club_id: str) -> Response[str]:
    asked = body(router.current_event, RenameRequest)
    return json_reply(200, clubs_service().rename(_me(), club_id, asked.name))


@routes.post(
    "/clubs/{clubId}/avatar",
    "Buy the club's own avatar from the treasury, once (the admin)",
    ClubView,
)
def avatar(club_id: str) -> Response[str]:
    return json_reply(200, clubs_service().buy_avatar(_me(), club_id))


# ---------------------------------------------------------------------- the club board (C7)


@routes.get(
    "/club-board",
    "The month's club board: each club's members' main-board scores of the month, summed "
    "(members who joined during the month and dormant memberships do not count)",
    ClubBoardView,
    parameters=(Parameter("period", "month (the running one, the default) or one like 2026-12"),),
)
def board() -> Response[str]:
    period = router.current_event.get_query_string_value("period") or "month"
    return json_reply(200, club_board().board(period))
