"""The wallet and its ledger on moto (E1), premium for tokens (E3) and gifts (S2): every change
one transaction under an idempotency key; the ledger always sums to the balance."""

import threading
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.dynamodb.responses import DynamoHandler
from yamb.accounts.profile import AccountStatus, Profile
from yamb.economy.errors import EconomyError
from yamb.economy.ledger import LedgerEntry
from yamb_service.common.errors import ServiceBusyError
from yamb_service.economy.ports import Accounts, Change
from yamb_service.economy.service import EconomyService
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
from yamb_service.progression.badges.dynamo import DynamoBadgeStore

NOW = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _one_request_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """DynamoDB applies each request atomically; moto's in-process backend does not under
    threads (devstack/aws.py does the same for the local stack)."""
    lock = threading.Lock()
    original = DynamoHandler.call_action

    def serialized(self: Any) -> Any:
        with lock:
            return original(self)

    monkeypatch.setattr(DynamoHandler, "call_action", serialized)


@pytest.fixture
def wallets(table: str, item: Any) -> DynamoWalletStore:
    return DynamoWalletStore(item, sleep=lambda _: None)


def _profile(player_id: str, nickname: str, status: AccountStatus) -> Profile:
    return Profile(
        player_id=player_id,
        nickname=nickname,
        email=f"{nickname}@example.com",
        status=status,
        created_at=NOW,
    )


@pytest.fixture
def economy(wallets: DynamoWalletStore) -> EconomyService:
    profiles = {
        "ana": _profile("ana", "Ana", AccountStatus.ACTIVE),
        "ben": _profile("ben", "Ben", AccountStatus.ACTIVE),
        "gone": _profile("gone", "Gone", AccountStatus.DELETED),
    }
    nicknames = {p.nickname.lower(): p.player_id for p in profiles.values()}
    accounts = Accounts(profile=profiles.get, nickname_owner=lambda n: nicknames.get(n.lower()))
    return _economy(wallets, accounts)


def _economy(wallets: DynamoWalletStore, accounts: Accounts) -> EconomyService:
    item = wallets.table_item
    return EconomyService(
        wallets,
        accounts,
        now=lambda: NOW,
        wardrobes=DynamoWardrobeStore(item, sleep=lambda _: None),
        counts=DynamoBadgeStore(item),
    )


def _credit(wallets: DynamoWalletStore, player: str, amount: int) -> LedgerEntry:
    (entry,) = wallets.apply(f"grant:{uuid.uuid4()}", [Change(player, amount, "grant")], NOW)
    return entry


def _sums(wallets: DynamoWalletStore, player: str) -> tuple[int, int, int]:
    """(balance - debt) of the wallet, the ledger's sum, and its entry count."""
    wallet = wallets.wallet(player)
    entries = wallets.entries(player, 100)
    total = sum(e.balance_change - e.debt_change for e in entries)
    return wallet.balance - wallet.debt, total, len(entries)


# ----------------------------------------------------------------------------- E1


def test_wallet_credit_and_spend_write_one_entry_each(wallets: DynamoWalletStore) -> None:
    # given ana's empty wallet
    # when 100 tokens are credited and 30 spent
    _credit(wallets, "ana", 100)
    (spent,) = wallets.apply("spend-1", [Change("ana", -30, "cosmetic")], NOW)

    # then the balance is 70 and the ledger holds both changes, newest first, summing to it
    assert wallets.wallet("ana").balance == 70
    assert (spent.seq, spent.balance, spent.balance_change) == (2, 70, -30)
    assert [e.amount for e in wallets.entries("ana", 10)] == [-30, 100]
    assert _sums(wallets, "ana") == (70, 70, 2)


def test_wallet_spending_more_than_the_balance_changes_nothing(
    wallets: DynamoWalletStore,
) -> None:
    # given 50 tokens
    _credit(wallets, "ana", 50)

    # when 51 are spent
    with pytest.raises(EconomyError) as refused:
        wallets.apply("spend-51", [Change("ana", -51, "cosmetic")], NOW)

    # then it is refused, and neither the balance nor the ledger moved
    assert refused.value.code == "not_enough_tokens"
    assert _sums(wallets, "ana") == (50, 50, 1)


