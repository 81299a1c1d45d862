"""Tokens for money (E4) on the embedded AWS: the payments function of template.yaml runs
in-process on moto (DynamoDB, SSM Parameter Store with the local secrets), called with the
events API Gateway sends. Stripe is faked at its SDK's HTTP-client level (testkit.stripe's
`FakeStripe`, in place of the RequestsClient the wiring makes); its webhooks are signed with the
SDK's own scheme (`WebhookSignature.generate_signature_header`: HMAC-SHA256 of `<t>.<body>`)."""

import copy
import functools
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import stripe
from botocore.client import BaseClient
from botocore.exceptions import ClientError
from stripe import WebhookSignature
from yamb.accounts.profile import AccountStatus, Profile
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock
from yamb_service.common.dynamo import item_model
from yamb_service.economy.payments import wiring as payment_wiring
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.dynamo import DynamoGameRepository

from devstack.aws import local_secret_value
from devstack.stack import LocalStack
from devstack.template import Template
from testkit.stripe import FakeStripe, nested, refunded_charge, stripe_event
from tests.integration.test_template import dynamodb_allowed, granted, iam_actions, refusals

pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
# Both promotions of the catalogue are on sale then.
NOW = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
AFTER_WINTER = datetime(2027, 2, 1, 12, 0, tzinfo=UTC)
WEBHOOK_SECRET = local_secret_value("/yamb/stripe/webhook-secret")


# ----------------------------------------------------------------------------- the function


def _event(name: str) -> dict[str, Any]:
    return dict(json.loads((EVENTS / name).read_text(encoding="utf-8")))


# What the payments function needed in the test running now, as IAM actions on the table: after
# each test, every call is one its policy allows (`_calls_within_its_policy`).
PAYMENTS_DYNAMODB_NEEDS: set[tuple[str, str]] = set()
# Its DynamoDB calls of the test running now (operation, parameters): each is evaluated against
# its statements, their `dynamodb:LeadingKeys` conditions included.
PAYMENTS_DYNAMODB_CALLS: list[tuple[str, dict[str, Any]]] = []
_running = threading.local()


class Shop:
    """The payments function called as API Gateway calls it, and what it wrote."""

    def __init__(self, stack: LocalStack, fake: FakeStripe) -> None:
        self.stack = stack
        self.fake = fake
        self.handler = stack._handlers["PaymentsFunction"]
        table = (stack.aws.physical_ids["GameTable"], stack.aws.region, stack.aws.endpoint_url)
        self.item = item_model(*table)
        self.wallets = DynamoWalletStore(self.item)
        self.profiles = DynamoAccountStore(self.item, DynamoGameRepository(self.item).result)
        self.dynamodb = stack.aws.client("dynamodb")
        self.table = table[0]
        self.nicknames: dict[str, str] = {}

    def call(
        self,
        method: str,
        path: str,
        body: str | None = None,
        *,
        player: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        event = _event("http_me.json")
        event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} {path}"
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = method
        event["requestContext"]["requestId"] = uuid.uuid4().hex
        event["headers"].pop("authorization", None)
        event["headers"].update(headers or {})
        if player is None:
            event["requestContext"].pop("authorizer", None)
        else:
            event["requestContext"]["authorizer"]["lambda"]["playerId"] = player
        if body is None:
            event.pop("body", None)
        else:
            event["body"] = body
        _running.function = "PaymentsFunction"
        try:
            answer = self.handler(event, self.stack.aws.lambda_context("PaymentsFunction"))
        finally:
            _running.function = None
        return answer["statusCode"], json.loads(answer.get("body") or "null")

    def checkout(self, player: str, offer_id: str, gift_to: str | None = None) -> tuple[int, Any]:
        body: dict[str, Any] = {"offerId": offer_id}
        if gift_to is not None:
            body["giftTo"] = gift_to
        return self.call("POST", "/me/checkout", json.dumps(body), player=player)

    def webhook(
        self, event_type: str, obj: dict[str, Any], *, signed_at: int | None = None
    ) -> tuple[int, Any]:
        payload = stripe_event(event_type, obj)
        header = WebhookSignature.generate_signature_header(
            payload, WEBHOOK_SECRET, timestamp=signed_at
        )
        return self.post_webhook(payload, header)

    def post_webhook(self, payload: str, signature: str | None) -> tuple[int, Any]:
        headers = {"content-type": "application/json; charset=utf-8"}
        if signature is not None:
            headers["stripe-signature"] = signature
        return self.call("POST", "/webhooks/stripe", payload, headers=headers)

    def bought(self, player: str, offer_id: str, gift_to: str | None = None) -> dict[str, Any]:
        """A checkout's session as Stripe would complete it: paid, with our metadata (`gift_to`:
        the recipient's player id, named to the route by their nickname)."""
        named = None if gift_to is None else self.nicknames[gift_to]
        status, body = self.checkout(player, offer_id, named)
        assert status == 201, body
        return self.fake.paid_session(body["sessionId"])

    def player(self, status: AccountStatus = AccountStatus.ACTIVE) -> str:
        player_id = str(uuid.uuid4())
        nickname = f"P{uuid.uuid4().hex[:10]}"
        self.profiles.create(
            Profile(
                player_id=player_id,
                nickname=nickname,
                email=f"{nickname.lower()}@example.com",
                status=status,
                created_at=NOW,
            )
        )
        self.nicknames[player_id] = nickname
        return player_id

    def items(self) -> list[dict[str, Any]]:
        """Every item of the table (to see that nothing changed)."""
        items: list[dict[str, Any]] = []
        for page in self.dynamodb.get_paginator("scan").paginate(TableName=self.table):
            items += page["Items"]
        return sorted(items, key=lambda i: (i["pk"]["S"], i["sk"]["S"]))

    def balance(self, player: str) -> tuple[int, int]:
        wallet = self.wallets.wallet(player)
        entries = self.wallets.entries(player, 1000)
        # the ledger sums to the balance minus the debt, whatever happened
        assert sum(e.amount for e in entries) == wallet.balance - wallet.debt
        assert [e.seq for e in reversed(entries)] == list(range(1, wallet.version + 1))
        return wallet.balance, wallet.debt


