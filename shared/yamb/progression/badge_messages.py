"""What the badges API answers (HTTP, JSON in camelCase): the player's own badges with their
counts and what the next level needs and pays, and another player's levels (no counts: some
are amounts of tokens given, no tokens)."""

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from yamb.progression.badges import BadgeId


class _View(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class BadgeView(_View):
    badge: BadgeId
    title: str
    does: str
    # 0: not reached yet; 1 (bronze) to 10 (obsidian).
    level: int
    level_name: str | None
    count: int
    # The count the next level needs, and its tokens (None: the last level is reached).
    next_threshold: int | None
    next_reward: int | None


class PioneerView(_View):
    title: str
    # Among the first verified players: 1 to 100.
    number: int


class PaidView(_View):
    """A level paid by this request (the ones a login paid before are in the ledger)."""

    badge: BadgeId
    level: int
    level_name: str
    tokens: int


class BadgesView(_View):
    badges: list[BadgeView]
    pioneer: PioneerView | None = None
    paid: list[PaidView] = []


class PublicBadgeView(_View):
    badge: BadgeId
    title: str
    level: int
    level_name: str


class PublicBadgesView(_View):
    """Another player's badges: those reached, with their level, and Pioneer."""

    nickname: str
    badges: list[PublicBadgeView]
    pioneer: PioneerView | None = None
