"""Verifiable dice (product P5) and the same dice for everyone (P2): docs/dice.md."""

import hashlib
import random
import uuid
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from yamb import fair_dice
from yamb.dice import SeededDice
from yamb.errors import InvalidSettingsError
from yamb.protocol import MAX_FRAME_BYTES, encode
from yamb.session import lobby, seeds, turns
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession
from yamb.session.views import dice_record, game_view
from yamb.settings import validate_settings
from yamb_tools.cli import verify_record

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
SEED = "5e" * 32


def _table(players: int, *, seed: str = SEED, **settings: Any) -> GameSession:
    names = [f"player-{n}" for n in range(players)]
    chosen = validate_settings({"players": players, **settings})
    session = lobby.create("game-1", names[0], "c0", chosen, NOW, server_seed=seed)
    for name in names[1:]:
        lobby.join(session, name, f"c-{name}")
    return session


def _play_to_end(
    session: GameSession, rng: random.Random, reveals: dict[str, str] | None = None
) -> None:
    """Every turn: roll again up to twice keeping random dice, then write a random legal cell
    (the committed seeds `reveals` revealed after the start)."""
    dice = SeededDice(0)  # unused by a fair game: its dice come from the seed
    lobby.start(session, session.creator, NOW, dice)
    for player, seed in (reveals or {}).items():
        seeds.reveal(session, player, seed, NOW, dice)
    while session.status == "running":
        game = session.game()
        player = game.players[game.seat]
        for _ in range(rng.randint(0, 2)):
            if not game.can_reroll():
                break
            keep = sorted(rng.sample(range(game.layout.dice_count), rng.randint(0, 4)))
            turns.roll(session, player, keep, None, dice)
            game = session.game()
        column, row, _ = rng.choice(game.legal_cells())
        layout = game.layout
        turns.write(
            session,
            player,
            layout.columns[column].id,
            layout.grid.rows[row].id,
            None,
            now=NOW,
            dice=dice,
        )


def _record(session: GameSession) -> dict[str, Any]:
    return dice_record(session, "verify-1").model_dump(by_alias=True, mode="json")


# ------------------------------------------------------------------------------ the scheme


def test_face_is_a_keyed_hash_of_the_position() -> None:
    # given a game key
    key = fair_dice.game_key(SEED, "game-1", {})
    # when the same position is derived twice, and neighbouring positions once
    faces = [fair_dice.face(key, 1, 1, die) for die in range(5)]
    # then a position always gives the same face, from 1 to 6, and the key decides it
    assert faces == [fair_dice.face(key, 1, 1, die) for die in range(5)]
    assert all(1 <= face <= 6 for face in faces)
    other = fair_dice.game_key(SEED, "game-2", {})
    assert [fair_dice.face(other, t, 1, 0) for t in range(1, 40)] != [
        fair_dice.face(key, t, 1, 0) for t in range(1, 40)
    ]


def test_game_key_mixes_in_every_client_seed() -> None:
    # given one server seed and game
    plain = fair_dice.game_key(SEED, "game-1", {})
    # when players add seeds (in any order)
    one = fair_dice.game_key(SEED, "game-1", {"ana": "lucky"})
    both = fair_dice.game_key(SEED, "game-1", {"ana": "lucky", "ben": "7"})
    same = fair_dice.game_key(SEED, "game-1", {"ben": "7", "ana": "lucky"})
    # then each seed changes the key, and the order they came in does not
    assert len({plain, one, both}) == 3
    assert both == same


def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    # given a seed / when committed / then it is SHA-256 of its 32 bytes, checkable by anyone
    assert fair_dice.commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert fair_dice.seed_matches(SEED, fair_dice.commitment(SEED))
    assert not fair_dice.seed_matches("00" * 32, fair_dice.commitment(SEED))