@pytest.fixture(scope="module")
def shop() -> Iterator[Shop]:
    make_api_call = BaseClient._make_api_call
    fake = FakeStripe()

    def recording(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if (
            getattr(_running, "function", None) is not None
            and client.meta.service_model.service_name == "dynamodb"
        ):
            PAYMENTS_DYNAMODB_NEEDS.update(iam_actions(operation, params))
            PAYMENTS_DYNAMODB_CALLS.append((operation, copy.deepcopy(params)))
        return make_api_call(client, operation, params)

    with pytest.MonkeyPatch.context() as patch, LocalStack(ROOT) as stack:
        patch.setattr(BaseClient, "_make_api_call", recording)
        patch.setattr(payment_wiring, "stripe_http_client", lambda: fake)
        payment_wiring.payment_service.cache_clear()
        yield Shop(stack, fake)
    payment_wiring.payment_service.cache_clear()


@functools.cache
def _template() -> Template:
    return Template(ROOT / "template.yaml")


@pytest.fixture(scope="module")
def grants() -> set[tuple[str, str]]:
    """What the payments function's policy allows on DynamoDB, named as `iam_actions` does."""
    return dynamodb_allowed(Template(ROOT / "template.yaml"), "PaymentsFunction")


@pytest.fixture(autouse=True)
def _calls_within_its_policy(
    shop: Shop, grants: set[tuple[str, str]]
) -> Iterator[set[tuple[str, str]]]:
    """Every DynamoDB call the payments function makes in a test is one its policy allows (moto
    checks no policy); the calls of the test."""
    PAYMENTS_DYNAMODB_NEEDS.clear()
    PAYMENTS_DYNAMODB_CALLS.clear()
    yield PAYMENTS_DYNAMODB_NEEDS
    refused = PAYMENTS_DYNAMODB_NEEDS - grants
    assert not refused, f"calls its policy refuses: {refused}"
    assert not refusals(_template(), "PaymentsFunction", PAYMENTS_DYNAMODB_CALLS)


@pytest.fixture(autouse=True)
def _at_noon(shop: Shop, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "clock", lambda: NOW)
    shop.fake.unreachable = False


# ----------------------------------------------------------------------------- the shop


def test_offers_lists_what_is_on_sale_now(shop: Shop, monkeypatch: pytest.MonkeyPatch) -> None:
    # when the offers are read during the winter promotion, then after it
    status, during = shop.call("GET", "/offers")
    monkeypatch.setattr(clock, "clock", lambda: AFTER_WINTER)
    _, after = shop.call("GET", "/offers")

    # then the packs are always there, the promotion only in its window, with its prices
    ids = [offer["offerId"] for offer in during["offers"]]
    assert status == 200
    assert {"pack-500", "gift-500", "promo-winter-2026", "promo-welcome-2027"} <= set(ids)
    winter = next(o for o in during["offers"] if o["offerId"] == "promo-winter-2026")
    assert (winter["tokens"], winter["priceCents"], winter["regularPriceCents"]) == (1200, 499, 999)
    assert "promo-winter-2026" not in [offer["offerId"] for offer in after["offers"]]


def test_checkout_creates_a_stripe_session_carrying_the_purchase(shop: Shop) -> None:
    # given a player
    player = shop.player()

    # when they check out the 1,200 tokens pack
    status, body = shop.checkout(player, "pack-1200")

    # then Stripe made a session for its price, whose metadata and PaymentIntent's say who
    # bought which offer (no count of tokens: the catalogue's is credited); the player gets its
    # page; no token is credited yet
    assert status == 201, body
    assert body["url"].startswith("https://checkout.stripe.test/")
    form = shop.fake.sessions[body["sessionId"]]
    assert form["mode"] == "payment"
    assert form["line_items[0][price_data][unit_amount]"] == "999"
    assert form["line_items[0][price_data][currency]"] == "eur"
    expected = {"yamb_player": player, "yamb_recipient": player, "yamb_offer": "pack-1200"}
    assert nested(form, "metadata") == expected
    assert nested(form, "payment_intent_data[metadata]") == expected
    assert form["success_url"].startswith("https://yamb.example/shop?checkout=success")
    assert shop.balance(player) == (0, 0)


def test_checkout_sent_again_with_its_key_gets_the_same_session(
    shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a player whose checkout request was sent with an Idempotency-Key
    player = shop.player()
    keyed = {"idempotency-key": "buy-1"}
    body = json.dumps({"offerId": "pack-500"})
    first = shop.call("POST", "/me/checkout", body, player=player, headers=keyed)

    # when the client sends it again a few minutes later, and then the same key for another
    # offer, and another key
    monkeypatch.setattr(clock, "clock", lambda: NOW.replace(minute=7))
    again = shop.call("POST", "/me/checkout", body, player=player, headers=keyed)
    other_offer = json.dumps({"offerId": "pack-1200"})
    reused = shop.call("POST", "/me/checkout", other_offer, player=player, headers=keyed)
    fresh = shop.call(
        "POST", "/me/checkout", body, player=player, headers={"idempotency-key": "buy-2"}
    )

    # then Stripe was asked with the player's key and answered the same session; the key used
    # for another offer is refused; another key is another session
    assert first[0] == again[0] == 201
    assert again[1]["sessionId"] == first[1]["sessionId"]
    assert (reused[0], reused[1]["error"]["code"], reused[1]["error"]["field"]) == (
        409,
        "key_reused",
        "key",
    )
    assert fresh[1]["sessionId"] != first[1]["sessionId"]
    assert f"checkout:client:{player}:buy-1:{NOW:%Y%m%dT%H}" in shop.fake.keyed

    # and sent again in the next hour (another expiry), it opens a new page, not a refusal
    monkeypatch.setattr(clock, "clock", lambda: NOW + timedelta(hours=1))
    later = shop.call("POST", "/me/checkout", body, player=player, headers=keyed)
    assert later[0] == 201
    assert later[1]["sessionId"] not in (first[1]["sessionId"], fresh[1]["sessionId"])


def test_checkout_with_a_bad_key_is_refused_before_stripe(shop: Shop) -> None:
    # given a player and the requests Stripe has had
    player = shop.player()
    asked = len(shop.fake.requests)

    # when a checkout comes with a key of spaces
    body = json.dumps({"offerId": "pack-500"})
    status, answer = shop.call(
        "POST", "/me/checkout", body, player=player, headers={"idempotency-key": "a b"}
    )

    # then it is refused naming the header, and Stripe is not asked
    assert (status, answer["error"]["code"], answer["error"]["field"]) == (
        400,
        "bad_request",
        "Idempotency-Key",
    )
    assert len(shop.fake.requests) == asked


@pytest.mark.parametrize(
    ("offer_id", "moment", "refusal"),
    [
        ("pack-999999", NOW, (404, "unknown_offer")),
        ("promo-winter-2026", AFTER_WINTER, (410, "offer_expired")),
        ("promo-winter-2026", datetime(2026, 12, 1, tzinfo=UTC), (409, "offer_not_started")),
    ],
)
def test_checkout_unknown_offer_or_expired_promotion_refused(
    shop: Shop,
    monkeypatch: pytest.MonkeyPatch,
    offer_id: str,
    moment: datetime,
    refusal: tuple[int, str],
) -> None:
    # given a player, at a moment
    player = shop.player()
    monkeypatch.setattr(clock, "clock", lambda: moment)
    before, asked = shop.items(), len(shop.fake.requests)

    # when they check out an offer that does not exist, or a promotion out of its window
    answer = shop.checkout(player, offer_id)

    # then it is refused with its code, Stripe was not asked, nothing changed
    assert (answer[0], answer[1]["error"]["code"]) == refusal
    assert answer[1]["error"]["field"] == "offerId"
    assert len(shop.fake.requests) == asked
    assert shop.items() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [("not json", None), ('{"offerId": "pack-500", "admin": true}', "admin"), ("{}", "offerId")],
)
def test_checkout_malformed_request_refused(shop: Shop, body: str, field: str | None) -> None:
    # when a checkout's body is not JSON, has an unknown field or lacks the offer
    status, answer = shop.call("POST", "/me/checkout", body, player=shop.player())

    # then it is a bad request naming the field
    assert (status, answer["error"]["code"], answer["error"]["field"]) == (
        400,
        "bad_request",
        field,
    )


def test_checkout_free_promotion_credits_at_once_and_once(shop: Shop) -> None:
    # given a player
    player = shop.player()
    asked = len(shop.fake.requests)

    # when they take the free welcome promotion, twice
    first = shop.checkout(player, "promo-welcome-2027")
    again = shop.checkout(player, "promo-welcome-2027")

    # then its tokens are credited at once without Stripe, and only once
    assert first == (200, again[1])
    assert first[1]["credited"] == {"tokens": 200, "balance": 200, "debt": 0}
    assert len(shop.fake.requests) == asked
    assert shop.balance(player) == (200, 0)


def test_checkout_when_stripe_is_unreachable_is_payment_provider_unavailable(shop: Shop) -> None:
    # given Stripe out of reach
    shop.fake.unreachable = True
    player = shop.player()
    before = shop.items()

    # when a player checks out a pack
    status, body = shop.checkout(player, "pack-500")

    # then they are told to try again, and nothing changed
    assert (status, body["error"]["code"]) == (503, "payment_provider_unavailable")
    assert shop.items() == before


# ----------------------------------------------------------------------------- the webhook


def test_webhook_paid_checkout_credited_once(shop: Shop) -> None:
    # given a player's paid checkout of 500 tokens
    player = shop.player()
    session = shop.bought(player, "pack-500")

    # when Stripe delivers its completion, then delivers it again
    first = shop.webhook("checkout.session.completed", session)
    second = shop.webhook("checkout.session.completed", session)

    # then both are answered 200, the tokens are credited once, with the payment's id
    assert first == (200, {"received": True, "handled": "credited", "reason": None})
    assert second[0] == 200
    assert shop.balance(player) == (500, 0)
    (entry,) = shop.wallets.entries(player, 10)
    assert (entry.reason, entry.key, entry.detail) == (
        "purchase",
        f"stripe:paid:{session['id']}",
        session["payment_intent"],
    )


def test_webhook_unpaid_completion_waits_for_the_async_payment(shop: Shop) -> None:
    # given a checkout paid by a slow method (completed, not yet paid)
    player = shop.player()
    session = shop.bought(player, "pack-500")

    # when the completion comes unpaid, then the asynchronous payment succeeds
    unpaid = shop.webhook("checkout.session.completed", session | {"payment_status": "unpaid"})
    credited_before = shop.balance(player)
    shop.webhook("checkout.session.async_payment_succeeded", session)

    # then nothing is credited until it is paid, then once
    assert unpaid == (200, {"received": True, "handled": "ignored", "reason": None})
    assert credited_before == (0, 0)
    assert shop.balance(player) == (500, 0)


def test_webhook_same_event_twice_at_the_same_moment_credited_once(shop: Shop) -> None:
    # given a player's paid checkout
    player = shop.player()
    session = shop.bought(player, "pack-2500")
    payload = stripe_event("checkout.session.completed", session)
    header = WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
    start = threading.Barrier(4)
    answers: list[int] = []

    # when Stripe delivers the same event four times at once
    def deliver() -> None:
        start.wait()
        answers.append(shop.post_webhook(payload, header)[0])

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then every delivery is answered 200 and the tokens are credited once
    assert answers == [200] * 4
    assert shop.balance(player) == (2500, 0)
    assert len(shop.wallets.entries(player, 10)) == 1


def test_webhook_refund_debits_with_debt_when_the_tokens_were_spent(shop: Shop) -> None:
    # given 500 tokens bought and credited, 300 of them spent since
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)
    shop.wallets.apply(f"spent:{player}", [_spend(player, 300)], NOW)

    # when the payment is refunded in full (delivered twice)
    charge = refunded_charge(session, ("re_full_" + session["id"], 499))
    answer = shop.webhook("charge.refunded", charge)
    shop.webhook("charge.refunded", charge)

    # then the 500 tokens are debited once: the 200 left, and 300 into the debt
    assert answer == (200, {"received": True, "handled": "debited", "reason": None})
    assert shop.balance(player) == (0, 300)
    refund = shop.wallets.entries(player, 1)[0]
    assert (refund.reason, refund.amount, refund.key) == (
        "refund",
        -500,
        f"stripe:refund:re_full_{session['id']}",
    )


