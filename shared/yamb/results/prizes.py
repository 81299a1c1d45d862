"""Prize boards (R2): tokens per place, paid once a week's or a month's board has ended.

The tie rule (decision 78): entries with the same score share a place (1, 2, 2, 4); the prizes
of the places a tied group covers are pooled and split evenly among it, rounded up, so no one
tied at a prize place gets less than an even share, and a group reaching past the last paid
place shares only the paid places' prizes. A pair's prize is paid to each of its players, as a
win reward is. A podium place (1-3) is also a medal."""

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from yamb.results.boards import Entry

# board family (format/columns/side/period kind) -> the prize of each place, first place first
# (decided: configuration).
PRIZES: MappingProxyType[str, tuple[int, ...]] = MappingProxyType(
    {
        "individual/main/best/week": (100, 60, 40, 20, 10),
        "individual/main/best/month": (500, 300, 200, 100, 50),
        "individual/3/sum/week": (60, 40, 20),
        "pairs/3/best/month": (300, 200, 100),
    }
)

type Medal = Literal["gold", "silver", "bronze"]
_MEDALS: tuple[Medal, ...] = ("gold", "silver", "bronze")


@dataclass(frozen=True, slots=True)
class Award:
    entrant: str
    players: tuple[str, ...]
    place: int
    tokens: int
    score: int

    @property
    def medal(self) -> Medal | None:
        return _MEDALS[self.place - 1] if self.place <= len(_MEDALS) else None


def places(scores: list[int]) -> list[int]:
    """The shared place of each score of a board, best first (1, 2, 2, 4)."""
    found: list[int] = []
    for index, score in enumerate(scores):
        found.append(found[-1] if index and scores[index - 1] == score else index + 1)
    return found


def share_of(place: int, tied: int, prizes: tuple[int, ...]) -> int:
    """What each of `tied` entries sharing `place` is paid: the prizes of the places they
    cover, split evenly, rounded up (0 past the paid places)."""
    return math.ceil(sum(prizes[place - 1 : place - 1 + tied]) / tied)


def awards(standings: list[Entry], prizes: tuple[int, ...]) -> list[Award]:
    """Who is paid what, from a board's rows best first: every row whose shared place is a
    prize place; read past the last prize place until the score changes, so that the whole
    tied group is here."""
    paid: list[Award] = []
    shared = places([entry.score for entry in standings])
    index = 0
    while index < len(standings) and shared[index] <= len(prizes):
        place = shared[index]
        group = [e for e, p in zip(standings, shared, strict=True) if p == place]
        share = share_of(place, len(group), prizes)
        paid.extend(
            Award(e.entrant, tuple(e.players), place, share, e.score) for e in group if share > 0
        )
        index += len(group)
    return paid
