"""Tournaments through their service on moto with the real game service (issue 32): entries
and their fees in the wallet, the job's runs (start, pairings and their tables, finish, prizes),
each game's end into the standings, and every bad input the issue names refused with nothing
paid twice. Games are played by the players' own actions at the tables the job made."""

import math
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from yamb.competition.standings import standings
from yamb.competition.tournaments import TournamentError, TournamentPlan
from yamb.fair_dice import commitment
from yamb.session.results import GameResult
from yamb_service.competition.tournament_dynamo import DynamoTournamentStore
from yamb_service.competition.tournaments import TournamentService
from yamb_service.economy.ports import Change
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.edge.caller import Caller
from yamb_service.game.tournament_tables import GameTables

ONE_COLUMN = {"columns": ["free"]}  # 13 turns a sheet: a quick game


def callers(*names: str) -> list[Caller]:
    return [Caller(name, f"conn-{name}", nickname=name.title()) for name in names]


class Tournaments:
    def __init__(self, harness: Any, item: Any) -> None:
        self.harness = harness
        self.item = item
        self.wallets = DynamoWalletStore(item)
        self.nudged: list[str] = []
        self.service = TournamentService(
            DynamoTournamentStore(item),
            self.wallets,
            lambda: GameTables(harness.service),
            nudge=self.nudged.append,
        )

    @property
    def now(self) -> Any:
        return self.harness.clock()

    def create(self, **fields: Any) -> str:
        plan = TournamentPlan.model_validate(
            {
                "name": "Test tournament",
                "starts_at": self.now + timedelta(minutes=10),
                "rules": ONE_COLUMN,
                "ranked": False,
                **fields,
            }
        )
        return self.service.create(plan, self.now).tournament_id

    def enter(self, tournament_id: str, *players: Caller) -> None:
        for player in players:
            self.service.enter(tournament_id, player.player_id, str(player.nickname), self.now)

    def run(self, tournament_id: str) -> Any:
        return self.service.run(self.now, tournament_id)

    def under_way(self, tournament_id: str) -> list[str]:
        state = self.service.state(tournament_id)
        return [g.game_id for g in state.games.values() if g.started and not g.ended]

    def finish(self, game_id: str, players: list[Caller], loser: str | None = None) -> None:
        """The game played to its end by its players' own writes (`loser` resigns at once)."""
        by_id = {p.player_id: p for p in players}
        if loser is not None:
            self.harness.ack(by_id[loser], self.harness.act(by_id[loser], "resign", gameId=game_id))
        while (session := self.harness.session(game_id)).status == "running":
            if session.finish_offer is not None:
                offered = by_id[session.finish_offer]
                self.harness.act(offered, "finish_sheet", gameId=game_id, accept=False)
                continue
            game = session.game()
            self.harness.write_any(by_id[game.players[game.seat]], game_id)
        # What the table's stream carries to the results function: the game's ENDED item.
        stored = self.item.get(f"GAME#{game_id}", "ENDED")
        ended = GameResult.model_validate_json(stored.body)
        assert ended.tournament is not None
        assert self.service.record(ended) is True
        assert self.service.record(ended) is False  # the stream's redelivery: once

    def give(self, player: Caller, tokens: int) -> None:
        grant = Change(player.player_id, tokens, "grant")
        self.wallets.change(f"grant:{player.player_id}", [grant], self.now)


@pytest.fixture
def tournaments(harness: Any, item: Any) -> Iterator[Tournaments]:
    yield Tournaments(harness, item)


def test_a_swiss_of_seven_plays_four_rounds_with_a_bye_each_and_pays_once(
    tournaments: Tournaments,
) -> None:
    # given seven connected players entered in a 4-round Swiss with prizes
    players = callers("ana", "ben", "cid", "dan", "eva", "fay", "gus")
    tournaments.harness.connect(*players)
    tid = tournaments.create(kind="swiss", rounds=4, prizes=[30, 20, 10])
    tournaments.enter(tid, *players)

    # when the job runs at the start, and after each round's games are played to their end
    tournaments.harness.advance(minutes=10)
    for round in range(1, 5):
        done = tournaments.run(tid)
        assert done.paired == 3, (round, done)
        games = tournaments.under_way(tid)
        assert len(games) == 3
        for game_id in games:
            tournaments.finish(game_id, players)
        # a run mid-round pairs nobody
    done = tournaments.run(tid)

    # then the tournament finished and was paid; nobody met anyone twice, four had a bye
    assert done.finished == [tid] and done.paid == [tid]
    state = tournaments.service.state(tid)
    assert state.tournament.status == "paid" and state.tournament.round == 4
    for entry in state.entries.values():
        assert len(entry.opponents) == len(set(entry.opponents)) == entry.games
        assert entry.byes <= 1
    assert sum(e.byes for e in state.entries.values()) == 4
    rows = standings("swiss", state.entries.values())
    paid = {p.player_id: tournaments.wallets.wallet(p.player_id).balance for p in players}
    assert sum(paid.values()) >= 60 and paid[rows[0].entry.player_id] >= 20
    # and paying again pays nothing
    again = tournaments.service.pay(tid, tournaments.now)
    assert again.paid == [] and again.repeated == sum(1 for v in paid.values() if v)
    assert {p.player_id: tournaments.wallets.wallet(p.player_id).balance for p in players} == paid