def test_webhook_partial_refunds_debit_their_share(shop: Shop) -> None:
    # given 1,200 tokens bought for 9.99 and credited
    player = shop.player()
    session = shop.bought(player, "pack-1200")
    shop.webhook("checkout.session.completed", session)

    # when 5.00 is refunded, then 4.99 more (each charge.refunded lists the refunds so far)
    first = (f"re_a_{session['id']}", 500)
    second = (f"re_b_{session['id']}", 499)
    shop.webhook("charge.refunded", refunded_charge(session, first))
    shop.webhook("charge.refunded", refunded_charge(session, first, second))

    # then each refund takes its share of the tokens, once: all of them in the end
    assert shop.balance(player) == (1, 0)  # 1200*500//999 + 1200*499//999 = 600 + 599
    amounts = [e.amount for e in shop.wallets.entries(player, 10)]
    assert amounts == [-599, -600, 1200]


def test_webhook_refund_before_completion_nets_to_zero(shop: Shop) -> None:
    # given a player's paid checkout whose completion is late
    player = shop.player()
    session = shop.bought(player, "pack-500")

    # when the refund comes first, then the completion
    refund = shop.webhook("charge.refunded", refunded_charge(session, ("re_early", 499)))
    in_between = shop.balance(player)
    completion = shop.webhook("checkout.session.completed", session)

    # then the refund landed on the right player (read from the PaymentIntent's metadata) as
    # a debt, and the completion paid it back: nothing in the end
    assert refund[1]["handled"] == "debited"
    assert in_between == (0, 500)
    assert completion[1]["handled"] == "credited"
    assert shop.balance(player) == (0, 0)


