"""The leaderboards (R1, R3) and what a result adds to them.

A board is a format (`individual`: each player their own sheet, 2-4 at the table; `pairs`: 2 vs
2, a row per pair), a column set (a preset 1-7, or `main`: the main board, R3), a side (`best`:
the best single result; `sum`: the sum of the period's `SUM_OF_BEST` best results) and a
period. Only recorded, ranked, full sheets of people enter (rules.md 6, 8): never a slow, solo,
custom-column or bot game. An entry is one row: one player, or one pair."""

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.i18n import Text
from yamb.results.errors import ResultsError
from yamb.results.periods import Period, periods_of

if TYPE_CHECKING:  # a type only: the session's models are not imported at run time
    from yamb.session.results import GameResult

type Format = Literal["individual", "pairs"]
type Side = Literal["best", "sum"]
FORMATS: tuple[Format, ...] = get_args(Format.__value__)
SIDES: tuple[Side, ...] = get_args(Side.__value__)
PRESETS = tuple(range(1, 8))
MAIN = "main"

# How many of the period's best results the right-hand board adds up (decided).
SUM_OF_BEST = 5
# A board's page: its top rows, read in one query.
TOP = 100


@dataclass(frozen=True, slots=True)
class Board:
    format: Format
    columns: str  # "1".."7" or "main"
    side: Side
    period: Period

    @property
    def key(self) -> str:
        """The board's id in storage and in links: `individual/3/best/2026-W49`."""
        return f"{self.format}/{self.columns}/{self.side}/{self.period.id}"

    @property
    def family(self) -> str:
        """The board without its period: what prizes are configured for."""
        return f"{self.format}/{self.columns}/{self.side}/{self.period.kind}"


def board(format: str, columns: str, side: str, period: Period) -> Board:
    """A board from a request's words, each checked; the error names the field."""
    if format not in FORMATS:
        raise ResultsError(
            Text("unknown format '{format}': individual or pairs", format=format),
            code="unknown_board",
            field="format",
        )
    if columns != MAIN and columns not in {str(p) for p in PRESETS}:
        raise ResultsError(
            Text("unknown columns '{columns}': a preset 1-7 or main", columns=columns),
            code="unknown_board",
            field="columns",
        )
    if side not in SIDES:
        raise ResultsError(
            Text("unknown side '{side}': best or sum", side=side),
            code="unknown_board",
            field="side",
        )
    if columns == MAIN and (format == "pairs" or side == "sum"):
        raise ResultsError(
            Text("the main board is one board: individual results, the best per preset summed"),
            code="unknown_board",
            field="columns",
        )
    return Board(format, columns, side, period)


class _Stored(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class ScoredGame(_Stored):
    game_id: str
    score: int
    at: datetime
    preset: int


class Entry(_Stored):
    """One row of one board: its score and the games that make it (one on a `best` board, up
    to SUM_OF_BEST on a `sum` board, one per preset on the main board)."""

    entrant: str  # a player id, or a pair's two ids joined by "+", sorted
    players: list[str]
    # The players' nicknames as shown, filled when a board is read (from the profiles): never
    # stored, so that no row keeps a nickname its player changed or had purged. A row stored
    # before this (with names) still reads.
    names: list[str] = Field(default_factory=list, exclude=True)
    score: int
    games: list[ScoredGame]
    # When the score reached its value: the earlier of two equal scores shows first.
    since: datetime
    # The row's writes (storage's, not part of the stored row).
    version: int = Field(default=0, exclude=True)


@dataclass(frozen=True, slots=True)
class Contribution:
    """One entrant's full sheet in a result: what it offers each board."""

    format: Format
    entrant: str
    players: tuple[str, ...]
    game: ScoredGame


def enters_boards(result: "GameResult") -> bool:
    settings = result.settings
    return (
        result.recorded
        and settings.ranked
        and settings.preset is not None
        and settings.grid == "yamb"
        and settings.turn_type != "slow"
        and not settings.solo
        and not any(p.bot is not None for p in result.players)
    )


def contributions(result: "GameResult") -> list[Contribution]:
    """The full sheets of a result that boards take: each player's, or each pair's."""
    if not enters_boards(result):
        return []
    preset = result.settings.preset
    assert preset is not None

    def scored(total: int) -> ScoredGame:
        return ScoredGame(game_id=result.game_id, score=total, at=result.ended_at, preset=preset)

    players = result.players
    if not result.settings.pairs:
        return [
            Contribution("individual", p.player_id, (p.player_id,), scored(p.total))
            for p in players
            if p.full
        ]
    found = []
    for first in (0, 2):
        team = players[first : first + 2]
        if len(team) == 2 and team[0].full:
            members = tuple(sorted(p.player_id for p in team))
            found.append(Contribution("pairs", "+".join(members), members, scored(team[0].total)))
    return found


def boards_for(contribution: Contribution) -> list[Board]:
    """Every board a contribution may change: both sides of its preset in every period of its
    game, and for one player the main board too."""
    boards = []
    for period in periods_of(contribution.game.at):
        for side in SIDES:
            boards.append(Board(contribution.format, str(contribution.game.preset), side, period))
        if contribution.format == "individual":
            boards.append(Board("individual", MAIN, "best", period))
    return boards


def improved(entry: Entry | None, target: Board, contribution: Contribution) -> Entry | None:
    """The entry after the contribution, or None when it does not change (a repeat of a game
    already counted is one of those: delivering a result twice changes nothing)."""
    new = contribution.game
    if entry is not None and any(g.game_id == new.game_id for g in entry.games):
        return None
    old_games = entry.games if entry is not None else []
    if target.columns == MAIN:
        games = [g for g in old_games if g.preset != new.preset]
        same = [g for g in old_games if g.preset == new.preset]
        if same and same[0].score >= new.score:
            return None
        games = sorted([*games, new], key=lambda g: g.preset)
    elif target.side == "best":
        # An equal score from an earlier game (results may come out of order) was reached
        # first: it takes the row's place among equals.
        if entry is not None and (entry.score, new.at) >= (new.score, entry.since):
            return None
        games = [new]
    else:
        ranked = sorted([*old_games, new], key=lambda g: (-g.score, g.at, g.game_id))
        games = ranked[:SUM_OF_BEST]
        if new not in games:
            return None
    score = sum(g.score for g in games)
    # When the score was reached: when the last of its games ended (they may come in any order).
    since = max(g.at for g in games)
    return Entry(
        entrant=contribution.entrant,
        players=list(contribution.players),
        score=score,
        games=games,
        since=since,
        version=entry.version if entry is not None else 0,
    )
