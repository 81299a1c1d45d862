"""Dice anyone can verify (product P5; docs/dice.md is the scheme for third-party checkers).

Before the first roll the server fixes a secret seed and publishes its SHA-256 commitment. Every
die of the game is a keyed hash of its position: the game key (the seed mixed with the game id
and the players' own seeds), the turn label, the roll number and the die's position, turned into
a face by rejection sampling (no modulo bias). When the game ends the seed is revealed, and
every roll of the game's dice record can be recomputed.

In a same-dice table (P2) the turn label is the player's own turn number, not the table's, so
that every player's k-th turn, roll r, die d shows the same face: a die a player keeps stays
what it was, a die rolled again takes the value of its position at that roll.
"""

import hashlib
import hmac
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# The scheme of new games: /3 takes the players' seeds committed first and revealed after the
# start (every client seed has its commitment); /2 bound each turn's seat into its dice (except
# at same-dice tables, whose point is the same dice for every seat), /3 too; /1 and /2 games,
# stored before, verify as they were.
SCHEME = "yamb-dice/3"
SCHEME_2 = "yamb-dice/2"
SCHEME_1 = "yamb-dice/1"
SCHEMES = (SCHEME_1, SCHEME_2, SCHEME)
SEED_BYTES = 32
# A die's face is one byte below 252 (6 x 42): those 252 values split evenly into 6 faces.
_ACCEPT_BELOW = 252
CLIENT_SEED_MAX = 64
CLIENT_SEED_PATTERN = re.compile(r"^[\x21-\x7e]{1,64}$")  # printable ASCII, no spaces
SEED_COMMITMENT_PATTERN = re.compile(r"^[0-9a-f]{64}$")


def commitment(server_seed: str) -> str:
    """SHA-256 of the seed's bytes, in hex: published before the first roll."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def seed_commitment(client_seed: str) -> str:
    """A player's commitment to their seed (`yamb-dice/3`): SHA-256 of its text (printable
    ASCII: its UTF-8 bytes are its ASCII bytes), in hex, sent while the table waits; the seed
    itself is revealed after the start."""
    return hashlib.sha256(client_seed.encode()).hexdigest()


def commits_seeds(scheme: str) -> bool:
    """Whether the scheme's client seeds were committed first (`yamb-dice/3` and later)."""
    return scheme not in {SCHEME_1, SCHEME_2}


def seeds_problem(
    client_seeds: Mapping[str, str], commitments: Mapping[str, str], scheme: str
) -> str | None:
    """Why the client seeds are not the committed ones, or None: under a scheme that commits
    seeds, each client seed has its player's commitment and is its SHA-256's preimage."""
    if not commits_seeds(scheme):
        return None
    for player in sorted(client_seeds):
        committed = commitments.get(player)
        if committed is None:
            return f"{player}'s seed was never committed to"
        if not hmac.compare_digest(seed_commitment(client_seeds[player]), committed):
            return f"{player}'s seed is not the one committed to"
    return None


def game_key(
    server_seed: str, game_id: str, client_seeds: Mapping[str, str], scheme: str = SCHEME
) -> bytes:
    """HMAC-SHA256 keyed with the seed over the scheme, the game id and every client seed
    (`player=seed` lines, by player id), one line each."""
    lines = [
        scheme,
        game_id,
        *(f"{player}={client_seeds[player]}" for player in sorted(client_seeds)),
    ]
    return hmac.new(bytes.fromhex(server_seed), "\n".join(lines).encode(), hashlib.sha256).digest()


