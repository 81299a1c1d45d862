"""DynamoDB per wallet change and per credited payment (`make bench`): requests by operation,
billed write and read units, and time, each beside a baseline measured in the same run.

The token economy (docs/economy.md) changes a balance only through `DynamoWalletStore.apply`:
one TransactWriteItems of the wallet on its version, its ledger entry and its idempotency key
(and what the change pays for). Here the functions of template.yaml run in this process on moto,
as the integration tests assemble them (tests/integration/test_payments.py, test_rewards.py):
the game table created from template.yaml (its keys and index; not its stream: see
create_table), each function's app.py loaded and called with the events its sources send:

- EconomyFunction with API Gateway's HTTP API events (events/http_me.json, the authorizer's
  player on it, an `Idempotency-Key` header): a token gift, premium, a cosmetic bought, each
  sent again with its key, and a cosmetic equipped;
- PaymentsFunction: a checkout (Stripe faked at its SDK's HTTP-client level, as the tests do),
  then Stripe's webhooks signed with the SDK's own scheme: `checkout.session.completed`, the
  same event delivered again, and `charge.refunded` (its charge without our metadata, as Stripe
  sends it: the PaymentIntent is asked of Stripe);
- RewardsFunction with a stream record of a game's end (events/rewards_stream.json, a fresh game
  and players each time), then the same record again;
- `DynamoWalletStore.apply` alone (one credit, no function): the store's own share.

Counted by the bench's meters (bench/meters.py) wrapped round moto's DynamoDB handler: every
request by operation, the write units by DynamoDB's item-size rules (x2 in a transaction) and
the read units. The baseline is one plain conditional PutItem (on `version`) of a wallet-sized
item through the same pynamodb model; it is timed before every measured call, and each figure is
given as a ratio to it (times: medians). Every round starts from an emptied table (moto copies
the whole table once per item of a transaction, so a growing table would slow the later
rounds), and the scenarios take turns in a rotating order. Each answer and wallet is checked
afterwards: a wrong one fails the bench (exit 1).

    .venv/bin/python bench/economy_bench.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import logging
import os
import statistics
import sys
import time
import uuid
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import stripe  # noqa: E402
from cost_model import load_prices  # noqa: E402
from game_types_bench import _LogSink, metered_moto  # noqa: E402
from meters import (  # noqa: E402
    READ_OPERATIONS,
    SOURCE_HEADER,
    WRITE_OPERATIONS,
    DynamoRequest,
    Meter,
    _patch,
    recording_dynamodb,
)

from testkit.stripe import FakeStripe, refunded_charge, stripe_event  # noqa: E402

REGION = "us-east-1"
TABLE = "yamb-bench-GameTable"
API_KEY_PARAMETER = "/yamb/stripe/api-key"
WEBHOOK_SECRET_PARAMETER = "/yamb/stripe/webhook-secret"
WEBHOOK_SECRET = "whsec_economy_bench"
ENVIRONMENT = {
    "TABLE_NAME": TABLE,
    "AWS_REGION": REGION,
    "AWS_DEFAULT_REGION": REGION,
    "POWERTOOLS_SERVICE_NAME": "yamb",
    "POWERTOOLS_METRICS_NAMESPACE": "YambBench",
    "STRIPE_API_KEY_PARAMETER": API_KEY_PARAMETER,
    "STRIPE_WEBHOOK_SECRET_PARAMETER": WEBHOOK_SECRET_PARAMETER,
    "SHOP_URL": "https://yamb.example/shop",
}
OPERATIONS = ("GetItem", "Query", "PutItem", "UpdateItem", "TransactWriteItems")
SHORT = {
    "GetItem": "Get",
    "Query": "Query",
    "PutItem": "Put",
    "UpdateItem": "Upd",
    "TransactWriteItems": "TxW",
}
BASELINE = "baseline"
GIFT_AMOUNT = 5
PREMIUM_DAYS = 7
COSMETIC = "dice-neon"  # 60 tokens, 30 days
PACK = "pack-500"  # 500 tokens for 4.99
PACK_TOKENS = 500


class BenchError(RuntimeError):
    """An answer or a wallet that is not what the scenario must give."""


# ------------------------------------------------------------------------ what each request is


@dataclass(frozen=True, slots=True)
class Shape:
    """One request as the access patterns of docs/data-model.md name it."""

    label: str  # the meter's action label
    text: str  # e.g. "Get IDEM", "TxW[WALLET LEDGER IDEM]"
    items: int  # the items a transaction puts, updates, deletes or checks (0: no transaction)


def _kind(key: Mapping[str, Any]) -> str:
    """An item's kind from its sort key: WALLET, LEDGER, IDEM, PROFILE, NICK, WARDROBE..."""
    sk = str((key.get("sk") or {}).get("S", "?"))
    return sk.split("#", 1)[0]


