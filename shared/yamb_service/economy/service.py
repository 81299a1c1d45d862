"""The wallet's use cases (E1, E3, E5, S2): read the balance and the ledger, buy premium (for
oneself or as a gift), give tokens, buy and equip cosmetics. Each change is one transaction of
the wallet store under an idempotency key, so a request sent twice (the same key) is applied
once and answered the same.
"""

from collections.abc import Callable
from datetime import UTC, datetime

from aws_lambda_powertools.metrics import MetricUnit
from yamb.economy import cosmetics, premium
from yamb.economy.cosmetics import Kind, Wardrobe
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry, Reason, Wallet, check_amount, client_key
from yamb.i18n import Text

from yamb_service.common.observability import logger, metrics
from yamb_service.common.ports import TransactionPart
from yamb_service.economy.ports import (
    Accounts,
    BadgeCounts,
    Change,
    PremiumUntil,
    WalletStore,
    WardrobeStore,
)

MAX_LEDGER_PAGE = 100


def _utc_now() -> datetime:
    return datetime.now(UTC)


class EconomyService:
    def __init__(
        self,
        wallets: WalletStore,
        accounts: Accounts,
        now: Callable[[], datetime] = _utc_now,
        *,
        wardrobes: WardrobeStore,
        counts: BadgeCounts,
    ) -> None:
        self.wallets = wallets
        self.accounts = accounts
        self.now = now
        self.wardrobes = wardrobes
        self.counts = counts

    def wallet(self, player_id: str) -> tuple[Wallet, datetime | None]:
        """The balance and debt, and the end of premium (None: never bought)."""
        return self.wallets.wallet(player_id), self.wallets.premium_until(player_id)

    def ledger(
        self, player_id: str, limit: int = 20, before: int | None = None
    ) -> list[LedgerEntry]:
        if not 1 <= limit <= MAX_LEDGER_PAGE:
            raise EconomyError(
                Text(
                    "a page holds 1 to {max_ledger_page} entries", max_ledger_page=MAX_LEDGER_PAGE
                ),
                code="bad_request",
                field="limit",
            )
        if before is not None and before < 1:
            raise EconomyError(Text("before is an entry's seq (1 or more)"), field="before")
        return self.wallets.entries(player_id, limit, before)

    def premium_offers(self, player_id: str) -> list[premium.PremiumOffer]:
        """Each offer with the end of premium it would give now."""
        return premium.offers(self.wallets.premium_until(player_id), self.now())

    def _recipient(self, player_id: str, nickname: str, field: str = "nickname") -> str:
        """The player `nickname` names; a refusal names the request's `field` that held it."""
        return self.accounts.recipient(player_id, nickname, field=field)

    def buy_premium(
        self, player_id: str, days: int, key: str, gift_to: str | None = None
    ) -> tuple[LedgerEntry, datetime]:
        """Premium days bought from the wallet, for the buyer or (`gift_to`: a nickname)
        another player; extends what is left. The entry, and the new end."""
        price = premium.price_of(days)
        scoped = client_key(player_id, key)
        holder = player_id if gift_to is None else self._recipient(player_id, gift_to, "giftTo")
        now = self.now()
        reason: Reason = "premium" if gift_to is None else "gift_sent"
        # Badges (E8) count as it is paid: premium days held (Premium seniority), tokens given
        # (Benefactor).
        counted = [self.counts.count_part(holder, "premium_seniority", days)]
        if gift_to is not None:
            counted.append(self.counts.count_part(player_id, "benefactor", price))
        applied = self.wallets.change(
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
            premium=PremiumUntil(holder, lambda current: premium.extended(current, days, now)),
            also=counted,
        )
        (entry,) = applied.entries
        if applied.written:
            metrics.add_metric(name="PremiumBought", unit=MetricUnit.Count, value=1)
            logger.info("premium bought", days=days, gift=gift_to is not None)
        # An entry written before premium's end was kept on it: its holder's end today.
        end = entry.premium_until or self.wallets.premium_until(holder) or now
        return entry, end

    def gift_tokens(self, player_id: str, nickname: str, amount: int, key: str) -> LedgerEntry:
        """Tokens from the player's wallet to another player's (S2), in one transaction."""
        check_amount(amount)
        scoped = client_key(player_id, key)
        # A repeat is answered from its key before the nickname is looked up: its recipient
        # may have renamed or left since.
        recorded = self.wallets.recorded(scoped)
        if recorded is not None:
            (sender, sent), *_ = recorded
            if (sender, sent.amount, sent.reason) != (player_id, -amount, "gift_sent"):
                raise EconomyError(
                    Text("the key '{key}' was used for another change", key=key[:40]),
                    code="key_reused",
                    field="key",
                )
            return sent
        recipient = self._recipient(player_id, nickname)
        applied = self.wallets.change(
            scoped,
            [
                Change(player_id, -amount, "gift_sent", counterparty=recipient),
                Change(recipient, amount, "gift_received", counterparty=player_id),
            ],
            self.now(),
            # Benefactor (E8) counts the tokens given, as they are given.
            also=[self.counts.count_part(player_id, "benefactor", amount)],
        )
        if applied.written:
            metrics.add_metric(name="TokensGifted", unit=MetricUnit.Count, value=1)
        return applied.entries[0]

    # -------------------------------------------------------------- cosmetics (E5)

    def wardrobe(self, player_id: str) -> Wardrobe:
        return self.wardrobes.wardrobe(player_id)

    def buy_cosmetic(self, player_id: str, item_id: str, key: str) -> tuple[LedgerEntry, Wardrobe]:
        """A cosmetic bought from the wallet: the debit, its entry, its key and the wardrobe in
        one transaction (a 30-day item extended from its end while owned; the avatar equipped
        at once). The entry, and the wardrobe after."""
        item = cosmetics.item_of(item_id)
        if item.price == 0:
            raise EconomyError(
                Text("this frame is free: equip it"), code="free_item", field="itemId"
            )
        scoped = client_key(player_id, key)
        now = self.now()
        detail = f"cosmetic {item_id}"
        # The wardrobe each attempt writes (the last one is the one written).
        attempts: list[Wardrobe] = []

        def with_wardrobe() -> list[TransactionPart]:
            before = self.wardrobes.wardrobe(player_id)
            after = cosmetics.bought(before, item_id, now)
            attempts.append(after.model_copy(update={"version": before.version + 1}))
            return [self.wardrobes.part_of(player_id, before, after)]

        applied = self.wallets.change(
            scoped,
            [Change(player_id, -item.price, "cosmetic", detail=detail)],
            now,
            also=with_wardrobe,
        )
        (entry,) = applied.entries
        if entry.detail != detail:  # the key bought another item at the same price
            raise EconomyError(
                Text("the key '{key}' was used for another change", key=key[:40]),
                code="key_reused",
                field="key",
            )
        if not applied.written:  # a repeat: the wardrobe as it is now
            return entry, self.wardrobes.wardrobe(player_id)
        metrics.add_metric(name="CosmeticBought", unit=MetricUnit.Count, value=1)
        logger.info("cosmetic bought", item=item_id)
        return entry, attempts[-1]

    def equip_cosmetic(self, player_id: str, kind: Kind, item_id: str | None) -> Wardrobe:
        """The item shown for its kind (None: nothing); it must be free, or owned and valid."""
        return self.wardrobes.equip(player_id, kind, item_id, self.now())
