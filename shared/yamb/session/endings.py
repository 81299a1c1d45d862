"""How a game ends (rules.md 8): the best totals win, ties all win, and a winner who played
fewer than half of their turns cancels the game."""

from datetime import datetime

from yamb.game import Game
from yamb.session import clock, decisions, fairplay
from yamb.session.effects import Effects
from yamb.session.model import GameSession, Outcome

FINISHED_SHARE_NEEDED = 0.5


def finish(
    session: GameSession, game: Game, now: datetime, outcome: Outcome, effects: Effects
) -> None:
    """Every remaining sheet is full, or the last player declined to finish theirs. A winner
    left alone counts the turns played when the others left, whether they finished or not."""
    winners = session.winners or decisions.break_tie(session, _players_of(session, game.winners()))
    cells = game.layout.cells_per_sheet
    for player in winners:
        seat = session.engine_seat(session.player_ids.index(player))
        played = game.turns_played[seat]
        if session.offered_turns is not None:
            played = min(played, session.offered_turns)
        if played < FINISHED_SHARE_NEEDED * cells:
            end(session, now, "cancelled", [], effects)
            return
    end(session, now, outcome, winners, effects)


def _players_of(session: GameSession, engine_winners: list[str]) -> list[str]:
    """The players behind the engine's winners: in 2 vs 2 a team's first player stands for the
    team, and both its players win."""
    if not session.settings.pairs:
        return engine_winners
    ids = session.player_ids
    return [ids[seat] for seat in range(len(ids)) if ids[seat - seat % 2] in engine_winners]


def end(
    session: GameSession, now: datetime, outcome: Outcome, winners: list[str], effects: Effects
) -> None:
    session.status = "cancelled" if outcome == "cancelled" else "finished"
    session.outcome = outcome
    session.winners = winners
    session.ended_at = now
    session.finish_offer = None
    session.pending = None
    clock.stop(session)
    for index in range(len(session.seats)):
        session.close_own_turn(index)
    fairplay.settle(session, effects)
    for seat in session.seats:
        seat.return_deadline, seat.paused = None, False
        if not seat.left:
            effects.players[seat.player_id] = "release"
    effects.ended = True


def records_result(session: GameSession) -> bool:
    """Only finished games whose remaining sheets are all full enter results."""
    if session.status != "finished" or session.outcome == "declined_finish":
        return False
    game = session.game()
    return all(game.sheets[session.engine_seat(i)].is_full() for i in session.remaining_seats())
