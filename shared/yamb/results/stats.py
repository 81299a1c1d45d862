"""A player's statistics (R4), the same for everyone: games, wins and losses, abandoned games,
the kinds of game played, personal records per kind and success rates. Kept as one document per
player that each finished game updates once.

What counts: every finished game the player sat at. Wins and losses only count games against
another person (rules.md 6: solo is not in win/loss statistics; bot games are practice). A
record is any full sheet, solo and practice too: records are personal (a solo game is for
"training and personal records"). A kind is the grid or column set, the dice and the format."""

from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from yamb.results.facts import SheetFacts

if TYPE_CHECKING:  # types only: the session's models are not imported at run time
    from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings


class _Stored(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class Record(_Stored):
    score: int
    game_id: str
    at: datetime


class Skill(_Stored):
    """Sums over a kind's games whose skill and luck were measured (issue 32)."""

    games: int = 0
    regret: float = 0.0
    luck: float = 0.0


class PlayerStats(_Stored):
    games: int = 0
    wins: int = 0
    losses: int = 0
    abandoned: int = 0
    kinds: dict[str, int] = Field(default_factory=dict)
    records: dict[str, Record] = Field(default_factory=dict)
    sheets: SheetFacts = SheetFacts()
    # Per kind: the games whose regret and luck were measured, and their sums.
    skill: dict[str, Skill] = Field(default_factory=dict)
    version: int = 0

    @property
    def win_rate(self) -> float | None:
        decided = self.wins + self.losses
        return round(self.wins / decided, 4) if decided else None


def kind_of(settings: GameSettings) -> str:
    """`preset-3/5d/individual`, `custom-down.up/6d/solo`, `classic/5d/pairs`..."""
    columns: str
    if settings.grid != "yamb":
        columns = settings.grid
    elif settings.preset is not None:
        columns = f"preset-{settings.preset}"
    else:
        columns = "custom-" + ".".join(sorted(settings.column_ids))
    format = "solo" if settings.solo else "pairs" if settings.pairs else "individual"
    return f"{columns}/{settings.dice}d/{format}"


# The kinds a player's statistics keep apart (presets, grids, custom column sets by dice and
# format): a bound, so the one document a player has stays far below DynamoDB's 400 KB item
# limit whatever custom tables they play; past it, a new kind counts under OTHER_KIND, without a
# record of its own.
MAX_KINDS = 200
OTHER_KIND = "other"


def against_people(result: "GameResult") -> bool:
    people = [p for p in result.players if p.bot is None]
    return len(people) >= 2 and len(people) == len(result.players)


def counted(stats: PlayerStats, result: "GameResult", player: "PlayerResult") -> PlayerStats:
    """The statistics after one more finished game of this player."""
    kind = kind_of(result.settings)
    if kind not in stats.kinds and len(stats.kinds) >= MAX_KINDS - 1:
        kind = OTHER_KIND
    data = stats.model_dump()
    data["games"] += 1
    data["kinds"][kind] = data["kinds"].get(kind, 0) + 1
    if against_people(result) and result.outcome != "cancelled":
        won = player.player_id in result.winners
        data["wins"] += won
        data["losses"] += not won
    data["abandoned"] += player.abandoned
    records = dict(stats.records)
    if result.recorded and player.full:
        best = records.get(kind)
        if kind != OTHER_KIND and (best is None or player.total > best.score):
            records[kind] = Record(score=player.total, game_id=result.game_id, at=result.ended_at)
        if player.facts is not None:
            data["sheets"] = stats.sheets + player.facts
    data["records"] = records
    if player.regret is not None and player.luck is not None:
        before = stats.skill.get(kind, Skill())
        data["skill"][kind] = Skill(
            games=before.games + 1,
            regret=round(before.regret + player.regret, 2),
            luck=round(before.luck + player.luck, 2),
        ).model_dump()
    data["version"] = stats.version + 1
    return PlayerStats.model_validate(data)


def counted_players(result: "GameResult") -> list["PlayerResult"]:
    """The people of a result: a pair's two players each count their team's sheet. A cancelled
    game counts for nobody but those who abandoned it (rules.md 8): a game and an abandoned one,
    no win or loss."""
    people = [p for p in result.players if p.bot is None]
    if result.outcome == "cancelled":
        return [p for p in people if p.abandoned]
    return people
