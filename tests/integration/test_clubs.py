"""Clubs (C1-C5) on moto: founding with a unique name, entry by request and invitation, roles
that race safely, capacity, the treasury through the ledger; and the clubs function's routes."""

import copy
import json
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.dynamodb.responses import DynamoHandler
from yamb.clubs import rules
from yamb.clubs.board import main_board
from yamb.clubs.errors import ClubError
from yamb.clubs.messages import EditRequest, FoundRequest
from yamb.results.boards import Entry, ScoredGame
from yamb.results.facts import SheetFacts
from yamb.results.periods import month_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.clubs import wiring
from yamb_service.clubs.service import ClubsService
from yamb_service.common import clock
from yamb_service.common.observability import metrics
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.dynamo import DynamoPlayerRepository
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.social.blocks.dynamo import DynamoBlocks
from yamb_service.social.blocks.ports import Block

from tests.integration.conftest import load_event
from tests.integration.test_handlers import CONTEXT, load_function
from tests.integration.test_players import People

NOW = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)


class Clubs:
    """Accounts on the table, their wallets, the clubs' service."""

    def __init__(self, item: Any) -> None:
        self.people = People(item)
        self.wallets = DynamoWalletStore(item)
        self.players = DynamoPlayerRepository(item)
        self.blocks = DynamoBlocks(item)
        self.service: ClubsService = wiring.clubs_on(item)
        self._grants = 0

    def add(self, nickname: str, *, tokens: int = 0, premium: bool = False) -> str:
        player_id = self.people.add(nickname)
        if tokens:
            self._grants += 1
            self.wallets.change(f"grant:{self._grants}", [Change(player_id, tokens, "grant")], NOW)
        if premium:
            self.players.grant_premium(player_id, NOW + timedelta(days=30))
        return player_id

    def found(self, admin: str, name: str, **more: Any) -> str:
        asked = FoundRequest(name=name, tag=more.pop("tag", "DK"), **more)
        return self.service.found(admin, asked).club.club_id

    def balance(self, owner: str) -> int:
        return self.wallets.wallet(owner).balance


@pytest.fixture(autouse=True)
def _one_request_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """DynamoDB applies each request atomically; moto's in-process backend does not under
    threads (tests/integration/test_wallet.py)."""
    lock = threading.Lock()
    original = DynamoHandler.call_action

    def serialized(self: Any) -> Any:
        with lock:
            return original(self)

    monkeypatch.setattr(DynamoHandler, "call_action", serialized)


def _first_commit_after(clubs: "Clubs", monkeypatch: pytest.MonkeyPatch, other: Any) -> None:
    """`other` runs (and writes) between the next change's reads and its commit: the race
    the conditions on the state read must lose cleanly."""
    real = clubs.service.store.commit
    pending = [other]

    def racing(parts: Any) -> None:
        if pending:
            pending.pop()()
        real(parts)

    monkeypatch.setattr(clubs.service.store, "commit", racing)


@pytest.fixture
def clubs(table: str, item: Any, monkeypatch: pytest.MonkeyPatch) -> Clubs:
    monkeypatch.setattr(clock, "clock", lambda: NOW)
    return Clubs(item)


def _refused(code: str, call: Any, *args: Any, **kwargs: Any) -> ClubError:
    with pytest.raises(ClubError) as refused:
        call(*args, **kwargs)
    assert refused.value.code == code, refused.value
    return refused.value


# ---------------------------------------------------------------------- founding (C1)


def test_a_club_is_founded_free_with_its_founder_as_admin(clubs: Clubs) -> None:
    # Given a player with no tokens
    ana = clubs.add("ana")
    # When she founds a club
    view = clubs.service.found(
        ana,
        FoundRequest(
            name="  Dice   Kings ",
            tag="DK",
            colours={"text": "#FFFFFF", "background": "#112233"},
            description="We roll.",
        ),
    )
    # Then it is hers, with its name cleaned and one member, and it costs nothing
    assert view.club.name == "Dice Kings"
    assert view.club.tag.background == "#112233"
    assert (view.you, view.admin, view.club.members, view.club.capacity) == ("admin", "ana", 1, 30)
    assert clubs.balance(ana) == 0
    mine = clubs.service.mine(ana)
    assert [(m.name, m.role) for m in mine.clubs] == [("Dice Kings", "admin")]
    # And the list finds it by its first letters, whatever their case
    assert [row.name for row in clubs.service.page(ana, prefix="dICE").clubs] == ["Dice Kings"]


@pytest.mark.parametrize(
    "name",
    # Cyrillic e and K: the look-alikes; a capital I drawn as a small l
    ["dice kings", "DICEKINGS", "Dic\u0435 Kings", "Dice  \u041aings", "DlCE KlNGS"],
)
def test_a_name_is_unique_whatever_the_case_spaces_and_look_alike_letters(
    clubs: Clubs, name: str
) -> None:
    clubs.found(clubs.add("ana"), "Dice Kings")
    bo = clubs.add("bo")
    _refused("club_name_taken", clubs.found, bo, name)
    # And nothing of bo's was written
    assert clubs.service.mine(bo).clubs == []


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"tag": "ABCDE"}, "club_tag_invalid"),
        ({"tag": "A"}, "club_tag_invalid"),
        ({"tag": "D K"}, "club_tag_invalid"),
        ({"name": "ab"}, "club_name_invalid"),
        ({"name": "x" * 25}, "club_name_invalid"),
        ({"name": "ShitHeads"}, "club_name_indecent"),
        ({"description": "d" * 301}, "club_description_invalid"),
        ({"colours": {"text": "white", "background": "#000000"}}, "club_colour_invalid"),
        ({"avatar": "own"}, "club_avatar_invalid"),
    ],
)
def test_a_founding_with_a_bad_field_is_refused_and_writes_nothing(
    clubs: Clubs, fields: dict[str, Any], code: str
) -> None:
    ana = clubs.add("ana")
    asked = {"name": "Dice Kings", "tag": "DK", **fields}
    _refused(code, clubs.service.found, ana, FoundRequest(**asked))
    assert clubs.service.mine(ana).clubs == []
    assert clubs.service.page(ana).clubs == []