def test_webhook_completion_redelivered_after_a_refund_credits_nothing_more(shop: Shop) -> None:
    # given a purchase credited, then refunded
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)
    shop.webhook("charge.refunded", refunded_charge(session, ("re_then", 499)))

    # when Stripe delivers the completion once more
    status, _ = shop.webhook("checkout.session.completed", session)

    # then nothing more is credited
    assert status == 200
    assert shop.balance(player) == (0, 0)
    assert len(shop.wallets.entries(player, 10)) == 2


def test_webhook_refund_listed_by_stripe_when_the_event_has_none(shop: Shop) -> None:
    # given a purchase credited, and a charge.refunded of an API version that lists no refunds
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)
    charge = refunded_charge(session)
    del charge["refunds"]
    shop.fake.refunds[charge["id"]] = [
        {"id": "re_listed", "object": "refund", "amount": 499, "status": "succeeded"}
    ]

    # when it is delivered
    shop.webhook("charge.refunded", charge)

    # then the refunds are asked of Stripe and debited
    assert shop.balance(player) == (0, 0)
    assert ("get", "/v1/refunds", {"charge": charge["id"], "limit": "100"}) in shop.fake.requests


def test_webhook_dispute_debits_the_purchase(shop: Shop) -> None:
    # given 6,500 tokens bought and credited
    player = shop.player()
    session = shop.bought(player, "pack-6500")
    shop.webhook("checkout.session.completed", session)

    # when the payment is disputed (twice delivered)
    dispute = {
        "id": f"dp_{session['id']}",
        "object": "dispute",
        "amount": session["amount_total"],
        "charge": "ch_x",
        "payment_intent": session["payment_intent"],
        "metadata": {},
        "status": "needs_response",
    }
    shop.webhook("charge.dispute.created", dispute)
    shop.webhook("charge.dispute.created", dispute)

    # then the tokens are debited once
    assert shop.balance(player) == (0, 0)
    entry = shop.wallets.entries(player, 1)[0]
    assert (entry.reason, entry.amount, entry.key) == (
        "dispute",
        -6500,
        f"stripe:dispute:{dispute['id']}",
    )


