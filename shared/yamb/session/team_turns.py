"""A 2 vs 2 team turn (rules.md 7): the first player proposes, the partner finishes.

The engine plays one sheet per team; the team turn's two parts are two turns of the same
engine seat, each with its own roll 1 and clock. The first player's write is a proposal (its
value shown, the cell left empty); the partner then writes the proposed cell with the better of
the two values (the smaller in Min), or any other legal cell from their own dice. An
announcement binds nobody: it opens that Announced cell for the rest of the team turn. When the
partner's clock runs out, their dice are locked and they get 10 more seconds to choose a cell;
then the proposal is written as it is.
"""

from datetime import datetime, timedelta

from yamb.errors import IllegalMoveError
from yamb.game import Game, LegalCell
from yamb.i18n import Text
from yamb.pairs import merge_proposal
from yamb.session.effects import GameActionError
from yamb.session.model import GameSession, PairsTurn

PARTNER_GRACE = timedelta(seconds=10)


def team(session: GameSession) -> PairsTurn:
    if session.pairs is None:
        session.pairs = PairsTurn()
    return session.pairs


def own_cells(session: GameSession, game: Game) -> dict[tuple[int, int], int]:
    """What the player in turn may write from their own dice: the legal cells, and the
    Announced cells opened this team turn (none while the team is directed)."""
    cells = {(c, r): s for c, r, s in game.legal_cells()}
    if game.obligations[game.seat] is not None or not game.roll:
        return cells
    for column, row, _ in team(session).opened:
        for c, r, s in game.cells_if_announced(column, row):
            if (c, r) == (column, row):
                cells.setdefault((c, r), s)
    return cells


def choices(session: GameSession, game: Game) -> list[LegalCell]:
    """The cells the player in turn may choose now, with the value each would get: the
    partner's include the proposed cell, at the better of the two values."""
    cells = own_cells(session, game)
    turn = team(session)
    if turn.part == 2 and turn.proposal is not None:
        column, row, value = turn.proposal
        cells[(column, row)] = _merged(game, column, row, value, cells.get((column, row)))
    return [(c, r, s) for (c, r), s in sorted(cells.items())]


def _merged(game: Game, column: int, row: int, proposed: int, own: int | None) -> int:
    if own is None:
        return proposed
    return merge_proposal(game.layout.grid, game.layout.grid.rows[row].id, proposed, own)


def announce(session: GameSession, game: Game, column: int, row: int) -> None:
    """Opens an Announced cell for the rest of the team turn; each player announces once."""
    turn = team(session)
    if any(part == turn.part for _, _, part in turn.opened):
        raise IllegalMoveError(
            Text("you have already announced in this team turn"), code="bad_announcement"
        )
    game.announce(column, row)  # the rules of an announcement, checked by the engine
    game.withdraw_announcement()
    turn.opened.append((column, row, turn.part))


def refuse_roll_in_grace(session: GameSession) -> None:
    if session.pairs is not None and session.pairs.grace:
        raise GameActionError(
            Text("your time ran out: the dice are locked, choose a cell"), code="dice_locked"
        )


def propose(game: Game, session: GameSession, column: int, row: int) -> int:
    """The first player's write: the proposal, the cell left empty."""
    cells = own_cells(session, game)
    if (column, row) not in cells:
        game.score_of(column, row)  # raises with the reason the cell is not legal
        raise IllegalMoveError(Text("this cell cannot be written now"), code="illegal_move")
    value = cells[(column, row)]
    team(session).proposal = (column, row, value)
    return value


def start_partner_part(session: GameSession, game: Game) -> None:
    turn = team(session)
    turn.part, turn.grace = 2, False
    game.restart_turn()


def final_write(session: GameSession, game: Game, column: int, row: int) -> int:
    """The partner's write into the team sheet; the value written."""
    turn = team(session)
    own = own_cells(session, game)
    if turn.proposal is not None and turn.proposal[:2] == (column, row):
        value = _merged(game, column, row, turn.proposal[2], own.get((column, row)))
        return game.write_value(column, row, value).score
    if (column, row) not in own:
        game.score_of(column, row)  # raises with the reason the cell is not legal
        raise IllegalMoveError(Text("this cell cannot be written now"), code="illegal_move")
    if (column, row) not in {(c, r) for c, r, _ in game.legal_cells()}:
        game.announce(column, row)  # an opened Announced cell: written as announced
    return game.write(column, row).score


def best_choice(session: GameSession, game: Game) -> tuple[int, int]:
    """What the clock chooses: the best cell (the directed one first, being the only one)."""
    cells = own_cells(session, game)
    if not cells:
        raise IllegalMoveError(Text("no cell can be written"), code="turn_not_started")
    return max(cells, key=lambda cell: (cells[cell], -cell[0], -cell[1]))


def grace_deadline(deadline: datetime) -> datetime:
    return deadline + PARTNER_GRACE


def next_team_turn(session: GameSession) -> None:
    session.pairs = PairsTurn()