def _kinds(kinds: list[str]) -> str:
    counts = Counter(kinds)
    return " ".join(kind if n == 1 else f"{kind}x{n}" for kind, n in counts.items())


def _shape(operation: str, params: Mapping[str, Any]) -> tuple[str, int]:
    match operation:
        case "GetItem":
            consistent = "" if params.get("ConsistentRead") else " (eventual)"
            return f"Get {_kind(params['Key'])}{consistent}", 0
        case "Query":
            return "Query" + (f" {params['IndexName']}" if "IndexName" in params else ""), 0
        case "PutItem":
            condition = "?" if "ConditionExpression" in params else ""
            return f"Put {_kind(params['Item'])}{condition}", 0
        case "UpdateItem" | "DeleteItem":
            condition = "?" if "ConditionExpression" in params else ""
            return f"{SHORT.get(operation, operation)} {_kind(params['Key'])}{condition}", 0
        case "TransactWriteItems":
            kinds = []
            for entry in params["TransactItems"]:
                ((what, request),) = entry.items()
                kind = _kind(request.get("Key") or request["Item"])
                kinds.append(kind if what == "Put" else f"{what}:{kind}")
            return f"TxW[{_kinds(kinds)}]", len(kinds)
    return operation, 0


def shaped(shapes: list[Shape]) -> AbstractContextManager[None]:
    """Every request moto's DynamoDB answers (or refuses) recorded as a Shape."""

    def record(operation: str, handler: Any, _result: Any) -> None:
        text, items = _shape(operation, handler.body)
        shapes.append(Shape(handler.headers.get(SOURCE_HEADER) or "", text, items))

    return recording_dynamodb(record)


# ------------------------------------------------------------------------ the functions


@dataclass(frozen=True, slots=True)
class Context:
    """What Powertools reads of a Lambda context."""

    function_name: str
    memory_limit_in_mb: int = 256
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:bench"
    aws_request_id: str = "00000000-0000-0000-0000-000000000000"


def load_function(name: str) -> ModuleType:
    """functions/<name>/app.py under a module name of its own (every function has an app.py)."""
    path = ROOT / "functions" / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"yamb_function_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _http_event(
    method: str, path: str, body: Any, player: str | None, headers: Mapping[str, str]
) -> dict[str, Any]:
    """The event API Gateway's HTTP API sends (events/http_me.json as the template)."""
    event: dict[str, Any] = json.loads((ROOT / "events" / "http_me.json").read_text())
    context = event["requestContext"]
    event["routeKey"] = context["routeKey"] = f"{method} {path}"
    event["rawPath"] = context["http"]["path"] = path
    context["http"]["method"] = method
    context["requestId"] = uuid.uuid4().hex
    event["headers"].pop("authorization", None)
    event["headers"].update(headers)
    if player is None:
        context.pop("authorizer", None)
    else:
        context["authorizer"]["lambda"]["playerId"] = player
    if body is None:
        event.pop("body", None)
    else:
        event["body"] = body if isinstance(body, str) else json.dumps(body)
    return event


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    body: Any


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    nickname: str


