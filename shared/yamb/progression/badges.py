"""Badges (E8): the catalogue (data: badges.json), a badge's level for a count, what is due to be
paid, and what a finished game or a prize award adds to the counts.

Every badge but Pioneer has ten levels, bronze to obsidian: level k is reached once the badge's
count is at least `thresholds[k-1]`, and pays `rewards[k-1]` tokens once. Level 1 is the
product's description; the higher thresholds and rewards are configuration (badges.json, the
same way as the task catalogue beside it): a table anyone can read and change without reading
code, checked whole when it is loaded. Pioneer has no levels and pays nothing: the first
`PIONEER_PLACES` verified players hold it, each with their number.

What a game counts for: the people of a game with at least two people and no bot (solo and bot
games count for no reward). Master, Poker and Aces need dice the server rolled: a scorekeeping
table's typed dice (settings.physical_dice) count for none of them."""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

if TYPE_CHECKING:  # a type only: the session's models are not imported at run time
    from yamb.session.results import GameResult, PlayerResult


type BadgeId = Literal[
    "weekly_challenge",
    "champion",
    "veteran",
    "collector",
    "sociable",
    "benefactor",
    "master",
    "poker",
    "aces",
    "premium_seniority",
    "recruiter",
    "monthly_first",
    "monthly_second",
    "monthly_third",
    "pairs_of_the_month",
]
BADGE_IDS: tuple[BadgeId, ...] = get_args(BadgeId.__value__)
LEVELS = 10
PIONEER = "pioneer"
CATALOGUE_FILE = Path(__file__).with_name("badges.json")
# The monthly board places that have a badge, by place.
MONTHLY_PLACES: Mapping[int, BadgeId] = {
    1: "monthly_first",
    2: "monthly_second",
    3: "monthly_third",
}


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BadgeRule(_Data):
    id: BadgeId
    title: str
    does: str
    thresholds: tuple[int, ...] = Field(min_length=LEVELS, max_length=LEVELS)
    rewards: tuple[int, ...] = Field(min_length=LEVELS, max_length=LEVELS)

    @model_validator(mode="after")
    def _growing(self) -> "BadgeRule":
        if self.thresholds[0] < 1 or any(
            a >= b for a, b in zip(self.thresholds, self.thresholds[1:], strict=False)
        ):
            raise ValueError(f"{self.id}: thresholds are 1 or more and strictly increasing")
        if self.rewards[0] < 1 or any(
            a > b for a, b in zip(self.rewards, self.rewards[1:], strict=False)
        ):
            raise ValueError(f"{self.id}: rewards are 1 or more and never decrease")
        return self

    def level_of(self, count: int) -> int:
        """The level `count` reaches: 0 (none yet) to 10."""
        return sum(1 for threshold in self.thresholds if count >= threshold)

    def next_threshold(self, level: int) -> int | None:
        """The count that reaches the level after `level` (None: the last level is reached)."""
        return self.thresholds[level] if level < LEVELS else None

    def reward(self, level: int) -> int:
        return self.rewards[level - 1]


class PioneerRule(_Data):
    title: str
    does: str
    places: int = Field(ge=1)


class Catalogue(_Data):
    about: str = ""
    levels: tuple[str, ...] = Field(min_length=LEVELS, max_length=LEVELS)
    badges: tuple[BadgeRule, ...]
    pioneer: PioneerRule

    @model_validator(mode="after")
    def _every_badge_once(self) -> "Catalogue":
        ids = [badge.id for badge in self.badges]
        if sorted(ids) != sorted(BADGE_IDS):
            raise ValueError(f"the badges are each of {', '.join(BADGE_IDS)}, once")
        return self

    def rule(self, badge: BadgeId) -> BadgeRule:
        return next(rule for rule in self.badges if rule.id == badge)

    def level_name(self, level: int) -> str | None:
        return self.levels[level - 1] if level >= 1 else None


def parse_catalogue(data: Mapping[str, Any]) -> Catalogue:
    """The catalogue checked whole (ValueError naming what is wrong)."""
    try:
        return Catalogue.model_validate(data)
    except ValidationError as error:
        raise ValueError(f"bad badge catalogue: {error}") from None


@cache
def catalogue() -> Catalogue:
    return parse_catalogue(json.loads(CATALOGUE_FILE.read_text(encoding="utf-8")))


