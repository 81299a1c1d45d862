"""The wallet's HTTP API on the local stack (the HTTP API with its authorizer, the economy
function of template.yaml on moto): the balance and the ledger, premium for tokens and as a gift,
token gifts, cosmetics bought, equipped and expiring (E5); every DynamoDB call the function makes
is one its grants allow."""

import base64
import copy
import json
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from botocore.client import BaseClient
from yamb_service.common.dynamo import item_model
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore

from devstack.stack import LocalStack, local_nickname
from devstack.template import Template
from tests.integration.test_template import granted, iam_actions, refusals

ROOT = Path(__file__).resolve().parents[2]
NEEDS: set[tuple[str, str]] = set()
# And the calls themselves (operation, parameters), judged with dynamodb:LeadingKeys.
CALLS: list[tuple[str, dict[str, Any]]] = []
_running = threading.local()


@dataclass
class Reply:
    status: int
    json: Any

    @property
    def code(self) -> str | None:
        return self.json.get("error", {}).get("code") if self.status >= 400 else None


@dataclass
class Player:
    name: str
    token: str

    @property
    def player_id(self) -> str:
        payload = self.token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return str(claims["sub"])


class Economy:
    def __init__(self, stack: LocalStack) -> None:
        self.stack = stack
        item = item_model(
            stack.aws.physical_ids["GameTable"], stack.aws.region, stack.aws.endpoint_url
        )
        self.wallets = DynamoWalletStore(item)

    def player(self, prefix: str) -> Player:
        name = f"{prefix}{uuid.uuid4().hex[:6]}"
        return Player(name, self.stack.player_token(name))

    def credit(self, player: Player, amount: int) -> None:
        self.wallets.apply(
            f"grant:{uuid.uuid4()}", [Change(player.player_id, amount, "grant")], datetime.now(UTC)
        )

    def http(
        self, method: str, path: str, player: Player, body: Any = None, key: str | None = None
    ) -> Reply:
        headers = {"Authorization": player.token, "Content-Type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        request = urllib.request.Request(
            f"{self.stack.gateway.http_url}{path}",
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers=headers,
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return Reply(answer.status, json.load(answer))
        except urllib.error.HTTPError as error:
            return Reply(error.code, json.loads(error.read() or b"{}"))


class _RecordingStack(LocalStack):
    """The stack, its economy function's DynamoDB calls recorded (in the gateway's threads)."""

    def _load_handlers(self) -> dict[str, Any]:
        handlers = super()._load_handlers()
        handler = handlers["EconomyFunction"]

        def run(event: Any, context: Any) -> Any:
            _running.economy = True
            try:
                return handler(event, context)
            finally:
                _running.economy = False

        handlers["EconomyFunction"] = run
        return handlers


@pytest.fixture(scope="module")
def economy() -> Iterator[Economy]:
    make_api_call = BaseClient._make_api_call

    def recording(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if getattr(_running, "economy", False) and client.meta.service_model.service_name == (
            "dynamodb"
        ):
            NEEDS.update(iam_actions(operation, params))
            CALLS.append((operation, copy.deepcopy(params)))
        return make_api_call(client, operation, params)

    with pytest.MonkeyPatch.context() as patch, _RecordingStack(ROOT) as stack:
        patch.setattr(BaseClient, "_make_api_call", recording)
        yield Economy(stack)


def test_economy_wallet_and_ledger_of_a_new_player(economy: Economy) -> None:
    # given a player with 120 tokens credited
    ana = economy.player("ana")
    economy.credit(ana, 120)

    # when they read the wallet and the ledger
    wallet = economy.http("GET", "/me/wallet", ana)
    ledger = economy.http("GET", "/me/ledger?limit=5", ana)

    # then they see the balance, no premium, and the one entry
    assert wallet.status == 200
    assert wallet.json == {"balance": 120, "debt": 0, "premiumUntil": None, "premium": False}
    assert [e["amount"] for e in ledger.json["entries"]] == [120]
    assert ledger.json["nextBefore"] is None


def test_economy_premium_bought_over_http_and_repeated_once(economy: Economy) -> None:
    # given a player with 400 tokens
    ana = economy.player("ana")
    economy.credit(ana, 400)
    offers = economy.http("GET", "/me/premium", ana).json["offers"]

    # when they buy 30 days, and the request is sent twice with its key
    first = economy.http("POST", "/me/premium", ana, {"days": 30}, key="buy-30")
    again = economy.http("POST", "/me/premium", ana, {"days": 30}, key="buy-30")

    # then premium ends when the offer said, and it was paid once
    thirty = next(o for o in offers if o["days"] == 30)
    assert first.status == again.status == 201
    assert first.json == again.json
    assert first.json["premiumUntil"][:16] == thirty["endsAt"][:16]
    wallet = economy.http("GET", "/me/wallet", ana).json
    assert (wallet["balance"], wallet["premium"]) == (400 - thirty["price"], True)


def test_economy_gift_of_tokens_and_of_premium(economy: Economy) -> None:
    # given ana with 200 tokens and ben
    ana, ben = economy.player("ana"), economy.player("ben")
    economy.credit(ana, 200)

    # when ana gives ben 50 tokens and 7 days of premium
    gift = economy.http(
        "POST", "/me/gifts", ana, {"nickname": local_nickname(ben.name), "amount": 50}, key="g-1"
    )
    premium = economy.http(
        "POST", "/me/premium", ana, {"days": 7, "giftTo": local_nickname(ben.name)}, key="g-2"
    )

    # then ben has both, and ana paid for both
    assert gift.status == premium.status == 201, (gift, premium)
    ben_wallet = economy.http("GET", "/me/wallet", ben).json
    assert (ben_wallet["balance"], ben_wallet["premium"]) == (50, True)
    assert economy.http("GET", "/me/wallet", ana).json["balance"] == 200 - 50 - 100


@pytest.mark.parametrize(
    ("path", "body", "key", "status", "code"),
    [
        ("/me/premium", {"days": 8}, "k1", 404, "unknown_offer"),
        ("/me/premium", {"days": 360}, "k2", 402, "not_enough_tokens"),
        ("/me/premium", {"days": 7}, None, 400, "bad_request"),
        ("/me/premium", {"days": "7"}, "k3", 400, "bad_request"),
        ("/me/gifts", {"nickname": "nobody-here", "amount": 5}, "k4", 404, "unknown_player"),
        ("/me/gifts", {"nickname": "x", "amount": -5}, "k5", 400, "bad_amount"),
    ],
)
def test_economy_bad_input_gets_its_code_and_changes_nothing(  # noqa: PLR0917 - the cases
    economy: Economy, path: str, body: Any, key: str | None, status: int, code: str
) -> None:
    # given a player with 10 tokens
    ana = economy.player("ana")
    economy.credit(ana, 10)

    # when they send a bad request
    reply = economy.http("POST", path, ana, body, key=key)

    # then it gets its status and code, and the wallet is as it was
    assert (reply.status, reply.code) == (status, code), reply
    wallet = economy.http("GET", "/me/wallet", ana).json
    assert (wallet["balance"], wallet["premium"]) == (10, False)
    assert len(economy.http("GET", "/me/ledger", ana).json["entries"]) == 1


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/me/gifts", {"nickname": "nobody-here", "amount": 5}, "nickname"),
        ("/me/premium", {"days": 1, "giftTo": "nobody-here"}, "giftTo"),
    ],
)
def test_economy_unknown_recipient_names_the_field_that_held_the_nickname(
    economy: Economy, path: str, body: Any, field: str
) -> None:
    # given a player with 30 tokens
    ana = economy.player("ana")
    economy.credit(ana, 30)

    # when they give tokens or premium to a nickname nobody has
    reply = economy.http("POST", path, ana, body, key="to-nobody")

    # then the refusal names the request's own field, for the page to show it beside it
    assert (reply.status, reply.code) == (404, "unknown_player"), reply
    assert reply.json["error"]["field"] == field


