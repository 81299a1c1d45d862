"""Economy errors: a stable code for clients, the request field when there is one, a sentence
for people. Nothing is changed when one is raised."""

from typing import Literal

from yamb.coded_error import CodedError

type EconomyErrorCode = Literal[
    "bad_request",
    "bad_amount",
    "not_enough_tokens",
    "unknown_offer",
    "offer_expired",
    "offer_not_started",
    "payment_provider_unavailable",
    "gift_to_self",
    "unknown_player",
    "key_reused",
    "busy",
    # cosmetics (E5)
    "unknown_item",
    "free_item",
    "already_owned",
    "not_owned",
    "item_expired",
    "wrong_kind",
]


class EconomyError(CodedError[EconomyErrorCode]):
    code: EconomyErrorCode = "bad_request"
