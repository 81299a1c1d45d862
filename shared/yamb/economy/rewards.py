"""Win rewards (E2): tokens for the winners of a finished game, by the sheet's number of
columns and the game type; ranked pays double; an opponent who played too few turns does not
count, and a game with no opponent that counts pays nothing; solo games pay nothing. The table is
configuration: one line a column count, one factor a game type."""

from collections.abc import Mapping
from dataclasses import dataclass

from yamb.rules import GRIDS
from yamb.settings import GameSettings

# Tokens for a free win, by the number of columns (family grids are one column).
BASE_REWARD: Mapping[int, int] = {1: 5, 2: 8, 3: 10, 4: 12, 5: 15, 6: 18, 7: 20, 8: 22, 9: 25}
# Percent of the base by game type; 2 vs 2 (`pairs`) has its own line.
TYPE_PERCENT: Mapping[str, int] = {
    "turn_by_turn": 100,
    "simultaneous": 100,
    "each_for_themself": 80,
    "slow": 60,
    "pairs": 120,
}
RANKED_FACTOR = 2
# An opponent counts once they played at least this share of a sheet's turns.
MIN_TURN_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Finisher:
    """A player at the end of a game: the turns they played, and whether a bot sat there."""

    player_id: str
    turns: int
    bot: bool = False


def turns_per_sheet(settings: GameSettings) -> int:
    return max(1, len(settings.column_ids)) * len(GRIDS[settings.grid].rows)


def reward_of(settings: GameSettings) -> int:
    """A winner's tokens at a table of these settings (an opponent counting)."""
    kind = "pairs" if settings.pairs else settings.turn_type
    base = BASE_REWARD[max(1, len(settings.column_ids))]
    tokens = base * TYPE_PERCENT[kind] // 100
    return tokens * RANKED_FACTOR if settings.ranked else tokens


def win_rewards(
    settings: GameSettings, winners: list[str], players: list[Finisher]
) -> dict[str, int]:
    """Each winner's tokens: nothing for a solo game, a table with a bot or one whose dice were
    typed in (scorekeeping: nothing checks them), nor for a winner none of whose opponents
    played enough turns to count."""
    if settings.solo or settings.physical_dice or any(player.bot for player in players):
        return {}
    needed = turns_per_sheet(settings) * MIN_TURN_SHARE
    team = _teams(settings, [player.player_id for player in players])
    tokens = reward_of(settings)
    rewards: dict[str, int] = {}
    for winner in winners:
        opponents = [
            p for p in players if team.get(p.player_id) != team.get(winner) and p.turns >= needed
        ]
        if opponents:
            rewards[winner] = tokens
    return rewards


def _teams(settings: GameSettings, player_ids: list[str]) -> dict[str, int]:
    """Each player's side: seats 1-2 and 3-4 in 2 vs 2, each their own otherwise."""
    if settings.pairs:
        return {player: index // 2 for index, player in enumerate(player_ids)}
    return {player: index for index, player in enumerate(player_ids)}