# ---------------------------------------------------------------------- cosmetics (E5)

NO_LOOKS = {
    "avatar": None,
    "frame": None,
    "diceSkin": None,
    "sheetSkin": None,
    "columnEffect": None,
}


@pytest.mark.filterwarnings("ignore:No application metrics to publish")
def test_economy_cosmetics_catalogue_is_public(economy: Economy) -> None:
    # given no sign-in / when the catalogue is read
    url = f"{economy.stack.gateway.http_url}/cosmetics"
    with urllib.request.urlopen(url, timeout=30) as answer:
        status, items = answer.status, json.load(answer)["items"]

    # then it lists every kind with E5's prices
    assert status == 200
    by_id = {item["itemId"]: item for item in items}
    assert by_id["own-avatar"] == {
        "itemId": "own-avatar",
        "kind": "avatar",
        "name": "Own avatar",
        "price": 500,
        "days": None,
    }
    assert {(i["kind"], i["price"], i["days"]) for i in items if i["kind"] != "frame"} == {
        ("avatar", 500, None),
        ("dice_skin", 60, 30),
        ("sheet_skin", 90, 30),
        ("column_effect", 120, 30),
    }


def test_economy_cosmetic_bought_once_with_its_key_and_equipped(economy: Economy) -> None:
    # given a player with 200 tokens
    ana = economy.player("ana")
    economy.credit(ana, 200)

    # when they buy a dice skin, the request sent twice with its key, and equip it
    first = economy.http("POST", "/me/cosmetics", ana, {"itemId": "dice-neon"}, key="c-1")
    again = economy.http("POST", "/me/cosmetics", ana, {"itemId": "dice-neon"}, key="c-1")
    equipped = economy.http(
        "PATCH", "/me/cosmetics/equipped", ana, {"kind": "dice_skin", "itemId": "dice-neon"}
    )

    # then it was paid once, is owned for 30 days and shows
    assert first.status == again.status == 201, first
    assert first.json == again.json
    assert (first.json["entry"]["amount"], first.json["entry"]["reason"]) == (-60, "cosmetic")
    (owned,) = first.json["wardrobe"]["owned"]
    assert (owned["itemId"], owned["kind"], owned["valid"]) == ("dice-neon", "dice_skin", True)
    assert equipped.status == 200, equipped
    assert equipped.json["equipped"] == NO_LOOKS | {"diceSkin": "dice-neon"}
    assert economy.http("GET", "/me/cosmetics", ana).json == equipped.json
    assert economy.http("GET", "/me/wallet", ana).json["balance"] == 140