class Economy:
    """The three functions and the stores on the one table; what a scenario sets up."""

    def __init__(self, fake: FakeStripe) -> None:
        from yamb_service.accounts.dynamo import DynamoAccountStore
        from yamb_service.common.dynamo import item_model
        from yamb_service.economy.wallet_dynamo import DynamoWalletStore
        from yamb_service.game.dynamo import DynamoGameRepository

        self.fake = fake
        self.item = item_model(TABLE, REGION)
        self.wallets = DynamoWalletStore(self.item)
        self.accounts = DynamoAccountStore(self.item, DynamoGameRepository(self.item).result)
        self.functions = {
            "EconomyFunction": load_function("economy"),
            "PaymentsFunction": load_function("payments"),
            "RewardsFunction": load_function("rewards"),
        }

    # -- set-up, not measured

    def player(self, prefix: str) -> Player:
        from yamb.accounts.profile import AccountStatus, Profile

        player_id = str(uuid.uuid4())
        nickname = f"{prefix}{uuid.uuid4().hex[:10]}"
        self.accounts.create(
            Profile(
                player_id=player_id,
                nickname=nickname,
                email=f"{nickname.lower()}@example.com",
                status=AccountStatus.ACTIVE,
                created_at=datetime.now(UTC),
            )
        )
        return Player(player_id, nickname)

    def credit(self, player: Player, amount: int) -> None:
        from yamb_service.economy.ports import Change

        self.wallets.apply(
            f"grant:{uuid.uuid4()}", [Change(player.player_id, amount, "grant")], datetime.now(UTC)
        )

    def balance(self, player: Player | str) -> tuple[int, int, int]:
        """(balance, debt, ledger entries); the ledger must sum to balance - debt."""
        player_id = player if isinstance(player, str) else player.player_id
        wallet = self.wallets.wallet(player_id)
        entries = self.wallets.entries(player_id, 100)
        if sum(e.amount for e in entries) != wallet.balance - wallet.debt:
            raise BenchError(f"the ledger of {player_id} does not sum to its balance")
        return wallet.balance, wallet.debt, len(entries)

    # -- the functions

    def call(self, function: str, event: dict[str, Any]) -> Any:
        return self.functions[function].handler(event, Context(function))

    def http(
        self,
        function: str,
        method: str,
        path: str,
        body: Any,
        *,
        player: Player | None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        event = _http_event(
            method, path, body, None if player is None else player.player_id, headers or {}
        )
        answer = self.call(function, event)
        return Reply(answer["statusCode"], json.loads(answer.get("body") or "null"))

    def economy(
        self, method: str, path: str, player: Player, body: Any, key: str | None = None
    ) -> Reply:
        headers = {} if key is None else {"idempotency-key": key}
        return self.http("EconomyFunction", method, path, body, player=player, headers=headers)

    def checkout(self, player: Player) -> Reply:
        body = {"offerId": PACK}
        return self.http("PaymentsFunction", "POST", "/me/checkout", body, player=player)

    def webhook(self, payload: str) -> Reply:
        """Stripe's delivery of `payload`, signed now (a delivery again is signed again)."""
        header = stripe.WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
        headers = {"content-type": "application/json; charset=utf-8", "stripe-signature": header}
        return self.http(
            "PaymentsFunction", "POST", "/webhooks/stripe", payload, player=None, headers=headers
        )

    def paid_session(self, player: Player) -> dict[str, Any]:
        """A checkout made, and its session as Stripe completes it: paid, with our metadata."""
        reply = self.checkout(player)
        _expect(reply.status == 201, f"checkout answered {reply}")
        return self.fake.paid_session(reply.body["sessionId"])


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise BenchError(message)


def ended_record(winner: str, loser: str) -> dict[str, Any]:
    """events/rewards_stream.json as the stream sends it, for a fresh game won by `winner`."""
    event: dict[str, Any] = json.loads((ROOT / "events" / "rewards_stream.json").read_text())
    record = event["Records"][0]
    image = record["dynamodb"]["NewImage"]
    result = json.loads(base64.b64decode(image["body"]["B"]))
    game_id = uuid.uuid4().hex[:20]
    result["gameId"] = game_id
    result["winners"] = [winner]
    result["players"][0]["playerId"], result["players"][1]["playerId"] = winner, loser
    image["body"]["B"] = base64.b64encode(json.dumps(result).encode()).decode()
    image["pk"] = record["dynamodb"]["Keys"]["pk"] = {"S": f"GAME#{game_id}"}
    record["eventID"] = uuid.uuid4().hex
    return event


# ------------------------------------------------------------------------ the scenarios

# A scenario's set-up (not measured) gives the call to measure and the check to run after it.
type Prepared = tuple[Callable[[], Any], Callable[[Any], None]]


@dataclass(frozen=True, slots=True)
class Scenario:
    key: str
    label: str
    group: str
    changes: int  # wallet changes it makes (0: answered from its key)
    prepare: Callable[[Economy], Prepared]

    @property
    def function(self) -> str:
        """The template's logical id of the function it calls, or the store."""
        return FUNCTIONS[self.group]


def _gift(economy: Economy, *, again: bool = False) -> Prepared:
    ana, ben = economy.player("ana"), economy.player("ben")
    economy.credit(ana, 100)
    key = uuid.uuid4().hex
    body = {"nickname": ben.nickname, "amount": GIFT_AMOUNT}
    first = economy.economy("POST", "/me/gifts", ana, body, key) if again else None

    def check(reply: Reply) -> None:
        _expect(reply.status == 201, f"gift answered {reply}")
        _expect(first is None or reply == first, "the gift sent again was answered otherwise")
        _expect(economy.balance(ana) == (100 - GIFT_AMOUNT, 0, 2), "the giver's wallet")
        _expect(economy.balance(ben) == (GIFT_AMOUNT, 0, 1), "the recipient's wallet")

    return (lambda: economy.economy("POST", "/me/gifts", ana, body, key)), check


def _premium(economy: Economy, *, again: bool = False) -> Prepared:
    from yamb.economy import premium

    ana = economy.player("ana")
    economy.credit(ana, 500)
    key = uuid.uuid4().hex
    body = {"days": PREMIUM_DAYS}
    first = economy.economy("POST", "/me/premium", ana, body, key) if again else None

    def check(reply: Reply) -> None:
        _expect(reply.status == 201, f"premium answered {reply}")
        _expect(first is None or reply == first, "premium sent again was answered otherwise")
        price = premium.price_of(PREMIUM_DAYS)
        _expect(economy.balance(ana) == (500 - price, 0, 2), "the buyer's wallet")
        _expect(economy.wallets.premium_until(ana.player_id) is not None, "no premium")

    return (lambda: economy.economy("POST", "/me/premium", ana, body, key)), check


def _cosmetic(economy: Economy, *, again: bool = False) -> Prepared:
    from yamb.economy import cosmetics

    ana = economy.player("ana")
    economy.credit(ana, 200)
    key = uuid.uuid4().hex
    body = {"itemId": COSMETIC}
    first = economy.economy("POST", "/me/cosmetics", ana, body, key) if again else None

    def check(reply: Reply) -> None:
        _expect(reply.status == 201, f"the cosmetic answered {reply}")
        _expect(first is None or reply == first, "the cosmetic sent again was answered otherwise")
        price = cosmetics.item_of(COSMETIC).price
        _expect(economy.balance(ana) == (200 - price, 0, 2), "the buyer's wallet")
        owned = economy.wallets.table_item.get(f"PLAYER#{ana.player_id}", "WARDROBE")
        _expect(COSMETIC in (owned.wardrobe or ""), "the wardrobe does not hold it")

    return (lambda: economy.economy("POST", "/me/cosmetics", ana, body, key)), check


def _equip(economy: Economy) -> Prepared:
    ana = economy.player("ana")
    economy.credit(ana, 200)
    bought = economy.economy("POST", "/me/cosmetics", ana, {"itemId": COSMETIC}, "buy")
    _expect(bought.status == 201, f"the cosmetic answered {bought}")
    body = {"kind": "dice_skin", "itemId": COSMETIC}

    def check(reply: Reply) -> None:
        _expect(reply.status == 200, f"equip answered {reply}")
        _expect(reply.body["equipped"]["diceSkin"] == COSMETIC, f"not equipped: {reply.body}")

    return (lambda: economy.economy("PATCH", "/me/cosmetics/equipped", ana, body)), check


def _checkout(economy: Economy) -> Prepared:
    ana = economy.player("ana")

    def check(reply: Reply) -> None:
        _expect(reply.status == 201 and reply.body["url"], f"checkout answered {reply}")
        _expect(economy.balance(ana) == (0, 0, 0), "a checkout changed the wallet")

    return (lambda: economy.checkout(ana)), check


def _paid(economy: Economy, *, again: bool = False) -> Prepared:
    ana = economy.player("ana")
    payload = stripe_event("checkout.session.completed", economy.paid_session(ana))
    if again:
        first = economy.webhook(payload)
        _expect(first.body == {"received": True, "handled": "credited"}, f"not credited: {first}")

    def check(reply: Reply) -> None:
        _expect(reply.status == 200, f"the webhook answered {reply}")
        _expect(reply.body["handled"] == "credited", f"the webhook answered {reply}")
        _expect(economy.balance(ana) == (PACK_TOKENS, 0, 1), "the buyer's wallet")

    return (lambda: economy.webhook(payload)), check


def _refund(economy: Economy) -> Prepared:
    ana = economy.player("ana")
    session = economy.paid_session(ana)
    paid = economy.webhook(stripe_event("checkout.session.completed", session))
    _expect(paid.body == {"received": True, "handled": "credited"}, f"not credited: {paid}")
    payload = stripe_event(
        "charge.refunded",
        refunded_charge(session, (f"re_{uuid.uuid4().hex}", session["amount_total"])),
    )

    def check(reply: Reply) -> None:
        _expect(reply.status == 200, f"the webhook answered {reply}")
        _expect(reply.body["handled"] == "debited", f"the webhook answered {reply}")
        _expect(economy.balance(ana) == (0, 0, 2), "the buyer's wallet")

    return (lambda: economy.webhook(payload)), check


def _reward(economy: Economy, *, again: bool = False) -> Prepared:
    winner, loser = f"win-{uuid.uuid4().hex[:8]}", f"lose-{uuid.uuid4().hex[:8]}"
    event = ended_record(winner, loser)
    paid: list[int] = []
    if again:
        economy.call("RewardsFunction", json.loads(json.dumps(event)))
        paid.append(economy.balance(winner)[0])

    def check(answer: Any) -> None:
        _expect(answer == {"batchItemFailures": []}, f"the rewards answered {answer}")
        balance, _, entries = economy.balance(winner)
        _expect(balance > 0 and entries == 1, f"the winner has {balance} in {entries} entries")
        _expect(not paid or paid == [balance], "the record delivered again paid again")
        _expect(economy.balance(loser) == (0, 0, 0), "the loser was paid")

    return (lambda: economy.call("RewardsFunction", json.loads(json.dumps(event)))), check


def _store_credit(economy: Economy) -> Prepared:
    from yamb_service.economy.ports import Change

    ana = economy.player("ana")
    economy.credit(ana, 100)
    change = [Change(ana.player_id, 10, "grant")]
    key = f"grant:{uuid.uuid4()}"

    def check(entries: Any) -> None:
        _expect(len(entries) == 1, f"apply answered {entries}")
        _expect(economy.balance(ana) == (110, 0, 2), "the wallet")

    return (lambda: economy.wallets.apply(key, change, datetime.now(UTC))), check


W, P, R = "wallet", "payment", "reward"  # the groups: the function each calls
SCENARIOS = (
    Scenario("gift", "token gift (two wallets)", W, 1, _gift),
    Scenario("premium", f"premium bought ({PREMIUM_DAYS} days)", W, 1, _premium),
    Scenario("cosmetic", f"cosmetic bought ({COSMETIC})", W, 1, _cosmetic),
    Scenario("equip", "cosmetic equipped", W, 0, _equip),
    Scenario("gift-again", "gift again, same key", W, 0, partial(_gift, again=True)),
    Scenario("premium-again", "premium again, same key", W, 0, partial(_premium, again=True)),
    Scenario("cosmetic-again", "cosmetic again, same key", W, 0, partial(_cosmetic, again=True)),
    Scenario("checkout", "checkout (Stripe session)", P, 0, _checkout),
    Scenario("paid", "Stripe completed: credited", P, 1, _paid),
    Scenario("paid-again", "same webhook delivered again", P, 0, partial(_paid, again=True)),
    Scenario("refund", "refund webhook: debited", P, 1, _refund),
    Scenario("reward", "win reward (stream record)", R, 1, _reward),
    Scenario("reward-again", "same record delivered again", R, 0, partial(_reward, again=True)),
    Scenario("store", "one credit, store alone", "store", 1, _store_credit),
)
FUNCTIONS = {
    W: "EconomyFunction",
    P: "PaymentsFunction",
    R: "RewardsFunction",
    "store": "DynamoWalletStore",
}
GROUPS = {
    W: "wallet changes: EconomyFunction, API Gateway HTTP events",
    P: "payments: PaymentsFunction, Stripe (faked) and its signed webhooks",
    R: "win rewards: RewardsFunction, the table's stream",
    "store": "for reference: DynamoWalletStore.apply called directly (no function)",
}


# ------------------------------------------------------------------------ running


@dataclass
class Samples:
    """What one scenario (or the baseline) did, every round."""

    ms: list[float] = field(default_factory=list)
    requests: list[list[DynamoRequest]] = field(default_factory=list)  # per call
    shapes: list[tuple[str, ...]] = field(default_factory=list)  # per call, in order
    items: list[int] = field(default_factory=list)  # transaction items per call
    stripe_calls: list[int] = field(default_factory=list)


class Bench:
    def __init__(self, economy: Economy, meter: Meter, shapes: list[Shape]) -> None:
        self.economy = economy
        self.meter = meter
        self.shapes = shapes
        self.samples: dict[str, Samples] = defaultdict(Samples)
        self.problems: list[str] = []
        self._baseline_version = 0
        self._baseline_key = ""

    def _settle(self) -> None:
        """What came before (set-up, checks) is not counted."""
        self.meter.take()
        self.shapes.clear()

    def _timed(self, key: str, function: str, call: Callable[[], Any]) -> tuple[Any, float]:
        metered = self.meter.invocation(function, key, lambda _event, _context: call())
        stripe_before = len(self.economy.fake.requests)
        started = time.perf_counter()
        answer = metered(None, None)
        ms = (time.perf_counter() - started) * 1000
        usage = self.meter.take()
        samples = self.samples[key]
        samples.ms.append(ms)
        mine = [request for request in usage.dynamodb if request.action == key]
        if len(mine) != len(usage.dynamodb):
            self.problems.append(f"{key}: {len(usage.dynamodb) - len(mine)} requests of no call")
        samples.requests.append(mine)
        shapes = [shape for shape in self.shapes if shape.label.endswith(f" {key}")]
        samples.shapes.append(tuple(shape.text for shape in shapes))
        samples.items.append(sum(shape.items for shape in shapes))
        samples.stripe_calls.append(len(self.economy.fake.requests) - stripe_before)
        self.shapes.clear()
        return answer, ms

    def new_round(self) -> None:
        """An emptied table, and the baseline's wallet-sized item stored."""
        from testkit.table import empty_table

        empty_table(TABLE)
        self._baseline_key = f"PLAYER#{uuid.uuid4()}"
        self._baseline_version = 7
        self.economy.item(
            self._baseline_key, "WALLET", balance=1234, debt=0, version=self._baseline_version
        ).save()

    def baseline(self) -> None:
        """One conditional PutItem of a wallet-sized item on its version, nothing else."""
        item = self.economy.item
        version = self._baseline_version
        stored = item(self._baseline_key, "WALLET", balance=1230 + version, debt=0)
        stored.version = version + 1

        def put() -> None:
            stored.save(condition=item.version == version)

        self._settle()
        self._timed(BASELINE, "PynamoDB", put)
        self._baseline_version = version + 1

    def run(self, scenario: Scenario) -> None:
        try:
            call, check = scenario.prepare(self.economy)
            self.baseline()
            self._settle()
            answer, _ = self._timed(scenario.key, scenario.function, call)
            check(answer)
        except BenchError as error:
            self.problems.append(f"{scenario.label}: {error}")


# ------------------------------------------------------------------------ figures


@dataclass(frozen=True, slots=True)
class Figures:
    calls: int
    operations: dict[str, float]
    requests: float
    reads: float
    writes: float
    items: float
    wcu: float
    rcu: float
    stripe: float
    ms: float
    constant: bool  # every call made the same requests

    @classmethod
    def of(cls, samples: Samples) -> Figures:
        n = max(len(samples.requests), 1)
        every = [request for call in samples.requests for request in call]
        operations = Counter(request.operation for request in every)
        return cls(
            calls=len(samples.requests),
            operations={op: operations[op] / n for op in OPERATIONS},
            requests=len(every) / n,
            reads=sum(operations[op] for op in READ_OPERATIONS) / n,
            writes=sum(operations[op] for op in WRITE_OPERATIONS) / n,
            items=sum(samples.items) / n,
            wcu=sum(r.write_units + r.index_write_units for r in every) / n,
            rcu=sum(r.read_units for r in every) / n,
            stripe=sum(samples.stripe_calls) / n,
            ms=statistics.median(samples.ms) if samples.ms else 0.0,
            constant=len(set(samples.shapes)) <= 1,
        )

    def usd_per_million(self, wcu_usd: float, rcu_usd: float) -> float:
        return self.wcu * wcu_usd + self.rcu * rcu_usd


def _x(value: float, base: float) -> str:
    return f"{value / base:.2f}x" if base else "-"


def _number(value: float) -> str:
    """A mean: whole when it is (every call the same), else two decimals."""
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}"


