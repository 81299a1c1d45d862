"""The open database's refusals: a stable code, a sentence. Nothing is written when one is
raised."""

from typing import Literal

from yamb.coded_error import CodedError

type OpenDbErrorCode = Literal["bad_request", "unknown_month", "month_not_over", "unknown_file"]


class OpenDbError(CodedError[OpenDbErrorCode]):
    code: OpenDbErrorCode = "bad_request"