def test_economy_avatar_active_at_once_and_free_frame_equipped_unbought(economy: Economy) -> None:
    # given a player with 500 tokens
    ana = economy.player("ana")
    economy.credit(ana, 500)

    # when they buy the own avatar and equip a free frame
    bought = economy.http("POST", "/me/cosmetics", ana, {"itemId": "own-avatar"}, key="a-1")
    framed = economy.http(
        "PATCH", "/me/cosmetics/equipped", ana, {"kind": "frame", "itemId": "frame-plain"}
    )

    # then the avatar is on at once, for life, and the frame costs nothing
    assert bought.status == 201, bought
    assert bought.json["wardrobe"]["owned"][0]["until"] is None
    assert framed.json["equipped"] == NO_LOOKS | {"avatar": "own-avatar", "frame": "frame-plain"}
    assert economy.http("GET", "/me/wallet", ana).json["balance"] == 0


def test_economy_cosmetic_expires_by_time_and_is_bought_again(economy: Economy) -> None:
    # given a player who bought and equipped a sheet skin
    ana = economy.player("ana")
    economy.credit(ana, 180)
    economy.http("POST", "/me/cosmetics", ana, {"itemId": "sheet-slate"}, key="s-1")
    economy.http(
        "PATCH", "/me/cosmetics/equipped", ana, {"kind": "sheet_skin", "itemId": "sheet-slate"}
    )

    # when 31 days pass
    economy.stack.aws.advance(days=31)
    expired = economy.http("GET", "/me/cosmetics", ana).json
    refused = economy.http(
        "PATCH", "/me/cosmetics/equipped", ana, {"kind": "sheet_skin", "itemId": "sheet-slate"}
    )
    renewed = economy.http("POST", "/me/cosmetics", ana, {"itemId": "sheet-slate"}, key="s-2")

    # then it no longer shows nor can be equipped, until bought again (from now)
    assert expired["equipped"] == NO_LOOKS
    assert expired["owned"][0]["valid"] is False
    assert (refused.status, refused.code) == (410, "item_expired")
    assert renewed.status == 201, renewed
    assert renewed.json["wardrobe"]["owned"][0]["valid"] is True
    assert renewed.json["wardrobe"]["equipped"]["sheetSkin"] == "sheet-slate"
    assert renewed.json["wardrobe"]["owned"][0]["until"] > expired["owned"][0]["until"]


