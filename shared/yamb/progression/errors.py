"""Progression errors: a stable code for clients, the request field when there is one, a
sentence for people. Nothing is written or paid when one is raised."""

from typing import Literal

from yamb.coded_error import CodedError

type ProgressionErrorCode = Literal[
    "bad_request",
    # weekly tasks (E6)
    "unknown_task",
    "task_of_another_week",
    "task_not_done",
    "task_claimed",
    "week_not_chosen",
    # referral (E7)
    "unknown_referral_code",
    "own_referral_code",
    "already_referred",
    "referral_closed",
    "unknown_scheme",
    "no_scheme_to_choose",
    "scheme_window_over",
    "scheme_chosen",
    "not_your_invitee",
    # badges (E8)
    "unknown_badge",
    "unknown_player",
    "busy",
]


class ProgressionError(CodedError[ProgressionErrorCode]):
    code: ProgressionErrorCode = "bad_request"
