"""Account errors: each carries a stable code for clients (docs/accounts.md lists them), the
field of the request it is about when there is one, and a sentence for people."""

from typing import Literal

from yamb.coded_error import CodedError

type AccountErrorCode = Literal[
    # The request itself
    "bad_request",
    "not_found",
    "internal",
    "busy",
    # Registration and changes (A1, A5, A6)
    "nickname_taken",
    "nickname_too_long",
    "nickname_empty",
    "nickname_characters",
    "nickname_indecent",
    "nickname_unchanged",
    "nickname_too_soon",
    "not_enough_tokens",
    "email_invalid",
    "email_taken",
    "email_unchanged",
    "password_weak",
    "password_wrong",
    "description_too_long",
    "description_characters",
    "description_indecent",
    "country_unknown",
    "game_unknown",
    # Links (A1, A3, A6)
    "link_invalid",
    "link_expired",
    # Account states
    "account_not_found",
    "account_unverified",
    "account_locked",
    "account_banned",
    "account_deleted",
    "conflict",
    # Web Push (A8): a player's devices with notifications on are bounded
    "push_devices_full",
]


class AccountError(CodedError[AccountErrorCode]):
    code: AccountErrorCode = "bad_request"
