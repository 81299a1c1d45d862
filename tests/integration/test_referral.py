"""Referral (E7) on the embedded AWS: registration with a code through the accounts function
(checked before any account is made), the verification's reward through the mailed link, the
progression function's routes (GET /me/referral, PUT /me/referrer, PUT .../scheme) as the HTTP
API calls them, and the referral service itself with a chosen "now" for the games and the weekly
payments, each such test on a table of its own."""

import json
import os
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from botocore.client import BaseClient
from yamb.accounts.profile import AccountStatus, Profile
from yamb.progression.errors import ProgressionError
from yamb.progression.referral import PICK_WINDOW
from yamb.results.periods import Period, week_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common.dynamo import ItemModel, item_model
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.progression.referral.dynamo import RECRUITER_COUNT, DynamoReferralStore
from yamb_service.progression.referral.service import ReferralService
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.results.service import ResultsRecorder

from devstack.stack import LocalStack
from testkit.table import game_table_properties
from tests.integration.test_accounts import PASSWORD, Accounts, Reply, _event

ROOT = Path(__file__).resolve().parents[2]
# Monday of ISO week 2030-W10, 09:00 UTC: the first qualifying ranked game of the tests that
# choose their "now"; the referrer was taken three days before.
FIRST = datetime(2030, 3, 4, 9, 0, tzinfo=UTC)
TAKEN = FIRST - timedelta(days=3)
RANKED = GameSettings(ranked=True, preset=1, players=2, turn_seconds=60)
# A handler call that adds no metric (a refusal) is fine.
pytestmark = pytest.mark.filterwarnings("ignore:No application metrics to publish")


def _unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


class Stack(Accounts):
    """The stack's account functions (Accounts) and its progression function, as the HTTP API
    calls it (through the HTTP authorizer)."""

    def __init__(self, stack: LocalStack) -> None:
        super().__init__(stack)
        games = item_model(
            self.aws.physical_ids["GameTable"], self.aws.region, self.aws.endpoint_url
        )
        self.referrals = DynamoReferralStore(games)
        self.results = DynamoResultsStore(games)
        # The service as the functions build it, on real time (the stack's clock runs on it).
        self.service = ReferralService(
            self.referrals, self.results, self.store, self.wallets, web_base_url=""
        )

    def progression(
        self, method: str, path: str, body: Any = None, *, token: str, route: str | None = None
    ) -> Reply:
        event = _event("http_me.json")
        event["routeKey"] = event["requestContext"]["routeKey"] = f"{method} {route or path}"
        event["rawPath"] = event["requestContext"]["http"]["path"] = path
        event["requestContext"]["http"]["method"] = method
        event["requestContext"]["requestId"] = uuid.uuid4().hex
        if route is not None and "{nickname}" in route:
            event["pathParameters"] = {"nickname": path.split("/")[4]}
        if body is not None:
            event["body"] = json.dumps(body)
        allowed = self.http_authorizer(token)
        assert allowed["isAuthorized"]
        event["headers"]["authorization"] = token
        event["requestContext"]["authorizer"] = {"lambda": allowed["context"]}
        answer = self.handlers["ProgressionFunction"](
            event, self.aws.lambda_context("ProgressionFunction")
        )
        return Reply(answer["statusCode"], answer.get("headers") or {}, answer.get("body") or "")

    def player_id(self, token: str) -> str:
        return str(self.http_authorizer(token)["context"]["playerId"])

    def verified(self, nickname: str) -> tuple[str, str, str]:
        """A verified player: their id, e-mail and a fresh token."""
        email, token = self.player(nickname)
        return self.player_id(token), email, token

    def code_of(self, token: str) -> str:
        answer = self.progression("GET", "/me/referral", token=token)
        assert answer.status == 200, answer.body
        return str(answer.json["code"])

    def register_with(self, nickname: str, email: str, code: str) -> Reply:
        body = {"nickname": nickname, "email": email, "password": PASSWORD, "referralCode": code}
        return self.http("POST", "/accounts", body)

    def balance(self, player_id: str) -> int:
        return self.wallets.wallet(player_id).balance


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    with LocalStack(ROOT) as local:
        yield Stack(local)


