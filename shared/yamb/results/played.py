"""A player's own past games, newest first (issue 28's "list of one's past games"): one entry
per person counted for a game (yamb.results.stats.counted_players), written with the game's
statistics, each replayable. The others at the table are kept by id (a bot by its level), so
that a rename or a purge needs no rewrite here: names are read when the list is."""

from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

if TYPE_CHECKING:  # a type only: the session's models are not imported at run time
    from yamb.session.results import GameResult, PlayerResult

type PlayedVerdict = Literal["win", "loss", "tie", "cancelled", "alone"]


class _Stored(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class PlayedSeat(_Stored):
    player_id: str
    total: int
    bot: str | None = None


class PlayedGame(_Stored):
    game_id: str
    at: datetime
    grid: str
    preset: int | None
    ranked: bool
    outcome: str | None
    verdict: PlayedVerdict
    mine: int
    others: list[PlayedSeat]


def played_games(result: "GameResult", people: "list[PlayerResult]") -> dict[str, PlayedGame]:
    """Each counted person's entry for the game."""
    entries = {}
    for me in people:
        others = [
            PlayedSeat(player_id=p.player_id, total=p.total, bot=p.bot)
            for p in result.players
            if p.player_id != me.player_id
        ]
        entries[me.player_id] = PlayedGame(
            game_id=result.game_id,
            at=result.ended_at,
            grid=result.settings.grid,
            preset=result.settings.preset,
            ranked=result.settings.ranked,
            outcome=result.outcome,
            verdict=_verdict(result, me, others),
            mine=me.total,
            others=others,
        )
    return entries


def _verdict(result: "GameResult", me: "PlayerResult", others: list[PlayedSeat]) -> PlayedVerdict:
    if result.outcome == "cancelled":
        return "cancelled"
    if not others:
        return "alone"
    if me.player_id not in result.winners:
        return "loss"
    team = 2 if result.settings.pairs else 1
    return "tie" if len(result.winners) > team else "win"
