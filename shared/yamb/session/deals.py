"""A duplicate tournament's deal kept secret while the tournament runs (docs/dice.md,
"Tournaments"). Every game of a duplicate has the same dice (`FairPlay.deal`, the tournament's
id): one entrant's ended game shows every roll still to come in every other entrant's game, and
an entrant may still start theirs while the tournament runs. So whatever shows a deal game's
dice to anyone (its seed, its dice record, its replay, watching it) waits until the tournament is
over: finished, paid or cancelled, a status that never goes back to running. The player's own
running game shows them their own dice as they roll them, as any game does."""

from collections.abc import Callable

from yamb.i18n import Text
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession

# A tournament in one of these has no game to come and none under way (docs/competition.md).
OVER = frozenset({"finished", "paid", "cancelled"})

DEAL_IN_PLAY = Text(
    "every entrant of this duplicate tournament plays the same dice: this game's dice, seed "
    "and replay are shown, and it can be watched, once the tournament is over"
)


def tournament_over(status: str | None) -> bool:
    """Whether a tournament of this status is over (None: no such tournament, so not known
    to be over: the deal stays withheld)."""
    return status in OVER


def deal_of(session: GameSession) -> str | None:
    """The tournament whose deal the game was dealt (a duplicate's), or None."""
    return None if session.fair is None else session.fair.deal


def withheld(session: GameSession, over: Callable[[str], bool]) -> bool:
    """Whether the game's dice are to be kept from everyone now: a deal game whose tournament
    is not over (`over` reads the tournament; it is asked only for a deal game)."""
    tournament = deal_of(session)
    return tournament is not None and not over(tournament)


def require_shown(session: GameSession, over: Callable[[str], bool]) -> None:
    """Refuses (`deal_in_play`) what would show a deal game's dice before its tournament is over."""
    if withheld(session, over):
        raise GameActionError(DEAL_IN_PLAY, code="deal_in_play")