@pytest.mark.parametrize(
    ("method", "path", "body", "key", "status", "code"),
    [
        ("POST", "/me/cosmetics", {"itemId": "dragon"}, "c1", 404, "unknown_item"),
        ("POST", "/me/cosmetics", {"itemId": "effect-glow"}, "c2", 402, "not_enough_tokens"),
        ("POST", "/me/cosmetics", {"itemId": "frame-wood"}, "c3", 400, "free_item"),
        ("POST", "/me/cosmetics", {"itemId": "dice-ivory"}, None, 400, "bad_request"),
        ("POST", "/me/cosmetics", {"item": "dice-ivory"}, "c4", 400, "bad_request"),
        (
            "PATCH",
            "/me/cosmetics/equipped",
            {"kind": "frame", "itemId": "frame-gold"},
            None,
            409,
            "not_owned",
        ),
        (
            "PATCH",
            "/me/cosmetics/equipped",
            {"kind": "dice_skin", "itemId": "sheet-slate"},
            None,
            400,
            "wrong_kind",
        ),
        (
            "PATCH",
            "/me/cosmetics/equipped",
            {"kind": "hat", "itemId": None},
            None,
            400,
            "bad_request",
        ),
        (
            "PATCH",
            "/me/cosmetics/equipped",
            {"kind": "frame", "itemId": "x"},
            None,
            404,
            "unknown_item",
        ),
    ],
)
def test_economy_cosmetics_bad_input_gets_its_code_and_changes_nothing(  # noqa: PLR0917
    economy: Economy, method: str, path: str, body: Any, key: str | None, status: int, code: str
) -> None:
    # given a player with 10 tokens
    ana = economy.player("ana")
    economy.credit(ana, 10)

    # when they send a bad request
    reply = economy.http(method, path, ana, body, key=key)

    # then it gets its status and code; the wallet and the wardrobe are as they were
    assert (reply.status, reply.code) == (status, code), reply
    assert economy.http("GET", "/me/wallet", ana).json["balance"] == 10
    assert len(economy.http("GET", "/me/ledger", ana).json["entries"]) == 1
    assert economy.http("GET", "/me/cosmetics", ana).json == {"owned": [], "equipped": NO_LOOKS}


def test_economy_cosmetic_bought_for_life_twice_or_on_a_used_key_is_refused(
    economy: Economy,
) -> None:
    # given a player who bought the avatar (key a-1) and a dice skin (key d-1)
    ana = economy.player("ana")
    economy.credit(ana, 1200)
    economy.http("POST", "/me/cosmetics", ana, {"itemId": "own-avatar"}, key="a-1")
    economy.http("POST", "/me/cosmetics", ana, {"itemId": "dice-ivory"}, key="d-1")

    # when they buy the avatar again, and other items on the keys already used
    twice = economy.http("POST", "/me/cosmetics", ana, {"itemId": "own-avatar"}, key="a-2")
    other_price = economy.http("POST", "/me/cosmetics", ana, {"itemId": "dice-ivory"}, key="a-1")
    same_price = economy.http("POST", "/me/cosmetics", ana, {"itemId": "dice-marble"}, key="d-1")

    # then each is refused and nothing more was paid or owned
    assert (twice.status, twice.code) == (409, "already_owned")
    assert (other_price.status, other_price.code) == (409, "key_reused")
    assert (same_price.status, same_price.code) == (409, "key_reused")
    assert economy.http("GET", "/me/wallet", ana).json["balance"] == 1200 - 500 - 60
    owned = economy.http("GET", "/me/cosmetics", ana).json["owned"]
    assert [o["itemId"] for o in owned] == ["dice-ivory", "own-avatar"]


def test_economy_calls_to_dynamodb_are_exactly_the_granted_ones(economy: Economy) -> None:
    # given every call the economy function made through this module's flows
    assert NEEDS, "the flows ran first"
    template = Template(ROOT / "template.yaml")
    table = template.resolve({"Fn::GetAtt": ["GameTable", "Arn"]})

    # when they are compared with the function's grants
    needed = {(action, table) for action, _ in NEEDS}

    # then each call is granted, and each grant is used
    assert needed == granted(template, "EconomyFunction", "dynamodb")
    # and each reaches only the partitions its conditions name
    assert not refusals(template, "EconomyFunction", CALLS)