def test_roll_dice_keeps_kept_faces_and_derives_the_others() -> None:
    # given the dice after roll 1 of turn 4
    key = fair_dice.game_key(SEED, "game-1", {})
    first = fair_dice.roll_dice(key, 4, 1, (), (), 5)
    # when roll 2 keeps dice 0 and 3
    second = fair_dice.roll_dice(key, 4, 2, first, (0, 3), 5)
    # then those keep their faces, and the others are the faces of their positions at roll 2
    assert (second[0], second[3]) == (first[0], first[3])
    assert [second[d] for d in (1, 2, 4)] == [fair_dice.face(key, 4, 2, d) for d in (1, 2, 4)]


def test_derived_faces_show_no_bias_over_a_million_dice() -> None:
    # given a fixed key (a fixed seed: the figure is the same on every run)
    key = fair_dice.game_key(SEED, "chi-square", {})
    # when a million dice are derived
    counts = Counter(fair_dice.face(key, n // 6, 1, n % 6) for n in range(1_000_000))
    # then the chi-square statistic (5 degrees of freedom) is far from the 0.1% tail (20.5)
    expected = 1_000_000 / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    print(f"chi-square over 1,000,000 derived dice: {chi_square:.2f} (5 d.f.; 0.1% tail 20.52)")
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert chi_square < 20.52


# ------------------------------------------------------------------------------ a whole game


def test_fair_game_recomputed_from_its_revealed_seed_matches_every_roll() -> None:
    # given a 2-player game played to the end with client seeds and random locks
    session = _table(2, preset=1)
    own = {"player-0": "ana's-own-seed", "player-1": "42"}
    for player, seed in own.items():
        seeds.commit(session, player, fair_dice.seed_commitment(seed))
    _play_to_end(session, random.Random(3), own)

    # when its dice record is asked for, and checked as a third party would
    record = _record(session)
    verdict = verify_record(record)

    # then every turn is there, every die matches, and the seed matches its commitment
    assert session.status == "finished"
    assert record["mismatch"] is None and record["seedMatchesCommitment"] is True
    assert record["clientSeeds"] == own
    assert len(record["turns"]) == session.turn
    assert verdict == {"ok": True, "turns": session.turn}


def test_fair_game_with_one_altered_roll_is_found_at_that_roll() -> None:
    # given the record of a finished game, one die of turn 7's second roll changed
    session = _table(2, preset=1)
    _play_to_end(session, random.Random(5))
    record = _record(session)
    index = next(i for i, text in enumerate(record["turns"]) if ";" in text and i >= 6)
    seat, label, rolls = record["turns"][index].split(":", 2)
    first, second = rolls.split(";")[:2]
    kept, dice = second.split(":")
    changed = next(d for d in range(5) if str(d) not in kept)
    faces = list(dice)
    faces[changed] = str(int(faces[changed]) % 6 + 1)
    rest = rolls.split(";")[2:]
    record["turns"][index] = ":".join(
        [seat, label, ";".join([first, f"{kept}:{''.join(faces)}", *rest])]
    )

    # when it is checked / then the altered die is the one reported
    verdict = verify_record(record)
    assert verdict["ok"] is False
    assert verdict["mismatch"]["turn"] == index + 1
    assert (verdict["mismatch"]["roll"], verdict["mismatch"]["die"]) == (2, changed)


def test_fair_game_record_with_another_seed_is_refused() -> None:
    # given a finished game's record whose seed was swapped
    session = _table(1, preset=1)
    _play_to_end(session, random.Random(1))
    record = _record(session) | {"seed": "00" * 32}
    # when checked / then the commitment gives it away
    assert verify_record(record) == {"ok": False, "error": "the seed does not match its commitment"}


def test_fair_game_seed_is_in_no_view_before_the_end() -> None:
    # given a game with its seed
    session = _table(2, preset=1)
    views = [encode(game_view(session))]
    # when it is played, every view kept
    dice = SeededDice(0)
    lobby.start(session, "player-0", NOW, dice)
    rng = random.Random(2)
    while session.status == "running":
        views.append(encode(game_view(session)))
        game = session.game()
        column, row, _ = rng.choice(game.legal_cells())
        player = game.players[game.seat]
        layout = game.layout
        column_id, row_id = layout.columns[column].id, layout.grid.rows[row].id
        turns.write(session, player, column_id, row_id, None, now=NOW, dice=dice)

    # then the commitment is in every one, the seed in none but the last, after the end
    assert all(fair_dice.commitment(SEED) in view for view in views)
    assert not any(SEED in view for view in views)
    assert game_view(session).fairness.seed == SEED  # type: ignore[union-attr]


def test_dice_record_of_a_running_game_is_refused() -> None:
    # given a running game / when its dice record is asked for / then it is refused
    session = _table(1, preset=1)
    lobby.start(session, "player-0", NOW, SeededDice(0))
    with pytest.raises(GameActionError) as refused:
        dice_record(session, "r")
    assert refused.value.code == "wrong_status"


def test_dice_record_of_the_largest_game_fits_one_frame() -> None:
    # given a 4-player game of nine columns, played to the end rolling three times a turn
    session = _table(4, preset=7)
    _play_to_end(session, random.Random(9))
    # when its record is encoded / then it fits API Gateway's frame
    size = len(encode(dice_record(session, "r")).encode())
    assert session.status == "finished"
    assert size < MAX_FRAME_BYTES


# ------------------------------------------------------------------------------ client seeds


def test_add_seed_is_retired_with_a_code_of_its_own() -> None:
    # given a waiting table / when a seat sends a seed in the clear / then it is refused, with
    # the way to commit one instead, and no seed is taken
    session = _table(2, preset=1)
    with pytest.raises(GameActionError) as refused:
        lobby.add_seed(session, "player-1", "early")
    assert refused.value.code == "seed_retired"
    assert session.fair is not None and session.fair.client_seeds == {}


def test_a_game_of_yamb_dice_2_with_seeds_sent_in_the_clear_still_verifies() -> None:
    # given a game stored under /2, whose seeds were added in the clear (no commitments)
    session = _table(2, preset=1)
    assert session.fair is not None
    session.fair.scheme = fair_dice.SCHEME_2
    session.fair.client_seeds = {"player-0": "old-style", "player-1": "7"}
    _play_to_end(session, random.Random(31))
    # when checked / then it verifies as it was
    record = _record(session)
    assert (record["scheme"], record["commitments"]) == ("yamb-dice/2", {})
    assert verify_record(record) == {"ok": True, "turns": session.turn}


# ------------------------------------------------------------------------------ same dice


@pytest.mark.parametrize("players", [2, 4])
def test_same_dice_every_player_turn_k_roll_r_die_d_shows_one_face(players: int) -> None:
    # given a same-dice table, every player keeping different dice
    session = _table(players, seed=uuid.uuid4().hex * 2, preset=1, sameDice=True)
    _play_to_end(session, random.Random(players))
    assert session.fair is not None

    # when every rolled die is gathered by (the player's own turn, roll, position)
    faces: dict[tuple[int, int, int], set[int]] = {}
    per_seat: Counter[int] = Counter()
    for turn in map(fair_dice.parse_turn, session.fair.turns):
        per_seat[turn.seat] += 1
        assert turn.label == per_seat[turn.seat]  # the player's own turn number
        for number, roll in enumerate(turn.rolls, start=1):
            for die, face in enumerate(roll.dice):
                if die not in roll.kept:
                    faces.setdefault((turn.label, number, die), set()).add(face)

    # then each position shows one face to everyone, and every player met the same roll 1
    assert all(len(seen) == 1 for seen in faces.values())
    assert all(seats == per_seat[0] for seats in per_seat.values())
    assert verify_record(_record(session))["ok"] is True


def test_same_dice_in_2_vs_2_is_refused_at_creation() -> None:
    # given / when a 2 vs 2 table asks for the same dice / then the settings say why
    with pytest.raises(InvalidSettingsError, match="2 vs 2") as refused:
        validate_settings({"players": 4, "pairs": True, "preset": 1, "sameDice": True})
    assert refused.value.problems[0][0] == ("same_dice", "pairs")


# ------------------------------------------------------------------------------ bad records


@pytest.mark.parametrize("text", ["", "0:1:", "0:1:3512x", "a:1:35126", "0:1:35126;0235446"])
def test_parse_turn_of_a_malformed_line_says_so(text: str) -> None:
    with pytest.raises(ValueError, match="not a turn of a dice record"):
        fair_dice.parse_turn(text)


def test_record_with_a_turn_left_out_is_not_whole() -> None:
    # given a finished game's record with its 5th turn removed (every other die still matches)
    session = _table(2, preset=1)
    _play_to_end(session, random.Random(4))
    record = _record(session)
    del record["turns"][4]
    # when checked / then the labels give it away
    verdict = verify_record(record)
    assert verdict["ok"] is False
    assert verdict["error"].startswith("the record has turn 6 and no turn labelled 5")


def test_dice_record_that_lost_stored_turns_is_refused() -> None:
    # given a finished game whose first 12 turns were stored apart and are gone
    session = _table(1, preset=1)
    _play_to_end(session, random.Random(6))
    assert session.fair is not None
    session.fair.turns = session.fair.turns[12:]
    session.fair.archived_chunks = 1
    # when its record is asked for without them / then it is refused, not answered in part
    with pytest.raises(GameActionError, match="no longer whole"):
        dice_record(session, "r", archived=[])


# ------------------------------------------------------------------------------ seats (issue 32)


def _with_seat(record: dict[str, Any], index: int, seat: int) -> dict[str, Any]:
    turns = list(record["turns"])
    _, rest = turns[index].split(":", 1)
    turns[index] = f"{seat}:{rest}"
    return record | {"turns": turns}


def test_a_record_whose_seat_was_changed_no_longer_matches() -> None:
    # given a finished 2-player game of the current scheme, which binds seats into the dice
    session = _table(2, preset=1)
    _play_to_end(session, random.Random(8))
    record = _record(session)
    assert record["scheme"] == fair_dice.SCHEME and verify_record(record)["ok"] is True

    # when its first turn is told as the other seat's / then its dice give it away
    verdict = verify_record(_with_seat(record, 0, 1))
    assert verdict["ok"] is False
    assert verdict["mismatch"]["turn"] == 1


def test_a_game_stored_before_seats_were_bound_verifies_as_it_was() -> None:
    # given a game whose dice follow yamb-dice/1 (stored before /2: no scheme in its item)
    session = _table(2, preset=1)
    assert session.fair is not None
    stored = session.fair.model_dump(exclude={"scheme"})
    session.fair = type(session.fair).model_validate(stored)
    assert session.fair.scheme == "yamb-dice/1"
    _play_to_end(session, random.Random(9))

    # when its record is checked / then it verifies under /1 (whose seat digits are not bound)
    record = _record(session)
    assert record["scheme"] == "yamb-dice/1"
    assert verify_record(record) == {"ok": True, "turns": session.turn}


def test_same_dice_tables_keep_one_face_for_every_seat_under_the_new_scheme() -> None:
    # given a same-dice table of two played to the end
    session = _table(2, preset=1, same_dice=True)
    _play_to_end(session, random.Random(10))
    record = _record(session)

    # then it verifies, and both seats' first turns rolled the same first dice (no seat in them)
    assert verify_record(record)["ok"] is True
    firsts = {}
    for text in record["turns"]:
        seat, label, rolls = text.split(":", 2)
        if label == "1":
            firsts[seat] = rolls.split(";")[0]
    assert len(firsts) == 2 and len(set(firsts.values())) == 1
