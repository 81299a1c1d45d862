"""The wallet's use cases (E1, E3, S2): read the balance and the ledger, buy premium (for
oneself or as a gift), give tokens. Each change is one transaction of the wallet store under an
idempotency key, so a request sent twice (the same key) is applied once and answered the same.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from aws_lambda_powertools.metrics import MetricUnit
from yamb.accounts.profile import AccountStatus, Profile
from yamb.economy import premium
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry, Reason, Wallet, check_amount

from yamb_service.observability import logger, metrics
from yamb_service.wallet_store import Change, DynamoWalletStore, PremiumUntil

MAX_LEDGER_PAGE = 100
MAX_KEY_CHARS = 64


@dataclass(frozen=True, slots=True)
class Accounts:
    """What the economy reads of the accounts: a profile, and who holds a nickname."""

    profile: Callable[[str], Profile | None]
    nickname_owner: Callable[[str], str | None]


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _client_key(player_id: str, key: str) -> str:
    """A client's idempotency key, scoped to the player (two players may pick the same)."""
    if not key or len(key) > MAX_KEY_CHARS or not key.isprintable() or " " in key:
        raise EconomyError(
            f"an Idempotency-Key header of 1 to {MAX_KEY_CHARS} printable characters, no "
            "spaces, is needed: the same key repeats a request safely",
            code="bad_request",
            field="Idempotency-Key",
        )
    return f"client:{player_id}:{key}"


class EconomyService:
    def __init__(
        self,
        wallets: DynamoWalletStore,
        accounts: Accounts,
        now: Callable[[], datetime] = _utc_now,
    ) -> None:
        self.wallets = wallets
        self.accounts = accounts
        self.now = now

    def wallet(self, player_id: str) -> tuple[Wallet, datetime | None]:
        """The balance and debt, and the end of premium (None: never bought)."""
        return self.wallets.wallet(player_id), self.wallets.premium_until(player_id)

    def ledger(
        self, player_id: str, limit: int = 20, before: int | None = None
    ) -> list[LedgerEntry]:
        if not 1 <= limit <= MAX_LEDGER_PAGE:
            raise EconomyError(
                f"a page holds 1 to {MAX_LEDGER_PAGE} entries", code="bad_request", field="limit"
            )
        if before is not None and before < 1:
            raise EconomyError("before is an entry's seq (1 or more)", field="before")
        return self.wallets.entries(player_id, limit, before)

    def premium_offers(self, player_id: str) -> list[premium.PremiumOffer]:
        """Each offer with the end of premium it would give now."""
        return premium.offers(self.wallets.premium_until(player_id), self.now())

    def _recipient(self, player_id: str, nickname: str) -> str:
        owner = self.accounts.nickname_owner(nickname) if nickname else None
        profile = self.accounts.profile(owner) if owner else None
        if profile is None or profile.status in (
            AccountStatus.DELETING,
            AccountStatus.PURGING,
            AccountStatus.DELETED,
        ):
            raise EconomyError(
                "no player has this nickname", code="unknown_player", field="nickname"
            )
        if profile.player_id == player_id:
            raise EconomyError(
                "a gift goes to another player", code="gift_to_self", field="nickname"
            )
        return profile.player_id

    def buy_premium(
        self, player_id: str, days: int, key: str, gift_to: str | None = None
    ) -> tuple[LedgerEntry, datetime]:
        """Premium days bought from the wallet, for the buyer or (`gift_to`: a nickname)
        another player; extends what is left. The entry, and the new end."""
        price = premium.price_of(days)
        scoped = _client_key(player_id, key)
        holder = player_id if gift_to is None else self._recipient(player_id, gift_to)
        now = self.now()
        ends: list[datetime] = []

        def until(current: datetime | None) -> datetime:
            ends.append(premium.extended(current, days, now))
            return ends[-1]

        reason: Reason = "premium" if gift_to is None else "gift_sent"
        (entry,) = self.wallets.apply(
            scoped,
            [
                Change(
                    player_id,
                    -price,
                    reason,
                    counterparty=None if gift_to is None else holder,
                    detail=f"premium {days} days",
                )
            ],
            now,
            premium=PremiumUntil(holder, until),
        )
        metrics.add_metric(name="PremiumBought", unit=MetricUnit.Count, value=1)
        logger.info("premium bought", days=days, gift=gift_to is not None)
        end = ends[-1] if ends else self.wallets.premium_until(holder) or now
        return entry, end

    def gift_tokens(self, player_id: str, nickname: str, amount: int, key: str) -> LedgerEntry:
        """Tokens from the player's wallet to another player's (S2), in one transaction."""
        check_amount(amount)
        scoped = _client_key(player_id, key)
        recipient = self._recipient(player_id, nickname)
        sent, _ = self.wallets.apply(
            scoped,
            [
                Change(player_id, -amount, "gift_sent", counterparty=recipient),
                Change(recipient, amount, "gift_received", counterparty=player_id),
            ],
            self.now(),
        )
        metrics.add_metric(name="TokensGifted", unit=MetricUnit.Count, value=1)
        return sent
