"""Badges (E8) on moto: counts from finished games (once, whatever the deliveries), from the
economy's gifts, premium and cosmetics, and from prize awards; levels paid at login through
Cognito's PostAuthentication trigger, each once; Pioneer under racing verifications; the
badges' HTTP routes."""

import copy
import importlib.util
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from botocore.client import BaseClient
from yamb.accounts.profile import AccountStatus, Profile
from yamb.results import periods
from yamb.results.boards import Board
from yamb.results.facts import SheetFacts
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.accounts import wiring as account_wiring
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common import clock, config
from yamb_service.economy.ports import Accounts, Change
from yamb_service.economy.service import EconomyService
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.economy.wardrobe_dynamo import DynamoWardrobeStore
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.progression import wiring as progression_wiring
from yamb_service.progression.badges.dynamo import DynamoBadgeStore
from yamb_service.progression.badges.service import BadgeService
from yamb_service.results.dynamo import DynamoResultsStore

from devstack.template import Template
from testkit.catalogues import use_catalogues
from testkit.table import REGION, TABLE_NAME
from tests.integration.conftest import load_event
from tests.integration.test_template import granted, iam_actions, refusals

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
FREE = GameSettings(preset=1, players=2)


class Badges:
    """The badge service on the module's table, its stores, and players and games to feed it."""

    def __init__(self, item: Any) -> None:
        self.item = item
        self.now = NOW
        self.store = DynamoBadgeStore(item, sleep=lambda _: None)
        self.wallets = DynamoWalletStore(item, sleep=lambda _: None)
        self.accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        self.results = DynamoResultsStore(item, sleep=lambda _: None)
        self.wardrobes = DynamoWardrobeStore(item, sleep=lambda _: None)
        self.service = BadgeService(
            self.store,
            self.wallets,
            self.accounts,
            now=lambda: self.now,
            results=self.results,
            wardrobes=self.wardrobes,
        )
        self.games = 0

    def player(self, nickname: str, status: AccountStatus = AccountStatus.ACTIVE) -> str:
        profile = Profile(
            player_id=f"id-{nickname}",
            nickname=nickname,
            email=f"{nickname}@example.com",
            status=status,
            created_at=NOW - timedelta(days=30),
        )
        self.accounts.create(profile)
        return profile.player_id

    def game(
        self,
        players: list[str],
        *,
        winners: list[str] | None = None,
        at: datetime | None = None,
        settings: GameSettings = FREE,
        bot: bool = False,
        facts: SheetFacts | None = None,
    ) -> GameResult:
        self.games += 1
        return GameResult(
            game_id=f"g{self.games:04d}",
            settings=settings,
            ended_at=at or self.now,
            winners=winners if winners is not None else players[:1],
            players=[
                PlayerResult(
                    player_id=p,
                    total=500,
                    full=True,
                    left=False,
                    turns=26,
                    bot="easy" if bot and index == 1 else None,
                    facts=facts if index == 0 else None,
                )
                for index, p in enumerate(players)
            ],
            outcome="completed",
            recorded=True,
        )

    def counts(self, player_id: str) -> dict[str, int]:
        return {badge: n for badge, n in self.service.counts(player_id).items() if n}

    def balance(self, player_id: str) -> int:
        return self.wallets.wallet(player_id).balance

    def badge_entries(self, player_id: str) -> list[str]:
        return [e.detail or "" for e in self.wallets.entries(player_id, 100) if e.reason == "badge"]


@pytest.fixture
def badges(table: str, item: Any) -> Badges:
    return Badges(item)


# ---------------------------------------------------------------- finished games


def test_badges_record_game_counts_a_game_once_when_delivered_twice(badges: Badges) -> None:
    # given ana's win over ben in which she wrote a Yamb, a top poker and full aces
    ana, ben = badges.player("ana"), badges.player("ben")
    facts = SheetFacts(yambs=1, top_pokers=1, full_aces=1)
    game = badges.game([ana, ben], facts=facts)

    # when the game is recorded, then recorded again (a stream delivers at least once)
    badges.service.record_game(game)
    badges.service.record_game(game)

    # then each count grew once
    assert badges.counts(ana) == {
        "champion": 1,
        "veteran": 1,
        "sociable": 1,
        "master": 1,
        "poker": 1,
        "aces": 1,
    }
    assert badges.counts(ben) == {"veteran": 1, "sociable": 1}


