"""What the ratings API answers (HTTP, JSON in camelCase): a player's ratings and a rating
board. Shown on Lichess's scale (`yamb.competition.ratings`): a rating and its deviation."""

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.clubs.tag import TagView
from yamb.competition.ratings import Rating


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class RatingView(_View):
    pool: str  # format/family: individual/yamb-3, pairs/yamb-5, individual/classic
    rating: int
    deviation: int
    # Until the deviation is small (PROVISIONAL_DEVIATION): shown with a "?".
    provisional: bool
    games: int

    @classmethod
    def of(cls, rating: Rating) -> "RatingView":
        return cls(
            pool=rating.pool,
            rating=rating.shown,
            deviation=rating.deviation,
            provisional=rating.provisional,
            games=rating.games,
        )


class RatingRowView(RatingView):
    place: int
    name: str
    tag: TagView | None = None
    me: bool = False


class RatingBoardView(_View):
    pool: str
    # Best first by the rating less three deviations: a newcomer's lucky first win does not
    # lead the board.
    rows: list[RatingRowView]
    # The viewer's own rating when it is not among `rows` (None: never rated in the pool).
    mine: RatingView | None = None
    families: list[str] = Field(default_factory=list)