def face(key: bytes, turn: int, roll: int, die: int, seat: int | None = None) -> int:
    """The face at (turn label, roll, die): the first byte below 252 of HMAC-SHA256(key,
    "turn/roll/die/block") for block 0, 1, ... gives byte % 6 + 1. With a seat (`yamb-dice/2`
    away from same-dice tables) the text is "seat/turn/roll/die/block": the turn's dice are
    its seat's, so a record whose seat digit was changed no longer matches."""
    where = f"{turn}/{roll}/{die}" if seat is None else f"{seat}/{turn}/{roll}/{die}"
    block = 0
    while True:
        digest = hmac.new(key, f"{where}/{block}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < _ACCEPT_BELOW:
                return byte % 6 + 1
        block += 1  # pragma: no cover - all 32 bytes rejected: once in 2**192


def roll_dice(  # noqa: PLR0917 - a die's position, spelled out
    key: bytes,
    turn: int,
    roll: int,
    previous: Sequence[int],
    kept: Iterable[int],
    count: int,
    seat: int | None = None,
) -> tuple[int, ...]:
    """The dice after roll `roll` (1 for the first) of turn label `turn` (of `seat` where the
    scheme binds seats): kept positions keep their faces from `previous`, the others take
    their derived faces."""
    held = set(kept)
    return tuple(
        previous[die] if die in held else face(key, turn, roll, die, seat) for die in range(count)
    )


def binds_seats(scheme: str, same_dice: bool) -> bool:
    """Whether a turn's seat goes into its dice: `yamb-dice/2`, away from same-dice tables."""
    return scheme != SCHEME_1 and not same_dice


# ------------------------------------------------------------------------------ checking


@dataclass(frozen=True, slots=True)
class RecordedRoll:
    kept: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RecordedTurn:
    """One turn as played: the seat, its turn label, and its rolls in order."""

    seat: int
    label: int
    rolls: tuple[RecordedRoll, ...]


@dataclass(frozen=True, slots=True)
class Mismatch:
    turn: int  # 1-based index in the record
    roll: int
    die: int
    expected: int | None  # None: a die the record has too many
    recorded: int | None  # None: a die the record lacks


# What follows the dice of a turn in the game's record: its moves (yamb.session.replays).
MOVES_MARK = "|"


def dice_part(text: str) -> str:
    """A turn of the game's record without its moves: the turn of the dice record."""
    return text.split(MOVES_MARK, 1)[0]


def parse_turn(text: str) -> RecordedTurn:
    """One turn of a dice record: `seat:label:dice`, then `;kept:dice` per later roll (the
    moves that may follow are not the dice's)."""
    try:
        seat, label, rolls = dice_part(text).split(":", 2)
        first, *later = rolls.split(";")
        parsed = [RecordedRoll((), _faces(first))]
        for roll in later:
            kept, dice = roll.split(":")
            parsed.append(RecordedRoll(tuple(map(int, kept)), _faces(dice)))
        return RecordedTurn(int(seat), int(label), tuple(parsed))
    except ValueError:
        raise ValueError(f"not a turn of a dice record: {text[:80]!r}") from None


def _faces(digits: str) -> tuple[int, ...]:
    if not digits or not digits.isdigit():
        raise ValueError(digits)
    return tuple(map(int, digits))


def first_mismatch(
    key: bytes, turns: Sequence[RecordedTurn], count: int, *, seats: bool = False
) -> Mismatch | None:
    """The first die of the record that the key does not give, or None when all match;
    `seats`: the scheme binds each turn's seat into its dice (`binds_seats`)."""
    for index, turn in enumerate(turns, start=1):
        previous: tuple[int, ...] = ()
        for number, recorded in enumerate(turn.rolls, start=1):
            kept = () if number == 1 else recorded.kept
            seat = turn.seat if seats else None
            expected = roll_dice(key, turn.label, number, previous, kept, count, seat)
            for die, value in enumerate(expected):
                shown = recorded.dice[die] if die < len(recorded.dice) else None
                if shown != value:
                    return Mismatch(index, number, die, value, shown)
            if len(recorded.dice) != count:
                return Mismatch(index, number, count, None, recorded.dice[count])
            previous = expected
    return None


def label_problem(turns: Sequence[RecordedTurn], same_dice: bool) -> str | None:
    """Why the record's turn labels are not those of a whole game, or None: the turns are
    labelled 1 to n, each once (in order turn by turn; in a game of own turns a turn joins the
    record when it ends, so the order may differ), or at a same-dice table each seat's turns
    1 to its count, in order. A record with a turn left out or repeated fails here even when
    each of its dice matches."""
    if not same_dice:
        labels = sorted(turn.label for turn in turns)
        for expected, label in enumerate(labels, start=1):
            if label != expected:
                what = "twice" if label < expected else "and no turn labelled " + str(expected)
                return f"the record has turn {label} {what}: it is not whole"
        return None
    seen: dict[int, int] = {}
    for index, turn in enumerate(turns, start=1):
        seen[turn.seat] = seen.get(turn.seat, 0) + 1
        if turn.label != seen[turn.seat]:
            expected = seen[turn.seat]
            return f"turn {index} is labelled {turn.label}, not {expected}: the record is not whole"
    return None


def seed_matches(server_seed: str, published: str) -> bool:
    return hmac.compare_digest(commitment(server_seed), published)
