"""What a finished game leaves behind for leaderboards and statistics: its result."""

from collections.abc import Mapping
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from yamb.results.facts import SheetFacts, facts_of
from yamb.session.endings import records_result
from yamb.session.model import GameSession, Outcome
from yamb.settings import GameSettings


class _Stored(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class PlayerResult(_Stored):
    player_id: str
    total: int
    full: bool
    left: bool
    turns: int
    # A bot's level; None: a person. A game with a bot counts for no board, task or reward.
    bot: str | None = None
    # Left after playing a turn without resigning (rules.md 8): an abandoned game.
    abandoned: bool = False
    # How the sheet was played, for the success rates (None: a result stored before them).
    facts: SheetFacts | None = None
    # Skill and luck (issue 32, yamb.session.regret.measure), measured at the game's end where
    # the game can be judged and the sheet is full: the expected points the player's choices
    # lost, and what the dice gave (below 0: took). None: not measured.
    regret: float | None = None
    luck: float | None = None


class GameResult(_Stored):
    game_id: str
    settings: GameSettings
    ended_at: datetime
    winners: list[str]
    players: list[PlayerResult]
    outcome: Outcome | None = None
    # Its full sheets enter results (leaderboards, records): rules.md 8.
    recorded: bool = False
    # The tournament the game was played in (its standings take the result).
    tournament: str | None = None


def with_skill(
    result: GameResult, regret: Mapping[str, float], luck: Mapping[str, float]
) -> GameResult:
    """The result with each measured player's regret and luck (those with both)."""
    players = [
        player.model_copy(
            update={"regret": regret[player.player_id], "luck": luck[player.player_id]}
        )
        if player.player_id in regret and player.player_id in luck
        else player
        for player in result.players
    ]
    return result.model_copy(update={"players": players})


def result_of(session: GameSession) -> GameResult:
    game = session.game()
    assert session.ended_at is not None, "a result is made once the game has ended"
    return GameResult(
        game_id=session.game_id,
        settings=session.settings,
        ended_at=session.ended_at,
        winners=session.winners,
        outcome=session.outcome,
        recorded=records_result(session),
        tournament=session.tournament,
        players=[
            PlayerResult(
                player_id=seat.player_id,
                total=game.sheets[session.engine_seat(index)].total(),
                full=game.sheets[session.engine_seat(index)].is_full(),
                left=seat.left,
                turns=game.turns_played[session.engine_seat(index)],
                bot=seat.bot,
                abandoned=seat.abandoned,
                facts=facts_of(game.sheets[session.engine_seat(index)]),
            )
            for index, seat in enumerate(session.seats)
        ],
    )
