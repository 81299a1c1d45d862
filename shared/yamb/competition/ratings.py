"""Skill ratings (issue 32): a rating per rule family and format, updated from each finished
ranked game with OpenSkill's Bradley-Terry "full pairing" model (Weng-Lin), made for games of
more than two players and for teams: every pair of teams at the table is a comparison, which
at 2-4 seats costs nothing, and ties anywhere read as ties (OpenSkill's Plackett-Luce lets a
third place gain as much as two players tied for first: decision 194).

A player's rating in a family is OpenSkill's `mu` and `sigma` (the uncertainty), shown on
Lichess's scale: `SCALE` times each, so a newcomer is 1500 ± 500. It is provisional while the
shown uncertainty is above `PROVISIONAL_DEVIATION` (Lichess marks a Glicko rating with "?" the
same way). Only what enters the boards rates (rules.md 6, 8: recorded, ranked, no bot, not solo,
not slow), so bots and solo games never rate. The places are the totals' order: a player who
left ranks after everyone who finished, and equal totals share their place. In 2 vs 2 each
player keeps a rating of their own and the pair is a team (the model adds their skills)."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.competition.pools import family_of_settings
from yamb.i18n import Text
from yamb.results.boards import PRESETS
from yamb.results.errors import ResultsError

if TYPE_CHECKING:  # types only: the session's models and OpenSkill load with the rating
    from yamb.session.results import GameResult

type RatingFormat = Literal["individual", "pairs"]
RATING_FORMATS: tuple[RatingFormat, ...] = get_args(RatingFormat.__value__)
# The rule families a rating is kept for: Yamb by column preset, then each family grid.
FAMILIES: tuple[str, ...] = (
    *(f"yamb-{preset}" for preset in PRESETS),
    "classic",
    "scandinavian",
    "yacht",
    "generala",
)
# OpenSkill's defaults (mu 25, sigma 25/3), shown times SCALE: 1500 ± 500.
MU = 25.0
SIGMA = MU / 3
SCALE = 60
# Established at 300 or less: 21 games of two, 11 of three, 7 of four (decision 194), as
# Lichess's provisional period is a dozen games or so.
PROVISIONAL_DEVIATION = 300


@dataclass(frozen=True, slots=True)
class RatingPool:
    """The players one rating compares: a format and a rule family (`individual/yamb-3`)."""

    format: RatingFormat
    family: str

    @property
    def key(self) -> str:
        return f"{self.format}/{self.family}"


def pool(format: str, family: str) -> RatingPool:
    """A pool from a request's words, each checked; the error names the field."""
    if format not in RATING_FORMATS:
        raise ResultsError(
            Text("unknown format '{format}': individual or pairs", format=format),
            code="unknown_board",
            field="format",
        )
    if family not in FAMILIES:
        raise ResultsError(
            Text(
                "unknown rule family '{family}': yamb-1 to yamb-7, classic, scandinavian, "
                "yacht or generala",
                family=family,
            ),
            code="unknown_board",
            field="family",
        )
    if format == "pairs" and not family.startswith("yamb-"):
        raise ResultsError(
            Text("2 vs 2 is played on Yamb presets only"), code="unknown_board", field="family"
        )
    return RatingPool(format, family)


class Rating(BaseModel):
    """One player's rating in one pool."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

    player_id: str
    pool: str  # RatingPool.key
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    # The rating's writes (storage's).
    version: int = Field(default=0, exclude=True)

    @property
    def shown(self) -> int:
        return round(self.mu * SCALE)

    @property
    def deviation(self) -> int:
        return round(self.sigma * SCALE)

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def ordinal(self) -> float:
        """The board's order: the rating less three times its uncertainty (a newcomer's
        single lucky win does not put them first)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as the ratings take it: its pool and its teams in their places (1 is
    first; equal places tie)."""

    game_id: str
    pool: RatingPool
    teams: tuple[tuple[str, ...], ...]
    places: tuple[int, ...]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(player for team in self.teams for player in team)


def family_of(result: "GameResult") -> str | None:
    return family_of_settings(result.settings)


def rates(result: "GameResult") -> bool:
    """Whether a result moves ratings: a recorded, ranked game of people, not solo nor slow,
    that was played out (a cancelled table has no places)."""
    settings = result.settings
    return (
        result.recorded
        and settings.ranked
        and settings.turn_type != "slow"
        and not settings.solo
        and result.outcome != "cancelled"
        and family_of(result) in FAMILIES
        and len(result.players) >= 2
        and not any(p.bot is not None for p in result.players)
    )


def rated_game(result: "GameResult") -> RatedGame | None:
    """The result's teams and places, or None when it does not rate."""
    family = family_of(result)
    if not rates(result) or family is None:
        return None
    players = result.players
    if result.settings.pairs:
        teams = [players[0:2], players[2:4]]
        if any(len(team) != 2 for team in teams):
            return None
        format: RatingFormat = "pairs"
    else:
        teams = [[p] for p in players]
        format = "individual"
    # A team that left ranks after every team that finished; then the higher total.
    standing = [(any(p.left for p in team), -max(p.total for p in team)) for team in teams]
    places = tuple(1 + sum(other < mine for other in standing) for mine in standing)
    return RatedGame(
        game_id=result.game_id,
        pool=RatingPool(format, family),
        teams=tuple(tuple(p.player_id for p in team) for team in teams),
        places=places,
    )


def rate(game: RatedGame, before: dict[str, Rating]) -> dict[str, Rating]:
    """Every player's rating after the game, from theirs before (a new player's is the
    default): OpenSkill's Bradley-Terry update."""
    from openskill.models import BradleyTerryFull  # noqa: PLC0415 - loaded when a game rates

    model = BradleyTerryFull(mu=MU, sigma=SIGMA)
    current = {
        player: before.get(player) or Rating(player_id=player, pool=game.pool.key)
        for player in game.players
    }
    teams = [
        [model.create_rating([current[p].mu, current[p].sigma], name=p) for p in team]
        for team in game.teams
    ]
    updated = model.rate(teams, ranks=list(game.places))
    after = {}
    for team in updated:
        for player in team:
            old = current[str(player.name)]
            after[old.player_id] = old.model_copy(
                update={"mu": player.mu, "sigma": player.sigma, "games": old.games + 1}
            )
    return after