# ----------------------------------------------------------------------------- a chosen now


@dataclass
class Clock:
    moment: datetime = TAKEN

    def __call__(self) -> datetime:
        return self.moment


class Scene:
    """The referral service on a table of its own (the weekly run reads every started
    referral of its table), with profiles made directly and a clock the test sets."""

    def __init__(self, item: ItemModel) -> None:
        self.clock = Clock()
        self.item = item
        self.accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        self.wallets = DynamoWalletStore(item, sleep=lambda _: None)
        self.results = DynamoResultsStore(item, sleep=lambda _: None)
        self.store = DynamoReferralStore(item)
        self.service = ReferralService(
            self.store,
            self.results,
            self.accounts,
            self.wallets,
            now=self.clock,
            web_base_url="https://yamb.example/",
            sleep=lambda _: None,
        )
        self.games = 0

    def player(self, nickname: str, status: AccountStatus = AccountStatus.ACTIVE) -> str:
        profile = Profile(
            player_id=f"id-{nickname}",
            nickname=nickname,
            email=f"{nickname}@example.com",
            status=status,
            created_at=TAKEN - timedelta(days=1),
        )
        self.accounts.create(profile)
        return profile.player_id

    def invited(self, nickname: str = "eve", by: str = "ana") -> tuple[str, str]:
        """`by` (made if needed) invited `nickname` at registration, at TAKEN (unverified: the
        verification's reward is not in these tests' balances): (inviter, invitee)."""
        inviter = f"id-{by}"
        if self.accounts.get(inviter) is None:
            self.player(by)
        invitee = self.player(nickname, AccountStatus.UNVERIFIED)
        self.clock.moment = TAKEN
        self.service.refer(invitee, self.service.code(inviter), new_account=True)
        return inviter, invitee

    def game(
        self,
        *players: str,
        at: datetime,
        ranked: bool = True,
        bot: str | None = None,
    ) -> GameResult:
        """A finished game of full sheets, the first player winning; `bot` on the last seat."""
        self.games += 1
        return GameResult(
            game_id=f"g{self.games:04d}",
            settings=RANKED if ranked else GameSettings(players=max(len(players), 1)),
            ended_at=at,
            winners=[players[0]],
            players=[
                PlayerResult(
                    player_id=p,
                    total=700 - 10 * index,
                    full=True,
                    left=False,
                    turns=26,
                    bot=bot if index == len(players) - 1 else None,
                )
                for index, p in enumerate(players)
            ],
            outcome="completed",
            recorded=True,
        )

    def play(self, *players: str, at: datetime, **options: Any) -> GameResult:
        ended = self.game(*players, at=at, **options)
        self.service.record_game(ended)
        return ended

    def balance(self, player_id: str) -> int:
        return self.wallets.wallet(player_id).balance

    def recruits(self, inviter: str) -> int:
        try:
            found = self.item.get(f"PLAYER#{inviter}", RECRUITER_COUNT, consistent_read=True)
        except self.item.DoesNotExist:
            return 0
        return int(found.tally or 0)

    def run(self, week: Period) -> Any:
        """The weekly job's call at the start of the week after `week`."""
        assert week.end is not None
        self.clock.moment = week.end
        return self.service.pay_week(week, week.end)


def week_n(n: int) -> Period:
    """The n-th week from FIRST's (1: FIRST's own)."""
    return week_of(FIRST + timedelta(weeks=n - 1))


def monday(n: int) -> datetime:
    """The start of the n-th week from FIRST's."""
    return datetime.combine(FIRST.date(), datetime.min.time(), UTC) + timedelta(weeks=n - 1)


