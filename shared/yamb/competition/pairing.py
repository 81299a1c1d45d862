"""Who plays whom (issue 32).

- arena: the free entrants who are there, in standings order, each with the next one, but not
  twice in a row with the same opponent when another can be had (Lichess pairs as players
  finish; an odd one waits for the next game to end);
- Swiss: in standings order, each with the best-placed player they have not met, a repeat never
  (found by backtracking, which at tournament sizes is instant); the odd one out is the
  lowest-placed player who has had no bye yet. When no round without a repeat exists, the round
  is refused (`pairing_would_repeat`) rather than played unfairly."""

from collections.abc import Sequence

from yamb.competition.standings import Entry, Standing
from yamb.competition.tournaments import TournamentError
from yamb.i18n import Text

type Pair = tuple[str, str]


def arena_pairs(free: Sequence[Standing]) -> list[Pair]:
    """Pairs of the free entrants (`free` in standings order)."""
    waiting = [row.entry for row in free]
    pairs: list[Pair] = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        last_met = first.opponents[-1] if first.opponents else None
        choice = next((e for e in waiting if e.player_id != last_met), waiting[0])
        waiting.remove(choice)
        pairs.append((first.player_id, choice.player_id))
    return pairs


def swiss_round(rows: Sequence[Standing]) -> tuple[list[Pair], str | None]:
    """A round's pairs and its bye (None: an even number), with no two players who have met."""
    order = [row.entry for row in rows]
    candidates: list[Entry | None] = [None]
    if len(order) % 2:
        never = [e for e in reversed(order) if e.byes == 0]
        candidates = [*never, *(e for e in reversed(order) if e.byes > 0)]
    for bye in candidates:
        players = [e for e in order if bye is None or e.player_id != bye.player_id]
        found = _match(players, {e.player_id: set(e.opponents) for e in order})
        if found is not None:
            return found, None if bye is None else bye.player_id
    raise TournamentError(
        Text("every pairing of this round would repeat a game already played"),
        code="pairing_would_repeat",
    )


def _match(players: list[Entry], met: dict[str, set[str]]) -> list[Pair] | None:
    if not players:
        return []
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        if other.player_id in met[first.player_id]:
            continue
        found = _match(rest[:index] + rest[index + 1 :], met)
        if found is not None:
            return [(first.player_id, other.player_id), *found]
    return None
