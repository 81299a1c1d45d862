"""A hint (product G11): what the strongest bot would do now, for a player practising alone.

Only where no other person plays (a solo table, or one against bots) and never in a
tournament (a duplicate's solo game is ranked against the other entrants'): between people a
hint would be help from outside. Only after roll 1 or 2 of the player's own turn, as the question it
answers is which dice to keep, or which cell to write now rather than roll again. The optimal
player answers on the Yahtzee-family grids, the hard bot elsewhere (and where the optimal
player's table is not built).
"""

from yamb import bots
from yamb.game import Game
from yamb.i18n import Text
from yamb.session import turns
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession

HINT_ROLLS = (1, 2)


def hint(
    session: GameSession, player_id: str, turn: int | None
) -> tuple[bots.Level, Game, bots.BotMove]:
    """The level that answers, the game as the player sees it, and the move it advises."""
    if session.people > 1:
        raise GameActionError(
            Text("hints are for practice: a table where other people play gets none"),
            code="hint_not_allowed",
        )
    if session.tournament is not None:
        # A duplicate's table is solo, but its score is ranked against every other entrant's.
        raise GameActionError(
            Text("hints are for practice: a tournament game gets none"), code="hint_not_allowed"
        )
    game = turns.current(session, player_id, turn)
    if game.roll not in HINT_ROLLS:
        raise GameActionError(
            Text(
                "a hint answers after roll 1 or 2 of your turn: which dice to keep, or which cell "
                "to write"
            ),
            code="hint_not_now",
        )
    grid = game.layout.grid.id
    if "optimal" in bots.levels_for(grid):
        try:
            return "optimal", game, bots.choose(game, "optimal")
        except bots.BotLevelError:  # its table is not built where this runs
            pass
    return "hard", game, bots.choose(game, "hard")