def test_one_club_without_premium_three_with_it_and_admin_of_one(clubs: Clubs) -> None:
    ana, cleo = clubs.add("ana"), clubs.add("cleo", premium=True)
    first = clubs.found(ana, "First")
    # A player without premium is in one club at most
    clubs.found(clubs.add("bo"), "Second")
    _refused(
        "club_limit", clubs.service.join, ana, clubs.service.page(ana, "Second").clubs[0].club_id
    )
    # With premium, three; but admin of one only
    clubs.found(cleo, "Third")
    _refused("admin_limit", clubs.found, cleo, "Fourth")
    clubs.service.join(cleo, first)
    clubs.service.join(cleo, clubs.service.page(cleo, "Second").clubs[0].club_id)
    assert clubs.service.mine(cleo).allowed == 3
    assert len(clubs.service.mine(cleo).clubs) == 3
    fifth = clubs.found(clubs.add("dora"), "Fifth")
    _refused("club_limit", clubs.service.join, cleo, fifth)


def test_the_order_of_a_players_clubs_makes_the_first_the_main_one(clubs: Clubs) -> None:
    cleo = clubs.add("cleo", premium=True)
    mine = clubs.found(cleo, "Mine")
    other = clubs.found(clubs.add("bo"), "Other")
    clubs.service.join(cleo, other)
    assert [m.club_id for m in clubs.service.mine(cleo).clubs] == [mine, other]
    # When she puts the other first
    ordered = clubs.service.order(cleo, [other, mine])
    # Then it is her main club
    assert [m.club_id for m in ordered.clubs] == [other, mine]
    # And an order that is not her clubs is refused
    _refused("bad_request", clubs.service.order, cleo, [other])


# ---------------------------------------------------------------------- entry (C2)


def test_an_open_club_is_joined_at_once_one_by_approval_on_a_deputys_yes(clubs: Clubs) -> None:
    ana, bo, cleo, dora = (clubs.add(n) for n in ("ana", "bo", "cleo", "dora"))
    club = clubs.found(ana, "Approvers", entry="approval")
    # A player asks with a short message: not a member yet
    asked = clubs.service.join(bo, club, "let me in please")
    assert asked.outcome == "requested"
    assert clubs.service.view(bo, club).requested
    _refused("request_pending", clubs.service.join, bo, club)
    # The admin sees the request, makes cleo (invited) a deputy, and she decides
    clubs.service.invite(ana, club, "cleo")
    assert clubs.service.join(cleo, club).outcome == "joined"  # an invitation opens the door
    clubs.service.set_role(ana, club, "cleo", "deputy")
    assert [r.message for r in clubs.service.view(cleo, club).requests] == ["let me in please"]
    view = clubs.service.decide(cleo, club, "bo", accept=True)
    assert sorted(m.nickname for m in view.members) == ["ana", "bo", "cleo"]
    assert view.requests == []
    # A request refused goes; a member cannot decide
    clubs.service.join(dora, club)
    _refused("not_allowed", clubs.service.decide, bo, club, "dora", accept=True)
    clubs.service.decide(cleo, club, "dora", accept=False)
    _refused("no_request", clubs.service.decide, cleo, club, "dora", accept=True)
    assert clubs.service.mine(dora).clubs == []