def test_badges_record_game_solo_and_bot_games_count_nothing(badges: Badges) -> None:
    # given a solo game and a game against a bot, both won by ana with a Yamb
    ana = badges.player("ana")
    facts = SheetFacts(yambs=1, top_pokers=1, full_aces=1)
    solo = badges.game([ana], settings=GameSettings(preset=1, players=1), facts=facts)
    bot = badges.game([ana, "bot-1"], bot=True, facts=facts)

    # when both are recorded
    badges.service.record_game(solo)
    badges.service.record_game(bot)

    # then nothing counts, and nothing was written
    assert badges.counts(ana) == {}
    assert badges.store.present(ana, ["PLAYED#2026-12-03"]) == set()


def test_badges_record_game_counts_distinct_days_and_opponents(badges: Badges) -> None:
    # given three games: ana vs ben and ana vs cleo on one day, ana vs ben the next day
    ana, ben, cleo = badges.player("ana"), badges.player("ben"), badges.player("cleo")
    games = [
        badges.game([ana, ben]),
        badges.game([ana, cleo], at=NOW + timedelta(hours=11, minutes=59)),  # 23:59 UTC
        badges.game([ana, ben], at=NOW + timedelta(hours=12)),  # the next day, 00:00 UTC
    ]

    # when they are recorded
    for game in games:
        badges.service.record_game(game)

    # then two days, two opponents, three wins
    assert badges.counts(ana) == {"champion": 3, "veteran": 2, "sociable": 2}


