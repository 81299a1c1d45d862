"""The players' seeds committed first and revealed after the start (issue 32, `yamb-dice/3`,
docs/dice.md): the rules, and the two attacks they answer (the server alone fixing the dice; a
seed chosen last against the others')."""

import random
from datetime import timedelta

import pytest
from yamb import fair_dice
from yamb.dice import SeededDice
from yamb.session import deadlines, lobby, seeds, turns
from yamb.session.effects import GameActionError
from yamb.session.views import game_view

from tests.unit.test_fair_dice import NOW, _play_to_end, _record, _table

ANA, BEN = "player-0", "player-1"
DICE = SeededDice(0)


def _committed(seed_of: dict[str, str], players: int = 2):  # type: ignore[no-untyped-def]
    session = _table(players, preset=1)
    for player, seed in seed_of.items():
        seeds.commit(session, player, fair_dice.seed_commitment(seed))
    return session


def _refused(code: str, act) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(GameActionError) as refused:
        act()
    assert refused.value.code == code


# ------------------------------------------------------------------------------ committing


def test_commitments_are_public_while_the_table_waits_and_the_seeds_are_nowhere() -> None:
    # given ana and ben commit to seeds of their own
    session = _committed({ANA: "ana-secret", BEN: "ben-secret"})
    # when anyone looks at the table
    view = game_view(session).model_dump_json(by_alias=True)
    fairness = game_view(session).fairness
    # then both commitments show, and neither seed
    assert fairness is not None
    assert fairness.commitments == {
        ANA: fair_dice.seed_commitment("ana-secret"),
        BEN: fair_dice.seed_commitment("ben-secret"),
    }
    assert "ana-secret" not in view and "ben-secret" not in view
    assert fairness.client_seeds == {} and fairness.scheme == "yamb-dice/3"


def test_a_commitment_is_replaced_until_the_start_and_goes_with_a_player_who_leaves() -> None:
    session = _committed({ANA: "first", BEN: "bens"})
    seeds.commit(session, ANA, fair_dice.seed_commitment("second"))
    assert session.fair is not None
    assert session.fair.commitments[ANA] == fair_dice.seed_commitment("second")
    lobby.leave_waiting(session, BEN, NOW)
    assert set(session.fair.commitments) == {ANA}


def test_a_commitment_after_the_start_or_from_outside_the_table_is_refused() -> None:
    session = _committed({ANA: "anas"})
    _refused("not_seated", lambda: seeds.commit(session, "stranger", "ab" * 32))
    lobby.start(session, ANA, NOW, DICE)
    _refused("wrong_status", lambda: seeds.commit(session, BEN, "cd" * 32))
    assert session.fair is not None and set(session.fair.commitments) == {ANA}


def test_a_duplicate_deal_and_real_dice_take_no_commitment() -> None:
    dealt = _table(2, preset=1)
    assert dealt.fair is not None
    dealt.fair.deal = "DEAL"
    _refused("not_allowed", lambda: seeds.commit(dealt, ANA, "ab" * 32))
    assert game_view(dealt).fairness.takes_seeds is False  # type: ignore[union-attr]
    real = _table(2, preset=1, physicalDice=True, turnSeconds=None)
    _refused("not_allowed", lambda: seeds.commit(real, ANA, "ab" * 32))


# ------------------------------------------------------------------------------ revealing


def test_the_first_roll_waits_for_every_committed_seed_then_mixes_them_in() -> None:
    # given two committed seeds and a started game
    session = _committed({ANA: "ana-secret", BEN: "ben-secret"})
    lobby.start(session, ANA, NOW, DICE)
    # then no die is rolled, and a move is refused while the seeds are awaited
    assert session.status == "running" and session.turn == 0 and session.awaiting_seeds
    _refused("awaiting_seeds", lambda: turns.roll(session, ANA, [0], None, DICE))
    _refused("awaiting_seeds", lambda: turns.current(session, ANA))
    # when ana reveals: still waiting, and her seed is in no view (only that she revealed)
    seeds.reveal(session, ANA, "ana-secret", NOW, DICE)
    view = game_view(session)
    assert session.turn == 0 and view.fairness is not None
    assert view.fairness.revealed == [ANA] and view.fairness.client_seeds == {}
    assert "ana-secret" not in view.model_dump_json()
    # when ben reveals: the first turn begins, with both seeds in the key
    seeds.reveal(session, BEN, "ben-secret", NOW, DICE)
    assert session.turn == 1 and not session.awaiting_seeds
    assert session.fair is not None
    assert session.fair.client_seeds == {ANA: "ana-secret", BEN: "ben-secret"}
    assert session.fair.withheld == []