@pytest.fixture
def scene(stack: Stack) -> Iterator[Scene]:
    name = f"yamb-referral-{uuid.uuid4().hex[:10]}"
    properties = game_table_properties()
    client = stack.aws.client("dynamodb")
    client.create_table(
        TableName=name,
        **{
            key: properties[key]
            for key in ("AttributeDefinitions", "KeySchema", "GlobalSecondaryIndexes")
        },
        BillingMode="PAY_PER_REQUEST",
    )
    yield Scene(item_model(name, stack.aws.region, stack.aws.endpoint_url))
    client.delete_table(TableName=name)


# ----------------------------------------------------------------------------- taking a referrer


def test_referral_registration_with_a_code_takes_the_referrer_both_follow(stack: Stack) -> None:
    # given ana, verified, who reads her code and link
    ana, _, token = stack.verified(_unique("Ana"))
    shown = stack.progression("GET", "/me/referral", token=token).json
    code = shown["code"]

    # when eve registers with it, typed in small letters
    nickname, email = _unique("Eve"), f"{_unique('eve')}@example.com"
    registered = stack.register_with(nickname, email, f" {code.lower()} ")

    # then the code is 8 characters, the link the web client's; eve's account exists with ana
    # as referrer, each follows the other, and ana's view lists eve, unverified, not started
    web_client = os.environ["WEB_BASE_URL"]  # the local stack's web client
    assert len(code) == 8 and shown["link"] == f"{web_client}/?ref={code}"
    assert shown["referrer"] is None and shown["invitees"] == []
    assert registered.status == 202, registered.body
    eve = stack.store.nickname_owner(nickname)
    assert eve is not None
    referral = stack.referrals.referral(eve)
    assert referral is not None and referral.inviter == ana
    assert ana in stack.results.favorites(eve) and eve in stack.results.favorites(ana)
    view = stack.progression("GET", "/me/referral", token=token).json
    assert view["code"] == code
    assert view["invitees"] == [
        {
            "nickname": nickname,
            "verified": False,
            "startedAt": None,
            "chooseBy": None,
            "scheme": None,
            "canChoose": False,
            "weeksPlayed": 0,
            "weeksPaid": 0,
        }
    ]
    assert stack.balance(ana) == 0


@pytest.mark.parametrize("code", ["ZZZZZZZZ", "not-a-code", "O0O0O0O0"])
def test_referral_registration_with_an_unknown_code_makes_no_account(
    stack: Stack, code: str
) -> None:
    # given the users and a nickname no one has
    users = stack.users()
    nickname, email = _unique("Zed"), f"{_unique('zed')}@example.com"

    # when a sign-up comes with a code no player has
    refused = stack.register_with(nickname, email, code)

    # then it is refused, and neither a user nor a profile nor a mail was made
    assert (refused.status, refused.code) == (404, "unknown_referral_code")
    assert stack.users() == users
    assert stack.store.nickname_owner(nickname) is None
    assert stack.mails(email) == []


def test_referral_registration_with_an_empty_code_is_one_without(stack: Stack) -> None:
    # given a sign-up form whose referral field was left empty
    email = f"{_unique('zoe')}@example.com"

    # when it is sent / then the account is made, with no referrer
    nickname = _unique("Zoe")
    registered = stack.register_with(nickname, email, "  ")
    assert registered.status == 202
    zoe = stack.store.nickname_owner(nickname)
    assert zoe is not None and stack.referrals.referral(zoe) is None