def print_table(bench: Bench, rounds: int) -> None:
    prices = load_prices()
    wcu_usd = prices["dynamodb_write_request_units"].of(1_000_000)
    rcu_usd = prices["dynamodb_read_request_units"].of(1_000_000)
    base = Figures.of(bench.samples[BASELINE])
    ops = "".join(f"{SHORT[op]:>6}" for op in OPERATIONS)
    print(
        f"  per call, mean of {rounds} rounds (ms: median); items: those its transaction puts "
        "or checks (2 WCU each up to 1 KB); $/M: DynamoDB on demand per million calls, "
        f"{prices.region} list prices of {prices.as_of}; Stripe: API calls; x: ratio to the "
        "baseline"
    )
    print(
        f"    {'':<30}{'reqs':>5}{'reads':>6}{'writes':>7}{ops}{'items':>6}{'WCU':>5}{'RCU':>6}"
        f"{'$/M':>6}{'Stripe':>7}{'ms':>7}{'reqs x':>8}{'WCU x':>8}{'time x':>8}"
    )

    def row(label: str, f: Figures) -> None:
        cells = "".join(f"{_number(f.operations[op]):>6}" for op in OPERATIONS)
        usd = f.usd_per_million(wcu_usd, rcu_usd)
        varies = "" if f.constant else "  (requests varied between calls)"
        print(
            f"    {label:<30}{_number(f.requests):>5}{_number(f.reads):>6}{_number(f.writes):>7}"
            f"{cells}{_number(f.items):>6}{_number(f.wcu):>5}{f.rcu:>6g}{usd:6.2f}"
            f"{_number(f.stripe):>7}{f.ms:7.1f}{_x(f.requests, base.requests):>8}"
            f"{_x(f.wcu, base.wcu):>8}{_x(f.ms, base.ms):>8}{varies}"
        )

    print("  baseline: one conditional PutItem (on version) of a wallet-sized item, pynamodb")
    row("PutItem of a wallet", base)
    figures = {s.key: Figures.of(bench.samples[s.key]) for s in SCENARIOS}
    for group, title in GROUPS.items():
        print(f"  {title}")
        for scenario in SCENARIOS:
            if scenario.group == group and figures[scenario.key].calls:
                row(scenario.label, figures[scenario.key])
    print(
        "  the requests of each call, in order (Get: consistent unless said; ?: conditional; "
        "TxW[...]: the items its transaction puts, or updates):"
    )
    for scenario in SCENARIOS:
        shapes = bench.samples[scenario.key].shapes
        if shapes:
            print(f"    {scenario.label:<30}" + (", ".join(shapes[-1]) or "none"))
    print_summary(figures, base, wcu_usd, rcu_usd)


