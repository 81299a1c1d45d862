"""2 vs 2 (rules.md 7): the first player proposes, the partner finishes the team turn with
their own roll 1 and clock; announcements bind nobody; Directed is opened for the other team
by the team's final write; the partner's 10 extra seconds; a player leaving ends the match."""

from datetime import UTC, datetime, timedelta

import pytest
from yamb.dice import SeededDice
from yamb.errors import YambError
from yamb.pairs import merge_proposal
from yamb.session import leaving, lobby, team_turns, turns
from yamb.session.deadlines import apply_due
from yamb.session.model import GameSession
from yamb.session.results import result_of
from yamb.session.views import game_view
from yamb.settings import validate_settings

START = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
DICE = SeededDice(0)
TEAMS = ("ana", "ben", "cy", "dee")  # ana and ben against cy and dee


def _table(**settings: object) -> GameSession:
    chosen = validate_settings({"players": 4, "pairs": True, **settings})
    session = lobby.create("pairs", "ana", "c-ana", chosen, START, server_seed="ab" * 32)
    for player in TEAMS[1:]:
        lobby.join(session, player, f"c-{player}")
    lobby.start(session, "ana", START, DICE)
    return session


def _ids(session: GameSession, column: int, row: int) -> tuple[str, str]:
    layout = session.game().layout
    return layout.columns[column].id, layout.grid.rows[row].id


def _write(session: GameSession, player: str, cell: tuple[int, int], at: datetime = START) -> None:
    turns.write(session, player, *_ids(session, *cell), None, now=at, dice=DICE)


def _first_choice(session: GameSession) -> tuple[int, int]:
    column, row, _ = team_turns.choices(session, session.game())[0]
    return column, row


