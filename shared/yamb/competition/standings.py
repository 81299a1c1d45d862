"""A tournament's entrants, the points each game gives them, and their order (issue 32).

- arena (Lichess's): a win 2, a draw 1, a loss 0; after two wins in a row a player is on a
  streak ("on fire") and each further win or draw counts double, until a game is not won;
- Swiss: a win 2, a draw 1, a loss 0, a bye 2, kept in half-points so that they stay whole
  (shown as 1, ½ and 0); ties broken by Buchholz (the opponents' points), then the totals;
- duplicate: the game's total; equal totals by who finished first.

A player who left a game or never came to it (the table's leaving rules) loses it and ends a
streak. Places are shared by entrants whose order keys are equal (1, 2, 2, 4), as the prize
boards' tie rule (yamb.results.prizes) wants."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, Field

from yamb.competition.tournaments import CamelModel, Kind

WIN, DRAW, LOSS = 2, 1, 0
STREAK = 2  # wins in a row after which an arena counts double
type Mark = Literal["W", "D", "L", "B"]


class Entry(CamelModel):
    player_id: str
    nickname: str
    joined_at: AwareDatetime
    points: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0
    # One letter per game, oldest first: W(in), D(raw), L(oss), B(ye); a doubled result "w"/"d".
    results: str = ""
    opponents: list[str] = Field(default_factory=list)
    byes: int = 0
    # The game under way (None: free to be paired).
    game_id: str | None = None
    # Totals of the games played (a tiebreak), and a duplicate's one game's total.
    totals: int = 0
    score: int | None = None
    finished_at: AwareDatetime | None = None
    paid: int = 0  # the entry fee paid (refunded on a cancellation)
    version: int = 0

    @property
    def on_fire(self) -> bool:
        return self.streak >= STREAK


@dataclass(frozen=True, slots=True)
class Seat:
    """One entrant's side of a finished tournament game."""

    player_id: str
    total: int
    left: bool  # left the game or never came: it is lost


@dataclass(frozen=True, slots=True)
class Played:
    game_id: str
    seats: tuple[Seat, ...]
    winners: frozenset[str]
    ended_at: datetime


def scored(kind: Kind, entries: Mapping[str, Entry], played: Played) -> dict[str, Entry]:
    """The entrants of `played` after it: their points, streaks and records, each free to be
    paired again."""
    after: dict[str, Entry] = {}
    for seat in played.seats:
        entry = entries[seat.player_id]
        others = [s.player_id for s in played.seats if s.player_id != seat.player_id]
        if kind == "duplicate":
            mark: Mark = "W"
            gained, streak = 0, 0
        else:
            mark = _mark(seat, played)
            gained = {"W": WIN, "D": DRAW, "L": LOSS, "B": WIN}[mark]
            streak = entry.streak + 1 if mark == "W" else 0
            if kind == "arena" and entry.on_fire and mark in "WD":
                gained *= 2  # counted double on a streak; shown in lower case
        letter = mark.lower() if kind == "arena" and entry.on_fire and mark in "WD" else mark
        after[seat.player_id] = entry.model_copy(
            update={
                "points": entry.points + gained,
                "games": entry.games + 1,
                "wins": entry.wins + (mark == "W" and kind != "duplicate"),
                "streak": streak,
                "results": entry.results + (letter if kind != "duplicate" else ""),
                "opponents": [*entry.opponents, *others],
                "game_id": None,
                "totals": entry.totals + seat.total,
                "score": seat.total if kind == "duplicate" and not seat.left else entry.score,
                "finished_at": played.ended_at,
            }
        )
    return after


def _mark(seat: Seat, played: Played) -> Mark:
    if seat.left or seat.player_id not in played.winners:
        return "L"
    present = [s for s in played.seats if not s.left]
    return "W" if len(played.winners) == 1 or len(present) == 1 else "D"


def with_bye(entry: Entry) -> Entry:
    """A Swiss round's odd one out: a win's points without a game."""
    return entry.model_copy(
        update={
            "points": entry.points + WIN,
            "byes": entry.byes + 1,
            "results": entry.results + "B",
        }
    )


def buchholz(entry: Entry, entries: Mapping[str, Entry]) -> int:
    return sum(entries[o].points for o in entry.opponents if o in entries)


def order_key(kind: Kind, entry: Entry, entries: Mapping[str, Entry]) -> tuple[float, ...]:
    """Smaller first: what the standings sort by (equal keys share a place)."""
    if kind == "duplicate":
        finished = entry.finished_at.timestamp() if entry.finished_at else float("inf")
        played = entry.score is not None
        return (0 if played else 1, -(entry.score or 0), finished if played else 0)
    if kind == "swiss":
        return (-entry.points, -buchholz(entry, entries), -entry.totals)
    return (-entry.points, -entry.totals)


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    entry: Entry
    tiebreak: int  # Buchholz in a Swiss; 0 elsewhere


def standings(kind: Kind, entries: Iterable[Entry]) -> list[Standing]:
    """Every entrant, best first, with their shared place."""
    by_player = {entry.player_id: entry for entry in entries}
    ordered = sorted(
        by_player.values(),
        key=lambda e: (order_key(kind, e, by_player), e.joined_at, e.player_id),
    )
    rows: list[Standing] = []
    for index, entry in enumerate(ordered):
        key = order_key(kind, entry, by_player)
        tied = rows and order_key(kind, rows[-1].entry, by_player) == key
        place = rows[-1].place if tied else index + 1
        tiebreak = buchholz(entry, by_player) if kind == "swiss" else 0
        rows.append(Standing(place, entry, tiebreak))
    return rows