def _span(
    values: list[float], base: float, unit: str, shown: Callable[[float], str] = _number
) -> str:
    """`values`' range and its ratio to the baseline's: "3-6 requests (3.00x-6.00x)"."""
    low, high = min(values), max(values)
    if low == high:
        return f"{shown(low)} {unit} ({_x(low, base)})"
    return f"{shown(low)}-{shown(high)} {unit} ({_x(low, base)}-{_x(high, base)})"


def print_summary(
    figures: dict[str, Figures], base: Figures, wcu_usd: float, rcu_usd: float
) -> None:
    changes = [figures[s.key] for s in SCENARIOS if s.changes and s.group != "store"]
    changes = [f for f in changes if f.calls]
    if changes:
        rcu, ms = [f.rcu for f in changes], [f.ms for f in changes]
        print(
            f"  a wallet change ({len(changes)} kinds above): "
            f"{_span([f.requests for f in changes], base.requests, 'requests')}, one of them "
            f"the transaction; {_span([f.wcu for f in changes], base.wcu, 'WCU')}, "
            f"{min(rcu):g}-{max(rcu):g} RCU; {_span(ms, base.ms, 'ms', '{:.1f}'.format)}"
        )
    checkout, paid = figures.get("checkout"), figures.get("paid")
    if checkout and paid and checkout.calls and paid.calls:
        requests = checkout.requests + paid.requests
        wcu, rcu_sum = checkout.wcu + paid.wcu, checkout.rcu + paid.rcu
        usd = wcu * wcu_usd + rcu_sum * rcu_usd
        both_ms = checkout.ms + paid.ms
        print(
            f"  a credited payment end to end (checkout + completion webhook): "
            f"{_number(requests)} DynamoDB requests ({_x(requests, base.requests)}), "
            f"{_number(wcu)} WCU ({_x(wcu, base.wcu)}), {_number(rcu_sum)} RCU, "
            f"${usd:.2f} a million payments; {_number(checkout.stripe + paid.stripe)} Stripe API "
            f"call(s); {both_ms:.1f} ms here ({_x(both_ms, base.ms)})"
        )
    repeats = [s for s in SCENARIOS if not s.changes and s.key.endswith("-again")]
    written = [s.label for s in repeats if figures[s.key].calls and figures[s.key].writes > 0]
    print(
        "  repeats answered from their key wrote nothing: "
        + ("yes" if not written else "NO: " + ", ".join(written))
    )