def pioneer_places() -> int:
    return catalogue().pioneer.places


# ---------------------------------------------------------------------------- what is due


@dataclass(frozen=True, slots=True)
class Due:
    """A level reached and not paid yet: paid once, under `key`."""

    badge: BadgeId
    level: int
    tokens: int

    def key(self, player_id: str) -> str:
        return f"badge:{self.badge}:{self.level}:{player_id}"


def level_of(badge: BadgeId, count: int) -> int:
    return catalogue().rule(badge).level_of(count)


def due(counts: Mapping[BadgeId, int], paid: Mapping[str, int]) -> list[Due]:
    """Each level reached by `counts` above the level `paid` (per badge; absent: 0), lowest
    first, badge by badge in catalogue order. A threshold raised later never takes a paid
    level back: nothing is due below what was paid."""
    found: list[Due] = []
    for rule in catalogue().badges:
        reached = rule.level_of(counts.get(rule.id, 0))
        found.extend(
            Due(rule.id, level, rule.reward(level))
            for level in range(paid.get(rule.id, 0) + 1, reached + 1)
        )
    return found


# ---------------------------------------------------------------------------- finished games


@dataclass(frozen=True, slots=True)
class GameTally:
    """What one finished game adds for one person. `day` is the UTC day of play (Veteran: the
    count grows once per new day) and `opponents` the other people at the table (Sociable: once
    per new one); the others are amounts to add."""

    player_id: str
    day: date | None
    opponents: frozenset[str]
    champion: int = 0
    master: int = 0
    poker: int = 0
    aces: int = 0


def _people(ended: "GameResult") -> list["PlayerResult"]:
    return [p for p in ended.players if p.bot is None]


def counts(ended: "GameResult") -> bool:
    """Whether a game counts for badges: two people or more at the table, and no bot."""
    return len(ended.players) >= 2 and len(_people(ended)) == len(ended.players)


def fair_win(ended: "GameResult", player: "PlayerResult") -> bool:
    """Champion: among the winners of a game that counts, when not everyone won (a tie of the
    whole table is no one's win), having played a turn."""
    return (
        player.player_id in ended.winners
        and len(set(ended.winners)) < len(ended.players)
        and player.turns > 0
    )


def game_tallies(ended: "GameResult") -> list[GameTally]:
    """Each person's tally of a game that counts; none for a solo or bot game."""
    if not counts(ended) or ended.outcome == "cancelled":
        return []
    rolled = not ended.settings.physical_dice
    five_dice = ended.settings.dice == 5
    day = ended.ended_at.astimezone(UTC).date()
    tallies = []
    for player in ended.players:
        facts = player.facts
        tallies.append(
            GameTally(
                player_id=player.player_id,
                day=day if player.turns > 0 else None,
                opponents=frozenset(
                    p.player_id for p in ended.players if p.player_id != player.player_id
                ),
                champion=int(fair_win(ended, player)),
                master=facts.yambs if facts and rolled and five_dice else 0,
                poker=facts.top_pokers if facts and rolled else 0,
                aces=facts.full_aces if facts and rolled else 0,
            )
        )
    return tallies


# ---------------------------------------------------------------------------- prize awards


def award_counts(awards: Iterable[Mapping[str, Any]]) -> dict[BadgeId, int]:
    """The monthly badges' counts from a player's prize awards (as the results store keeps
    them: the board's key `format/columns/side/period`, the place): a month's board at place
    1, 2 or 3 (any board, pairs included), and a pairs board's month at place 1."""
    found: dict[BadgeId, int] = {}
    for award in awards:
        board = str(award.get("board", ""))
        period = str(award.get("period", ""))
        place = award.get("place")
        if not _is_month(period) or not isinstance(place, int):
            continue
        badge = MONTHLY_PLACES.get(place)
        if badge is not None:
            found[badge] = found.get(badge, 0) + 1
        if place == 1 and board.startswith("pairs/"):
            found["pairs_of_the_month"] = found.get("pairs_of_the_month", 0) + 1
    return found


def _is_month(period: str) -> bool:
    """`2026-12` (a month), not `2026-W49` (a week) nor `all`."""
    year, dash, month = period.partition("-")
    return bool(dash) and year.isdigit() and month.isdigit() and len(month) == 2