def _code(action: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(YambError) as refused:
        action(*args, **kwargs)  # type: ignore[operator]
    return refused.value.code


def test_pairs_first_player_write_is_a_proposal_and_the_partner_gets_roll_1_and_a_clock() -> None:
    # given a 2 vs 2 game: ana (team 1's first player) is in turn
    session = _table(columns=["free"])
    turn = game_view(session).turn
    assert turn is not None and (turn.player_id, turn.part) == ("ana", 1)

    # when she writes a cell, 20 s in
    cell = _first_choice(session)
    proposed = dict(((c, r), s) for c, r, s in team_turns.choices(session, session.game()))[cell]
    _write(session, "ana", cell, START + timedelta(seconds=20))

    # then the cell stays empty, the proposal is shown, and ben's part starts with his own
    # roll 1 and a full clock of his own
    view = game_view(session)
    assert view.sheets[0].cells["free"] == {}
    assert view.sheets[0].members == ["ana", "ben"]
    turn = view.turn
    assert turn is not None and (turn.player_id, turn.part, turn.roll) == ("ben", 2, 1)
    assert turn.proposal is not None and turn.proposal.score == proposed
    assert turn.deadline == START + timedelta(seconds=80)


def test_pairs_partner_taking_the_proposal_writes_the_better_value() -> None:
    # given ben's part after ana's proposal in each row of the free column in turn
    session = _table(columns=["free"])
    game = session.game()
    _write(session, "ana", _first_choice(session))
    pairs = session.pairs
    assert pairs is not None and pairs.proposal is not None
    column, row, proposed = pairs.proposal
    own = team_turns.own_cells(session, session.game()).get((column, row))
    expected = (
        proposed
        if own is None
        else merge_proposal(game.layout.grid, game.layout.grid.rows[row].id, proposed, own)
    )

    # when he takes the proposed cell
    _write(session, "ben", (column, row))

    # then the team sheet holds the better of the two values, and team 2's first player is in turn
    view = game_view(session)
    assert view.sheets[0].cells["free"][_ids(session, column, row)[1]] == expected
    assert view.turn is not None and view.turn.player_id == "cy"
    assert view.turn.part == 1 and view.turn.proposal is None


def test_pairs_merge_proposal_is_reversed_in_min() -> None:
    # given the Yamb grid / then the better value is the larger, but in Min the smaller
    grid = _table(columns=["free"]).game().layout.grid
    assert merge_proposal(grid, "max", 20, 25) == 25
    assert merge_proposal(grid, "min", 20, 25) == 20


def test_pairs_partner_writing_elsewhere_makes_the_proposal_vanish() -> None:
    # given ana proposed a cell
    session = _table(columns=["free"])
    _write(session, "ana", _first_choice(session))
    pairs = session.pairs
    assert pairs is not None and pairs.proposal is not None
    proposed_cell = pairs.proposal[:2]

    # when ben writes another cell from his own dice
    own = team_turns.own_cells(session, session.game())
    other = next(cell for cell in own if cell != proposed_cell)
    _write(session, "ben", other)

    # then that cell holds his own value and the proposed one stays empty
    cells = game_view(session).sheets[0].cells["free"]
    assert cells == {_ids(session, *other)[1]: own[other]}


def test_pairs_partner_cannot_act_during_the_first_players_part() -> None:
    # given ana's part / when ben rolls or writes / then refused, nothing changed
    session = _table(columns=["free"])
    before = session.model_dump_json()
    assert _code(turns.roll, session, "ben", None, None, DICE) == "not_your_turn"
    assert _code(turns.write, session, "ben", "free", "ones", None, now=START, dice=DICE) == (
        "not_your_turn"
    )
    assert session.model_dump_json() == before


def test_pairs_announcement_binds_nobody_and_opens_the_cell_for_the_partner() -> None:
    # given ana announces a cell of the announced column after roll 1, then proposes another
    session = _table(columns=["down", "announced"])
    game = session.game()
    announced = next((c, r) for c, r, _ in game.legal_cells() if c == 1)
    turns.announce(session, "ana", *_ids(session, *announced), None)
    elsewhere = next((c, r) for c, r, _ in team_turns.choices(session, session.game()) if c == 0)
    _write(session, "ana", elsewhere)

    # when ben rolls twice more
    turns.roll(session, "ben", [], None, DICE)
    turns.roll(session, "ben", [], None, DICE)

    # then the announced cell is still open to him (after roll 3), and the proposal too
    offered = {(c, r) for c, r, _ in team_turns.choices(session, session.game())}
    assert announced in offered and elsewhere in offered
    view = game_view(session).turn
    assert view is not None and [(c.column, c.row) for c in view.opened] == [
        _ids(session, *announced)
    ]

    # and when he writes the proposal instead, the announcement lapses without consequence
    _write(session, "ben", elsewhere)
    assert game_view(session).turn.opened == []  # type: ignore[union-attr]
    assert session.game().obligations == [None, None]


def test_pairs_final_write_in_the_announced_column_directs_the_other_team() -> None:
    # given a game with the directed column; ana proposes an announced cell after roll 1
    session = _table(columns=["down", "announced", "directed"])
    announced = next((c, r) for c, r, _ in session.game().legal_cells() if c == 1)
    _write(session, "ana", announced)

    # when ben writes the proposed announced cell
    _write(session, "ben", announced)

    # then team 2 is directed to that row: both its players may write only there
    row_id = _ids(session, *announced)[1]
    turn = game_view(session).turn
    assert turn is not None and turn.player_id == "cy" and turn.directed_row == row_id
    assert {(c.column, c.row) for c in turn.legal} == {("directed", row_id)}
    _write(session, "cy", (2, announced[1]))
    turn = game_view(session).turn
    assert turn is not None and turn.player_id == "dee"
    assert {(c.column, c.row) for c in turn.legal} == {("directed", row_id)}


def test_pairs_partner_clock_locks_the_dice_then_writes_the_proposal_as_is() -> None:
    # given ben's part began at 0 s (ana proposed at once)
    session = _table(columns=["free"])
    _write(session, "ana", _first_choice(session))
    pairs = session.pairs
    assert pairs is not None and pairs.proposal is not None
    column, row, proposed = pairs.proposal

    # when his 60 s run out
    apply_due(session, START + timedelta(seconds=60), DICE)

    # then his dice are locked and he has 10 more seconds to choose
    turn = game_view(session).turn
    assert turn is not None and turn.grace is True
    assert turn.deadline == START + timedelta(seconds=70)
    assert _code(turns.roll, session, "ben", None, None, DICE) == "dice_locked"

    # when those pass too / then the proposal is written as it is
    apply_due(session, START + timedelta(seconds=70), DICE)
    assert game_view(session).sheets[0].cells["free"] == {_ids(session, column, row)[1]: proposed}
    assert game_view(session).turn.player_id == "cy"  # type: ignore[union-attr]


def test_pairs_first_player_clock_makes_the_best_proposal() -> None:
    # given ana's part / when her clock runs out / then the best cell is proposed for her
    session = _table(columns=["free"])
    best = max(s for _, _, s in team_turns.choices(session, session.game()))
    apply_due(session, START + timedelta(seconds=60), DICE)
    turn = game_view(session).turn
    assert turn is not None and turn.player_id == "ben" and turn.proposal is not None
    assert turn.proposal.score == best


def test_pairs_a_player_leaving_ends_the_match_and_the_first_player_answers_the_offer() -> None:
    # given team 1 played a turn / when dee resigns
    session = _table(columns=["free"])
    _write(session, "ana", _first_choice(session))
    _write(session, "ben", _first_choice(session))
    leaving.resign(session, "dee", START, DICE)

    # then team 1 wins at once and ana, its first player, is offered to finish; ben sees it
    assert session.winners == ["ana", "ben"]
    assert session.finish_offer == "ana"
    assert game_view(session).finish_offer == "ana"
    assert [seat.left for seat in session.seats] == [False, False, True, True]
    assert _code(leaving.answer_finish_offer, session, "ben", True, START, DICE) == (
        "no_finish_offer"
    )

    # when ana declines / then the game ends; team 1 played 1 of its 13 turns, so the 50% rule
    # cancels it (rules.md 8)
    leaving.answer_finish_offer(session, "ana", False, START, DICE)
    assert session.status == "cancelled"


def test_pairs_game_played_to_the_end_gives_both_players_of_the_best_team_the_win() -> None:
    # given a 2 vs 2 game of one free column / when every part writes its first choice
    session = _table(columns=["free"])
    while session.status == "running":
        turn = game_view(session).turn
        assert turn is not None
        _write(session, turn.player_id, _first_choice(session))

    # then each team's players share its total and the better team's two players win
    result = result_of(session)
    totals = {player.player_id: player.total for player in result.players}
    assert totals["ana"] == totals["ben"] and totals["cy"] == totals["dee"]
    best = max(totals.values())
    assert session.winners == [p for p in TEAMS if totals[p] == best]
    assert session.turn == 2 * 2 * 13  # two parts a team turn


def test_pairs_the_winning_team_finishes_its_sheet_without_a_clock() -> None:
    # given seven team turns each (more than half the sheet), then ana's proposal, then cy
    # resigns and ana accepts to finish
    session = _table(columns=["free"])
    for _ in range(7 * 4):
        turn = game_view(session).turn
        assert turn is not None
        _write(session, turn.player_id, _first_choice(session))
    _write(session, "ana", _first_choice(session))
    leaving.resign(session, "cy", START, DICE)
    leaving.answer_finish_offer(session, "ana", True, START, DICE)

    # when team 1 plays on: ben finishes the turn under way, then both alternate
    parts = []
    while session.status == "running":
        turn = game_view(session).turn
        assert turn is not None and turn.deadline is None
        parts.append(turn.player_id)
        _write(session, turn.player_id, _first_choice(session))

    # then the sheet is full, the result recorded for team 1's win, parts alternating
    assert parts[:3] == ["ben", "ana", "ben"]
    assert (session.status, session.winners) == ("finished", ["ana", "ben"])
    assert all(p.full for p in result_of(session).players if p.player_id in ("ana", "ben"))


def _seven_team_turns_each(session: GameSession) -> None:
    for _ in range(7 * 4):
        turn = game_view(session).turn
        assert turn is not None
        _write(session, turn.player_id, _first_choice(session))


def test_pairs_winning_partner_leaving_before_the_offer_is_answered_keeps_the_win() -> None:
    # given ana resigned after more than half the sheet: cy is offered to finish
    session = _table(columns=["free"])
    _seven_team_turns_each(session)
    leaving.resign(session, "ana", START, DICE)
    assert (session.winners, session.finish_offer) == (["cy", "dee"], "cy")

    # when dee, cy's partner, resigns too before cy answers
    leaving.resign(session, "dee", START, DICE)

    # then the game ends with team 2's win, not the team that left first
    assert (session.status, session.outcome, session.winners) == (
        "finished",
        "declined_finish",
        ["cy", "dee"],
    )


def test_pairs_partner_grace_shows_no_roll_and_ends_with_the_finish_offer() -> None:
    # given ben's time ran out into his 10 extra seconds
    session = _table(columns=["free"])
    _write(session, "ana", _first_choice(session))
    apply_due(session, START + timedelta(seconds=60), DICE)
    turn = game_view(session).turn
    assert turn is not None and turn.grace is True and turn.can_roll is False
    assert _code(turns.announce, session, "ben", "free", "yamb", None) == "dice_locked"

    # when cy resigns and ana accepts to finish
    leaving.resign(session, "cy", START + timedelta(seconds=61), DICE)
    leaving.answer_finish_offer(session, "ana", True, START + timedelta(seconds=62), DICE)

    # then ben plays on without a clock, the dice free again
    turn = game_view(session).turn
    assert turn is not None and turn.grace is False and turn.deadline is None
    turns.roll(session, "ben", None, None, DICE)