def test_an_arena_pairs_players_as_they_finish_and_stops_at_its_window_end(
    tournaments: Tournaments,
) -> None:
    # given four players in a 10-minute arena
    players = callers("ana", "ben", "cid", "dan")
    tournaments.harness.connect(*players)
    tid = tournaments.create(kind="arena", minutes=10, prizes=[10])
    tournaments.enter(tid, *players)
    tournaments.harness.advance(minutes=10)
    assert tournaments.run(tid).paired == 2

    # when one game ends (ana's opponent resigns) and the job runs
    first = tournaments.under_way(tid)
    session = tournaments.harness.session(first[0])
    seated = [s.player_id for s in session.seats]
    tournaments.finish(first[0], players, loser=seated[1])
    done = tournaments.run(tid)
    # then the job was asked to run it at once, and its two players are paired again (nobody
    # else is free, and each other was their last opponent, which an arena allows then)
    assert tournaments.nudged == [tid]
    assert done.paired == 1
    # and when the window ends with games under way, nothing more is paired; the arena ends
    # when the last game does
    tournaments.harness.advance(minutes=11)
    for game_id in tournaments.under_way(tid):
        tournaments.finish(game_id, players)
    done = tournaments.run(tid)
    assert done.paired == 0 and done.finished == [tid]
    # and the first place is paid its prize (shared, rounded up, when two tie on points and
    # totals: the one-column games' totals are often equal)
    state = tournaments.service.state(tid)
    first = [row.entry for row in standings("arena", state.entries.values()) if row.place == 1]
    balances = {tournaments.wallets.wallet(e.player_id).balance for e in first}
    assert balances == {math.ceil(10 / len(first))}


def test_a_duplicate_deals_every_entrant_the_same_dice(tournaments: Tournaments) -> None:
    # given three players in a duplicate tournament
    players = callers("ana", "ben", "cid")
    tournaments.harness.connect(*players)
    tid = tournaments.create(kind="duplicate", minutes=60, prizes=[5])
    tournaments.enter(tid, *players)
    tournaments.harness.advance(minutes=10)

    # when the job runs: each gets a game of their own
    assert tournaments.run(tid).paired == 3
    games = tournaments.under_way(tid)
    sessions = [tournaments.harness.session(g) for g in games]
    # then every game's seed is the tournament's deal and the first dice are the same
    assert len({s.fair.server_seed for s in sessions if s.fair}) == 1
    first_dice = {tuple(s.game().dice) for s in sessions}
    assert len(first_dice) == 1
    # and nobody may mix a seed of their own into a duplicate's dice
    owner = next(p for p in players if p.player_id == sessions[0].seats[0].player_id)
    refused = tournaments.harness.act(owner, "add_seed", gameId=games[0], seed="mine")
    assert tournaments.harness.error(owner, refused)["code"] in ("not_allowed", "wrong_status")
    # and the tournament's seed, revealed at its end, gives every game's commitment
    for game_id in games:
        tournaments.finish(game_id, players)
    tournaments.harness.advance(minutes=60)
    assert tournaments.run(tid).finished == [tid]
    state = tournaments.service.state(tid)
    from yamb.competition.tournaments import DEAL, game_seed

    dealt = game_seed(state.tournament.seed, DEAL)
    assert all(s.fair and s.fair.commitment == commitment(dealt) for s in sessions)
    assert commitment(state.tournament.seed) == state.tournament.commitment