@pytest.mark.parametrize("amount", [0, -0, 1_000_001, -1_000_001])
def test_wallet_absurd_amount_is_refused(wallets: DynamoWalletStore, amount: int) -> None:
    # given an empty wallet; when an absurd amount is applied; then bad_amount, nothing written
    with pytest.raises(EconomyError) as refused:
        wallets.apply(f"absurd-{amount}", [Change("ana", amount, "grant")], NOW)
    assert refused.value.code == "bad_amount"
    assert wallets.entries("ana", 10) == []


def test_wallet_repeated_key_applies_once_and_answers_the_same(
    wallets: DynamoWalletStore,
) -> None:
    # given a credit under a key
    first = wallets.apply("once", [Change("ana", 40, "grant")], NOW)

    # when the same change comes again with the key, and another change with it
    again = wallets.apply("once", [Change("ana", 40, "grant")], NOW + timedelta(seconds=5))
    with pytest.raises(EconomyError) as reused:
        wallets.apply("once", [Change("ana", 99, "grant")], NOW)

    # then it was applied once, the repeat answered with the first entry, the other refused
    assert again == first
    assert reused.value.code == "key_reused"
    assert _sums(wallets, "ana") == (40, 40, 1)


def test_wallet_debt_takes_what_a_refund_could_not_debit_and_credits_repay_it(
    wallets: DynamoWalletStore,
) -> None:
    # given 100 tokens bought, 80 of them spent
    _credit(wallets, "ana", 100)
    wallets.apply("spent", [Change("ana", -80, "cosmetic")], NOW)

    # when the purchase is refunded (100 taken back) and 50 are credited later
    wallets.apply("refund", [Change("ana", -100, "refund", allow_debt=True)], NOW)
    after_refund = wallets.wallet("ana")
    wallets.apply("later", [Change("ana", 50, "grant")], NOW)

    # then the balance never went negative: the refund left a debt of 80, the credit repaid it
    assert (after_refund.balance, after_refund.debt) == (0, 80)
    final = wallets.wallet("ana")
    assert (final.balance, final.debt) == (0, 30)
    assert _sums(wallets, "ana") == (-30, -30, 4)