def test_a_seed_that_is_not_the_one_committed_to_is_refused() -> None:
    session = _committed({ANA: "ana-secret"})
    lobby.start(session, ANA, NOW, DICE)
    _refused("seed_mismatch", lambda: seeds.reveal(session, ANA, "another", NOW, DICE))
    assert session.awaiting_seeds and session.fair is not None and session.fair.reveals == {}


def test_a_reveal_before_the_start_or_without_a_commitment_is_refused() -> None:
    session = _committed({ANA: "ana-secret"})
    _refused("too_early", lambda: seeds.reveal(session, ANA, "ana-secret", NOW, DICE))
    lobby.start(session, ANA, NOW, DICE)
    _refused("no_commitment", lambda: seeds.reveal(session, BEN, "bens", NOW, DICE))


def test_a_table_nobody_committed_at_rolls_at_the_start_as_before() -> None:
    session = _table(2, preset=1)
    lobby.start(session, ANA, NOW, DICE)
    assert session.turn == 1 and not session.awaiting_seeds


def test_a_seed_withheld_past_the_deadline_is_dropped_and_named() -> None:
    # given ana revealed and ben did not
    session = _committed({ANA: "ana-secret", BEN: "ben-secret"})
    lobby.start(session, ANA, NOW, DICE)
    seeds.reveal(session, ANA, "ana-secret", NOW, DICE)
    assert session.fair is not None and session.fair.reveal_by == NOW + seeds.REVEAL_WINDOW
    assert session.fair.reveal_by in deadlines.pending(session)  # the timers wake it then
    # when nothing is due yet, nothing happens; when the deadline passes, the dice go
    assert deadlines.apply_due(session, NOW + timedelta(seconds=5), DICE) is None
    assert deadlines.woken(session, NOW + seeds.REVEAL_WINDOW, DICE) is not None
    # then ben's commitment is dropped and named, ana's seed alone is mixed in
    assert session.turn == 1 and not session.awaiting_seeds
    assert session.fair.client_seeds == {ANA: "ana-secret"}
    assert session.fair.withheld == [BEN]
    assert game_view(session).fairness.withheld == [BEN]  # type: ignore[union-attr]
    # and his seed, late, is refused; ana's sent again changes nothing
    _refused("reveals_closed", lambda: seeds.reveal(session, BEN, "ben-secret", NOW, DICE))
    assert seeds.reveal(session, ANA, "ana-secret", NOW, DICE) is None


def test_bots_wait_for_the_seeds_too() -> None:
    # given a table of a person and a bot in seat 0's turn... a bot never moves before the dice
    session = _committed({ANA: "ana-secret"})
    session.seats[1].bot = "easy"
    session.seats.reverse()  # the bot's seat first
    lobby.start(session, session.creator, NOW, DICE)
    from yamb.session import bot_turns

    bot_turns.schedule(session, NOW)
    assert all(seat.bot_due is None for seat in session.seats)


def test_a_resign_while_the_seeds_are_awaited_waits_a_few_seconds() -> None:
    from yamb.session import leaving

    session = _committed({ANA: "ana-secret"})
    lobby.start(session, ANA, NOW, DICE)
    _refused("awaiting_seeds", lambda: leaving.resign(session, BEN, NOW, DICE))


