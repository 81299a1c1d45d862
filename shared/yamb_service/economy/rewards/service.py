"""Win rewards (E2), paid from the game's end: the table's stream hands each `ENDED` item (written
in the transaction that ends the game) to the rewards function, which credits each winner under
the key `win:<game>:<player>`. A stream delivers at least once, and a function may die between
two winners: the key makes every repeat a no-op, so each winner is paid exactly once."""

from collections.abc import Callable
from datetime import UTC, datetime

from aws_lambda_powertools.metrics import MetricUnit
from yamb.economy.rewards import Finisher, win_rewards
from yamb.session.results import GameResult

from yamb_service.common.observability import logger, metrics
from yamb_service.economy.ports import Change, WalletStore


def _utc_now() -> datetime:
    return datetime.now(UTC)


class RewardService:
    def __init__(self, wallets: WalletStore, now: Callable[[], datetime] = _utc_now) -> None:
        self.wallets = wallets
        self.now = now

    def pay(self, ended: GameResult) -> dict[str, int]:
        """Each winner's reward for the game, paid once; what was paid (or had been)."""
        if ended.outcome == "cancelled":
            return {}  # pays nothing (rules.md 8); its end is there for the abandonments
        players = [Finisher(p.player_id, p.turns, bot=p.bot is not None) for p in ended.players]
        rewards = win_rewards(ended.settings, ended.winners, players)
        for player_id, tokens in rewards.items():
            self.wallets.apply(
                f"win:{ended.game_id}:{player_id}",
                [Change(player_id, tokens, "win", detail=ended.game_id)],
                self.now(),
            )
            metrics.add_metric(name="WinRewardPaid", unit=MetricUnit.Count, value=1)
        logger.info("game rewards", game_id=ended.game_id, rewards=rewards)
        return rewards