def _dispute(session: dict[str, Any], status: str) -> dict[str, Any]:
    return {
        "id": f"dp_{session['id']}",
        "object": "dispute",
        "amount": session["amount_total"],
        "charge": "ch_" + session["id"],
        "payment_intent": session["payment_intent"],
        "metadata": {},
        "status": status,
    }


def _failed_refund(session: dict[str, Any], refund_id: str, amount: int) -> dict[str, Any]:
    """A refund.failed's refund (no metadata of ours: the PaymentIntent has it)."""
    return {
        "id": refund_id,
        "object": "refund",
        "amount": amount,
        "charge": "ch_" + session["id"],
        "payment_intent": session["payment_intent"],
        "metadata": {},
        "status": "failed",
    }


@pytest.mark.parametrize("closing", ["charge.dispute.closed", "charge.dispute.funds_reinstated"])
def test_webhook_dispute_won_gives_the_tokens_back_once(shop: Shop, closing: str) -> None:
    # given 500 tokens bought, credited, then disputed
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)
    shop.webhook("charge.dispute.created", _dispute(session, "needs_response"))

    # when the dispute is won (delivered twice)
    answer = shop.webhook(closing, _dispute(session, "won"))
    shop.webhook(closing, _dispute(session, "won"))

    # then the 500 tokens are back, once, as the dispute's reversal
    assert answer == (200, {"received": True, "handled": "credited", "reason": None})
    assert shop.balance(player) == (500, 0)
    entry = shop.wallets.entries(player, 1)[0]
    assert (entry.reason, entry.amount, entry.key) == (
        "dispute_won",
        500,
        f"stripe:dispute:dp_{session['id']}:reversed",
    )


def test_webhook_dispute_lost_keeps_its_debit(shop: Shop) -> None:
    # given 500 tokens bought, credited, then disputed
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)
    shop.webhook("charge.dispute.created", _dispute(session, "needs_response"))

    # when the dispute is closed as lost
    answer = shop.webhook("charge.dispute.closed", _dispute(session, "lost"))

    # then nothing changes: the debit stays
    assert answer == (200, {"received": True, "handled": "ignored", "reason": None})
    assert shop.balance(player) == (0, 0)
    assert len(shop.wallets.entries(player, 10)) == 2


def test_webhook_pending_refund_that_fails_gives_the_tokens_back(shop: Shop) -> None:
    # given 500 tokens bought and credited, and a pending refund debited
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)
    charge = refunded_charge(session, ("re_pending", 499))
    charge["refunds"]["data"][0]["status"] = "pending"
    shop.webhook("charge.refunded", charge)
    debited = shop.balance(player)

    # when the refund fails (refund.failed, and the older charge.refund.updated, both sent)
    failed = _failed_refund(session, "re_pending", 499)
    answer = shop.webhook("refund.failed", failed)
    shop.webhook("charge.refund.updated", failed)

    # then the tokens are back once; the refund's PaymentIntent named the player
    assert debited == (0, 0)
    assert answer == (200, {"received": True, "handled": "credited", "reason": None})
    assert shop.balance(player) == (500, 0)
    reasons = [e.reason for e in shop.wallets.entries(player, 10)]
    assert reasons == ["refund_failed", "refund", "purchase"]


def test_webhook_refund_failing_before_its_debit_nets_to_zero(shop: Shop) -> None:
    # given 500 tokens bought and credited
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)

    # when the refund's failure comes before its charge.refunded (which still says pending)
    shop.webhook("refund.failed", _failed_refund(session, "re_late", 499))
    charge = refunded_charge(session, ("re_late", 499))
    charge["refunds"]["data"][0]["status"] = "pending"
    shop.webhook("charge.refunded", charge)

    # then the player keeps the 500 tokens: the debit and its reversal, each once
    assert shop.balance(player) == (500, 0)
    amounts = [e.amount for e in shop.wallets.entries(player, 10)]
    assert amounts == [500, -500, 500]