def test_a_whole_game_with_committed_seeds_verifies_and_a_swapped_seed_is_caught() -> None:
    # given a finished game whose two seeds were committed and revealed
    own = {ANA: "ana-secret", BEN: "ben-secret"}
    session = _committed(own)
    _play_to_end(session, random.Random(41), own)
    record = _record(session)
    # then it verifies, with the commitments in the record
    assert record["scheme"] == "yamb-dice/3"
    assert record["commitments"] == {p: fair_dice.seed_commitment(s) for p, s in own.items()}
    from yamb_tools.cli import verify_record

    assert verify_record(record) == {"ok": True, "turns": session.turn}
    # and a record whose seed is not the committed one, or has a seed never committed, fails
    swapped = record | {"clientSeeds": {ANA: "ana-other", BEN: "ben-secret"}}
    assert verify_record(swapped) == {
        "ok": False,
        "error": f"{ANA}'s seed is not the one committed to",
    }
    slipped = record | {"commitments": {BEN: record["commitments"][BEN]}}
    assert verify_record(slipped) == {"ok": False, "error": f"{ANA}'s seed was never committed to"}


# ------------------------------------------------------------------------------ the attacks


def test_attack_1_the_server_alone_no_longer_fixes_a_committers_dice() -> None:
    # given the server's seed, fixed at creation, and a player who commits to a random seed
    # the server cannot see until after the start
    session = _committed({ANA: "a" * 64}, players=1)
    lobby.start(session, ANA, NOW, DICE)
    # when the server tries to roll with its seed alone (as if no seed had come)
    # then it cannot: the dice wait for her seed, and the key she gets mixes it in
    _refused("awaiting_seeds", lambda: turns.roll(session, ANA, [], None, DICE))
    seeds.reveal(session, ANA, "a" * 64, NOW, DICE)
    assert session.fair is not None
    server_alone = fair_dice.game_key(session.fair.server_seed, "game-1", {})
    assert session.fair.key("game-1") != server_alone
    # and the dice of turn 1 are those of the mixed key
    mixed = fair_dice.roll_dice(session.fair.key("game-1"), 1, 1, (), (), 5, 0)
    assert tuple(session.game().dice) == mixed


def test_attack_2_a_seed_ground_against_the_others_cannot_be_set_last() -> None:
    # given an insider who knows the server's seed, at a table where ben committed first
    session = _committed({BEN: "ben-secret"})
    assert session.fair is not None
    server_seed = session.fair.server_seed

    # when the insider grinds a seed offline for a six-five-of-a-kind first roll...
    def first_roll(ana_seed: str, ben_seed: str) -> tuple[int, ...]:
        key = fair_dice.game_key(server_seed, "game-1", {ANA: ana_seed, BEN: ben_seed})
        return fair_dice.roll_dice(key, 1, 1, (), (), 5, 0)

    # ...they cannot: ben's seed is behind its commitment; all they see is its hash
    fairness = game_view(session).fairness
    assert fairness is not None and fairness.client_seeds == {}
    assert "ben-secret" not in game_view(session).model_dump_json()
    # and a seed sent in the clear, last, is refused outright
    _refused("seed_retired", lambda: lobby.add_seed(session, ANA, "ground"))
    # and the insider's commitment, once the game starts, is frozen: a "better" seed after
    # ben's reveal is refused both as a commitment and as a reveal
    seeds.commit(session, ANA, fair_dice.seed_commitment("ana-guess"))
    lobby.start(session, ANA, NOW, DICE)
    seeds.reveal(session, BEN, "ben-secret", NOW, DICE)
    better = next(
        f"grind-{n}" for n in range(10_000) if first_roll(f"grind-{n}", "ben-secret")[0] == 6
    )
    _refused("wrong_status", lambda: seeds.commit(session, ANA, fair_dice.seed_commitment(better)))
    _refused("seed_mismatch", lambda: seeds.reveal(session, ANA, better, NOW, DICE))
    # and even ben's revealed seed is not shown until the reveals close
    assert game_view(session).fairness.client_seeds == {}  # type: ignore[union-attr]