def test_badges_record_game_concurrent_deliveries_count_once(
    badges: Badges, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a game recorded, and its second delivery having read the markers before the first
    # delivery wrote them (no day, no opponent known yet)
    ana, ben = badges.player("ana"), badges.player("ben")
    game = badges.game([ana, ben], facts=SheetFacts(yambs=1))
    badges.service.record_game(game)

    # when the second delivery writes
    with monkeypatch.context() as patch:
        patch.setattr(badges.store, "present", lambda player_id, sks: set())
        badges.service.record_game(game)

    # then the game's marker refused it: every count as after one delivery
    assert badges.counts(ana) == {"champion": 1, "veteran": 1, "sociable": 1, "master": 1}


def test_badges_record_game_two_games_of_a_day_racing_count_the_day_once(
    badges: Badges, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's game against ben recorded, and her game against cleo the same day whose
    # first read of the markers came before that write
    ana, ben, cleo = badges.player("ana"), badges.player("ben"), badges.player("cleo")
    first, second = badges.game([ana, ben]), badges.game([ana, cleo])
    badges.service.record_game(first)
    real_present = badges.store.present
    reads: list[int] = []

    def stale_once(player_id: str, sks: Any) -> set[str]:
        reads.append(1)
        return set() if len(reads) == 1 else real_present(player_id, sks)

    # when the second game is recorded
    with monkeypatch.context() as patch:
        patch.setattr(badges.store, "present", stale_once)
        badges.service.record_game(second)

    # then the day's marker refused the stale write, and the retry counted the day once
    assert badges.counts(ana) == {"champion": 2, "veteran": 1, "sociable": 2}


# ---------------------------------------------------------------- the economy's counts


def test_badges_gifts_premium_and_cosmetics_count(badges: Badges) -> None:
    # given ana with 2000 tokens, and ben
    ana, ben = badges.player("ana"), badges.player("ben")
    badges.wallets.change("grant:ana", [Change(ana, 2000, "grant")], NOW)
    economy = EconomyService(
        badges.wallets,
        Accounts(profile=badges.accounts.get, nickname_owner=badges.accounts.nickname_owner),
        now=lambda: NOW,
        wardrobes=badges.wardrobes,
        counts=badges.store,
    )

    # when she gives ben 60 tokens (sent twice with the same key), buys 7 days of premium,
    # gives ben 1 day of premium (20 tokens), and buys two cosmetics
    economy.gift_tokens(ana, "ben", 60, "k-gift")
    economy.gift_tokens(ana, "ben", 60, "k-gift")
    economy.buy_premium(ana, 7, "k-premium")
    economy.buy_premium(ana, 1, "k-premium-gift", gift_to="ben")
    economy.buy_cosmetic(ana, "dice-ivory", "k-dice")
    economy.buy_cosmetic(ana, "dice-ivory", "k-dice")

    # then Benefactor counts the tokens given (80), Premium seniority each holder's days,
    # Collector the cosmetic owned
    assert badges.counts(ana) == {"benefactor": 80, "premium_seniority": 7, "collector": 1}
    assert badges.counts(ben) == {"premium_seniority": 1}


def test_badges_monthly_awards_count_places_and_the_pairs_of_the_month(badges: Badges) -> None:
    # given ana's prizes: 1st of November's main board, 1st of October's pairs board, 2nd of a
    # week's board
    ana = badges.player("ana")
    results = badges.results
    awarded = [
        (Board("individual", "main", "best", periods.parse("2026-11", NOW)), 1),
        (Board("pairs", "3", "best", periods.parse("2026-10", NOW)), 1),
        (Board("individual", "main", "best", periods.parse("2026-W48", NOW)), 2),
    ]
    for board, place in awarded:
        record = {"board": board.key, "period": board.period.id, "place": place}
        badges.wallets.change(
            f"prize:{board.key}:{ana}:{ana}",
            [Change(ana, 100, "prize", detail=board.key)],
            NOW,
            also=[results.award_part(ana, board, ana, record)],
        )

    # when her badges are counted / then two monthly firsts and one pairs of the month
    assert badges.counts(ana) == {"monthly_first": 2, "pairs_of_the_month": 1}


# ---------------------------------------------------------------- paid at login


def _load_function(name: str) -> ModuleType:
    path = ROOT / "functions" / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"yamb_badges_test_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Context:
    function_name = "test-function"
    memory_limit_in_mb = 256
    invoked_function_arn = f"arn:aws:lambda:{REGION}:123456789012:function:test-function"
    aws_request_id = "00000000-0000-0000-0000-000000000000"


def _forget_wiring() -> None:
    config.account_settings.cache_clear()
    account_wiring.account_service.cache_clear()
    progression_wiring.forget()


@pytest.fixture
def functions(badges: Badges, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """The trigger and progression handlers, with the environment template.yaml gives them
    (on the module's table) and the badges' clock."""
    for name, value in {
        "TABLE_NAME": TABLE_NAME,
        "AWS_REGION": REGION,
        "CONNECTIONS_ENDPOINT": "https://example.execute-api.us-east-1.amazonaws.com/live",
        "MAIL_FROM": "yamb@example.com",
        "POWERTOOLS_SERVICE_NAME": "yamb",
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.setattr(clock, "clock", lambda: badges.now)
    _forget_wiring()
    yield {
        "trigger": _load_function("account_triggers").handler,
        "progression": _load_function("progression").handler,
    }
    _forget_wiring()


def _login(functions: dict[str, Any], player_id: str) -> dict[str, Any]:
    event = load_event("cognito_post_authentication.json")
    event["userName"] = event["request"]["userAttributes"]["sub"] = player_id
    event["request"]["userAttributes"]["email"] = f"{player_id.removeprefix('id-')}@example.com"
    return dict(functions["trigger"](event, _Context()))


def test_badges_login_pays_each_level_once_and_higher_levels_later(
    badges: Badges, functions: dict[str, Any]
) -> None:
    # given ana's 5 wins against ben, one a day
    ana, ben = badges.player("ana"), badges.player("ben")
    for day in range(5):
        badges.service.record_game(badges.game([ana, ben], at=NOW - timedelta(days=day)))

    # when she signs in, then signs in again
    first = _login(functions, ana)
    _login(functions, ana)

    # then the sign-ins succeeded, and Champion's levels 1 and 2 (5 wins) and Veteran's level
    # 1 (5 days) were paid once each
    assert first["triggerSource"] == "PostAuthentication_Authentication"
    assert badges.balance(ana) == 10 + 20 + 10
    assert sorted(badges.badge_entries(ana)) == [
        "badge champion bronze",
        "badge champion silver",
        "badge veteran bronze",
    ]

    # when she wins 5 more games on the same days and signs in again
    for day in range(5):
        badges.service.record_game(badges.game([ana, ben], at=NOW - timedelta(days=day)))
    _login(functions, ana)

    # then Champion's level 3 (10 wins) is paid, nothing else
    assert badges.balance(ana) == 10 + 20 + 10 + 30
    assert len(badges.badge_entries(ana)) == 4


def test_badges_racing_logins_pay_a_level_once(badges: Badges) -> None:
    # given ana's win, and a login that read her levels paid before another login paid them
    ana, ben = badges.player("ana"), badges.player("ben")
    badges.service.record_game(badges.game([ana, ben]))
    held_before = badges.store.held(ana)
    badges.service.pay_due(ana, NOW)

    # when the late login pays from what it read
    stale = BadgeService(
        _StaleHeld(badges.store, held_before),  # type: ignore[arg-type]
        badges.wallets,
        badges.accounts,
        now=lambda: NOW,
        results=badges.results,
        wardrobes=badges.wardrobes,
    )
    paid = stale.pay_due(ana, NOW)

    # then it paid nothing: the level's key answered the first payment
    assert paid == []
    assert badges.balance(ana) == 10
    assert badges.badge_entries(ana) == ["badge champion bronze"]


class _StaleHeld:
    """A badge store whose levels paid are the ones read before."""

    def __init__(self, store: DynamoBadgeStore, held: Any) -> None:
        self._store = store
        self._held = held

    def held(self, player_id: str) -> Any:
        return self._held

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_badges_login_refused_pays_nothing(badges: Badges, functions: dict[str, Any]) -> None:
    # given an account not verified yet, with a win counted
    ana, ben = badges.player("ana", AccountStatus.UNVERIFIED), badges.player("ben")
    badges.service.record_game(badges.game([ana, ben]))

    # when it signs in / then the login is refused, and nothing paid
    with pytest.raises(Exception, match=r"^[a-z_]+: "):
        _login(functions, ana)
    assert badges.balance(ana) == 0


def test_badges_login_goes_on_when_the_payment_fails(
    badges: Badges, functions: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's win, and a payment that fails
    ana, ben = badges.player("ana"), badges.player("ben")
    badges.service.record_game(badges.game([ana, ben]))

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the table is gone")

    # when she signs in / then the login succeeds, unpaid; the next login pays
    with monkeypatch.context() as patch:
        patch.setattr(progression_wiring.badge_service(), "pay_due", failing)
        assert _login(functions, ana)["userName"] == ana
    assert badges.balance(ana) == 0
    _login(functions, ana)
    assert badges.balance(ana) == 10


# ---------------------------------------------------------------- Pioneer


def _pioneers(badges: Badges, count: int) -> None:
    badges.item("PIONEERS", "PIONEERS", tally=count).save()


def test_badges_pioneer_100th_and_101st_verifications_racing(
    badges: Badges, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given 98 pioneers, and three players verifying at once: each read 98 before any wrote
    _pioneers(badges, 98)
    real = badges.store.pioneers
    first_read = {"stale": False}

    def read_before_the_others_wrote() -> int:
        if first_read["stale"]:
            first_read["stale"] = False
            return 98
        return real()

    # when each enrols (its first read is the stale 98)
    numbers = []
    with monkeypatch.context() as patch:
        patch.setattr(badges.store, "pioneers", read_before_the_others_wrote)
        for player_id in ("id-p1", "id-p2", "id-p3"):
            first_read["stale"] = True
            numbers.append(badges.service.enrol_pioneer(player_id, NOW))

    # then exactly two became pioneers, numbers 99 and 100, and the count stopped at 100
    assert numbers == [99, 100, None]
    assert badges.store.pioneers() == 100
    assert [badges.store.held(p)[1] for p in ("id-p1", "id-p2", "id-p3")] == [99, 100, None]


def test_badges_pioneer_threads_racing_for_the_last_places(badges: Badges) -> None:
    # given 97 pioneers and six players verifying in parallel
    _pioneers(badges, 97)
    players = [f"id-t{n}" for n in range(6)]
    numbers: dict[str, int | None] = {}
    start = threading.Barrier(len(players))

    def verify(player_id: str) -> None:
        start.wait()
        numbers[player_id] = badges.service.enrol_pioneer(player_id, NOW)

    # when they all enrol at once
    threads = [threading.Thread(target=verify, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then three of them got the numbers 98 to 100, once each
    given = sorted(n for n in numbers.values() if n is not None)
    assert given == [98, 99, 100]
    assert badges.store.pioneers() == 100
    assert sorted(p for p in players if badges.store.held(p)[1] is not None) == sorted(
        p for p, n in numbers.items() if n is not None
    )


def test_badges_pioneer_repeat_verification_changes_nothing(badges: Badges) -> None:
    # given ana, pioneer number 1
    assert badges.service.enrol_pioneer("id-ana", NOW) == 1

    # when her verification runs again (a link used again after a crash)
    again = badges.service.enrol_pioneer("id-ana", NOW)

    # then nothing changed: still one pioneer, hers number 1
    assert again is None
    assert badges.store.pioneers() == 1
    assert badges.store.held("id-ana")[1] == 1


def test_badges_pioneer_none_past_the_first_hundred(badges: Badges) -> None:
    _pioneers(badges, 100)
    assert badges.service.enrol_pioneer("id-late", NOW) is None
    assert badges.store.held("id-late")[1] is None


def test_badges_pioneer_given_by_the_account_services_verification_hook(
    badges: Badges, functions: dict[str, Any]
) -> None:
    # given the account service as the accounts function wires it
    service = account_wiring.account_service("us-east-1_Pool", "client")

    # when a verification calls its hooks / then the player is the first pioneer
    for hook in service.on_verified:
        hook("id-first", NOW)
    assert badges.store.held("id-first")[1] == 1


# ---------------------------------------------------------------- HTTP routes


def _get(
    functions: dict[str, Any], path: str, player_id: str, accept_language: str | None = None
) -> tuple[int, Any]:
    event = load_event("http_me.json")
    if accept_language is not None:
        event["headers"]["accept-language"] = accept_language
    route = "GET /me/badges" if path == "/me/badges" else "GET /players/{nickname}/badges"
    event["routeKey"] = event["requestContext"]["routeKey"] = route
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event.pop("pathParameters", None)
    if "{nickname}" in route:  # as API Gateway passes the route's parameter
        event["pathParameters"] = {"nickname": path.split("/")[2]}
    event["requestContext"]["authorizer"]["lambda"]["playerId"] = player_id
    answer = functions["progression"](event, _Context())
    return answer["statusCode"], json.loads(answer["body"])


def test_badges_route_mine_pays_what_is_due_and_shows_the_next_level(
    badges: Badges, functions: dict[str, Any]
) -> None:
    # given ana's win over ben, and ana pioneer number 1
    ana, ben = badges.player("ana"), badges.player("ben")
    badges.service.record_game(badges.game([ana, ben]))
    badges.service.enrol_pioneer(ana, NOW)

    # when she opens her badges, twice
    status, first = _get(functions, "/me/badges", ana)
    _, second = _get(functions, "/me/badges", ana)

    # then the first paid Champion's level 1, the second nothing; each badge is listed
    assert status == 200
    assert first["paid"] == [{"badge": "champion", "level": 1, "levelName": "bronze", "tokens": 10}]
    assert second["paid"] == []
    assert badges.balance(ana) == 10
    champion = next(b for b in second["badges"] if b["badge"] == "champion")
    assert champion == {
        "badge": "champion",
        "title": "Champion",
        "does": champion["does"],
        "level": 1,
        "levelName": "bronze",
        "count": 1,
        "nextThreshold": 5,
        "nextReward": 20,
    }
    veteran = next(b for b in second["badges"] if b["badge"] == "veteran")
    assert (veteran["level"], veteran["count"], veteran["nextThreshold"]) == (0, 1, 3)
    assert len(second["badges"]) == 15
    assert second["pioneer"] == {"title": "Pioneer", "number": 1}


def test_badges_route_of_a_player_shows_levels_only(
    badges: Badges, functions: dict[str, Any]
) -> None:
    # given ana's win over ben
    ana, ben = badges.player("ana"), badges.player("ben")
    badges.service.record_game(badges.game([ana, ben]))

    # when ben looks at ana's badges
    status, seen = _get(functions, "/players/ana/badges", ben)

    # then her Champion level, no counts and no pioneer; nothing paid by his look
    assert status == 200
    assert seen == {
        "nickname": "ana",
        "badges": [{"badge": "champion", "title": "Champion", "level": 1, "levelName": "bronze"}],
        "pioneer": None,
    }
    assert badges.balance(ana) == 0


def test_badges_route_says_the_titles_in_the_readers_language(
    badges: Badges, functions: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # given a Croatian catalogue of two badges' words, and ana's win over ben as pioneer
    use_catalogues(
        monkeypatch,
        tmp_path,
        {
            "hr": {
                "Champion": "Prvak",
                "Win a fair game (against a real player, not solo, no bot)": (
                    "Pobijedi u poštenoj igri (protiv stvarnog igrača, ne sam, bez bota)"
                ),
                "Pioneer": "Pionir",
            }
        },
    )
    ana, ben = badges.player("ana"), badges.player("ben")
    badges.service.record_game(badges.game([ana, ben]))
    badges.service.enrol_pioneer(ana, NOW)

    # when ana, whose page speaks Croatian, opens her badges, and ben his view of hers
    _, mine = _get(functions, "/me/badges", ana, accept_language="hr-HR,hr;q=0.9")
    _, seen = _get(functions, "/players/ana/badges", ben, accept_language="hr")

    # then the titles and the description are Croatian; an untranslated one stays English
    champion = next(b for b in mine["badges"] if b["badge"] == "champion")
    assert (champion["title"], champion["does"]) == (
        "Prvak",
        "Pobijedi u poštenoj igri (protiv stvarnog igrača, ne sam, bez bota)",
    )
    assert next(b for b in mine["badges"] if b["badge"] == "veteran")["title"] == "Veteran"
    assert mine["pioneer"]["title"] == "Pionir"
    assert seen["badges"][0]["title"] == "Prvak"
    # and in English without the header
    _, english = _get(functions, "/players/ana/badges", ben)
    assert english["badges"][0]["title"] == "Champion"


def test_badges_route_of_an_unknown_player_is_404(
    badges: Badges, functions: dict[str, Any]
) -> None:
    status, answer = _get(functions, "/players/nobody/badges", badges.player("ben"))
    assert status == 404
    assert answer["error"]["code"] == "unknown_player"


# Every DynamoDB call (operation, parameters) the `dynamodb_calls` fixture saw: judged against a
# function's statements, dynamodb:LeadingKeys included (`refusals`).
RAW_CALLS: list[tuple[str, dict[str, Any]]] = []


@pytest.fixture
def dynamodb_calls(monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, str]]:
    """The IAM actions of every DynamoDB call made from now on (a transaction's parts each)."""
    needs: set[tuple[str, str]] = set()
    make_api_call = BaseClient._make_api_call
    RAW_CALLS.clear()

    def recording(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if client.meta.service_model.service_name == "dynamodb":
            needs.update(iam_actions(operation, params))
            RAW_CALLS.append((operation, copy.deepcopy(params)))
        return make_api_call(client, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", recording)
    return needs


def _grants(function: str) -> set[tuple[str, str]]:
    template = Template(ROOT / "template.yaml")
    table = template.context.get_att("GameTable", "Arn")
    return {
        (action, "table") for action, arn in granted(template, function, "dynamodb") if arn == table
    }


def test_badges_login_trigger_calls_are_what_its_policy_allows(
    badges: Badges, functions: dict[str, Any], dynamodb_calls: set[tuple[str, str]]
) -> None:
    # given ana's win over ben
    ana, ben = badges.player("ana"), badges.player("ben")
    badges.service.record_game(badges.game([ana, ben]))
    dynamodb_calls.clear()
    RAW_CALLS.clear()

    # when she signs in and is paid a level
    _login(functions, ana)

    # then the trigger's calls are exactly its grants: nothing refused, nothing spare
    assert badges.balance(ana) == 10
    assert dynamodb_calls == _grants("AccountTriggersFunction")
    # and each reaches only the partitions its conditions name
    template = Template(ROOT / "template.yaml")
    assert RAW_CALLS and not refusals(template, "AccountTriggersFunction", RAW_CALLS)


def test_badges_pioneer_verification_calls_are_allowed_to_the_accounts_function(
    badges: Badges, dynamodb_calls: set[tuple[str, str]]
) -> None:
    # when a verification makes a pioneer / then the accounts function may make its calls
    assert badges.service.enrol_pioneer("id-ana", NOW) == 1
    assert dynamodb_calls <= _grants("AccountsFunction")
    assert not refusals(Template(ROOT / "template.yaml"), "AccountsFunction", RAW_CALLS)
