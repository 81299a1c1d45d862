"""A dice record checked by a verifier written from docs/dice.md alone (issue 32): it imports
nothing of the project's dice code (no `yamb.fair_dice`, no `yamb verify`), only hashlib and
hmac, and follows the page's steps. Records of real games (two seats with committed seeds, a
same-dice table, games of the older schemes) verify; a changed seat, a changed die, a turn left
out, another seed and a client seed that is not the one committed to are each caught."""

import hashlib
import hmac
import random
from typing import Any

from yamb.session import seeds

from tests.unit.test_fair_dice import _play_to_end, _record, _table

# ------------------------------------------------------------------ the verifier, from the doc


def _game_key(seed: str, scheme: str, game_id: str, client_seeds: dict[str, str]) -> bytes:
    lines = [scheme, game_id, *(f"{p}={client_seeds[p]}" for p in sorted(client_seeds))]
    return hmac.new(bytes.fromhex(seed), "\n".join(lines).encode("utf-8"), "sha256").digest()


def _face(key: bytes, text: str) -> int:
    block = 0
    while True:
        for byte in hmac.new(key, f"{text}/{block}".encode("ascii"), "sha256").digest():
            if byte < 252:
                return byte % 6 + 1
        block += 1


def check(record: dict[str, Any]) -> str | None:
    """None when the record holds, else what is wrong."""
    scheme = record["scheme"]
    if scheme not in ("yamb-dice/1", "yamb-dice/2", "yamb-dice/3"):
        return "unknown scheme"
    if hashlib.sha256(bytes.fromhex(record["seed"])).hexdigest() != record["commitment"]:
        return "the seed is not the one committed to"
    if scheme == "yamb-dice/3":
        for player, client_seed in record["clientSeeds"].items():
            hashed = hashlib.sha256(client_seed.encode("ascii")).hexdigest()
            if record["commitments"].get(player) != hashed:
                return f"{player}'s seed is not the one committed to"
    dealt = record.get("deal") or record["gameId"]  # a duplicate tournament's deal
    key = _game_key(record["seed"], scheme, dealt, record["clientSeeds"])
    with_seat = scheme != "yamb-dice/1" and not record["sameDice"]
    own_turns: dict[str, int] = {}
    for index, text in enumerate(record["turns"], start=1):
        seat, label, rolls = text.split(":", 2)
        # whole: turn i is labelled i, or at a same-dice table the seat's own turn number
        if record["sameDice"]:
            own_turns[seat] = own_turns.get(seat, 0) + 1
            wanted = own_turns[seat]
        else:
            wanted = index
        if int(label) != wanted:
            return f"turn {index} is labelled {label}, not {wanted}"
        previous: list[int] = []
        for number, roll in enumerate(rolls.split(";"), start=1):
            kept, dice = ("", roll) if number == 1 else roll.split(":")
            expected = []
            for die in range(record["diceCount"]):
                if str(die) in kept:
                    expected.append(previous[die])
                    continue
                where = f"{label}/{number}/{die}"
                expected.append(_face(key, f"{seat}/{where}" if with_seat else where))
            if [int(face) for face in dice] != expected:
                return f"turn {index} roll {number} differs"
            previous = expected
    return None


# ------------------------------------------------------------------ real records through it


def _finished(players: int, seed: int, **settings: Any) -> dict[str, Any]:
    """A finished game whose every seat committed to a seed and revealed it after the start."""
    session = _table(players, preset=1, **settings)
    own = {player: f"seed-of-{player}-{seed}" for player in session.player_ids}
    for player, client_seed in own.items():
        commitment = hashlib.sha256(client_seed.encode()).hexdigest()
        seeds.commit(session, player, commitment)
    _play_to_end(session, random.Random(seed), own)
    return _record(session)


def test_the_doc_verifier_accepts_records_of_real_games() -> None:
    two = _finished(2, 21)
    same = _finished(3, 22, sameDice=True)
    assert two["scheme"] == same["scheme"] == "yamb-dice/3"
    assert len(two["clientSeeds"]) == 2 and len(two["commitments"]) == 2
    assert check(two) is None
    assert check(same) is None


def test_the_doc_verifier_accepts_a_game_of_yamb_dice_2_with_seeds_in_the_clear() -> None:
    session = _table(2, preset=1)
    assert session.fair is not None
    session.fair.scheme = "yamb-dice/2"
    session.fair.client_seeds = {"player-1": "sent-in-the-clear"}
    _play_to_end(session, random.Random(25))
    record = _record(session)
    assert record["scheme"] == "yamb-dice/2" and record["commitments"] == {}
    assert check(record) is None


def test_the_doc_verifier_accepts_a_game_of_the_older_scheme() -> None:
    session = _table(2, preset=1)
    assert session.fair is not None
    session.fair = type(session.fair).model_validate(session.fair.model_dump(exclude={"scheme"}))
    _play_to_end(session, random.Random(23))
    record = _record(session)
    assert record["scheme"] == "yamb-dice/1"
    assert check(record) is None


def test_the_doc_verifier_catches_every_tampering() -> None:
    # given a true record of two seats
    record = _finished(2, 24)
    turns = record["turns"]

    def told(index: int, text: str) -> dict[str, Any]:
        return record | {"turns": [*turns[:index], text, *turns[index + 1 :]]}

    seat, rest = turns[0].split(":", 1)
    other_seat = told(0, f"{1 - int(seat)}:{rest}")
    first_dice = turns[0].split(":")[2].split(";")[0]
    changed = str(int(first_dice[0]) % 6 + 1) + first_dice[1:]
    other_die = told(0, turns[0].replace(first_dice, changed, 1))
    left_out = record | {"turns": turns[1:]}
    other_seed = record | {"seed": "00" * 32}
    other_client_seed = record | {"clientSeeds": record["clientSeeds"] | {"player-0": "mine"}}
    uncommitted = record | {"clientSeeds": record["clientSeeds"] | {"stranger": "x"}}

    # then each is caught
    assert check(other_seat) == "turn 1 roll 1 differs"
    assert check(other_die) == "turn 1 roll 1 differs"
    assert check(left_out) is not None and "labelled" in str(check(left_out))
    assert check(other_seed) == "the seed is not the one committed to"
    assert check(other_client_seed) == "player-0's seed is not the one committed to"
    assert check(uncommitted) == "stranger's seed is not the one committed to"


def test_the_doc_verifier_accepts_a_duplicate_tournaments_games_and_their_one_deal() -> None:
    # given two solo games of a duplicate tournament: one seed derived from the tournament's,
    # the tournament's id as the deal, played with different choices
    from yamb.competition.tournaments import DEAL, game_seed

    tournament_seed = "5e" * 32
    records = []
    for game_id, rng in (("g-one", 31), ("g-two", 32)):
        session = _table(1, preset=1, seed=game_seed(tournament_seed, DEAL))
        session.game_id = game_id
        assert session.fair is not None
        session.fair.deal = "duplicate-1"
        _play_to_end(session, random.Random(rng))
        records.append(_record(session))
    # then each verifies from the doc alone, with the deal in the key, and dealt the same first
    # roll of every turn
    for record in records:
        assert record["deal"] == "duplicate-1"
        assert check(record) is None
        assert check({**record, "deal": None}) is not None  # the game's id instead: refused
    firsts = [[turn.split(";")[0] for turn in record["turns"]] for record in records]
    assert firsts[0] == firsts[1]
    # and `yamb verify` agrees
    from yamb_tools.cli import verify_record

    assert all(verify_record(record)["ok"] for record in records)
    assert not verify_record({**records[0], "deal": None})["ok"]