def test_bad_entries_and_payouts_are_refused_with_nothing_taken_twice(
    tournaments: Tournaments,
) -> None:
    # given a Swiss with a 30-token fee; ana has 50 tokens, ben none
    ana, ben, cid = callers("ana", "ben", "cid")
    tournaments.harness.connect(ana, ben, cid)
    tid = tournaments.create(kind="swiss", rounds=2, entry_fee=30, prizes=[40])
    tournaments.give(ana, 50)
    tournaments.give(cid, 30)
    tournaments.enter(tid, ana)

    def refusal(player: Caller) -> str:
        with pytest.raises(TournamentError) as refused:
            tournaments.enter(tid, player)
        return refused.value.code

    # when ana enters twice, and ben without the tokens: refused, ana paid once
    assert refusal(ana) == "already_entered"
    assert tournaments.wallets.wallet(ana.player_id).balance == 20
    assert refusal(ben) == "not_enough_tokens"
    tournaments.enter(tid, cid)
    # and a payout before it is over is refused
    with pytest.raises(TournamentError) as running:
        tournaments.service.pay(tid, tournaments.now)
    assert running.value.code == "tournament_running"
    # and once it started, a late entry is refused, and an outsider cannot take a seat
    tournaments.harness.advance(minutes=10)
    tournaments.run(tid)
    tournaments.give(ben, 30)
    assert refusal(ben) == "tournament_started"
    game_id = tournaments.under_way(tid)[0]
    dan = callers("dan")[0]
    tournaments.harness.connect(dan)
    request = tournaments.harness.act(dan, "join_game", gameId=game_id)
    assert tournaments.harness.error(dan, request)["code"] in ("tournament_table", "wrong_status")
    assert tournaments.wallets.wallet(ben.player_id).balance == 30


def test_too_few_entrants_cancel_the_tournament_and_refund_each_fee_once(
    tournaments: Tournaments,
) -> None:
    (ana,) = callers("ana")
    tournaments.harness.connect(ana)
    tid = tournaments.create(kind="arena", minutes=10, entry_fee=10)
    tournaments.give(ana, 10)
    tournaments.enter(tid, ana)
    assert tournaments.wallets.wallet(ana.player_id).balance == 0
    tournaments.harness.advance(minutes=10)
    assert tournaments.run(tid).cancelled == [tid]
    tournaments.run(tid)
    assert tournaments.wallets.wallet(ana.player_id).balance == 10
    with pytest.raises(TournamentError) as refused:
        tournaments.service.pay(tid, tournaments.now)
    assert refused.value.code == "tournament_cancelled"


def test_the_schedule_is_planned_once_and_announced_to_the_pools_players_whose_switch_is_on(
    tournaments: Tournaments, item: Any
) -> None:
    from datetime import UTC, datetime

    from yamb.accounts.mail import MailKind
    from yamb.accounts.preferences import EmailNotifications, Notifications, Preferences
    from yamb.accounts.profile import AccountStatus, Profile
    from yamb.competition.ratings import Rating, RatingPool
    from yamb_service.accounts.dynamo import DynamoAccountStore
    from yamb_service.competition.announcements import TournamentAnnouncer
    from yamb_service.competition.dynamo import DynamoRatingStore

    # given ana and ben, rated in preset 1's pool; ben has switched tournament mail off
    accounts = DynamoAccountStore(item, lambda _: None)
    ratings = DynamoRatingStore(item)
    pool = RatingPool("individual", "yamb-1")
    for player, mail in (("ana", True), ("ben", False)):
        switches = EmailNotifications(tournaments=mail)
        accounts.create(Profile(
            player_id=player, nickname=player, email=f"{player}@example.com",
            status=AccountStatus.ACTIVE, created_at=datetime(2026, 1, 1, tzinfo=UTC),
            preferences=Preferences(notifications=Notifications(email=switches)),
        ))  # fmt: skip
        rating = Rating(player_id=player, pool=pool.key)
        ratings.rate_game(f"seed-{player}", tournaments.now, {}, {player: rating})
    sent: list[tuple[str, Any]] = []

    class Mailer:
        def send(self, to: str, mail: Any) -> None:
            sent.append((to, mail))

    announcer = TournamentAnnouncer(ratings, lambda: accounts, Mailer, "https://y.example")

    # when the planning job runs twice on the same day
    made = tournaments.service.plan_schedule(tournaments.now)
    again = tournaments.service.plan_schedule(tournaments.now)
    mailed = announcer.announce(made) + announcer.announce(again)

    # then the week's tournaments were created once, and each preset-1 one mailed to ana only,
    # with its page's address
    assert made and again == []
    assert mailed == len(made) == len(sent)
    assert {to for to, _ in sent} == {"ana@example.com"}
    _, mail = sent[0]
    assert mail.kind == MailKind.TOURNAMENT
    assert f"https://y.example/#/tournaments/{made[0].tournament_id}" in mail.text
    assert made[0].plan.name in mail.text