def test_webhook_refund_update_that_is_no_failure_changes_nothing(shop: Shop) -> None:
    # given 500 tokens bought and credited
    player = shop.player()
    session = shop.bought(player, "pack-500")
    shop.webhook("checkout.session.completed", session)
    before = shop.items()

    # when a refund's update says it succeeded
    refund = _failed_refund(session, "re_fine", 499) | {"status": "succeeded"}
    answer = shop.webhook("charge.refund.updated", refund)

    # then it is ignored
    assert answer == (200, {"received": True, "handled": "ignored", "reason": None})
    assert shop.items() == before


def test_webhook_unknown_event_type_answers_200_and_changes_nothing(shop: Shop) -> None:
    # given a purchase's session
    session = shop.bought(shop.player(), "pack-500")
    before = shop.items()

    # when Stripe sends events we do not handle
    answers = [
        shop.webhook("customer.created", {"id": "cus_1", "object": "customer"}),
        shop.webhook("checkout.session.expired", session),
    ]

    # then each is received (no retry) and nothing changed
    assert answers == [(200, {"received": True, "handled": "ignored", "reason": None})] * 2
    assert shop.items() == before


@pytest.mark.parametrize(
    "signature",
    [
        None,
        "",
        "garbage",
        "t=1,v1=0000",
        "{other}",
        "{tampered}",
    ],
)
def test_webhook_bad_or_missing_signature_answers_400(shop: Shop, signature: str | None) -> None:
    # given a paid checkout's completion, and a signature that is missing, malformed, made
    # with another secret, or of another body
    player = shop.player()
    payload = stripe_event("checkout.session.completed", shop.bought(player, "pack-500"))
    if signature == "{other}":
        signature = WebhookSignature.generate_signature_header(payload, "whsec_someone_else")
    elif signature == "{tampered}":
        signature = WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
        tampered = payload.replace('"pack-500"', '"pack-6500"')
        assert tampered != payload
        payload = tampered
    before = shop.items()

    # when it is delivered
    status, body = shop.post_webhook(payload, signature)

    # then it is refused 400 and nothing is credited
    assert (status, body["error"]["code"]) == (400, "bad_signature")
    assert shop.items() == before


def test_webhook_replayed_old_event_answers_400(shop: Shop) -> None:
    # given a paid checkout's completion signed ten minutes ago (Stripe's tolerance is 5)
    player = shop.player()
    session = shop.bought(player, "pack-500")
    before = shop.items()

    # when it is replayed now
    status, body = shop.webhook(
        "checkout.session.completed", session, signed_at=int(time.time()) - 600
    )

    # then it is refused and nothing is credited
    assert (status, body["error"]["code"]) == (400, "bad_signature")
    assert "tolerance" in body["error"]["message"]
    assert shop.items() == before


@pytest.mark.parametrize("tokens", ["50000", "-500", "0", "many"])
def test_webhook_credits_the_catalogues_tokens_whatever_the_metadata_says(
    shop: Shop, tokens: str
) -> None:
    # given a paid checkout of the 500 tokens pack (499 cents) whose metadata was changed to
    # claim another number of tokens (as anyone with access to Stripe's dashboard could)
    player = shop.player()
    session = shop.bought(player, "pack-500")
    session["metadata"] |= {"yamb_tokens": tokens, "yamb_amount": "1"}

    # when Stripe delivers its completion
    answer = shop.webhook("checkout.session.completed", session)

    # then the catalogue's 500 tokens are credited, never the metadata's number
    assert answer == (200, {"received": True, "handled": "credited", "reason": None})
    assert shop.balance(player) == (500, 0)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"amount_total": 1}, "amount_mismatch"),
        ({"amount_total": 49900}, "amount_mismatch"),
        ({"amount_total": "499"}, "amount_mismatch"),
        ({"amount_total": None}, "amount_mismatch"),
        ({"currency": "usd"}, "currency_mismatch"),
        ({"currency": None}, "currency_mismatch"),
        ({"metadata": {"yamb_offer": "pack-999999"}}, "unknown_offer"),
        ({"metadata": {"yamb_offer": "promo-welcome-2027"}}, "unknown_offer"),
        ({"metadata": {"yamb_recipient": "{nobody}"}}, "unknown_player"),
        ({"metadata": {"yamb_recipient": "{purged}"}}, "unknown_player"),
    ],
)
def test_webhook_refuses_a_payment_the_catalogue_does_not_price(
    shop: Shop, caplog: pytest.LogCaptureFixture, change: dict[str, Any], reason: str
) -> None:
    # given a paid checkout of the 500 tokens pack whose completion says another amount paid,
    # another currency, an offer the catalogue has not (or a free one), or a recipient without
    # an account (none, or purged)
    player = shop.player()
    session = shop.bought(player, "pack-500")
    recipients = {"{nobody}": str(uuid.uuid4()), "{purged}": shop.player(AccountStatus.DELETED)}
    for key, value in change.items():
        if key == "metadata":
            session["metadata"] |= {k: recipients.get(v, v) for k, v in value.items()}
        else:
            session[key] = value
    before = shop.items()

    # when Stripe delivers it
    with caplog.at_level("WARNING"):
        status, body = shop.webhook("checkout.session.completed", session)

    # then it is received (a retry would be refused again) and refused with its reason, a
    # warning names it, and nothing changed
    assert (status, body["handled"]) == (200, "refused")
    assert body["reason"].startswith(f"{reason}:")
    assert any(reason in record.getMessage() for record in caplog.records)
    assert shop.items() == before