def test_referral_own_code_and_a_second_referrer_are_refused(stack: Stack) -> None:
    # given ana and ben, verified, and dan who took ana's code after registering
    _, _, ana_token = stack.verified(_unique("Ana"))
    _, _, ben_token = stack.verified(_unique("Ben"))
    dan, _, dan_token = stack.verified(_unique("Dan"))
    ana_code, ben_code = stack.code_of(ana_token), stack.code_of(ben_token)
    taken = stack.progression("PUT", "/me/referrer", {"code": ana_code}, token=dan_token)

    # when ben takes his own code, dan takes ben's, then ana's again
    own = stack.progression("PUT", "/me/referrer", {"code": ben_code}, token=ben_token)
    second = stack.progression("PUT", "/me/referrer", {"code": ben_code}, token=dan_token)
    again = stack.progression("PUT", "/me/referrer", {"code": ana_code}, token=dan_token)

    # then ben is refused his own, dan a second referrer; the same code again answers the same
    assert taken.status == 200 and taken.json["referrer"].startswith("Ana")
    assert (own.status, own.code) == (400, "own_referral_code")
    assert (second.status, second.code) == (409, "already_referred")
    assert again.status == 200 and again.json == taken.json
    referral = stack.referrals.referral(dan)
    assert referral is not None and referral.inviter == stack.player_id(ana_token)
    assert stack.referrals.referral(stack.player_id(ben_token)) is None


def test_referral_taken_after_verification_pays_the_inviter_at_once_and_once(
    stack: Stack,
) -> None:
    # given ana, and cleo who registered and verified without a code
    ana, _, ana_token = stack.verified(_unique("Ana"))
    _, _, cleo_token = stack.verified(_unique("Cleo"))
    code = stack.code_of(ana_token)

    # when cleo takes ana's code, twice
    for _ in range(2):
        taken = stack.progression("PUT", "/me/referrer", {"code": code}, token=cleo_token)
        assert taken.status == 200

    # then ana got the verification's 25 tokens once
    assert stack.balance(ana) == 25
    (entry,) = stack.wallets.entries(ana, 10)
    assert (entry.reason, entry.amount, entry.detail) == ("referral", 25, "verified")


def test_referral_verification_pays_25_tokens_once(stack: Stack) -> None:
    # given ana's code, and eve registered with it (not verified yet)
    ana, _, ana_token = stack.verified(_unique("Ana"))
    email = f"{_unique('eve')}@example.com"
    nickname = _unique("Eve")
    assert stack.register_with(nickname, email, stack.code_of(ana_token)).status == 202
    eve = stack.store.nickname_owner(nickname)
    assert eve is not None
    assert stack.balance(ana) == 0

    # when eve follows her link, uses it again, and the verification's payment runs again (as
    # after a crash before the profile was saved)
    first = stack.follow(email)
    path, link_token = stack.link(email)
    reused = stack.http("POST", path, {"token": link_token})
    stack.service.on_verified(eve, stack.aws.clock.now())

    # then eve is verified and ana was paid 25 tokens, once
    assert first.status == 200 and first.json["status"] == "active"
    assert (reused.status, reused.code) == (404, "link_invalid")
    assert stack.balance(ana) == 25
    view = stack.progression("GET", "/me/referral", token=ana_token).json
    assert [i["verified"] for i in view["invitees"]] == [True]


def test_referral_closed_after_a_game_against_people(stack: Stack) -> None:
    # given ana's code, and fay and gil who played a game against each other
    _, _, ana_token = stack.verified(_unique("Ana"))
    fay, _, fay_token = stack.verified(_unique("Fay"))
    gil, _, _ = stack.verified(_unique("Gil"))
    recorder = ResultsRecorder(stack.results, stack.store)
    now = stack.aws.clock.now()
    recorder.record(
        GameResult(
            game_id=uuid.uuid4().hex[:20],
            settings=GameSettings(players=2),
            ended_at=now,
            winners=[fay],
            players=[
                PlayerResult(player_id=p, total=t, full=True, left=False, turns=26)
                for p, t in ((fay, 300), (gil, 200))
            ],
            outcome="completed",
        )
    )

    # when fay takes ana's code
    refused = stack.progression(
        "PUT", "/me/referrer", {"code": stack.code_of(ana_token)}, token=fay_token
    )

    # then it is too late: nothing taken
    assert (refused.status, refused.code) == (409, "referral_closed")
    assert stack.referrals.referral(fay) is None


