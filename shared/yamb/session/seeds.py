"""The players' own seeds (`yamb-dice/3`, docs/dice.md): committed while the table waits,
revealed after the start, so that nobody chooses theirs last.

While the table waits, each seated player may send the SHA-256 of a seed of their own
(`commit_seed`; another replaces it, leaving takes it away); the commitments are public, the
seeds are not. The start freezes them. If anyone committed, the first roll waits: each committer
reveals their seed (`reveal_seed`), which must hash to their commitment; the seeds revealed stay
in no frame until every commitment is revealed or REVEAL_WINDOW has passed. Then the seeds
revealed are mixed into the game key, a commitment not revealed is dropped and named in
`withheld`, and the first turn begins.

What withholding buys: a player who reveals nothing has chosen between two keys (with their
seed, without it). Without the server's seed, which stays secret until the end, and without the
others' seeds, shown only once the reveals have closed, they cannot tell which dice either key
gives: the choice is blind. Only someone who also knew the server's seed could use it, and then
for one bit, in the open (`withheld` is in every frame and in the dice record).
"""

from datetime import datetime, timedelta

from yamb import fair_dice
from yamb.dice import DiceSource
from yamb.game import Game
from yamb.i18n import Text
from yamb.session.effects import Effects, GameActionError, require_status
from yamb.session.model import FairPlay, GameSession
from yamb.session.turns import begin_turn, next_own_turns

# How long the first roll waits for the committed seeds: a client reveals as soon as it sees
# the start, so a few seconds are plenty; the rest covers a connection that blinks.
REVEAL_WINDOW = timedelta(seconds=15)


def require_seeded(session: GameSession, player_id: str) -> FairPlay:
    """The table's dice, if they take a player's seed from `player_id`."""
    if session.seat_of(player_id) is None:
        raise GameActionError(Text("you do not sit at this table"), code="not_seated")
    fair = session.fair
    if fair is None or session.settings.physical_dice or fair.deal is not None:
        # Stored before verifiable dice existed, real dice rolled at the table, or a
        # duplicate tournament's deal (every game of it has the same dice).
        raise GameActionError(Text("this table's dice take no seeds"), code="not_allowed")
    return fair


def takes_seeds(session: GameSession) -> bool:
    fair = session.fair
    return fair is not None and not session.settings.physical_dice and fair.deal is None


def commit(session: GameSession, player_id: str, commitment: str) -> None:
    """A seated player's commitment to their seed (replacing theirs), until the start."""
    require_status(session, "waiting")
    fair = require_seeded(session, player_id)
    if fair.scheme != fair_dice.SCHEME:
        # A table made before /3 and still waiting: its dice are not rolled, it takes /3 now
        # (and sheds the seeds sent in the clear).
        fair.scheme, fair.client_seeds = fair_dice.SCHEME, {}
    fair.commitments[player_id] = commitment.lower()


def forget(session: GameSession, player_id: str) -> None:
    """A player left the waiting table: their commitment goes with them."""
    if session.fair is not None:
        session.fair.commitments.pop(player_id, None)
        session.fair.client_seeds.pop(player_id, None)


def open_reveals(session: GameSession, game: Game, now: datetime, dice: DiceSource) -> None:
    """At the start: the first turn, now if nobody committed, else once the seeds are in."""
    fair = session.fair
    if fair is not None and fair.commitments and takes_seeds(session):
        fair.reveal_by = now + REVEAL_WINDOW
        return
    first_turns(session, game, now, dice)


def first_turns(session: GameSession, game: Game, now: datetime, dice: DiceSource) -> None:
    if session.own_turns:
        next_own_turns(session, game, now, dice)  # every seat's first turn at once
    else:
        begin_turn(session, game, now, dice)


def reveal(
    session: GameSession, player_id: str, seed: str, now: datetime, dice: DiceSource
) -> Effects | None:
    """A committer's seed, after the start: it must be the one committed to. The last one
    revealed closes the reveals and rolls the first dice."""
    if session.status == "waiting":
        raise GameActionError(
            Text("seeds are revealed once the game has started: until then, send a commitment"),
            code="too_early",
        )
    require_status(session, "running")
    fair = require_seeded(session, player_id)
    committed = fair.commitments.get(player_id)
    if committed is None:
        raise GameActionError(Text("you committed to no seed at this table"), code="no_commitment")
    if fair_dice.seed_commitment(seed) != committed:
        raise GameActionError(
            Text("this seed is not the one you committed to: its SHA-256 differs"),
            code="seed_mismatch",
        )
    if fair.reveal_by is None:
        if fair.client_seeds.get(player_id) == seed:
            return None  # revealed already (a client sending it again): nothing changes
        raise GameActionError(
            Text("the seeds are closed: yours was not revealed in time, the dice go without it"),
            code="reveals_closed",
        )
    fair.reveals[player_id] = seed
    if set(fair.commitments) <= set(fair.reveals):
        close(session, now, dice)
    return Effects()


def due(session: GameSession, now: datetime, tolerance: timedelta) -> bool:
    fair = session.fair
    return (
        session.status == "running"
        and fair is not None
        and fair.reveal_by is not None
        and fair.reveal_by <= now + tolerance
    )


def moments(session: GameSession) -> list[datetime]:
    fair = session.fair
    if session.status != "running" or fair is None or fair.reveal_by is None:
        return []
    return [fair.reveal_by]


def close(session: GameSession, now: datetime, dice: DiceSource) -> Effects:
    """The reveals close (all in, or the deadline): the seeds revealed go into the key, the
    commitments not revealed are dropped and named, and the first turn begins."""
    fair = session.fair
    assert fair is not None
    fair.client_seeds = dict(fair.reveals)
    fair.withheld = sorted(set(fair.commitments) - set(fair.reveals))
    fair.reveals, fair.reveal_by = {}, None
    game = session.game()
    first_turns(session, game, now, dice)
    session.store(game)
    return Effects()
