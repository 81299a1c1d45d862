"""Club errors: a stable code for clients, the request field when there is one, a sentence for
people. Nothing is written when one is raised."""

from typing import Literal

from yamb.coded_error import CodedError

type ClubErrorCode = Literal[
    "bad_request",
    "unknown_club",
    "unknown_player",
    "club_name_taken",
    "club_name_invalid",
    "club_name_indecent",
    "club_tag_invalid",
    "club_tag_indecent",
    "club_description_invalid",
    "club_colour_invalid",
    "club_avatar_invalid",
    "club_limit",
    "admin_limit",
    "already_member",
    "not_a_member",
    "club_full",
    "request_pending",
    "no_request",
    "invitation_pending",
    "no_invitation",
    "not_allowed",
    "admin_cannot_leave",
    "deputy_limit",
    "max_level",
    "donation_too_small",
    "treasury_too_low",
    "not_enough_tokens",
    "club_closed",
    "message_indecent",
    "club_not_empty",
    "blocked",
    "busy",
]


class ClubError(CodedError[ClubErrorCode]):
    code: ClubErrorCode = "bad_request"
