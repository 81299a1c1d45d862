"""The rules of results, pure: periods, what a result adds to a board, prize ties, sheet facts,
statistics and head-to-head sides."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from yamb.layout import layout_for
from yamb.results import periods
from yamb.results.boards import (
    MAIN,
    SUM_OF_BEST,
    Board,
    Entry,
    board,
    boards_for,
    contributions,
    improved,
)
from yamb.results.errors import ResultsError
from yamb.results.facts import facts_of
from yamb.results.head_to_head import meeting_sides
from yamb.results.messages import SkillView
from yamb.results.played import played_games
from yamb.results.prizes import awards, places
from yamb.results.stats import PlayerStats, counted, counted_players, kind_of
from yamb.session.results import GameResult, PlayerResult
from yamb.settings import GameSettings
from yamb.sheet import Sheet

AT = datetime(2026, 12, 3, 12, tzinfo=UTC)
RANKED = GameSettings(ranked=True, preset=2, players=2, turn_seconds=60)
PAIRS = GameSettings(ranked=True, preset=1, players=4, pairs=True, turn_seconds=60)


def _result(
    totals: dict[str, int],
    settings: GameSettings = RANKED,
    *,
    game_id: str = "g1",
    at: datetime = AT,
    recorded: bool = True,
    bots: frozenset[str] = frozenset(),
    winners: list[str] | None = None,
) -> GameResult:
    best = max(totals.values())
    return GameResult(
        game_id=game_id,
        settings=settings,
        ended_at=at,
        winners=winners if winners is not None else [p for p, t in totals.items() if t == best],
        players=[
            PlayerResult(
                player_id=p,
                total=t,
                full=recorded,
                left=False,
                turns=26,
                bot="hard" if p in bots else None,
            )
            for p, t in totals.items()
        ],
        recorded=recorded,
    )


# ---------------------------------------------------------------- periods


def test_periods_week_runs_monday_to_monday_in_utc() -> None:
    # given a Sunday's last second and the Monday after
    sunday = datetime(2026, 12, 6, 23, 59, 59, tzinfo=UTC)
    monday = sunday + timedelta(seconds=1)

    # when their weeks are found
    # then they differ, and the week ends exactly at Monday 00:00
    assert periods.week_of(sunday).id == "2026-W49"
    assert periods.week_of(monday).id == "2026-W50"
    assert periods.week_of(sunday).end == monday


def test_periods_month_edge_and_iso_year() -> None:
    last = datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC)
    assert periods.month_of(last).id == "2026-12"
    assert periods.month_of(last + timedelta(seconds=1)).id == "2027-01"
    # 2027-01-01 is a Friday: it is in the ISO week 53 of 2026
    assert periods.week_of(last + timedelta(seconds=1)).id == "2026-W53"


def test_periods_previous_is_the_last_ended() -> None:
    monday = datetime(2026, 11, 30, 0, 10, tzinfo=UTC)
    assert periods.previous("week", monday).id == "2026-W48"
    assert periods.previous("month", datetime(2026, 12, 1, 0, 10, tzinfo=UTC)).id == "2026-11"


@pytest.mark.parametrize(
    "text", ["", "year", "2026-13", "2026-W54", "2025-W53", "26-12", "2026-W7"]
)
def test_periods_parse_refuses_unknown(text: str) -> None:
    with pytest.raises(ResultsError) as refused:
        periods.parse(text, AT)
    assert (refused.value.code, refused.value.field) == ("unknown_period", "period")


def test_periods_parse_names_the_running_ones() -> None:
    assert periods.parse("week", AT).id == "2026-W49"
    assert periods.parse("month", AT).id == "2026-12"
    assert periods.parse("all", AT).end is None
    assert periods.parse("2026-W53", AT).start == datetime(2026, 12, 28, tzinfo=UTC)


# ---------------------------------------------------------------- boards


@pytest.mark.parametrize(
    ("words", "field"),
    [
        (("teams", "1", "best"), "format"),
        (("individual", "8", "best"), "columns"),
        (("individual", "1", "worst"), "side"),
        (("individual", MAIN, "sum"), "columns"),
        (("pairs", MAIN, "best"), "columns"),
    ],
)
def test_boards_board_refuses_unknown_words(words: tuple[str, str, str], field: str) -> None:
    with pytest.raises(ResultsError) as refused:
        board(*words, periods.ALL_TIME)
    assert (refused.value.code, refused.value.field) == ("unknown_board", field)


def test_boards_contributions_only_ranked_full_people() -> None:
    # given games that must not enter boards, and one that does
    free = RANKED.model_copy(update={"ranked": False})
    custom = GameSettings(players=2, columns=("down", "up"))
    # then only the ranked, recorded game of two people contributes
    assert contributions(_result({"a": 1, "b": 2}, free)) == []
    assert contributions(_result({"a": 1, "b": 2}, custom)) == []
    assert contributions(_result({"a": 1, "b": 2}, recorded=False)) == []
    assert contributions(_result({"a": 1, "b": 2}, bots=frozenset({"b"}))) == []
    found = contributions(_result({"a": 300, "b": 200}))
    assert [(c.format, c.entrant, c.game.score) for c in found] == [
        ("individual", "a", 300),
        ("individual", "b", 200),
    ]


def test_boards_pairs_contribute_one_row_per_team() -> None:
    found = contributions(_result({"d": 500, "a": 500, "c": 400, "b": 400}, PAIRS))
    assert [(c.format, c.entrant, c.players) for c in found] == [
        ("pairs", "a+d", ("a", "d")),
        ("pairs", "b+c", ("b", "c")),
    ]
    # a pairs row has no main board
    assert all(b.columns != MAIN for b in boards_for(found[0]))


def test_boards_individual_boards_of_a_result() -> None:
    (first, _) = contributions(_result({"a": 300, "b": 200}))
    keys = sorted(b.key for b in boards_for(first))
    assert keys == sorted(
        [
            "individual/2/best/all",
            "individual/2/sum/all",
            "individual/main/best/all",
            "individual/2/best/2026-12",
            "individual/2/sum/2026-12",
            "individual/main/best/2026-12",
            "individual/2/best/2026-W49",
            "individual/2/sum/2026-W49",
            "individual/main/best/2026-W49",
        ]
    )


def _entry_after(totals: list[int], target: Board) -> Entry | None:
    entry = None
    for n, total in enumerate(totals):
        (mine, _) = contributions(
            _result({"a": total, "b": 0}, game_id=f"g{n}", at=AT + timedelta(minutes=n))
        )
        entry = improved(entry, target, mine) or entry
    return entry


def test_boards_best_keeps_the_best_and_the_first_to_reach_it() -> None:
    target = Board("individual", "2", "best", periods.ALL_TIME)
    entry = _entry_after([400, 500, 500, 450], target)
    assert entry is not None and entry.score == 500
    assert [g.game_id for g in entry.games] == ["g1"]
    assert entry.since == AT + timedelta(minutes=1)


def test_boards_sum_adds_the_best_five() -> None:
    target = Board("individual", "2", "sum", periods.ALL_TIME)
    totals = [100, 700, 300, 500, 200, 600, 400]
    entry = _entry_after(totals, target)
    assert entry is not None
    assert entry.score == sum(sorted(totals)[-SUM_OF_BEST:])


def test_boards_repeat_changes_nothing() -> None:
    target = Board("individual", "2", "sum", periods.ALL_TIME)
    (mine, _) = contributions(_result({"a": 300, "b": 0}))
    entry = improved(None, target, mine)
    assert entry is not None
    assert improved(entry, target, mine) is None


def test_boards_main_sums_best_per_preset() -> None:
    target = Board("individual", MAIN, "best", periods.ALL_TIME)
    entry = None
    for n, (preset, total) in enumerate([(1, 380), (2, 520), (3, 610), (1, 300), (1, 400)]):
        settings = RANKED.model_copy(update={"preset": preset})
        (mine, _) = contributions(_result({"a": total, "b": 0}, settings, game_id=f"g{n}"))
        entry = improved(entry, target, mine) or entry
    assert entry is not None and entry.score == 400 + 520 + 610


# ---------------------------------------------------------------- prizes


def _entries(scores: list[int]) -> list[Entry]:
    return [
        Entry(entrant=f"p{i}", players=[f"p{i}"], score=s, games=[], since=AT)
        for i, s in enumerate(scores)
    ]


def test_prizes_places_share_ties() -> None:
    assert places([900, 800, 800, 700, 700, 700, 600]) == [1, 2, 2, 4, 4, 4, 7]


@pytest.mark.parametrize(
    ("scores", "paid"),
    [
        ([900, 800, 700], [(1, 100), (2, 60), (3, 40)]),
        # two tied at 2nd share 2nd and 3rd: (60 + 40) / 2
        ([900, 800, 800, 700], [(1, 100), (2, 50), (2, 50), (4, 20)]),
        # three tied first share 1st-3rd, rounded up
        ([900, 900, 900, 100], [(1, 67), (1, 67), (1, 67), (4, 20)]),
        # a group past the last paid place shares the paid places only
        (
            [900, 800, 700, 600, 500, 500, 500],
            [(1, 100), (2, 60), (3, 40), (4, 20), (5, 4), (5, 4), (5, 4)],
        ),
        ([], []),
    ],
)
def test_prizes_awards_tie_rule(scores: list[int], paid: list[tuple[int, int]]) -> None:
    found = awards(_entries(scores), (100, 60, 40, 20, 10))
    assert [(a.place, a.tokens) for a in found] == paid


@given(st.lists(st.integers(min_value=0, max_value=50), max_size=30))
def test_prizes_awards_cover_each_paid_place_once(raw: list[int]) -> None:
    # given any board, best first
    scores = sorted(raw, reverse=True)
    prizes = (50, 30, 20, 10)

    # when its awards are worked out
    found = awards(_entries(scores), prizes)

    # then each row at a prize place is paid (each at most once), none other, and no group gets
    # less than the prizes it covers nor more than one token a player over them
    shared = places(scores)
    assert [a.entrant for a in found] == [f"p{i}" for i, p in enumerate(shared) if p <= len(prizes)]
    for place in {a.place for a in found}:
        group = [a for a in found if a.place == place]
        pool = sum(prizes[place - 1 : place - 1 + len(group)])
        assert pool <= sum(a.tokens for a in group) < pool + len(group)


# ---------------------------------------------------------------- facts, statistics, head-to-head


def test_facts_of_a_sheet_count_bonus_yamb_poker_and_crossed() -> None:
    # given a Down/Up sheet with one column's upper over 60, a Yamb scored, a poker crossed out
    layout = layout_for("yamb", ("down", "up"), 5)
    sheet = Sheet(layout)
    grid = layout.grid
    for row, value in zip(range(6), (5, 10, 15, 20, 25, 30), strict=True):
        sheet.set(0, row, value)
    sheet.set(0, grid.row_index("yamb"), 80)
    sheet.set(0, grid.row_index("four_of_a_kind"), 0)
    sheet.set(1, grid.row_index("yamb"), 0)

    # when its facts are read
    facts = facts_of(sheet)

    # then
    assert (facts.columns, facts.bonuses) == (2, 1)
    assert (facts.yamb_cells, facts.yambs, facts.poker_cells, facts.pokers) == (2, 1, 1, 0)
    assert (facts.cells, facts.crossed) == (9, 2)


def test_stats_counted_wins_only_against_people() -> None:
    solo = GameSettings(players=1, preset=1)
    stats = PlayerStats()
    stats = counted(
        stats,
        _result({"a": 500}, solo),
        PlayerResult(player_id="a", total=500, full=True, left=False, turns=26),
    )
    bot_game = _result({"a": 500, "b": 100}, bots=frozenset({"b"}))
    stats = counted(stats, bot_game, bot_game.players[0])
    real = _result({"a": 100, "b": 500})
    stats = counted(stats, real, real.players[0])
    assert (stats.games, stats.wins, stats.losses) == (3, 0, 1)
    assert stats.records[kind_of(solo)].score == 500
    assert kind_of(solo) == "preset-1/5d/solo"
    assert stats.version == 3


def test_stats_counted_abandoned_and_unrecorded_keeps_records() -> None:
    game = _result({"a": 900, "b": 10}, recorded=False)
    gone = game.players[0].model_copy(update={"abandoned": True})
    stats = counted(PlayerStats(), game, gone)
    assert stats.abandoned == 1 and stats.records == {}


def test_stats_a_cancelled_game_counts_only_for_who_abandoned_it() -> None:
    # given a two-player game cancelled by the 50% rule after b abandoned it
    game = _result({"a": 30, "b": 10}, recorded=False).model_copy(
        update={"outcome": "cancelled", "winners": []}
    )
    players = [p.model_copy(update={"abandoned": p.player_id == "b"}) for p in game.players]
    game = game.model_copy(update={"players": players})

    # when its people are counted
    (gone,) = counted_players(game)
    stats = counted(PlayerStats(), game, gone)

    # then b alone counts it: a game and an abandoned one, no loss (rules.md 8)
    assert gone.player_id == "b"
    assert (stats.games, stats.abandoned, stats.wins, stats.losses) == (1, 1, 0, 0)


def test_head_to_head_sides_of_a_one_vs_one() -> None:
    sides = meeting_sides(_result({"a": 500, "b": 500}))
    assert [(s.player_id, s.opponent, s.meeting.verdict) for s in sides] == [
        ("a", "b", "tie"),
        ("b", "a", "tie"),
    ]
    assert meeting_sides(_result({"a": 1, "b": 2, "c": 3}, GameSettings(players=3))) == []
    assert meeting_sides(_result({"a": 1, "b": 2}, bots=frozenset({"b"}))) == []


def test_boards_out_of_order_results_keep_when_each_score_was_reached() -> None:
    # given a best board: a later game of 500 arrives first, then an earlier 500
    target = Board("individual", "2", "best", periods.ALL_TIME)
    (late, _) = contributions(_result({"a": 500, "b": 0}, game_id="late", at=AT))
    (early, _) = contributions(
        _result({"a": 500, "b": 0}, game_id="early", at=AT - timedelta(days=1))
    )
    entry = improved(None, target, late)
    assert entry is not None

    # when the earlier one comes
    again = improved(entry, target, early)

    # then the row was reached at the earlier game; a sum row is reached at its latest game
    assert again is not None and again.since == early.game.at and again.games == [early.game]
    total = Board("individual", "2", "sum", periods.ALL_TIME)
    summed = improved(improved(None, total, late), total, early)
    assert summed is not None and summed.since == late.game.at


def test_stats_kinds_are_bounded_and_custom_sets_unordered() -> None:
    from yamb.results.stats import MAX_KINDS, OTHER_KIND

    # given statistics already holding the most kinds they keep
    stats = PlayerStats(kinds={f"k{n}": 1 for n in range(MAX_KINDS - 1)})
    one_order = GameSettings(players=2, columns=("down", "up"))
    other_order = GameSettings(players=2, columns=("up", "down"))
    game = _result({"a": 300, "b": 200}, one_order)

    # when a game of a new kind is counted
    after = counted(stats, game, game.players[0])

    # then it counts under "other", without a record; a set of columns is one kind in any order
    assert after.kinds[OTHER_KIND] == 1 and len(after.kinds) == MAX_KINDS
    assert OTHER_KIND not in after.records
    assert kind_of(one_order) == kind_of(other_order)


# ---------------------------------------------------------------- past games


def test_played_games_each_person_sees_their_own_verdict_and_the_others() -> None:
    # given a game ana won, one she tied with ben, a solo game, and a 2 vs 2 won by ana and cy
    won = _result({"ana": 300, "ben": 200, "bot": 100}, bots=frozenset({"bot"}))
    tied = _result({"ana": 250, "ben": 250})
    solo = _result({"ana": 180}, GameSettings(players=1))
    pairs = _result(
        {"ana": 300, "ben": 200, "cy": 300, "dan": 200},
        GameSettings(players=4, pairs=True),
        winners=["ana", "cy"],
    )

    # when each game's entries are made for its people
    def verdicts(result: GameResult) -> dict[str, str]:
        entries = played_games(result, counted_players(result))
        return {player: entry.verdict for player, entry in entries.items()}

    # then each has their own verdict, the bot has no entry, and the others are kept by id
    assert verdicts(won) == {"ana": "win", "ben": "loss"}
    assert verdicts(tied) == {"ana": "tie", "ben": "tie"}
    assert verdicts(solo) == {"ana": "alone"}
    assert verdicts(pairs) == {"ana": "win", "ben": "loss", "cy": "win", "dan": "loss"}
    bens = played_games(won, counted_players(won))["ben"]
    assert (bens.mine, [(s.player_id, s.total, s.bot) for s in bens.others]) == (
        200,
        [("ana", 300, None), ("bot", 100, "hard")],
    )


def test_played_games_of_a_cancelled_game_are_the_leavers_only() -> None:
    # given a cancelled game that ben abandoned
    result = _result({"ana": 40, "ben": 10}).model_copy(update={"outcome": "cancelled"})
    result = result.model_copy(
        update={
            "players": [result.players[0], result.players[1].model_copy(update={"abandoned": True})]
        }
    )

    # when its entries are made
    entries = played_games(result, counted_players(result))

    # then only ben has one, saying the game was cancelled
    assert {p: e.verdict for p, e in entries.items()} == {"ben": "cancelled"}


def test_stats_average_skill_and_luck_per_kind_over_measured_games_only() -> None:
    # given two measured preset-2 games of ana, a measured Yacht game and an unmeasured one
    yacht = GameSettings(players=1, grid="yacht")
    measured = [
        (_result({"a": 900, "b": 800}), 120.0, -40.5),
        (_result({"a": 700, "b": 800}), 80.0, 20.25),
        (_result({"a": 150}, yacht), 12.5, 3.0),
    ]
    stats = PlayerStats()
    for game, regret, luck in measured:
        player = game.players[0].model_copy(update={"regret": regret, "luck": luck})
        stats = counted(stats, game, player)
    unmeasured = _result({"a": 500, "b": 10})
    stats = counted(stats, unmeasured, unmeasured.players[0])

    # then each kind keeps its measured games and sums, and the view averages them per game,
    # against the hard bot on Yamb and the optimal player on a family grid, most played first
    assert stats.games == 4
    views = [
        SkillView.of(kind, skill)
        for kind, skill in sorted(stats.skill.items(), key=lambda item: -item[1].games)
    ]
    assert [(v.kind, v.games, v.against, v.regret, v.luck) for v in views] == [
        ("preset-2/5d/individual", 2, "hard", 100.0, -10.12),
        ("yacht/5d/solo", 1, "optimal", 12.5, 3.0),
    ]
