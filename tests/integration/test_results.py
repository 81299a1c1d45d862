"""Results on moto: the recorder (statistics, head-to-heads, boards), the boards' reads (top,
own place, favorites, periods) and the prize payouts (once, resumed after a crash, ties)."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from yamb.accounts.profile import AccountStatus, Profile
from yamb.results import periods
from yamb.results.boards import MAIN, Board, Entry, ScoredGame
from yamb.results.errors import ResultsError
from yamb.results.facts import SheetFacts
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb_service.accounts.dynamo import DynamoAccountStore
from yamb_service.common.errors import ServiceBusyError
from yamb_service.economy.wallet_dynamo import DynamoWalletStore
from yamb_service.game.dynamo import DynamoGameRepository
from yamb_service.results.dynamo import DynamoResultsStore
from yamb_service.results.service import PrizeService, ResultsRecorder, ResultsService

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
RANKED = GameSettings(ranked=True, preset=1, players=2, turn_seconds=60)


class Results:
    def __init__(self, item: Any) -> None:
        self.item = item
        self.now = NOW
        self.store = DynamoResultsStore(item, sleep=lambda _: None)
        self.accounts = DynamoAccountStore(item, DynamoGameRepository(item).result)
        self.wallets = DynamoWalletStore(item, sleep=lambda _: None)
        self.recorder = ResultsRecorder(self.store, self.accounts, now=lambda: self.now)
        self.service = ResultsService(self.store, self.accounts, now=lambda: self.now)
        self.prizes = PrizeService(
            self.store, self.wallets, self.accounts, now=lambda: self.now, settle_seconds=0
        )
        self.games = 0

    def player(self, nickname: str, *, public: bool = True) -> str:
        profile = Profile(
            player_id=f"id-{nickname}",
            nickname=nickname,
            email=f"{nickname}@example.com",
            status=AccountStatus.ACTIVE,
            created_at=NOW - timedelta(days=30),
        )
        profile = profile.model_copy(
            update={"preferences": profile.preferences.model_copy(update={"public_page": public})}
        )
        self.accounts.create(profile)
        return profile.player_id

    def game(
        self,
        totals: dict[str, int],
        *,
        at: datetime | None = None,
        settings: GameSettings = RANKED,
        winners: list[str] | None = None,
        full: bool = True,
        bot: str | None = None,
    ) -> GameResult:
        self.games += 1
        best = max(totals.values())
        return GameResult(
            game_id=f"g{self.games:04d}",
            settings=settings,
            ended_at=at or self.now,
            winners=winners if winners is not None else [p for p, t in totals.items() if t == best],
            players=[
                PlayerResult(
                    player_id=p,
                    total=t,
                    full=full,
                    left=False,
                    turns=26,
                    bot=bot if index == 1 else None,
                    facts=SheetFacts(
                        columns=2, bonuses=1, cells=26, crossed=2, yamb_cells=2, yambs=1
                    ),
                )
                for index, (p, t) in enumerate(totals.items())
            ],
            outcome="completed",
            recorded=full,
        )


@pytest.fixture
def results(own_item: Any) -> Results:
    return Results(own_item)


def board(
    columns: str = "1", side: str = "best", period: str = "all", format: str = "individual"
) -> Board:
    return Board(format, columns, side, periods.parse(period, NOW))  # type: ignore[arg-type]


def test_results_recorder_counts_a_game_once_and_ranks_both_players(results: Results) -> None:
    # given ana and ben, and a ranked preset-1 game ana won 700 to 650
    ana, ben = results.player("ana"), results.player("ben")
    game = results.game({ana: 700, ben: 650})

    # when the game is recorded, then recorded again (a stream delivers at least once)
    first = results.recorder.record(game)
    again = results.recorder.record(game)

    # then statistics and head-to-head count it once, and the boards hold both rows once
    assert first.counted and not again.counted and again.rows == []
    stats = results.service.statistics("ana")
    assert (stats.games, stats.wins, stats.losses, stats.win_rate) == (1, 1, 0, 1.0)
    assert stats.records["preset-1/5d/individual"].score == 700
    assert stats.main_board_score == 700 and stats.main_board_place == 1
    h2h = results.service.head_to_head(ben, "ana", None)
    assert (h2h.wins, h2h.losses, [m.verdict for m in h2h.meetings]) == (0, 1, ["loss"])
    page = results.service.board(ana, board(), "all")
    assert [(r.place, r.names, r.score) for r in page.rows] == [
        (1, ["ana"], 700),
        (2, ["ben"], 650),
    ]


def test_results_board_own_place_outside_the_top(
    results: Results, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a top of 3 rows and five players
    monkeypatch.setattr("yamb_service.results.service.TOP", 3)
    ids = [results.player(f"p{n}") for n in range(5)]
    for n, player in enumerate(ids):
        results.recorder.record(results.game({player: 500 + 10 * n, results.player(f"o{n}"): 100}))

    # when the lowest of the five reads the board
    page = results.service.board(ids[0], board(), "all")

    # then the top three are shown and their own place below: 5th of ten
    assert [r.score for r in page.rows] == [540, 530, 520]
    assert page.mine is not None and (page.mine.place, page.mine.score) == (5, 500)


def test_results_unranked_bot_and_unfinished_games_enter_no_board(results: Results) -> None:
    # given a free game, a game with a bot and a game of unfull sheets
    ana, ben = results.player("ana"), results.player("ben")
    for game in (
        results.game({ana: 900, ben: 800}, settings=GameSettings(preset=1, players=2)),
        results.game({ana: 900, ben: 800}, bot="hard"),
        results.game({ana: 900, ben: 800}, full=False),
    ):
        results.recorder.record(game)

    # then no board has a row, but the games count in statistics (not the bot game's win)
    assert results.service.board(ana, board(), "all").rows == []
    stats = results.service.statistics("ana")
    assert (stats.games, stats.wins) == (3, 2)


def test_results_sum_board_adds_the_best_five_of_the_period(results: Results) -> None:
    ana, ben = results.player("ana"), results.player("ben")
    for total in (300, 500, 400, 600, 200, 700, 100):
        results.recorder.record(results.game({ana: total, ben: 50}))
    page = results.service.board(ana, board(side="sum", period="week"), "all")
    assert page.rows[0].score == 700 + 600 + 500 + 400 + 300
    assert len(page.rows[0].game_ids) == 5


def test_results_main_board_sums_the_best_of_each_preset(results: Results) -> None:
    ana, ben = results.player("ana"), results.player("ben")
    results.recorder.record(results.game({ana: 380, ben: 10}))
    results.recorder.record(
        results.game({ana: 520, ben: 10}, settings=RANKED.model_copy(update={"preset": 2}))
    )
    results.recorder.record(
        results.game({ana: 610, ben: 10}, settings=RANKED.model_copy(update={"preset": 3}))
    )
    results.recorder.record(results.game({ana: 300, ben: 10}))  # not better on preset 1
    main = results.service.board(ana, board(columns=MAIN), "all")
    assert main.rows[0].score == 1510


def test_results_month_edge_result_at_the_last_second(results: Results) -> None:
    ana, ben = results.player("ana"), results.player("ben")
    last_second = datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC)
    results.recorder.record(results.game({ana: 400, ben: 300}, at=last_second))
    results.recorder.record(
        results.game({ben: 500, ana: 10}, at=last_second + timedelta(seconds=1))
    )
    november = results.service.board(ana, board(period="2026-11"), "all")
    december = results.service.board(ana, board(period="2026-12"), "all")
    assert [r.names for r in november.rows] == [["ana"], ["ben"]]
    assert [r.names for r in december.rows] == [["ben"], ["ana"]]


def crash_payout_at(results: Results, monkeypatch: pytest.MonkeyPatch, *, payment: int) -> None:
    """Runs the week's payout, which crashes at its `payment`-th wallet change."""
    real = results.wallets.change
    calls = {"n": 0}

    def crashing(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == payment:
            raise ServiceBusyError()
        return real(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(results.wallets, "change", crashing)
        with pytest.raises(ServiceBusyError):
            results.prizes.pay("week", results.now)


def test_results_payout_pays_once_and_resumes_after_a_crash(
    results: Results, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a finished week with five ranked players on the main board
    ids = [results.player(f"w{n}") for n in range(6)]
    week_day = datetime(2026, 11, 25, 12, tzinfo=UTC)
    for n in range(5):
        results.recorder.record(results.game({ids[n]: 900 - 100 * n, ids[5]: 10}, at=week_day))
    results.now = datetime(2026, 11, 30, 0, 10, tzinfo=UTC)

    # when the payout crashes after its second payment, then runs again, then again
    crash_payout_at(results, monkeypatch, payment=3)
    second = results.prizes.pay("week", results.now)
    third = results.prizes.pay("week", results.now)

    # then every prize was paid exactly once
    assert second.period == "2026-W48"
    assert [results.wallets.wallet(p).balance for p in ids[:5]] == [100, 60, 40, 20, 10]
    assert third.paid == [] and third.repeated == 5
    assert results.service.statistics("w0").medals.gold == 1


def test_results_payout_refuses_a_period_not_ended(results: Results) -> None:
    with pytest.raises(ResultsError) as refused:
        results.prizes.pay("week", NOW, "2026-W49")
    assert refused.value.code == "period_not_ended"


def test_results_late_result_stays_out_of_a_paid_period(results: Results) -> None:
    ana, ben = results.player("ana"), results.player("ben")
    results.now = datetime(2026, 11, 30, 0, 10, tzinfo=UTC)
    results.prizes.pay("week", results.now)
    late = results.recorder.record(
        results.game({ana: 500, ben: 10}, at=datetime(2026, 11, 29, 23, 59, tzinfo=UTC))
    )
    assert any(key.endswith("2026-W48") for key in late.left_out)
    assert any(key.endswith("/all") for key in late.rows)


PAIRS = GameSettings(ranked=True, preset=1, players=4, pairs=True, turn_seconds=60)


def test_results_pairs_board_one_row_per_pair_and_own_place(
    results: Results, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given three 2 vs 2 games: ana and ben win two of them as a pair
    monkeypatch.setattr("yamb_service.results.service.TOP", 1)
    ana, ben, cleo, dan = (results.player(n) for n in ("ana", "ben", "cleo", "dan"))
    results.recorder.record(results.game({ana: 600, ben: 600, cleo: 500, dan: 500}, settings=PAIRS))
    results.recorder.record(results.game({ana: 650, ben: 650, cleo: 400, dan: 400}, settings=PAIRS))
    results.recorder.record(results.game({cleo: 700, dan: 700, ana: 300, ben: 300}, settings=PAIRS))

    # when ana reads the pairs board, whose top is one row
    page = results.service.board(ana, board(format="pairs"), "all")

    # then cleo and dan lead with 700, and ana's pair is below, second, at its best (650)
    assert [(r.names, r.score) for r in page.rows] == [(["cleo", "dan"], 700)]
    assert page.mine is not None
    assert (sorted(page.mine.names), page.mine.place, page.mine.score) == (["ana", "ben"], 2, 650)
    # and the pair's result is no main-board result
    assert results.service.board(ana, board(columns=MAIN), "all").rows == []


def test_results_favorites_board_ranks_me_among_those_i_follow(results: Results) -> None:
    # given four ranked players; ana follows cleo only
    ana, ben, cleo, dan = (results.player(n) for n in ("ana", "ben", "cleo", "dan"))
    results.recorder.record(results.game({ana: 500, ben: 800}))
    results.recorder.record(results.game({cleo: 600, dan: 900}))
    followed = results.service.follow(ana, "cleo", on=True)

    # when ana reads the favorites board
    page = results.service.board(ana, board(), "favorites")

    # then it holds cleo and herself, in order, with places among them
    assert [f.nickname for f in followed.favorites] == ["cleo"]
    assert [(r.place, r.names, r.me) for r in page.rows] == [
        (1, ["cleo"], False),
        (2, ["ana"], True),
    ]
    # and unfollowing empties it back to herself
    results.service.follow(ana, "cleo", on=False)
    assert [r.names for r in results.service.board(ana, board(), "favorites").rows] == [["ana"]]


@pytest.mark.parametrize(
    ("nickname", "code"), [("ana", "favorite_self"), ("nobody", "unknown_player")]
)
def test_results_follow_refuses(results: Results, nickname: str, code: str) -> None:
    ana = results.player("ana")
    with pytest.raises(ResultsError) as refused:
        results.service.follow(ana, nickname, on=True)
    assert refused.value.code == code


def test_results_public_page_hidden_is_no_page(results: Results) -> None:
    ana = results.player("ana")
    results.player("hidden", public=False)
    assert results.service.public_page("ana").nickname == "ana"
    with pytest.raises(ResultsError) as refused:
        results.service.public_page("hidden")
    assert refused.value.code == "unknown_player"
    # the statistics inside the game stay (the same for everyone)
    assert results.service.statistics("hidden").games == 0
    assert ana


def test_results_tied_prize_places_share_the_pool(results: Results) -> None:
    # given a finished week where two players tie at the top of the main board
    a, b, c, o = (results.player(n) for n in ("ta", "tb", "tc", "to"))
    day = datetime(2026, 11, 25, 12, tzinfo=UTC)
    results.recorder.record(results.game({a: 800, o: 10}, at=day))
    results.recorder.record(results.game({b: 800, o: 10}, at=day + timedelta(hours=1)))
    results.recorder.record(results.game({c: 700, o: 10}, at=day))

    # when the week is paid
    results.now = datetime(2026, 11, 30, 0, 10, tzinfo=UTC)
    results.prizes.pay("week", results.now)

    # then both share 1st and 2nd ((100 + 60) / 2), the next is 3rd; each has a gold medal
    balances = [results.wallets.wallet(p).balance for p in (a, b, c)]
    assert balances == [80, 80, 40]
    assert results.service.statistics("ta").medals.gold == 1


def test_results_score_left_by_every_row_is_no_longer_counted(results: Results) -> None:
    # given ana's best preset-1 result of 500, then a better one of 600
    ana, ben = results.player("ana"), results.player("ben")
    results.recorder.record(results.game({ana: 500, ben: 100}))
    results.recorder.record(results.game({ana: 600, ben: 100}))

    # when the board's score counts are read
    counts = {
        item.sk: item.tally
        for item in results.item.query(
            "BOARD#individual/1/best/all", results.item.sk.startswith("N#")
        )
    }

    # then 500's count is gone (no row holds it): a place reads only the scores held now
    assert counts == {"N#0000100": 1, "N#0000600": 1}
    assert results.store.place(board(), 100) == 2


def test_results_payout_rerun_pays_the_amounts_the_first_run_kept(
    results: Results, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a finished week with three players on the main board, and a payout that crashed
    # after its first payment
    ids = [results.player(f"k{n}") for n in range(4)]
    day = datetime(2026, 11, 25, 12, tzinfo=UTC)
    for n in range(3):
        results.recorder.record(results.game({ids[n]: 900 - 100 * n, ids[3]: 10}, at=day))
    results.now = datetime(2026, 11, 30, 0, 10, tzinfo=UTC)
    crash_payout_at(results, monkeypatch, payment=2)

    # when the prizes change before the run again (or its index read differs)
    monkeypatch.setattr(
        "yamb_service.results.service.PRIZES", {"individual/main/best/week": (7, 5, 3)}
    )
    results.prizes.pay("week", results.now)

    # then the run again paid the rest at the amounts the first run worked out
    assert [results.wallets.wallet(p).balance for p in ids] == [100, 60, 40, 20]


def test_results_pair_pointer_never_goes_back_to_a_lower_score(results: Results) -> None:
    # given ana's pair with ben at 130, then a delayed write of the same pair at 100
    ana = results.player("ana")
    target = board(format="pairs")
    from yamb.results.boards import Entry

    def row(entrant: str, score: int) -> Entry:
        return Entry(entrant=entrant, players=entrant.split("+"), score=score, games=[], since=NOW)

    results.store.point_to_pair(ana, target, row(f"{ana}+b", 130))
    results.store.point_to_pair(ana, target, row(f"{ana}+b", 100))
    results.store.point_to_pair(ana, target, row(f"{ana}+c", 120))

    # then ana's own row is still her best pair's
    assert results.store.pair_row(ana, target) == f"{ana}+b"


def test_results_rows_show_nicknames_as_they_are_now(results: Results) -> None:
    # given a row of ana's, then ana renamed
    ana, ben = results.player("ana"), results.player("ben")
    results.recorder.record(results.game({ana: 500, ben: 100}))
    profile = results.accounts.get(ana)
    assert profile is not None
    results.accounts.save(profile.model_copy(update={"nickname": "anna"}))

    # when a board is read by a function that has not read her name yet
    fresh = ResultsService(results.store, results.accounts, now=lambda: results.now)
    page = fresh.board(ben, board(), "all")

    # then the row shows her name now
    assert [r.names for r in page.rows] == [["anna"], ["ben"]]


def test_results_follow_of_a_deleted_account_is_dropped(results: Results) -> None:
    # given ana follows ben, whose account is then purged
    ana, ben = results.player("ana"), results.player("ben")
    results.service.follow(ana, "ben", on=True)
    profile = results.accounts.get(ben)
    assert profile is not None
    results.accounts.save(profile.model_copy(update={"status": AccountStatus.DELETED}))

    # when ana lists her favorites
    listed = results.service.favorites(ana)

    # then ben is gone from them, and from what counts towards the bound
    assert listed.favorites == []
    assert results.store.favorites(ana) == []


@pytest.mark.parametrize("before", ["", "x" * 2000, "2026-12-03T12:00:00+00:00"])
def test_results_head_to_head_refuses_a_bad_page_key(results: Results, before: str) -> None:
    ana = results.player("ana")
    results.player("ben")
    with pytest.raises(ResultsError) as refused:
        results.service.head_to_head(ana, "ben", before)
    assert (refused.value.code, refused.value.field) == ("bad_request", "before")


def test_results_overlong_nickname_is_no_player_without_a_read(results: Results) -> None:
    with pytest.raises(ResultsError) as refused:
        results.service.statistics("n" * 3000)
    assert refused.value.code == "unknown_player"


def test_a_board_orders_and_places_totals_below_zero_after_every_other(item: Any) -> None:
    # given a week's board with totals above, at and below zero (the max-min row can make a
    # total negative), written in no particular order
    when = datetime(2026, 12, 2, 18, tzinfo=UTC)
    board = Board("individual", "1", "best", periods.week_of(when))
    store = DynamoResultsStore(item)
    scores = {"p-minus-3": -3, "p-46": 46, "p-minus-10": -10, "p-zero": 0, "p-7": 7}
    for player, score in scores.items():
        game = ScoredGame(game_id=f"g-{player}", score=score, at=when, preset=1)
        row = Entry(entrant=player, players=[player], score=score, games=[game], since=when)
        assert store.write_row(board, None, row) == "written"

    # when the board is read, and each score's place asked
    top = [row.score for row in store.top(board, 10)]
    places = {score: store.place(board, score) for score in scores.values()}

    # then the best comes first and the most negative last, each placed below every higher one
    assert top == [46, 7, 0, -3, -10]
    assert places == {46: 1, 7: 2, 0: 3, -3: 4, -10: 5}
