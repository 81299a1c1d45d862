"""The club score and the monthly club board (C7), as rules: a club's score for a month is the
sum of its members' scores on that month's main board (yamb.results.boards: each preset's best,
summed), counting the members who joined before the month began and whose membership is not
dormant (C8). A member who leaves takes their points at once (they are no longer a member).
No token prizes."""

from collections.abc import Iterable, Mapping
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from yamb.clubs.model import Member
from yamb.results.boards import Board, Entry
from yamb.results.periods import Period


class ClubScore(BaseModel):
    """A club's score for one month, written on its version."""

    model_config = ConfigDict(frozen=True)
    club_id: str
    period: str
    score: int = 0
    counted: int = 0  # the members whose points make it
    at: datetime
    version: int = 0


def main_board(period: Period) -> Board:
    return Board("individual", "main", "best", period)


def counts_in(member: Member, period: Period) -> bool:
    """Whether a member's points count for the club in `period`: not dormant, and a member
    since before the month began."""
    return not member.dormant and (period.start is None or member.joined_at < period.start)


def club_score(
    club_id: str,
    period: Period,
    members: Iterable[Member],
    rows: Mapping[str, Entry],
    *,
    at: datetime,
    version: int,
) -> ClubScore:
    """The club's score from its members and their rows on the month's main board."""
    counted = [m for m in members if counts_in(m, period)]
    return ClubScore(
        club_id=club_id,
        period=period.id,
        score=sum(rows[m.player_id].score for m in counted if m.player_id in rows),
        counted=len(counted),
        at=at,
        version=version,
    )
