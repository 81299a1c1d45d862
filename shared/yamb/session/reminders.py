"""Return reminders (product A8, rules.md 7 and 8): a player away from a slow game whose sheet
still waits for them, or from a table still waiting for players, is mailed once per absence.

The moment is a deadline of the game like the others (`Seat.remind_at`, set when the last
connection goes, cleared on return); the wake that finds it due takes it (clears it in the
game's write) and the service mails after that write, through the mail gate (the player's
return-reminder switch). A regular running game has its 3-minute return countdown instead."""

from datetime import datetime, timedelta

from yamb.session.model import GameSession

# A slow game lasts days: a day away, or half of the time left if that is sooner.
SLOW_AFTER = timedelta(hours=24)
# A waiting table fills in minutes: ten minutes away.
WAITING_AFTER = timedelta(minutes=10)


def schedule(session: GameSession, seat_index: int, now: datetime) -> None:
    """The seat's player just went away: when to remind them, if the game calls for it."""
    seat = session.seats[seat_index]
    seat.remind_at = None
    if seat.bot is not None or seat.left:
        return
    if session.status == "waiting":
        seat.remind_at = now + WAITING_AFTER
    elif session.status == "running" and session.settings.turn_type == "slow":
        if (
            session.engine is not None
            and session.game().sheets[session.engine_seat(seat_index)].is_full()
        ):
            return  # nothing left to play: they only wait for the deadline
        after = SLOW_AFTER
        if session.slow_deadline is not None:
            after = min(after, (session.slow_deadline - now) / 2)
        seat.remind_at = now + after


def moments(session: GameSession) -> list[datetime]:
    if session.status not in ("waiting", "running"):
        return []
    return [s.remind_at for s in session.seats if s.remind_at is not None and not s.present]


def take_due(session: GameSession, now: datetime, tolerance: timedelta) -> list[str]:
    """The players whose reminder is due, each taken (cleared: once per absence)."""
    due = []
    for seat in session.seats:
        if seat.remind_at is None:
            continue
        if seat.present or seat.left or session.status not in ("waiting", "running"):
            seat.remind_at = None
        elif seat.remind_at <= now + tolerance:
            seat.remind_at = None
            due.append(seat.player_id)
    return due