def test_webhook_refund_of_a_refused_payment_takes_nothing(shop: Shop) -> None:
    # given a completion refused for its unknown recipient
    session = shop.bought(shop.player(), "pack-500")
    nobody = str(uuid.uuid4())
    session["metadata"] |= {"yamb_recipient": nobody}
    assert shop.webhook("checkout.session.completed", session)[1]["handled"] == "refused"
    before = shop.items()

    # when the operator refunds it (the charge's PaymentIntent carries the same metadata)
    charge = refunded_charge(session, (f"re_{session['id']}", 499))
    charge["metadata"] = session["metadata"]
    answer = shop.webhook("charge.refunded", charge)

    # then nothing is debited: no wallet is made for an account that does not exist
    assert answer[1]["handled"] == "ignored"
    assert shop.items() == before


@pytest.mark.parametrize(
    "payload",
    [
        "[1, 2]",
        '"checkout.session.completed"',
        "null",
        "42",
        '{"type": 7, "data": {"object": {}}}',
        '{"type": "checkout.session.completed", "data": []}',
        '{"type": "checkout.session.completed", "data": {"object": "cs_1"}}',
        '{"type": "checkout.session.completed"}',
        "{not json",
    ],
)
def test_webhook_signed_body_that_is_no_event_answers_400(shop: Shop, payload: str) -> None:
    # given a body signed with the webhook's secret that is not a JSON object with a type and a
    # data object
    signature = WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
    before = shop.items()

    # when it is delivered
    status, body = shop.post_webhook(payload, signature)

    # then it is a bad request, not a failure of ours, and nothing changed
    assert (status, body["error"]["code"]) == (400, "bad_event")
    assert shop.items() == before


# ----------------------------------------------------------------------------- gift packs


def test_gift_pack_credits_the_recipient(shop: Shop) -> None:
    # given two players
    buyer, friend = shop.player(), shop.player()

    # when one buys a gift pack for the other, paid, then refunded
    session = shop.bought(buyer, "gift-500", gift_to=friend)
    shop.webhook("checkout.session.completed", session)
    credited = (shop.balance(buyer), shop.balance(friend))
    shop.webhook("charge.refunded", refunded_charge(session, (f"re_{session['id']}", 499)))

    # then the friend got the tokens (the buyer named on the entry), and the refund took them
    # back where they were credited
    assert credited == ((0, 0), (500, 0))
    gift = shop.wallets.entries(friend, 10)[-1]
    assert (gift.reason, gift.counterparty) == ("purchase", buyer)
    assert shop.balance(friend) == (0, 0)
    assert shop.balance(buyer) == (0, 0)


@pytest.mark.parametrize(
    ("recipient", "offer_id", "status", "code"),
    [
        ("{self}", "gift-500", 400, "gift_to_self"),
        ("{deleting}", "gift-500", 404, "unknown_player"),
        ("{deleted}", "gift-500", 404, "unknown_player"),
        ("{an id}", "gift-500", 404, "unknown_player"),
        ("{nobody}", "gift-500", 404, "unknown_player"),
        (None, "gift-500", 400, "bad_request"),
        ("{friend}", "pack-500", 400, "bad_request"),
    ],
)
def test_gift_pack_refuses_self_a_deleted_account_or_no_recipient(
    shop: Shop, recipient: str | None, offer_id: str, status: int, code: str
) -> None:
    # given a buyer, and a recipient named by nickname: themselves, an account being deleted,
    # a purged one, a nickname no one has, a player id (not a nickname), none, or a friend
    # named for a pack that is not a gift
    buyer = shop.player()
    named = {
        "{self}": shop.nicknames[buyer],
        "{deleting}": shop.nicknames[shop.player(AccountStatus.DELETING)],
        "{deleted}": shop.nicknames[shop.player(AccountStatus.DELETED)],
        "{nobody}": f"N{uuid.uuid4().hex[:10]}",
        "{an id}": shop.player(),
        "{friend}": shop.nicknames[shop.player()],
    }.get(recipient or "")
    before, asked = shop.items(), len(shop.fake.requests)

    # when they check out
    answer = shop.checkout(buyer, offer_id, gift_to=named)

    # then it is refused with its code, about giftTo; Stripe was not asked; nothing changed
    assert (answer[0], answer[1]["error"]["code"]) == (status, code)
    assert answer[1]["error"]["field"] == "giftTo"
    assert len(shop.fake.requests) == asked
    assert shop.items() == before


# ----------------------------------------------------------------------------- the local stack