def test_wallet_racing_spends_and_credits_never_go_negative(
    wallets: DynamoWalletStore,
) -> None:
    # given 100 tokens, and 24 threads at once: 16 spending 15 each, 8 crediting 5 each
    _credit(wallets, "ana", 100)
    start = threading.Barrier(24)
    outcomes: list[str] = []

    def act(index: int) -> None:
        amount = 5 if index % 3 == 0 else -15
        start.wait()
        try:
            wallets.apply(f"race-{index}", [Change("ana", amount, "grant")], NOW)
            outcomes.append("credit" if amount > 0 else "spend")
        except EconomyError as error:
            outcomes.append(error.code)
        except ServiceBusyError:
            outcomes.append("busy")

    threads = [threading.Thread(target=act, args=(i,)) for i in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then every change was applied once or refused, the balance is what the applied ones make,
    # never below 0, and the ledger sums to it
    spends, credits = outcomes.count("spend"), outcomes.count("credit")
    wallet = wallets.wallet("ana")
    assert wallet.balance == 100 + 5 * credits - 15 * spends >= 0
    assert wallet.debt == 0
    assert _sums(wallets, "ana") == (wallet.balance, wallet.balance, 1 + spends + credits)
    assert all(e.balance >= 0 for e in wallets.entries("ana", 100))
    assert set(outcomes) <= {"spend", "credit", "not_enough_tokens", "busy"}
    assert spends >= 6  # 100 + the credits pays at least six spends


# ----------------------------------------------------------------------------- E3, S2


def test_premium_offers_show_the_end_each_would_give(economy: EconomyService) -> None:
    # given ana without premium; when she reads the offers
    offers = economy.premium_offers("ana")

    # then each of 1, 7, 15, 30, 90 and 360 days ends that many days from now
    assert [o.days for o in offers] == [1, 7, 15, 30, 90, 360]
    assert all(o.ends_at == NOW + timedelta(days=o.days) for o in offers)


def test_premium_bought_then_extended_from_its_end(
    economy: EconomyService, wallets: DynamoWalletStore
) -> None:
    # given ana with 500 tokens
    _credit(wallets, "ana", 500)

    # when she buys 7 days, then 30 more
    _, first_end = economy.buy_premium("ana", 7, "p-1")
    entry, second_end = economy.buy_premium("ana", 30, "p-2")

    # then the second starts from the end of the first; both were paid from the wallet
    assert first_end == NOW + timedelta(days=7)
    assert second_end == NOW + timedelta(days=37)
    assert wallets.premium_until("ana") == second_end
    assert wallets.wallet("ana").balance == 500 - 100 - 300
    assert entry.reason == "premium" and entry.detail == "premium 30 days"

    # and the offers now show ends after it
    assert economy.premium_offers("ana")[0].ends_at == second_end + timedelta(days=1)


def test_premium_repeated_request_is_bought_once(
    economy: EconomyService, wallets: DynamoWalletStore
) -> None:
    # given ana with 300 tokens and a purchase of 30 days
    _credit(wallets, "ana", 300)
    economy.buy_premium("ana", 30, "same-key")

    # when the request comes again with its key
    economy.buy_premium("ana", 30, "same-key")

    # then she paid once and has 30 days
    assert wallets.wallet("ana").balance == 0
    assert wallets.premium_until("ana") == NOW + timedelta(days=30)


def test_premium_repeat_answers_the_end_it_gave_not_todays(
    economy: EconomyService, wallets: DynamoWalletStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana bought 7 days with key a, then 7 more with key b
    _credit(wallets, "ana", 200)
    first, first_end = economy.buy_premium("ana", 7, "a")
    economy.buy_premium("ana", 7, "b")
    counted: list[str] = []
    monkeypatch.setattr(
        "yamb_service.economy.service.metrics.add_metric", lambda name, **_: counted.append(name)
    )

    # when the request of key a comes again
    again, again_end = economy.buy_premium("ana", 7, "a")

    # then it answers what it did then (the end it gave, kept on its entry), counts no purchase
    assert (again, again_end) == (first, first_end) == (first, NOW + timedelta(days=7))
    assert first.premium_until == first_end
    assert wallets.premium_until("ana") == NOW + timedelta(days=14)
    assert counted == []


def test_premium_gift_goes_to_the_other_player(
    economy: EconomyService, wallets: DynamoWalletStore
) -> None:
    # given ana with 100 tokens
    _credit(wallets, "ana", 100)

    # when she gives Ben 7 days
    entry, end = economy.buy_premium("ana", 7, "gift-1", gift_to="ben")

    # then Ben has premium, ana paid, and her entry names him
    assert wallets.premium_until("ben") == end == NOW + timedelta(days=7)
    assert wallets.premium_until("ana") is None
    assert (entry.reason, entry.counterparty) == ("gift_sent", "ben")


@pytest.mark.parametrize(
    ("days", "tokens", "code"), [(8, 500, "unknown_offer"), (360, 100, "not_enough_tokens")]
)
def test_premium_bad_offer_or_short_wallet_changes_nothing(
    economy: EconomyService, wallets: DynamoWalletStore, days: int, tokens: int, code: str
) -> None:
    # given ana with some tokens; when she buys an offer that does not exist, or costs too much
    _credit(wallets, "ana", tokens)
    with pytest.raises(EconomyError) as refused:
        economy.buy_premium("ana", days, f"bad-{days}")

    # then it is refused with its code, and nothing changed
    assert refused.value.code == code
    assert wallets.premium_until("ana") is None
    assert _sums(wallets, "ana") == (tokens, tokens, 1)


def test_gift_tokens_moves_them_in_one_change(
    economy: EconomyService, wallets: DynamoWalletStore
) -> None:
    # given ana with 100 tokens
    _credit(wallets, "ana", 100)

    # when she gives Ben 40 (and the request is repeated)
    economy.gift_tokens("ana", "ben", 40, "t-1")
    economy.gift_tokens("ana", "ben", 40, "t-1")

    # then 40 moved once: each ledger has its side, both sum to their balances
    assert wallets.wallet("ana").balance == 60
    assert wallets.wallet("ben").balance == 40
    (received,) = wallets.entries("ben", 10)
    assert (received.reason, received.counterparty) == ("gift_received", "ana")
    assert _sums(wallets, "ben") == (40, 40, 1)


def test_gift_tokens_repeat_answers_from_its_key_after_the_recipient_left(
    wallets: DynamoWalletStore,
) -> None:
    # given ana gave Ben 40 tokens; then Ben deleted his account
    profiles = {"ana": _profile("ana", "Ana", AccountStatus.ACTIVE)}
    ben = _profile("ben", "Ben", AccountStatus.ACTIVE)
    nicknames = {"ana": "ana", "ben": "ben"}
    accounts = Accounts(
        profile=lambda p: profiles.get(p) or (ben if p == "ben" else None),
        nickname_owner=lambda n: nicknames.get(n.lower()),
    )
    economy = _economy(wallets, accounts)
    _credit(wallets, "ana", 100)
    sent = economy.gift_tokens("ana", "ben", 40, "t-1")
    ben = _profile("ben", "Ben", AccountStatus.DELETED)

    # when her request is repeated with its key, and once more with the key for another amount
    again = economy.gift_tokens("ana", "ben", 40, "t-1")
    with pytest.raises(EconomyError) as reused:
        economy.gift_tokens("ana", "ben", 41, "t-1")

    # then the repeat answers the gift it made, the other amount is refused, 40 moved once
    assert again == sent
    assert reused.value.code == "key_reused"
    assert (wallets.wallet("ana").balance, wallets.wallet("ben").balance) == (60, 40)


@pytest.mark.parametrize(
    ("nickname", "amount", "key", "code"),
    [
        ("ana", 10, "k", "gift_to_self"),
        ("Gone", 10, "k", "unknown_player"),
        ("nobody", 10, "k", "unknown_player"),
        ("ben", 0, "k", "bad_amount"),
        ("ben", 500, "k", "not_enough_tokens"),
        ("ben", 10, "", "bad_request"),
        ("ben", 10, "with space", "bad_request"),
    ],
)
def test_gift_tokens_bad_input_changes_nothing(  # noqa: PLR0917 - the parametrized cases
    economy: EconomyService,
    wallets: DynamoWalletStore,
    nickname: str,
    amount: int,
    key: str,
    code: str,
) -> None:
    # given ana with 100 tokens; when she gives badly
    _credit(wallets, "ana", 100)
    with pytest.raises(EconomyError) as refused:
        economy.gift_tokens("ana", nickname, amount, key)

    # then each gets its code, and no wallet changed
    assert refused.value.code == code
    assert _sums(wallets, "ana") == (100, 100, 1)
    assert wallets.entries("ben", 10) == []


def test_ledger_pages_back_by_seq(economy: EconomyService, wallets: DynamoWalletStore) -> None:
    # given five changes
    for _ in range(5):
        _credit(wallets, "ana", 1)

    # when the ledger is read two at a time
    first = economy.ledger("ana", limit=2)
    second = economy.ledger("ana", limit=2, before=first[-1].seq)

    # then the pages follow each other, newest first
    assert [e.seq for e in first] == [5, 4]
    assert [e.seq for e in second] == [3, 2]
    with pytest.raises(EconomyError):
        economy.ledger("ana", limit=500)