def test_a_request_taken_back_while_it_is_accepted_is_not_granted(
    clubs: Clubs, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bo = clubs.add("ana"), clubs.add("bo")
    club = clubs.found(ana, "Fickle", entry="approval")
    clubs.service.join(bo, club, "maybe")
    # When bo takes his request back between the admin's reads and her write
    _first_commit_after(clubs, monkeypatch, lambda: clubs.service.withdraw(bo, club))
    # Then her yes finds no request, and bo is not a member
    _refused("no_request", clubs.service.decide, ana, club, "bo", accept=True)
    assert clubs.service.mine(bo).clubs == []
    assert clubs.service.view(ana, club).club.members == 1


def test_an_invitation_waits_for_an_offline_player_and_yes_joins(clubs: Clubs) -> None:
    ana, bo = clubs.add("ana"), clubs.add("bo")
    club = clubs.found(ana, "Inviters", entry="approval")
    # When ana invites bo (never connected)
    clubs.service.invite(ana, club, "bo")
    _refused("invitation_pending", clubs.service.invite, ana, club, "bo")
    # Then it is his at his next login, and his yes seats him
    waiting = clubs.service.mine(bo).invitations
    assert [(i.name, i.by) for i in waiting] == [("Inviters", "ana")]
    answered = clubs.service.answer(bo, club, accept=True)
    assert [m.name for m in answered.clubs] == ["Inviters"]
    assert answered.invitations == []
    _refused("no_invitation", clubs.service.answer, bo, club, accept=True)
    _refused("already_member", clubs.service.invite, ana, club, "bo")


def test_a_blocked_or_unknown_player_is_not_invited_and_a_no_leaves_no_trace(
    clubs: Clubs,
) -> None:
    ana, bo, cleo = clubs.add("ana"), clubs.add("bo"), clubs.add("cleo")
    club = clubs.found(ana, "Inviters")
    clubs.blocks.add(Block(owner=bo, other=ana, since=NOW))
    _refused("blocked", clubs.service.invite, ana, club, "bo")
    _refused("unknown_player", clubs.service.invite, ana, club, "nobody")
    clubs.service.invite(ana, club, "cleo")
    assert clubs.service.answer(cleo, club, accept=False).clubs == []
    assert clubs.service.mine(cleo).invitations == []


def test_a_full_club_drops_its_requests_and_cannot_invite(clubs: Clubs) -> None:
    ana = clubs.add("ana")
    club = clubs.found(ana, "Crowded", entry="approval")
    waiting = clubs.add("waiting")
    clubs.service.join(waiting, club, "hi")
    for n in range(rules.BASE_CAPACITY - 1):
        clubs.service.invite(ana, club, f"p{n:02d}" if clubs.add(f"p{n:02d}") else "")
        clubs.service.answer(clubs.people.ids[f"p{n:02d}"], club, accept=True)
    view = clubs.service.view(ana, club)
    assert view.club.members == 30
    # Then the request waiting is gone, and no one more can be invited or ask
    assert view.requests == []
    assert not clubs.service.view(waiting, club).requested
    clubs.add("late")
    _refused("club_full", clubs.service.invite, ana, club, "late")
    _refused("club_full", clubs.service.join, clubs.people.ids["late"], club)


def test_a_31st_member_racing_into_a_full_club_is_refused_and_only_one_gets_in(
    clubs: Clubs, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given an open club of 29
    ana = clubs.add("ana")
    club = clubs.found(ana, "Racers")
    for n in range(rules.BASE_CAPACITY - 2):
        clubs.service.join(clubs.add(f"p{n:02d}"), club)
    first, second = clubs.add("first"), clubs.add("second")
    # When the second takes the last seat between the first one's reads and his write
    _first_commit_after(clubs, monkeypatch, lambda: clubs.service.join(second, club))
    # Then the first is told the club is full, and the count is right
    _refused("club_full", clubs.service.join, first, club)
    view = clubs.service.view(ana, club)
    assert view.club.members == len(view.members) == 30
    assert clubs.service.mine(first).clubs == []
    assert [m.club_id for m in clubs.service.mine(second).clubs] == [club]


# ---------------------------------------------------------------------- roles (C3)


def test_deputies_kick_members_never_deputies_and_their_number_follows_the_size(
    clubs: Clubs,
) -> None:
    ana = clubs.add("ana")
    club = clubs.found(ana, "Roles")
    for n in range(18):
        clubs.service.join(clubs.add(f"p{n:02d}"), club)
    # 19 members: one deputy
    clubs.service.set_role(ana, club, "p00", "deputy")
    _refused("deputy_limit", clubs.service.set_role, ana, club, "p01", "deputy")
    # 20 members: two
    clubs.service.join(clubs.add("p18"), club)
    clubs.service.set_role(ana, club, "p01", "deputy")
    deputy = clubs.people.ids["p00"]
    # A deputy kicks a member, not a deputy nor the admin; a member kicks no one
    clubs.service.kick(deputy, club, "p05")
    _refused("not_allowed", clubs.service.kick, deputy, club, "p01")
    _refused("not_allowed", clubs.service.kick, deputy, club, "ana")
    _refused("not_allowed", clubs.service.kick, clubs.people.ids["p06"], club, "p07")
    # Only the admin appoints
    _refused("not_allowed", clubs.service.set_role, deputy, club, "p06", "deputy")
    # The admin kicks a deputy, and the deputies' count follows
    view = clubs.service.kick(ana, club, "p01")
    assert view.deputies == 1
    assert view.club.members == 18
    assert clubs.service.mine(clubs.people.ids["p05"]).clubs == []


def test_a_deputy_never_kicks_one_made_deputy_while_the_kick_is_written(
    clubs: Clubs, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = clubs.add("ana")
    club = clubs.found(ana, "Quick")
    for n in range(19):
        clubs.service.join(clubs.add(f"p{n:02d}"), club)
    clubs.service.set_role(ana, club, "p00", "deputy")
    # When the admin makes p01 a deputy between p00's reads and the kick's write
    _first_commit_after(
        clubs, monkeypatch, lambda: clubs.service.set_role(ana, club, "p01", "deputy")
    )
    # Then the kick is refused, and p01 is still there, a deputy
    _refused("not_allowed", clubs.service.kick, clubs.people.ids["p00"], club, "p01")
    roles = {m.nickname: m.role for m in clubs.service.view(ana, club).members}
    assert (roles["p01"], len(roles)) == ("deputy", 20)


def test_the_admin_hands_over_before_leaving_and_two_admins_never_exist(
    clubs: Clubs, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bo, cleo = clubs.add("ana"), clubs.add("bo"), clubs.add("cleo")
    club = clubs.found(ana, "Heirs")
    clubs.service.join(bo, club)
    clubs.service.join(cleo, club)
    _refused("admin_cannot_leave", clubs.service.leave, ana, club)
    # When ana hands the club to cleo while her hand-over to bo is being written
    _first_commit_after(clubs, monkeypatch, lambda: clubs.service.hand_over(ana, club, "cleo"))
    # Then the second hand-over is refused: she is no longer the admin
    _refused("not_allowed", clubs.service.hand_over, ana, club, "bo")
    view = clubs.service.view(ana, club)
    admins = [m.nickname for m in view.members if m.role == "admin"]
    assert admins == [view.admin] == ["cleo"]
    assert view.you == "member"
    heir = clubs.people.ids[admins[0]]
    assert [m.role for m in clubs.service.mine(heir).clubs] == ["admin"]
    # And ana may leave now
    assert clubs.service.leave(ana, club).clubs == []


def test_the_admin_of_another_club_cannot_be_handed_a_second(clubs: Clubs) -> None:
    ana, cleo = clubs.add("ana"), clubs.add("cleo", premium=True)
    club = clubs.found(ana, "One")
    clubs.found(cleo, "Two")
    clubs.service.join(cleo, club)
    _refused("admin_limit", clubs.service.hand_over, ana, club, "cleo")
    assert clubs.service.view(ana, club).you == "admin"


def test_the_admin_closes_the_club_once_alone_and_its_name_is_free(clubs: Clubs) -> None:
    ana, bo = clubs.add("ana"), clubs.add("bo")
    club = clubs.found(ana, "Brief")
    clubs.service.join(bo, club)
    _refused("not_allowed", clubs.service.close, bo, club)
    _refused("club_not_empty", clubs.service.close, ana, club)
    clubs.service.kick(ana, club, "bo")
    assert clubs.service.close(ana, club).clubs == []
    _refused("unknown_club", clubs.service.view, ana, club)
    assert clubs.service.page(ana).clubs == []
    clubs.found(bo, "Brief")


# ---------------------------------------------------------------------- treasury (C4, C5)


def test_a_donation_is_a_ledger_entry_on_both_sides_once_per_key(clubs: Clubs) -> None:
    ana, bo = clubs.add("ana", tokens=100), clubs.add("bo", tokens=50)
    club = clubs.found(ana, "Savers")
    treasury = rules.treasury_owner(club)
    # Too small, a non-member's, more than the balance: refused, nothing moves
    _refused("donation_too_small", clubs.service.donate, ana, club, 9, "k0")
    _refused("not_a_member", clubs.service.donate, bo, club, 10, "k1")
    _refused("not_enough_tokens", clubs.service.donate, ana, club, 101, "k2")
    assert (clubs.balance(ana), clubs.balance(treasury)) == (100, 0)
    # When ana gives 40, and the same request comes again
    given = clubs.service.donate(ana, club, 40, "k3")
    again = clubs.service.donate(ana, club, 40, "k3")
    # Then 40 moved once, with an entry on each side
    assert (given.treasury, again.entry.seq) == (40, given.entry.seq)
    assert (clubs.balance(ana), clubs.balance(treasury)) == (60, 40)
    (credit,) = clubs.wallets.entries(treasury, 10)
    assert (credit.reason, credit.amount, credit.counterparty) == ("club_donation", 40, ana)
    debit = clubs.wallets.entries(ana, 1)[0]
    assert (debit.reason, debit.amount, debit.counterparty) == ("club_donation", -40, treasury)
    # And the donors and the treasury are members' reading only
    clubs.service.join(bo, club)
    clubs.service.donate(bo, club, 25, "k4")
    view = clubs.service.view(bo, club)
    assert {m.nickname: m.donated for m in view.members} == {"ana": 40, "bo": 25}
    assert view.treasury == 65
    outsider = clubs.add("cleo")
    stranger = clubs.service.view(outsider, club)
    assert stranger.treasury is None
    assert {m.donated for m in stranger.members} == {0}
    _refused("not_a_member", clubs.service.treasury, outsider, club)
    assert [e.amount for e in clubs.service.treasury(bo, club).history] == [25, 40]


def test_levels_renames_and_the_own_avatar_are_paid_from_the_treasury(clubs: Clubs) -> None:
    ana = clubs.add("ana", tokens=5_000)
    club = clubs.found(ana, "Spenders")
    treasury = rules.treasury_owner(club)
    # Too little in the treasury: refused, nothing changes
    clubs.service.donate(ana, club, 100, "d1")
    _refused("treasury_too_low", clubs.service.raise_level, ana, club)
    assert clubs.service.view(ana, club).club.level == 0
    clubs.service.donate(ana, club, 2_900, "d2")
    # A level: 5 seats more, priced as the rules say
    view = clubs.service.raise_level(ana, club)
    assert (view.club.level, view.club.capacity) == (1, 35)
    assert clubs.balance(treasury) == 3_000 - rules.level_price(1)
    # Renames, each twice the one before
    before = clubs.balance(treasury)
    clubs.service.rename(ana, club, "Big Spenders")
    clubs.service.rename(ana, club, "Bigger Spenders")
    assert before - clubs.balance(treasury) == rules.FIRST_RENAME_PRICE * 3
    assert clubs.service.view(ana, club).next_rename_price == rules.FIRST_RENAME_PRICE * 4
    # The old name is free again, the new one taken
    clubs.found(clubs.add("bo"), "Spenders")
    _refused("club_name_taken", clubs.found, clubs.add("cleo"), "bigger spenders")
    # The own avatar, once
    left = clubs.balance(treasury)
    view = clubs.service.buy_avatar(ana, club)
    assert (view.club.avatar, view.owns_avatar) == ("own", True)
    clubs.service.edit(ana, club, EditRequest(avatar="dice"))
    clubs.service.buy_avatar(ana, club)
    assert left - clubs.balance(treasury) == rules.OWN_AVATAR_PRICE
    reasons = [e.reason for e in clubs.wallets.entries(treasury, 10)]
    assert reasons.count("club_rename") == 2
    assert reasons.count("club_level") == 1
    assert reasons.count("club_avatar") == 1


def test_a_rename_with_too_little_or_to_a_taken_name_changes_nothing(clubs: Clubs) -> None:
    ana = clubs.add("ana", tokens=1_000)
    club = clubs.found(ana, "Stay")
    clubs.found(clubs.add("bo"), "Taken")
    _refused("treasury_too_low", clubs.service.rename, ana, club, "Moved")
    clubs.service.donate(ana, club, 1_000, "d")
    _refused("club_name_taken", clubs.service.rename, ana, club, "TAKEN")
    view = clubs.service.view(ana, club)
    assert (view.club.name, view.renames, view.treasury) == ("Stay", 0, 1_000)
    # And "Moved" was never taken by the refused rename
    clubs.found(clubs.add("cleo"), "Moved")


def test_a_level_is_bought_once_when_two_deputies_press_at_once(clubs: Clubs) -> None:
    ana = clubs.add("ana", tokens=10_000)
    club = clubs.found(ana, "Twice")
    clubs.service.donate(ana, club, 10_000, "d")
    results: list[str] = []

    def buy() -> None:
        try:
            results.append(str(clubs.service.raise_level(ana, club).club.level))
        except Exception as error:
            results.append(type(error).__name__)

    threads = [threading.Thread(target=buy) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Each press bought one level at most: the treasury paid exactly for the levels reached
    level = clubs.service.view(ana, club).club.level
    paid = sum(rules.level_price(n) for n in range(1, level + 1))
    assert 1 <= level <= 2
    assert clubs.balance(rules.treasury_owner(club)) == 10_000 - paid


def test_the_last_level_is_refused(clubs: Clubs) -> None:
    ana = clubs.add("ana", tokens=1_000_000)
    club = clubs.found(ana, "Tall")
    clubs.service.donate(ana, club, 1_000_000, "d")
    for _ in range(rules.MAX_LEVEL):
        view = clubs.service.raise_level(ana, club)
    assert view.club.capacity == rules.MAX_CAPACITY
    assert view.next_level_price is None
    _refused("max_level", clubs.service.raise_level, ana, club)


# ---------------------------------------------------------------------- the function's routes


@pytest.fixture
def function(clubs: Clubs, table: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    for name, value in {
        "TABLE_NAME": table,
        "AWS_REGION": "us-east-1",
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(metrics.provider, "namespace", metrics.provider.namespace or "YambTest")
    wiring.forget()
    yield load_function("clubs")
    wiring.forget()


def _request(
    route: str, path: str, player: str, body: Any = None, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    event = copy.deepcopy(load_event("clubs.json"))
    method = route.split(" ", 1)[0]
    event["routeKey"] = event["requestContext"]["routeKey"] = route
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["requestContext"]["http"]["method"] = method
    event["requestContext"]["authorizer"]["lambda"]["playerId"] = player
    template, actual = route.split(" ", 1)[1].split("/"), path.split("/")
    event["pathParameters"] = {
        part[1:-1]: value for part, value in zip(template, actual, strict=True) if part[:1] == "{"
    }
    event["queryStringParameters"] = {}
    event["rawQueryString"] = ""
    event["body"] = None if body is None else json.dumps(body)
    event["headers"].update(headers or {})
    return event


def test_the_sample_event_founds_a_club_over_http(function: Any, clubs: Clubs) -> None:
    event = load_event("clubs.json")
    event["requestContext"]["authorizer"]["lambda"]["playerId"] = clubs.add("ana")
    reply = function.handler(event, CONTEXT)
    assert reply["statusCode"] == 201, reply["body"]
    assert json.loads(reply["body"])["club"]["name"] == "Dice Kings"


def test_the_routes_answer_and_refuse_as_documented(function: Any, clubs: Clubs) -> None:
    ana, bo = clubs.add("ana", tokens=100), clubs.add("bo")

    def call(route: str, path: str, player: str, body: Any = None, **headers: str) -> Any:
        reply = function.handler(_request(route, path, player, body, headers), CONTEXT)
        return reply["statusCode"], json.loads(reply["body"])

    status, founded = call("POST /clubs", "/clubs", ana, {"name": "Routes", "tag": "RT"})
    assert status == 201
    club = founded["club"]["clubId"]
    assert (
        call("POST /clubs", "/clubs", bo, {"name": "routes", "tag": "RT"})[1]["error"]["code"]
        == "club_name_taken"
    )
    assert call("POST /clubs", "/clubs", bo, {"name": "Other", "tag": "ABCDE"})[0] == 400
    assert call("POST /clubs/{clubId}/join", f"/clubs/{club}/join", bo)[1]["outcome"] == "joined"
    assert call("GET /me/clubs", "/me/clubs", bo)[1]["clubs"][0]["tag"]["tag"] == "RT"
    assert call("GET /clubs/{clubId}", "/clubs/nope", bo)[0] == 404
    no_key = call("POST /clubs/{clubId}/donations", f"/clubs/{club}/donations", ana, {"amount": 10})
    assert (no_key[0], no_key[1]["error"]["field"]) == (400, "Idempotency-Key")
    path = f"/clubs/{club}/donations"
    donated = call(
        "POST /clubs/{clubId}/donations", path, ana, {"amount": 10}, **{"idempotency-key": "x1"}
    )
    assert (donated[0], donated[1]["treasury"]) == (201, 10)
    low = call("POST /clubs/{clubId}/level", f"/clubs/{club}/level", ana)
    assert (low[0], low[1]["error"]["code"]) == (409, "treasury_too_low")
    kicked = call("DELETE /clubs/{clubId}/members/{nickname}", f"/clubs/{club}/members/ana", bo)
    assert (kicked[0], kicked[1]["error"]["code"]) == (403, "not_allowed")
    assert call("DELETE /me/clubs/{clubId}", f"/me/clubs/{club}", bo)[1]["clubs"] == []


# ---------------------------------------------------------------------- club board (C7)

NOVEMBER = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def _main_row(item: Any, player_id: str, score: int, when: datetime = NOW) -> None:
    """The player's row on the month's main board, as the results' recorder writes it."""
    store = DynamoResultsStore(item)
    board = main_board(month_of(when))
    before = store.rows(board, [player_id]).get(player_id)
    game = ScoredGame(game_id=f"g-{player_id[:8]}-{score}", score=score, at=when, preset=1)
    after = Entry(entrant=player_id, players=[player_id], score=score, games=[game], since=when)
    assert store.write_row(board, before, after) == "written"


def _ranked_result(*players: str, ranked: bool = True) -> GameResult:
    """A finished ranked game of `players` (preset 1, full sheets): it enters the boards."""
    return GameResult(
        game_id=f"g-{'-'.join(p[:4] for p in players)}",
        settings=GameSettings(ranked=ranked, preset=1, players=len(players), turn_seconds=60),
        ended_at=NOW,
        winners=[players[0]],
        players=[
            PlayerResult(
                player_id=player,
                total=500 - index,
                full=True,
                left=False,
                turns=26,
                facts=SheetFacts(columns=2, bonuses=1, cells=26, crossed=2, yamb_cells=2, yambs=1),
            )
            for index, player in enumerate(players)
        ],
        outcome="completed",
        recorded=True,
    )


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The clock, settable: `moment[0] = ...`."""
    now = [NOW]
    monkeypatch.setattr(clock, "clock", lambda: now[0])
    return now


def test_the_club_score_sums_the_main_board_of_members_who_joined_before_the_month(
    clubs: Clubs, item: Any, moment: list[datetime]
) -> None:
    # given a club founded in November with two members, and a third who joins in December
    moment[0] = NOVEMBER
    ana, bo, cleo = clubs.add("ana"), clubs.add("bo"), clubs.add("cleo")
    club = clubs.found(ana, "Scorers")
    clubs.service.join(bo, club)
    moment[0] = NOW
    clubs.service.join(cleo, club)
    # when each has a main-board row in December and the club is scored
    for player, score in ((ana, 1_200), (bo, 900), (cleo, 2_000)):
        _main_row(item, player, score)
    board = wiring.board_on(item)
    scored = board.recompute(club)
    # then December counts ana and bo, not cleo who joined during it
    assert (scored.score, scored.counted) == (2_100, 2)
    # and the board lists it
    view = board.board("2026-12")
    assert [(row.club.name, row.score, row.place) for row in view.rows] == [("Scorers", 2_100, 1)]
    # when bo leaves, his points go at once
    clubs.service.leave(bo, club)
    assert [row.score for row in board.board("month").rows] == [1_200]


def test_the_club_board_orders_clubs_best_first_with_shared_places(
    clubs: Clubs, item: Any, moment: list[datetime]
) -> None:
    moment[0] = NOVEMBER
    scores = {"Alpha": 500, "Bravo": 1_500, "Charlie": 500, "Delta": 0}
    founders = {name: clubs.add(f"f-{name.lower()}") for name in scores}
    club_ids = {name: clubs.found(founders[name], name) for name in scores}
    board = wiring.board_on(item)
    for minute, (name, score) in enumerate(scores.items()):
        moment[0] = NOW + timedelta(minutes=minute)
        if score:
            _main_row(item, founders[name], score)
        board.recompute(club_ids[name])
    # then best first; of equal scores the one reached first (Alpha) shows first
    view = board.board()
    assert [(row.club.name, row.score, row.place) for row in view.rows] == [
        ("Bravo", 1_500, 1),
        ("Alpha", 500, 2),
        ("Charlie", 500, 2),
        ("Delta", 0, 4),
    ]
    with pytest.raises(ClubError) as refused:
        board.board("2026-W49")
    assert refused.value.field == "period"


def test_a_result_scores_its_players_clubs_again_through_the_results_path(
    clubs: Clubs, item: Any, moment: list[datetime], monkeypatch: pytest.MonkeyPatch
) -> None:
    # given ana's club of November
    moment[0] = NOVEMBER
    ana = clubs.add("ana")
    clubs.found(ana, "Recorded")
    moment[0] = NOW
    board = wiring.board_on(item)
    # when her main-board row changes and a ranked result of hers is handed on
    _main_row(item, ana, 1_000)
    result = _ranked_result(ana, clubs.add("bo"))
    assert board.after_result(result) == 1
    # then her club's score follows her row
    assert [row.score for row in board.board().rows] == [1_000]
    # and a result that enters no board scores nothing again
    assert board.after_result(_ranked_result(ana, clubs.people.ids["bo"], ranked=False)) == 0


# ---------------------------------------------------------------------- dormancy (C8)


def test_premium_ending_turns_the_extra_clubs_dormant_and_renewal_restores_them(
    clubs: Clubs, item: Any, moment: list[datetime]
) -> None:
    # given cleo, with premium, in three clubs of November: her own, then two others
    moment[0] = NOVEMBER
    cleo = clubs.add("cleo", premium=True)
    clubs.players.grant_premium(cleo, NOVEMBER + timedelta(days=10))
    own = clubs.found(cleo, "Hers")
    first, second = clubs.found(clubs.add("a1"), "First"), clubs.found(clubs.add("a2"), "Second")
    clubs.service.join(cleo, first)
    clubs.service.join(cleo, second)
    clubs.service.order(cleo, [first, own, second])
    for club in (first, second):
        _main_row(item, clubs.people.ids["a1" if club == first else "a2"], 100, NOW)
    _main_row(item, cleo, 1_000, NOW)
    moment[0] = NOW
    for club in (own, first, second):
        wiring.board_on(item).recompute(club)
    # when her premium has ended (December) and the daily job runs
    changed = wiring.clubs_on(item, lambda: NOW).settle_all()
    # then the club beyond the first that she does not run is dormant, and its points go
    assert changed == 1
    mine = {m.club_id: m.dormant for m in clubs.service.mine(cleo).clubs}
    assert mine == {first: False, own: False, second: True}
    assert {m.nickname: m.role for m in clubs.service.view(cleo, second).members}["cleo"]
    board = {row.club.club_id: row.score for row in wiring.board_on(item).board().rows}
    assert (board[first], board[second]) == (1_100, 100)
    # and a run again changes nothing
    assert wiring.clubs_on(item, lambda: NOW).settle_all() == 0
    # when she renews, and signs in (her clubs are read)
    clubs.players.grant_premium(cleo, NOW + timedelta(days=30))
    renewed = clubs.service.mine(cleo)
    # then every membership is live again, and counts
    assert [m.dormant for m in renewed.clubs] == [False, False, False]
    board = {row.club.club_id: row.score for row in wiring.board_on(item).board().rows}
    assert board[second] == 1_100


def test_the_daily_job_runs_as_of_its_chosen_now(
    clubs: Clubs, item: Any, table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "TABLE_NAME": table,
        "AWS_REGION": "us-east-1",
        "POWERTOOLS_METRICS_NAMESPACE": "YambTest",
        "POWERTOOLS_SERVICE_NAME": "yamb",
    }.items():
        monkeypatch.setenv(name, value)
    wiring.forget()
    cleo = clubs.add("cleo", premium=True)
    clubs.found(cleo, "Hers")
    clubs.service.join(cleo, clubs.found(clubs.add("bo"), "Other"))
    jobs = load_function("clubs_jobs")
    later = (NOW + timedelta(days=40)).isoformat()
    assert jobs.handler({"job": "dormancy", "now": later}, CONTEXT)["changed"] == 1
    assert jobs.handler({"job": "dormancy", "now": later}, CONTEXT)["changed"] == 0
    wiring.forget()


# ---------------------------------------------------------------------- weekly tasks (E6)


def test_a_game_with_a_club_mate_counts_for_the_club_group_task(
    clubs: Clubs, item: Any, moment: list[datetime]
) -> None:
    from yamb.progression.tasks import catalogue
    from yamb.results.periods import week_of
    from yamb_service.progression.wiring import tasks_on

    # given ana and ben in one club, cleo in none, in a week whose club task counts club games
    ana, ben, cleo = clubs.add("ana"), clubs.add("ben"), clubs.add("cleo")
    clubs.service.join(ben, clubs.found(ana, "Mates"))
    tasks = tasks_on(item)
    club_task = next(t for t in tasks.week_tasks(week_of(NOW)).tasks_for(False)
                     if t.group == "club")  # fmt: skip
    assert club_task.counter == "club_games" and club_task in catalogue().of("club")
    # when ana plays ben, then cleo
    tasks.record_game(_ranked_result(ana, ben))
    tasks.record_game(_ranked_result(ana, cleo))

    # then the club task counts one game for ana and ben, none for cleo
    def progress(player: str) -> int:
        return next(t.progress for t in tasks.view(player).tasks if t.id == club_task.id)

    assert (progress(ana), progress(ben), progress(cleo)) == (1, 1, 0)


def test_a_club_whose_members_claim_half_then_four_fifths_of_their_tasks_is_rewarded_once(
    clubs: Clubs, item: Any
) -> None:
    # given a club of 10 (its members' weeks of 5 tasks each: 50 tasks), and one of 9
    players = [clubs.add(f"m{n}") for n in range(10)]
    club = clubs.found(players[0], "Solvers")
    for player in players[1:]:
        clubs.service.join(player, club)
    small = [clubs.add(f"s{n}") for n in range(9)]
    little = clubs.found(small[0], "Few")
    for player in small[1:]:
        clubs.service.join(player, little)
    reward = wiring.reward_on(item, lambda: NOW)
    week = "2026-W50"
    claimed = _claimer(item)
    # when the members claim 24 tasks, then the 25th (half), then up to 40 (four fifths)
    paid: list[str] = []
    n = 0
    for player in players:
        for task in ("a", "b", "c", "d"):
            n += 1
            claimed(player, week, task)
            paid += reward.after_claim(player, week, 5)
            if n == 24:
                assert paid == []
            if n == 25:
                assert paid == [f"club:{club}:reward:{week}:50"]
    # then the treasury got both tiers, each once: 10 and 20 tokens a member
    assert paid == [f"club:{club}:reward:{week}:50", f"club:{club}:reward:{week}:80"]
    assert clubs.balance(rules.treasury_owner(club)) == 10 * 10 + 20 * 10
    assert reward.after_claim(players[0], week, 5) == []
    history = clubs.wallets.entries(rules.treasury_owner(club), 5)
    assert [(e.reason, e.detail) for e in history] == [
        ("club_reward", f"{week}:80"),
        ("club_reward", f"{week}:50"),
    ]
    # and the club of 9 gets nothing however much its members solve
    for player in small:
        for task in ("a", "b", "c", "d", "e"):
            claimed(player, week, task)
        assert reward.after_claim(player, week, 5) == []
    assert clubs.balance(rules.treasury_owner(little)) == 0


def _claimer(item: Any) -> Any:
    """Writes a player's claim of a task in a week as the tasks' claims do (the claimed set)."""
    from pynamodb.transactions import TransactWrite
    from yamb_service.common.dynamo import add_parts
    from yamb_service.progression.tasks.dynamo import DynamoTasksStore

    store = DynamoTasksStore(item)

    def claimed(player: str, week: str, task: str) -> None:
        part = store.claimed_part(player, week, task, NOW + timedelta(days=7))
        with TransactWrite(connection=item._get_connection().connection) as write:
            add_parts(write, [part])

    return claimed


# ---------------------------------------------------------------------- the tag beside a name (C1)


def test_the_main_clubs_tag_shows_in_the_players_list_the_boards_and_the_statistics(
    clubs: Clubs, item: Any
) -> None:
    from yamb_service.clubs.dynamo import DynamoClubStore
    from yamb_service.clubs.tags import ClubMates, MainTags
    from yamb_service.results.service import ResultsService
    from yamb_service.social import wiring as social_wiring

    # given ana in two clubs (her own second), ben in hers, cleo in none
    ana, ben, cleo = clubs.add("ana", premium=True), clubs.add("ben"), clubs.add("cleo")
    hers = clubs.found(ana, "Hers", tag="HR")
    other = clubs.found(clubs.add("dora"), "Other", tag="OT")
    clubs.service.join(ana, other)
    clubs.service.join(ben, hers)
    clubs.service.order(ana, [other, hers])
    for player, score in ((ana, 500), (ben, 400), (cleo, 300)):
        _main_row(item, player, score, NOW)
    store = DynamoClubStore(item)
    results = ResultsService(
        DynamoResultsStore(item), clubs.people.accounts, tags=MainTags(store),
        club_mates=ClubMates(store),
    )  # fmt: skip

    # when the players list, the month's main board (all, then her clubs) and her statistics
    # are read
    listed = {r.nickname: r.club for r in social_wiring.players_on(item).page(cleo).players}
    board = main_board(month_of(NOW))
    everyone = results.board(cleo, board, "all")
    among_clubs = results.board(ana, board, "clubs")
    stats = results.statistics("ana", ana)

    # then her tag is her main club's (the first of her list), ben's his club's, cleo none
    assert (listed["ana"].tag, listed["ben"].tag, listed["cleo"]) == ("OT", "HR", None)
    assert [(r.names, [t.tag if t else None for t in r.tags]) for r in everyone.rows] == [
        (["ana"], ["OT"]),
        (["ben"], ["HR"]),
        (["cleo"], [None]),
    ]
    # and the clubs kind ranks her among the members of her clubs: not cleo
    assert [r.names for r in among_clubs.rows] == [["ana"], ["ben"]]
    assert stats.club is not None and stats.club.club_id == other


def test_the_clubs_list_pages_through_a_search(
    clubs: Clubs, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yamb_service.clubs import service as clubs_service

    monkeypatch.setattr(clubs_service, "PAGE_SIZE", 2)
    for n, name in enumerate(("Dice A", "Dice B", "Dice C", "Dino", "Eagles")):
        clubs.found(clubs.add(f"f{n}"), name)
    reader = clubs.add("reader")
    first = clubs.service.page(reader, prefix="dice")
    second = clubs.service.page(reader, prefix="dice", after=first.next or "")
    assert [c.name for c in first.clubs] == ["Dice A", "Dice B"]
    assert ([c.name for c in second.clubs], second.next) == (["Dice C"], None)
    everyone = clubs.service.page(reader)
    rest = clubs.service.page(reader, after=everyone.next or "")
    assert [c.name for c in everyone.clubs + rest.clubs] == ["Dice A", "Dice B", "Dice C", "Dino"]