def create_table() -> None:
    """The game table as template.yaml declares its keys and index, without its stream: the
    rewards get their record here directly, and moto would copy every record the stream ever
    held with each transaction (its time growing through the run)."""
    from testkit.table import create_game_table

    create_game_table(TABLE, stream=False)


def _quiet() -> None:
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    logging.getLogger("moto").setLevel(logging.CRITICAL)
    logging.getLogger("yamb_service").setLevel(logging.CRITICAL)  # the payments' own log
    logging.getLogger("stripe").setLevel(logging.CRITICAL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="measured rounds (+1 warm-up)")
    args = parser.parse_args()
    _quiet()
    began = time.perf_counter()
    os.environ.update(ENVIRONMENT)

    import boto3
    from moto import mock_aws
    from yamb_service.common import config
    from yamb_service.economy import wiring as economy_wiring
    from yamb_service.economy.payments import wiring as payment_wiring
    from yamb_service.economy.rewards import wiring as reward_wiring

    print("economy: DynamoDB per wallet change and per credited payment")
    print(
        "  in-process on moto: the economy, payments and rewards functions of template.yaml "
        "called with their sources' events (the table from template.yaml; Stripe faked at its "
        "SDK's HTTP client, its webhooks signed with the SDK's scheme)"
    )
    sink = _LogSink()
    meter = Meter(lambda: datetime.now(UTC))
    shapes: list[Shape] = []
    fake = FakeStripe()
    with ExitStack() as stack:
        stack.enter_context(mock_aws())
        stack.enter_context(metered_moto(meter, sink))
        stack.enter_context(shaped(shapes))
        _patch(stack, payment_wiring, "stripe_http_client", lambda: fake)
        for cached in (
            config.economy_settings,
            config.payment_settings,
            economy_wiring.economy_service,
            payment_wiring.payment_service,
            reward_wiring.reward_service,
        ):
            cached.cache_clear()
            stack.callback(cached.cache_clear)
        boto3.setup_default_session(region_name=REGION)
        create_table()
        ssm = boto3.client("ssm", region_name=REGION)
        ssm.put_parameter(Name=API_KEY_PARAMETER, Value="sk_test_bench", Type="SecureString")
        ssm.put_parameter(Name=WEBHOOK_SECRET_PARAMETER, Value=WEBHOOK_SECRET, Type="SecureString")
        bench = Bench(Economy(fake), meter, shapes)
        for number in range(args.rounds + 1):  # round 0 warms up: not counted
            bench.new_round()
            turn = number % len(SCENARIOS)
            for scenario in SCENARIOS[turn:] + SCENARIOS[:turn]:
                bench.run(scenario)
            if number == 0:
                bench.samples.clear()
    print_table(bench, args.rounds)
    for problem in bench.problems:
        print(f"  BUG: {problem}")
    if sink.lines:
        print(f"  {len(sink.lines)} warning/error log lines, the first:")
        for line in sink.lines[:3]:
            print(f"    {line[:300]}")
    print(
        "  WCU: 1 per started KB of the larger of the item before and after, per item written or "
        "checked, x2 in a transaction; RCU: per started 4 KB returned (a missing item: 1), 1 "
        "strongly consistent, 0.5 eventually; time: moto in this process (it copies the whole "
        "table once per item of a transaction), a fake Stripe answering at once: ratios here, "
        "not AWS latencies"
    )
    print(f"  {args.rounds} rounds + 1 warm-up in {time.perf_counter() - began:.1f} s")
    return 1 if bench.problems else 0


if __name__ == "__main__":
    sys.exit(main())
