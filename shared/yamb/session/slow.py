"""The slow game (rules.md 7): no turn clock and no return deadline, one deadline for the whole
game. When it passes, the sheets not filled lose, the best filled sheet wins (ties all win), and
the game is cancelled when nobody filled theirs."""

from datetime import datetime, timedelta

from yamb.session import decisions
from yamb.session.effects import Effects
from yamb.session.endings import end, finish
from yamb.session.model import GameSession

# Slow games a player may sit at beside a regular game, free and with premium.
FREE_SLOW_GAMES = 1
PREMIUM_SLOW_GAMES = 3


def schedule(session: GameSession, started: datetime) -> None:
    hours = session.settings.slow_deadline_hours
    if session.settings.turn_type == "slow" and hours is not None:
        session.slow_deadline = started + timedelta(hours=hours)


def slow_game_is_due(session: GameSession, now: datetime, tolerance: timedelta) -> bool:
    deadline = session.slow_deadline
    return session.status == "running" and deadline is not None and deadline <= now + tolerance


def expire_slow_game(session: GameSession, now: datetime) -> Effects:
    game = session.game()
    effects = Effects()
    if session.winners:
        # The others left: the last player's win stands (rules.md 8), their sheet unfinished.
        session.finish_offer = None
        finish(session, game, now, "declined_finish", effects)
        return effects
    filled = [seat for seat in session.remaining_seats() if game.sheets[seat].is_full()]
    if not filled:
        end(session, now, "cancelled", [], effects)
        return effects
    totals = {seat: game.sheets[seat].total() for seat in filled}
    best = max(totals.values())
    leaders = [game.players[seat] for seat in filled if totals[seat] == best]
    end(session, now, "deadline", decisions.break_tie(session, leaders), effects)
    return effects
