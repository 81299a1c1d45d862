"""Results errors: a stable code for clients, the request field when there is one, a sentence
for people. Nothing is written or paid when one is raised."""

from typing import Literal

type ResultsErrorCode = Literal[
    "bad_request",
    "unknown_board",
    "unknown_period",
    "board_not_available",
    "period_not_ended",
    "unknown_player",
    "favorite_self",
    "too_many_favorites",
    "busy",
]


class ResultsError(Exception):
    code: ResultsErrorCode = "bad_request"

    def __init__(
        self, message: str, *, code: ResultsErrorCode | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code
