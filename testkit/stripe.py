"""Stripe faked at its SDK's HTTP-client level (the payment service's `stripe_http_client`):
Checkout Sessions created (their PaymentIntent's metadata kept), PaymentIntents retrieved, a
charge's refunds listed, with Stripe's idempotency; and the events its webhooks deliver."""

import json
import time
from itertools import count
from typing import Any
from urllib.parse import parse_qsl, urlparse

import stripe

# Session, PaymentIntent and event numbers, unique in the process.
_IDS = count(1)


class FakeStripe(stripe.HTTPClient):
    """Stripe's API as far as the payment service calls it: Checkout Sessions created (their
    PaymentIntent's metadata kept), PaymentIntents retrieved, a charge's refunds listed."""

    name = "fake-stripe"

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.sessions: dict[str, dict[str, str]] = {}
        self.intents: dict[str, dict[str, str]] = {}
        self.refunds: dict[str, list[dict[str, Any]]] = {}
        # Stripe's idempotency: a key's first request and answer, replayed for the same
        # request, refused for another.
        self.keyed: dict[str, tuple[dict[str, str], tuple[str, int, dict[str, str]]]] = {}
        self.unreachable = False

    def request(
        self,
        method: str,
        url: str,
        headers: Any,
        post_data: Any = None,
        *,
        _usage: Any = None,
    ) -> tuple[str, int, dict[str, str]]:
        if self.unreachable:
            raise stripe.APIConnectionError(  # type: ignore[no-untyped-call]
                "connection refused", should_retry=False
            )
        parsed = urlparse(url)
        form = dict(parse_qsl(post_data.decode() if isinstance(post_data, bytes) else post_data))
        query = dict(parse_qsl(parsed.query))
        self.requests.append((method, parsed.path, form | query))
        path = parsed.path
        key = dict(headers).get("Idempotency-Key")
        if method == "post" and key is not None:
            if key in self.keyed:
                first, answer = self.keyed[key]
                if first == form:
                    return answer
                error = {"error": {"type": "idempotency_error", "message": "other parameters"}}
                return json.dumps(error), 400, {"Request-Id": "req_fake"}
            answer = self._answer(method, path, form, query)
            self.keyed[key] = (form, answer)
            return answer
        return self._answer(method, path, form, query)

    def _answer(
        self, method: str, path: str, form: dict[str, str], query: dict[str, str]
    ) -> tuple[str, int, dict[str, str]]:
        if method == "post" and path == "/v1/checkout/sessions":
            number = next(_IDS)
            session_id, intent_id = f"cs_test_{number}", f"pi_test_{number}"
            self.sessions[session_id] = form
            self.intents[intent_id] = nested(form, "payment_intent_data[metadata]")
            return self._ok(
                {
                    "id": session_id,
                    "object": "checkout.session",
                    "url": f"https://checkout.stripe.test/c/pay/{session_id}",
                    "metadata": nested(form, "metadata"),
                    "payment_status": "unpaid",
                }
            )
        if method == "get" and path.startswith("/v1/payment_intents/"):
            intent_id = path.rsplit("/", 1)[1]
            if intent_id in self.intents:
                return self._ok(
                    {
                        "id": intent_id,
                        "object": "payment_intent",
                        "metadata": self.intents[intent_id],
                    }
                )
        if method == "get" and path == "/v1/refunds":
            data = self.refunds.get(query.get("charge", ""), [])
            return self._ok({"object": "list", "data": data, "has_more": False, "url": path})
        error = {"error": {"type": "invalid_request_error", "message": f"no {path}"}}
        return json.dumps(error), 404, {"Request-Id": "req_fake"}

    @staticmethod
    def _ok(body: dict[str, Any]) -> tuple[str, int, dict[str, str]]:
        return json.dumps(body), 200, {"Request-Id": "req_fake"}

    def close(self) -> None:
        pass

    def session_of_intent(self, intent_id: str) -> str:
        return "cs_test_" + intent_id.removeprefix("pi_test_")

    def paid_session(self, session_id: str) -> dict[str, Any]:
        """A session made here as Stripe completes it: paid, with our metadata."""
        form = self.sessions[session_id]
        return {
            "id": session_id,
            "object": "checkout.session",
            "payment_status": "paid",
            "payment_intent": "pi_test_" + session_id.removeprefix("cs_test_"),
            "amount_total": int(form["line_items[0][price_data][unit_amount]"]),
            "currency": form["line_items[0][price_data][currency]"],
            "metadata": nested(form, "metadata"),
        }


def nested(form: dict[str, str], prefix: str) -> dict[str, str]:
    """`metadata[key]=value` form fields as {key: value}."""
    return {
        key[len(prefix) + 1 : -1]: value
        for key, value in form.items()
        if key.startswith(prefix + "[") and key.count("[") == prefix.count("[") + 1
    }


def stripe_event(event_type: str, obj: dict[str, Any]) -> str:
    return json.dumps(
        {
            "id": f"evt_test_{next(_IDS)}",
            "object": "event",
            "api_version": "2025-11-17.clover",
            "created": int(time.time()),
            "livemode": False,
            "pending_webhooks": 1,
            "request": {"id": None, "idempotency_key": None},
            "type": event_type,
            "data": {"object": obj},
        }
    )


def refunded_charge(session: dict[str, Any], *refunds: tuple[str, int]) -> dict[str, Any]:
    """A charge.refunded's charge (no metadata of its own, as Stripe sends it)."""
    amount = session["amount_total"]
    return {
        "id": "ch_" + session["id"].removeprefix("cs_"),
        "object": "charge",
        "amount": amount,
        "amount_refunded": sum(a for _, a in refunds),
        "payment_intent": session["payment_intent"],
        "metadata": {},
        "refunds": {
            "object": "list",
            "data": [
                {"id": r, "object": "refund", "amount": a, "status": "succeeded"}
                for r, a in refunds
            ],
            "has_more": False,
        },
    }