def test_referral_racing_codes_give_one_referrer(stack: Stack) -> None:
    # given ana and ben's codes, and hal, verified, with no referrer
    codes = [stack.code_of(stack.verified(_unique(n))[2]) for n in ("Ana", "Ben")]
    hal, _, _ = stack.verified(_unique("Hal"))
    answers: list[str] = []

    # when hal takes both at the same moment (two requests of the service)
    def take(code: str) -> None:
        try:
            stack.service.refer(hal, code)
            answers.append("taken")
        except ProgressionError as error:
            answers.append(error.code)

    threads = [threading.Thread(target=take, args=(code,)) for code in codes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then one wins, the other is told hal has a referrer; hal follows the winner only
    assert sorted(answers) == ["already_referred", "taken"]
    referral = stack.referrals.referral(hal)
    assert referral is not None
    assert stack.results.favorites(hal) == [referral.inviter]


def test_referral_taking_that_only_met_another_transaction_is_tried_again(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's code, eve registering with it, and her first write cancelled by another
    # transaction on the same items without anything written
    scene.player("ana")
    eve = scene.player("eve", AccountStatus.UNVERIFIED)
    take = scene.store.take
    attempts: list[bool] = []

    def conflicted(referral: Any) -> bool:
        if not attempts:
            attempts.append(False)
            return False
        attempts.append(take(referral))
        return attempts[-1]

    monkeypatch.setattr(scene.store, "take", conflicted)

    # when she takes the referrer
    taken = scene.service.refer(eve, scene.service.code("id-ana"), new_account=True)

    # then the second attempt took it, and the answer is the referral written
    assert attempts == [False, True]
    assert taken.inviter == "id-ana"
    stored = scene.store.referral(eve)
    assert stored is not None and stored.inviter == "id-ana"


# ----------------------------------------------------------------------------- the scheme by HTTP


def test_referral_scheme_chosen_by_http_within_the_window(stack: Stack) -> None:
    # given ana's invitee ivy, who just played her first ranked game against jo
    ana, _, ana_token = stack.verified(_unique("Ana"))
    ivy_name = _unique("Ivy")
    ivy, _, ivy_token = stack.verified(ivy_name)
    jo, _, _ = stack.verified(_unique("Jo"))
    stack.progression("PUT", "/me/referrer", {"code": stack.code_of(ana_token)}, token=ivy_token)
    ended_at = stack.aws.clock.now()
    stack.service.record_game(
        GameResult(
            game_id=uuid.uuid4().hex[:20],
            settings=RANKED,
            ended_at=ended_at,
            winners=[ivy],
            players=[
                PlayerResult(player_id=p, total=t, full=True, left=False, turns=26)
                for p, t in ((ivy, 300), (jo, 200))
            ],
        )
    )
    path = f"/me/referral/invitees/{ivy_name}/scheme"
    route = "/me/referral/invitees/{nickname}/scheme"

    # when ana chooses the long scheme, then the short one; jo chooses for ivy; ana chooses a
    # scheme that does not exist
    chosen = stack.progression("PUT", path, {"scheme": "long"}, token=ana_token, route=route)
    again = stack.progression("PUT", path, {"scheme": "short"}, token=ana_token, route=route)
    unknown = stack.progression("PUT", path, {"scheme": "huge"}, token=ana_token, route=route)
    _, _, kim_token = stack.verified(_unique("Kim"))
    not_hers = stack.progression("PUT", path, {"scheme": "long"}, token=kim_token, route=route)

    # then the long scheme is ivy's, and the others are refused
    assert chosen.status == 200, chosen.body
    assert chosen.json["scheme"] == "long" and chosen.json["canChoose"] is False
    assert chosen.json["chooseBy"] is not None
    assert (again.status, again.code) == (409, "scheme_chosen")
    assert (unknown.status, unknown.code) == (400, "unknown_scheme")
    assert (not_hers.status, not_hers.code) == (404, "not_your_invitee")
    view = stack.progression("GET", "/me/referral", token=ana_token).json
    (invitee,) = view["invitees"]
    assert (invitee["scheme"], invitee["weeksPlayed"], invitee["verified"]) == ("long", 1, True)
    assert stack.balance(ana) == 25


# ----------------------------------------------------------------------------- games, a chosen now


def test_referral_first_ranked_game_starts_it_and_counts_recruiter_once(scene: Scene) -> None:
    # given ana's invitee eve, and ben
    ana, eve = scene.invited()
    ben = scene.player("ben")

    # when eve's first ranked game against ben is recorded twice (a stream delivers again),
    # then a second game a day later
    first = scene.game(eve, ben, at=FIRST)
    scene.service.record_game(first)
    scene.service.record_game(first)
    scene.play(ben, eve, at=FIRST + timedelta(days=1))

    # then the referral started at the first game, its week played, the window 7 days; ana's
    # Recruiter count is 1
    referral = scene.store.referral(eve)
    assert referral is not None
    assert referral.started_at == FIRST and referral.choose_by == FIRST + PICK_WINDOW
    assert referral.played == {week_n(1).id}
    assert scene.recruits(ana) == 1
    assert list(scene.store.started_before(FIRST + timedelta(days=1))) == [eve]


def test_referral_racing_records_of_the_first_games_start_it_once(scene: Scene) -> None:
    # given ana's invitee eve, and two of her games recorded at the same moment
    ana, eve = scene.invited()
    ben, cleo = scene.player("ben"), scene.player("cleo")
    games = [scene.game(eve, ben, at=FIRST), scene.game(eve, cleo, at=FIRST + timedelta(hours=1))]

    # when both are recorded by two threads at once
    threads = [threading.Thread(target=scene.service.record_game, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then it started once: one start, one recruit
    referral = scene.store.referral(eve)
    assert referral is not None and referral.started_at in (FIRST, FIRST + timedelta(hours=1))
    assert scene.recruits(ana) == 1


@pytest.mark.parametrize(
    ("options", "others", "why"),
    [
        ({"bot": "easy"}, ["bot-1"], "against a bot"),
        ({}, [], "solo"),
        ({"ranked": False}, ["id-ben"], "unranked"),
        ({}, ["id-ana"], "only with the inviter"),
    ],
)
def test_referral_games_that_do_not_qualify_start_nothing(
    scene: Scene, options: dict[str, Any], others: list[str], why: str
) -> None:
    # given ana's invitee eve, and ben
    ana, eve = scene.invited()
    scene.player("ben")

    # when eve plays a game of this kind
    scene.play(eve, *others, at=FIRST, **options)

    # then the referral has not started and ana recruited no one
    referral = scene.store.referral(eve)
    assert referral is not None and referral.started_at is None, why
    assert referral.played == frozenset()
    assert scene.recruits(ana) == 0


def test_referral_game_of_people_without_a_referrer_costs_one_read_each(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ben and cleo, invited by nobody, and every DynamoDB call counted
    ben, cleo = scene.player("ben"), scene.player("cleo")
    calls: list[str] = []
    make_api_call = BaseClient._make_api_call

    def counting(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        # The scene's table only: the local stack's stream pollers call too, meanwhile.
        if (
            client.meta.service_model.service_name == "dynamodb"
            and params.get("TableName") == scene.item.Meta.table_name
        ):
            calls.append(operation)
        return make_api_call(client, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", counting)

    # when their ranked game is recorded, and a game with a bot
    scene.play(ben, cleo, at=FIRST)
    scene.play(ben, "bot-1", at=FIRST, bot="easy")

    # then the first cost one read each, the second none
    assert calls == ["GetItem", "GetItem"]


def test_referral_scheme_window_closes_after_7_days(scene: Scene) -> None:
    # given ana's invitees eve (started at FIRST) and finn (not started), and ben
    ana, eve = scene.invited()
    scene.invited("finn")
    ben = scene.player("ben")
    scene.play(eve, ben, at=FIRST)
    service = scene.service

    # when ana chooses for eve 7 days after the first game, for finn, for ben, for no one
    refusals = {}
    for nickname, at in (
        ("eve", FIRST + PICK_WINDOW),
        ("finn", FIRST + timedelta(days=1)),
        ("ben", FIRST + timedelta(days=1)),
        ("nobody-at-all", FIRST),
    ):
        with pytest.raises(ProgressionError) as refused:
            service.choose_scheme(ana, nickname, "long", at)
        refusals[nickname] = refused.value.code
    within = service.choose_scheme(ana, "eve", "long", FIRST + PICK_WINDOW - timedelta(seconds=1))

    # then too late for eve (the default holds), no scheme yet for finn, ben and a nickname no
    # one has are not hers; a second before the window's end it was still open
    assert refusals == {
        "eve": "scheme_window_over",
        "finn": "no_scheme_to_choose",
        "ben": "not_your_invitee",
        "nobody-at-all": "not_your_invitee",
    }
    assert within.scheme == "long"
    referral = scene.store.referral(eve)
    assert referral is not None and referral.scheme == "long"


# ----------------------------------------------------------------------------- weekly payments


def test_referral_paid_over_several_weeks_with_one_week_skipped(scene: Scene) -> None:
    # given ana's invitee eve, the short scheme chosen, and eve's ranked games against ben in
    # weeks 1, 2 and 4 of the scheme (none in week 3), and one in week 5, after it
    ana, eve = scene.invited()
    ben = scene.player("ben")
    scene.play(eve, ben, at=FIRST)
    scene.service.choose_scheme(ana, "eve", "short", FIRST + timedelta(hours=1))
    for week in (2, 4, 5):
        scene.play(ben, eve, at=monday(week) + timedelta(days=2))
    balances, runs = [], []

    # when the weekly job runs at the end of each week, twice each time
    for week in range(1, 6):
        first, again = scene.run(week_n(week)), scene.run(week_n(week))
        runs.append((first.paid, first.tokens, again.paid, first.skipped))
        balances.append(scene.balance(ana))

    # then weeks 1, 2 and 4 paid 50 each as they ended, week 3 nothing, a run again nothing,
    # week 5 nothing (past the scheme): 150 tokens
    assert runs == [(1, 50, 0, 0), (1, 50, 0, 0), (0, 0, 0, 1), (1, 50, 0, 0), (0, 0, 0, 0)]
    assert balances == [50, 100, 100, 150, 150]
    entries = scene.wallets.entries(ana, 10)
    assert sorted(e.detail or "" for e in entries) == [f"week {week_n(w).id}" for w in (1, 2, 4)]
    assert {e.key for e in entries} == {f"referral:week:{eve}:{week_n(w).id}" for w in (1, 2, 4)}
    referral = scene.store.referral(eve)
    assert referral is not None and referral.paid == {week_n(w).id for w in (1, 2, 4)}


def test_referral_default_scheme_after_7_days_pays_the_weeks_that_waited(scene: Scene) -> None:
    # given ana's invitee eve, who played in weeks 1 and 2 from Sunday of week 1 (the window
    # still open at week 1's end), ana not choosing
    ana, eve = scene.invited()
    ben = scene.player("ben")
    sunday = monday(1) + timedelta(days=6)
    scene.play(eve, ben, at=sunday)
    scene.play(eve, ben, at=sunday + timedelta(days=2))

    # when the job runs after week 1 (the scheme can still be chosen), then after week 2
    waiting = scene.run(week_n(1))
    paid = scene.run(week_n(2))

    # then nothing is lost: weeks 1 and 2 are paid at the default (short) scheme's 50, after
    # the window closed; it can no longer be chosen
    assert (waiting.waiting, waiting.paid) == (1, 0)
    assert (paid.paid, paid.tokens) == (2, 100)
    assert scene.balance(ana) == 100
    with pytest.raises(ProgressionError) as refused:
        scene.service.choose_scheme(ana, "eve", "long", sunday + PICK_WINDOW)
    assert refused.value.code == "scheme_window_over"


def test_referral_scheme_chosen_while_the_job_pays_the_default_pays_nothing_at_it(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's invitee eve, who started in week 1, and the job run by hand after her window
    # (the default in force for it), ana choosing the long scheme in the window's last second
    # just after the job read the referral
    ana, eve = scene.invited()
    ben = scene.player("ben")
    started = monday(1) + timedelta(hours=1)
    scene.play(eve, ben, at=started)
    read = scene.store.referrals

    def chosen_after_the_read(invitees: list[str]) -> Any:
        found = read(invitees)
        monkeypatch.setattr(scene.store, "referrals", read)
        scene.service.choose_scheme(
            ana, "eve", "long", started + PICK_WINDOW - timedelta(seconds=1)
        )
        return found

    monkeypatch.setattr(scene.store, "referrals", chosen_after_the_read)
    late = started + PICK_WINDOW + timedelta(hours=1)

    # when the job pays week 1 as of then, and runs again after week 2
    raced = scene.service.pay_week(week_n(1), late)
    again = scene.run(week_n(2))

    # then the raced run paid nothing at the default's 50 (and said so); the next one paid
    # week 1 at the chosen scheme's 25
    assert (raced.paid, raced.failed) == (0, 1)
    assert (again.paid, again.tokens, again.failed) == (1, 25, 0)
    assert scene.balance(ana) == 25


def test_referral_long_scheme_pays_25_a_week_and_settles(scene: Scene) -> None:
    # given ana's invitee eve, the long scheme chosen, playing in weeks 1 and 52 (and 53)
    ana, eve = scene.invited()
    ben = scene.player("ben")
    scene.play(eve, ben, at=FIRST)
    scene.service.choose_scheme(ana, "eve", "long", FIRST + timedelta(days=1))
    for week in (52, 53):
        scene.play(eve, ben, at=monday(week) + timedelta(hours=1))

    # when the job runs after week 1, after week 52, and a week later
    one = scene.run(week_n(1))
    last = scene.run(week_n(52))
    later = scene.run(week_n(53))

    # then 25 for each week played, none past the scheme; the referral leaves the index once
    # the grace week is over, and stays for ana's view
    assert (one.tokens, last.tokens, later.tokens) == (25, 25, 0)
    assert (last.settled, later.settled) == (0, 1)
    assert scene.balance(ana) == 50
    assert list(scene.store.started_before(monday(60))) == []
    scene.clock.moment = monday(54)
    view = scene.service.referral(ana)
    assert [(i.nickname, i.scheme, i.weeks_played, i.weeks_paid) for i in view.invitees] == [
        ("eve", "long", 2, 2)
    ]


def test_referral_inviter_closed_account_is_not_paid(scene: Scene) -> None:
    # given ana's invitee eve, who played in week 1 under the short scheme; ana then banned
    ana, eve = scene.invited()
    ben = scene.player("ben")
    scene.play(eve, ben, at=FIRST)
    scene.service.choose_scheme(ana, "eve", "short", FIRST + timedelta(hours=1))
    profile = scene.accounts.get(ana)
    assert profile is not None
    scene.accounts.save(profile.model_copy(update={"status": AccountStatus.BANNED}))

    # when the job runs after week 1
    run = scene.run(week_n(1))

    # then nothing is paid
    assert (run.paid, run.unpaid) == (0, 1)
    assert scene.balance(ana) == 0
