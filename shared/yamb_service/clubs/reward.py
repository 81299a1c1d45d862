"""The clubs' part in the weekly tasks (E6): who at a finished game's table shares a live club
with whom (the club group's task, "play games with members of your club"), and the club reward:
after a member's claim, each of their live clubs of 10 members or more whose live members have
together claimed half, then four fifths, of all their week's tasks gets each tier's tokens into
its treasury, once a week a tier (the tier's own ledger key: a repeat pays nothing)."""

from collections.abc import Callable, Iterable
from datetime import datetime

from yamb.clubs import rules

from yamb_service.clubs.ports import ClubStore
from yamb_service.common.observability import MetricUnit, logger, metrics
from yamb_service.economy.ports import Change, WalletStore

type ClaimedCounts = Callable[[Iterable[str], str], dict[str, int]]


class ClubRewardService:
    def __init__(
        self,
        *,
        store: ClubStore,
        wallets: WalletStore,
        claimed: ClaimedCounts,
        now: Callable[[], datetime],
    ) -> None:
        self.store = store
        self.wallets = wallets
        self.claimed = claimed  # the tasks' store: each player's claims of a week
        self.now = now

    def mates(self, players: list[str]) -> dict[str, frozenset[str]]:
        """Each player's companions at the table who share a live club with them."""
        clubs = {
            player: {m.club_id for m in self.store.player_clubs(player).clubs if not m.dormant}
            for player in dict.fromkeys(players)
        }
        return {
            player: frozenset(other for other in clubs if other != player and mine & clubs[other])
            for player, mine in clubs.items()
        }

    def after_claim(self, player_id: str, week: str, tasks_each: int) -> list[str]:
        """The rewards a claim may have earned the player's live clubs; the ledger keys paid
        now."""
        paid = []
        for membership in self.store.player_clubs(player_id).clubs:
            if not membership.dormant:
                paid += self._reward(membership.club_id, week, tasks_each)
        return paid

    def _reward(self, club_id: str, week: str, tasks_each: int) -> list[str]:
        live = [m.player_id for m in self.store.members(club_id) if not m.dormant]
        if len(live) < rules.CLUB_REWARD_MIN_MEMBERS:
            return []
        claimed = sum(self.claimed(live, week).values())
        paid = []
        for percent, tokens in rules.reward_tiers(len(live), claimed, tasks_each * len(live)):
            key = f"club:{club_id}:reward:{week}:{percent}"
            change = Change(
                rules.treasury_owner(club_id), tokens, "club_reward", detail=f"{week}:{percent}"
            )
            if self.wallets.change(key, [change], self.now()).written:
                paid.append(key)
                metrics.add_metric(name="ClubRewardPaid", unit=MetricUnit.Count, value=1)
                logger.info(
                    "club reward", club_id=club_id, week=week, percent=percent, tokens=tokens
                )
        return paid
