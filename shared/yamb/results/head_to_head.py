"""Head-to-head (S4): per opponent, the wins of each side over all finished 2-player games
between two people, ranked and free, and the list of meetings, each replayable. The first
figure is always the viewer's."""

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

if TYPE_CHECKING:  # a type only: the session's models are not imported at run time
    from yamb.session.results import GameResult

type Verdict = Literal["win", "loss", "tie"]


class Meeting(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

    game_id: str
    at: datetime
    ranked: bool
    preset: int | None
    verdict: Verdict
    mine: int
    theirs: int


@dataclass(frozen=True, slots=True)
class Side:
    player_id: str
    opponent: str
    meeting: Meeting


def meeting_sides(result: "GameResult") -> list[Side]:
    """Both players' view of a 1 vs 1 game between two people; none for any other game."""
    players = result.players
    if result.settings.pairs or len(players) != 2 or any(p.bot is not None for p in players):
        return []
    sides = []
    for me, them in (players, players[::-1]):
        i_won, they_won = me.player_id in result.winners, them.player_id in result.winners
        verdict: Verdict = "tie" if i_won and they_won else "win" if i_won else "loss"
        meeting = Meeting(
            game_id=result.game_id,
            at=result.ended_at,
            ranked=result.settings.ranked,
            preset=result.settings.preset,
            verdict=verdict,
            mine=me.total,
            theirs=them.total,
        )
        sides.append(Side(me.player_id, them.player_id, meeting))
    return sides
