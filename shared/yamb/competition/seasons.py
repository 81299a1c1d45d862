"""Seasons and leagues (issue 32, after Board Game Arena's arena seasons): four weeks of ranked
play in which every player is in a league, earns points from each ranked game, and at the end
moves up or down a league or stays; each player who took part keeps a season badge.

- a season is 28 days from a Monday, counted from `EPOCH`; its id is its first day;
- leagues, lowest first: bronze, silver, gold, platinum, diamond. A player's first league is
  bronze, or the league of their established rating (no longer provisional) when they have one;
  after that it is what the last season's end made it;
- points: 2 for each player of the table they finished above, 1 for each one they tied with
  (so a win of two is 2, a draw 1; first of four is 6);
- at the end, in each league, of the players with at least `MIN_GAMES` games: the best fifth
  (at least one when 3 or more played enough) goes up, the worst fifth goes down; fewer games
  and the player stays. Diamond has no up, bronze no down."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal

from pydantic import Field

from yamb.competition.ratings import RatedGame
from yamb.competition.tournaments import CamelModel

type League = Literal["bronze", "silver", "gold", "platinum", "diamond"]
LEAGUES: tuple[League, ...] = ("bronze", "silver", "gold", "platinum", "diamond")
EPOCH = date(2026, 1, 5)  # a Monday: season 0 starts here
LENGTH = timedelta(days=28)
MIN_GAMES = 3
MOVING_SHARE = 0.2
# An established rating's first league: below each threshold (shown scale), the league before.
_RATING_FLOORS: tuple[tuple[int, League], ...] = (
    (1850, "diamond"), (1700, "platinum"), (1550, "gold"), (1400, "silver"),
)  # fmt: skip

type Move = Literal["up", "down", "stay"]


@dataclass(frozen=True, slots=True)
class Season:
    starts_on: date

    @property
    def season_id(self) -> str:
        return self.starts_on.isoformat()

    @property
    def starts_at(self) -> datetime:
        return datetime(self.starts_on.year, self.starts_on.month, self.starts_on.day, tzinfo=UTC)

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + LENGTH

    def previous(self) -> "Season":
        return Season(self.starts_on - LENGTH)

    def has_ended(self, now: datetime) -> bool:
        return now >= self.ends_at


def season_of(moment: datetime) -> Season:
    days = (moment.astimezone(UTC).date() - EPOCH).days
    return Season(EPOCH + LENGTH * math.floor(days / LENGTH.days))


def parse_season(season_id: str) -> Season | None:
    """The season of an id (its first day), None when it is not one."""
    try:
        day = date.fromisoformat(season_id)
    except ValueError:
        return None
    season = Season(day)
    return season if season_of(season.starts_at) == season else None


def first_league(rating: int | None, provisional: bool) -> League:
    if rating is None or provisional:
        return "bronze"
    return next((league for floor, league in _RATING_FLOORS if rating >= floor), "bronze")


def season_points(game: RatedGame) -> dict[str, int]:
    """A rated game's season points for each player: 2 for each team placed below theirs, 1
    for each other team tied with it (each player of a pair has their team's)."""
    points = {}
    for team, place in zip(game.teams, game.places, strict=True):
        below = sum(1 for other in game.places if other > place)
        tied = sum(1 for other in game.places if other == place) - 1
        for player in team:
            points[player] = 2 * below + tied
    return points


class Member(CamelModel):
    """A player's season in their league."""

    player_id: str
    league: League
    points: int = 0
    games: int = 0
    version: int = 0


class LeagueEnd(CamelModel):
    """What a season's end did to a member: their place, move and next league (the badge)."""

    season_id: str
    player_id: str
    league: League
    place: int
    points: int
    games: int
    move: Move
    next_league: League = Field(description="the league the next season starts in")


def standings(members: Sequence[Member]) -> list[tuple[int, Member]]:
    """Best first by points, then games (more games, same points: less per game, after), with
    shared places."""
    ordered = sorted(members, key=lambda m: (-m.points, m.games, m.player_id))
    rows: list[tuple[int, Member]] = []
    for index, member in enumerate(ordered):
        tied = rows and (rows[-1][1].points, rows[-1][1].games) == (member.points, member.games)
        rows.append((rows[-1][0] if tied else index + 1, member))
    return rows


def season_end(season_id: str, members: Sequence[Member]) -> list[LeagueEnd]:
    """Every member's place and move in their league (all members of one league)."""
    rows = standings(members)
    active = [m for _, m in rows if m.games >= MIN_GAMES]
    moving = max(1, math.floor(len(active) * MOVING_SHARE)) if len(active) >= 3 else 0
    up = {m.player_id for m in active[:moving]}
    down = {m.player_id for m in active[len(active) - moving :]} - up if moving else set()
    ends = []
    for place, member in rows:
        index = LEAGUES.index(member.league)
        move: Move = "stay"
        if member.player_id in up and index < len(LEAGUES) - 1:
            move = "up"
        elif member.player_id in down and index > 0:
            move = "down"
        step = {"up": 1, "down": -1, "stay": 0}[move]
        ends.append(
            LeagueEnd(
                season_id=season_id,
                player_id=member.player_id,
                league=member.league,
                place=place,
                points=member.points,
                games=member.games,
                move=move,
                next_league=LEAGUES[index + step],
            )
        )
    return ends
