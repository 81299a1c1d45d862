"""Social errors: a stable code for clients, the request field when there is one, a sentence for
people. Nothing is written when one is raised."""

from typing import Literal

from yamb.coded_error import CodedError

type SocialErrorCode = Literal[
    "bad_request",
    "unknown_player",
    "block_self",
    "too_many_blocks",
    "blocked",
    "message_self",
    "message_too_fast",
    "conversation_not_found",
    "invitation_self",
    "invitation_pending",
    "invitation_refused_before",
    "invitation_not_found",
    "invitation_gone",
    "table_not_open",
    "table_full",
    "already_seated",
    "report_self",
    "unknown_club",
    "report_limit",
    "already_reported",
    "message_not_visible",
    "unknown_case",
    "not_an_operator",
    "contact_limit",
    "busy",
]


class SocialError(CodedError[SocialErrorCode]):
    code: SocialErrorCode = "bad_request"
