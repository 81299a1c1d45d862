"""The time bonus tie-break (rules.md 9, product P3): the server measures how long each player
takes to decide, from the moment it gives them dice (their turn's roll 1; the answer to each
roll follows at once) to their write, leaving out the time they are away. Nothing a client
says about time counts.

Equal totals are then separated by total x 1000 + (1000 - whole seconds spent deciding, floored
at 0): among players tied on points, whoever decided faster wins; beyond 1000 s it separates
nothing more.
"""

from datetime import datetime

from yamb.session.model import GameSession

BONUS_SECONDS = 1000


def start(session: GameSession, seat: int, now: datetime) -> None:
    """The seat in turn has dice in front of it (a new turn, or back from being away)."""
    if session.settings.time_bonus and session.seats[seat].present:
        session.slot(seat).decision_from = now


def charge(session: GameSession, seat: int, now: datetime) -> None:
    """The time since the dice were given goes to the seat; the measure stops."""
    slot = session.slot(seat)
    started = slot.decision_from
    if session.settings.time_bonus and started is not None:
        elapsed = max(0, int((now - started).total_seconds() * 1000))
        session.seats[seat].decision_ms += elapsed
    slot.decision_from = None


def bonus(decision_ms: int) -> int:
    return max(0, BONUS_SECONDS - decision_ms // 1000)


def break_tie(session: GameSession, winners: list[str]) -> list[str]:
    """The tied winners the time bonus keeps (all of them when it is off or still tied)."""
    if not session.settings.time_bonus or len(winners) < 2:
        return winners
    bonuses = {p: bonus(session.seats[session.player_ids.index(p)].decision_ms) for p in winners}
    best = max(bonuses.values())
    return [player for player in winners if bonuses[player] == best]
