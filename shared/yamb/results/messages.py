"""What the results API answers (HTTP, JSON in camelCase): a board's page, a player's
statistics, a head-to-head, favorites. Nothing here holds an e-mail, tokens or other personal
data: the public page (R5) shows the same statistics."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.clubs.tag import TagView
from yamb.competition.messages import RatingView
from yamb.results.facts import SheetFacts
from yamb.results.head_to_head import Meeting
from yamb.results.stats import Record, Skill


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class RowView(_View):
    place: int
    names: list[str]
    # Each player's main club's tag (C1), beside `names` (None: in no club).
    tags: list[TagView | None] = Field(default_factory=list)
    score: int
    # The games that make the score, best first; each replays (the `replay` action).
    game_ids: list[str]
    prize: int | None = None
    me: bool = False


class BoardView(_View):
    board: str  # format/columns/side/period id
    kind: str  # all or favorites
    period_ends_at: datetime | None
    rows: list[RowView]
    # The viewer's row when it is not among `rows` (None: not on the board).
    mine: RowView | None = None
    prizes: list[int]


class MedalsView(_View):
    gold: int = 0
    silver: int = 0
    bronze: int = 0


class RatesView(_View):
    """Shares of 1, None before any full sheet."""

    bonus: float | None
    yamb: float | None
    poker: float | None
    crossed_out: float | None

    @classmethod
    def of(cls, facts: SheetFacts) -> "RatesView":
        def share(part: int, whole: int) -> float | None:
            return round(part / whole, 4) if whole else None

        return cls(
            bonus=share(facts.bonuses, facts.columns),
            yamb=share(facts.yambs, facts.yamb_cells),
            poker=share(facts.pokers, facts.poker_cells),
            crossed_out=share(facts.crossed, facts.cells),
        )


class SkillView(_View):
    """Luck told apart from skill over a kind's measured games (issue 32): per game on
    average, the expected points the player's choices lost and what the dice gave (below 0:
    took), against the optimal player on a family grid or the hard bot's choices on Yamb."""

    kind: str
    games: int
    against: str  # optimal or hard
    regret: float
    luck: float

    @classmethod
    def of(cls, kind: str, skill: Skill) -> "SkillView":
        return cls(
            kind=kind,
            games=skill.games,
            against="optimal" if not kind.startswith(("preset-", "custom-")) else "hard",
            regret=round(skill.regret / skill.games, 2),
            luck=round(skill.luck / skill.games, 2),
        )


class StatisticsView(_View):
    nickname: str
    # The player's main club's tag (C1), linking to the club's page.
    club: TagView | None = None
    country: str | None
    description: str
    proud_game: str | None
    # Whether the player's public page (R5, GET /pages/<nickname>) is shown: a link to share.
    public_page: bool = False
    member_since: datetime
    games: int
    wins: int
    losses: int
    win_rate: float | None
    main_board_score: int | None
    main_board_place: int | None
    medals: MedalsView
    abandoned: int
    records: dict[str, Record]
    kinds: dict[str, int]
    rates: RatesView
    # The skill ratings (issue 32), one per format and rule family played ranked.
    ratings: list[RatingView] = Field(default_factory=list)
    # Skill and luck per kind of game where they were measured (issue 32), most played first.
    skill: list[SkillView] = Field(default_factory=list)


class HeadToHeadView(_View):
    opponent: str
    # The viewer's figure first, always.
    wins: int
    losses: int
    ties: int
    meetings: list[Meeting]
    # Pass as `before` for older meetings (None: none left).
    next_before: str | None


class PastSeatView(_View):
    # The player's nickname (None: a deleted account), or the bot's level.
    nickname: str | None
    bot: str | None = None
    total: int


class PastGameView(_View):
    game_id: str
    at: datetime
    grid: str
    preset: int | None
    ranked: bool
    outcome: str | None
    # win, loss, tie; cancelled (rules.md 8); alone (a solo game).
    verdict: str
    mine: int
    others: list[PastSeatView]


class PastGamesView(_View):
    """The caller's own past games, newest first, each replayable."""

    games: list[PastGameView]
    # Pass as `before` for older games (None: none left).
    next_before: str | None


class FavoriteView(_View):
    nickname: str


class FavoritesView(_View):
    favorites: list[FavoriteView]