def test_local_stack_serves_the_payments_routes_over_http(shop: Shop) -> None:
    # given the local stack's HTTP API and a signed-in local player
    base = shop.stack.gateway.http_url
    token = shop.stack.player_token(f"shopper{uuid.uuid4().hex[:6]}")

    def send(
        method: str, path: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, Any]:
        request = urllib.request.Request(base + path, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    payload = stripe_event("customer.created", {"id": "cus_local", "object": "customer"})
    signed = WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
    json_type = {"Content-Type": "application/json"}

    # when the offers are read without a token, a checkout is asked without then with one,
    # and Stripe's webhook is posted unsigned, then signed with the local secret
    offers = send("GET", "/offers", None, {})
    anonymous = send("POST", "/me/checkout", b'{"offerId": "pack-500"}', json_type)
    checkout = send(
        "POST", "/me/checkout", b'{"offerId": "pack-500"}', json_type | {"Authorization": token}
    )
    unsigned = send("POST", "/webhooks/stripe", payload.encode(), json_type)
    webhook = send(
        "POST", "/webhooks/stripe", payload.encode(), json_type | {"Stripe-Signature": signed}
    )

    # then the offers are public, the checkout needs a token and reaches the fake Stripe (the
    # real one, `make dev`, answers payment_provider_unavailable), and the webhook needs no
    # token but a good signature
    assert offers[0] == 200 and offers[1]["offers"]
    assert anonymous[0] == 401
    assert checkout[0] == 201 and checkout[1]["url"]
    assert unsigned[0] == 400
    assert webhook == (200, {"received": True, "handled": "ignored", "reason": None})


def test_local_stack_checkout_without_the_fake_cannot_reach_stripe(
    shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given the wiring of `make dev`: Stripe's SDK with its real HTTP client, pointed at the
    # closed local port the stack sets
    monkeypatch.setattr(payment_wiring, "stripe_http_client", stripe.RequestsClient)
    payment_wiring.payment_service.cache_clear()
    try:
        # when a player checks out a pack
        status, body = shop.checkout(shop.player(), "pack-500")
    finally:
        monkeypatch.undo()
        payment_wiring.payment_service.cache_clear()

    # then it is payment_provider_unavailable
    assert (status, body["error"]["code"]) == (503, "payment_provider_unavailable")


# ----------------------------------------------------------------------------- grants


def _spend(player: str, tokens: int) -> Any:
    from yamb_service.economy.ports import Change

    return Change(player, -tokens, "cosmetic")


def test_payments_function_dynamodb_calls_are_what_its_policy_allows(
    shop: Shop,
    grants: set[tuple[str, str]],
    _calls_within_its_policy: set[tuple[str, str]],
) -> None:
    # given a paid checkout credited: the flow that makes every kind of DynamoDB call the payments
    # function makes in this module's tests
    test_webhook_paid_checkout_credited_once(shop)

    # then its grants are exactly what it needed: nothing refused, nothing spare
    assert _calls_within_its_policy, "the payments function made no DynamoDB call"
    assert grants == _calls_within_its_policy
    template = Template(ROOT / "template.yaml")
    # and it may read its two parameters, nothing else of SSM
    parameters = {resource for _, resource in granted(template, "PaymentsFunction", "ssm")}
    assert {action for action, _ in granted(template, "PaymentsFunction", "ssm")} == {
        "ssm:GetParameter"
    }
    assert parameters == {
        "arn:aws:ssm:us-east-1:123456789012:parameter/yamb/stripe/api-key",
        "arn:aws:ssm:us-east-1:123456789012:parameter/yamb/stripe/webhook-secret",
    }
    assert not granted(template, "PaymentsFunction", "kms")  # aws/ssm: no key parameter given


def test_payments_function_reaches_only_players_nicknames_and_idempotency_keys() -> None:
    # given the payments function's statements, behind a public webhook
    template = _template()

    # when calls on its own partitions and on others' are judged with their leading keys
    def get(pk: str) -> tuple[str, dict[str, Any]]:
        return "GetItem", {"TableName": "t", "Key": {"pk": {"S": pk}, "sk": {"S": "X"}}}

    def put(pk: str) -> tuple[str, dict[str, Any]]:
        return "PutItem", {"TableName": "t", "Item": {"pk": {"S": pk}, "sk": {"S": "X"}}}

    own = [get("PLAYER#ana"), put("PLAYER#ana"), get("IDEM#checkout-1"), get("NICK#ana")]
    others = [get("GAME#g1"), put("BOARD#main"), get("LINK#x"), put("PERIOD#2026-W48")]

    # then its own are allowed and each of the others refused
    assert refusals(template, "PaymentsFunction", own) == []
    assert len(refusals(template, "PaymentsFunction", others)) == len(others)


def test_local_stack_refuses_a_payments_call_outside_its_partitions(shop: Shop) -> None:
    # given code run as the local stack runs the payments function, and as the game function
    table = shop.stack.aws.physical_ids["GameTable"]

    def read(pk: str) -> Any:
        def handler(event: Any, context: Any) -> Any:
            key = {"pk": {"S": pk}, "sk": {"S": "X"}}
            return shop.dynamodb.get_item(TableName=table, Key=key)

        return handler

    as_payments = shop.stack._guard.as_function
    # when the payments function reads a game's item, and its own partitions
    with pytest.raises(ClientError) as refused:
        as_payments("PaymentsFunction", read("GAME#g1"))({}, None)
    as_payments("PaymentsFunction", read("PLAYER#ana"))({}, None)
    as_payments("PaymentsFunction", read("IDEM#k"))({}, None)

    # then the game's item is refused as IAM refuses it, and the game function may read it
    assert refused.value.response["Error"]["Code"] == "AccessDeniedException"
    assert "GAME#g1" in str(refused.value)
    as_payments("GameFunction", read("GAME#g1"))({}, None)
