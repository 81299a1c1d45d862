"""Results errors: a stable code for clients, the request field when there is one, a sentence
for people. Nothing is written or paid when one is raised."""

from typing import Literal

from yamb.coded_error import CodedError

type ResultsErrorCode = Literal[
    "bad_request",
    "unknown_board",
    "unknown_period",
    "board_not_available",
    "period_not_ended",
    "unknown_player",
    # A game's public fairness page (issue 32): no such game, or one of real dice.
    "unknown_game",
    # ... or one of a duplicate tournament that is not over (yamb.session.deals).
    "deal_in_play",
    "favorite_self",
    "too_many_favorites",
    "busy",
]


class ResultsError(CodedError[ResultsErrorCode]):
    code: ResultsErrorCode = "bad_request"
