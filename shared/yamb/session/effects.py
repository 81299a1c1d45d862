"""What a change to a live game asks of the application besides storing the game, and the
refusals every change shares."""

from dataclasses import dataclass, field
from typing import Literal

from yamb.errors import ErrorCode, YambError
from yamb.i18n import Text
from yamb.session.model import GameSession

# What a change does to a player's own record, written in the same transaction as the game:
# "seat" takes the player's one regular seat (the write fails if they hold one elsewhere),
# "release" gives it back, "forget" gives it back and forgets the game (a table left or deleted).
type PlayerChange = Literal["seat", "release", "forget"]


class GameActionError(YambError):
    """The action is not allowed in this game's state; nothing changed."""

    code: ErrorCode = "not_allowed"


@dataclass(slots=True)
class Effects:
    # Players who disappeared after playing a turn: they get a join cooldown.
    disappeared: list[str] = field(default_factory=list)
    players: dict[str, PlayerChange] = field(default_factory=dict)
    ended: bool = False
    # An ended game's result changed (a scorekeeping correction): its result item is rewritten.
    result_changed: bool = False
    # The table is gone: left by its last player, or deleted by its creator.
    removed: bool = False
    # Deadlines that passed: turns ended by the clock, seats whose player did not come back.
    turns_timed_out: int = 0
    returns_missed: int = 0
    # Away players whose return reminder is due (A8): mailed after the write that clears it.
    reminders: list[str] = field(default_factory=list)
    # Bot moves that failed and were replaced by the clock's auto-move (a bot's bug).
    bot_moves_failed: int = 0
    # Fair play (yamb.session.fairplay): the players just put a check to, those who passed
    # theirs, and the yellow cards (player, check id) of checks failed or ignored.
    fairplay_checks: list[str] = field(default_factory=list)
    fairplay_passed: list[tuple[str, str]] = field(default_factory=list)
    fairplay_cards: list[tuple[str, str]] = field(default_factory=list)


def require_status(session: GameSession, *statuses: str) -> None:
    if session.status not in statuses:
        raise GameActionError(
            Text("the game is {status}", status=session.status), code="wrong_status"
        )


def require_creator(session: GameSession, player_id: str, refusal: Text) -> None:
    """`refusal`: the whole sentence a player who is not the creator reads ("only the creator
    can ..."), one message of the catalogue per action."""
    if player_id != session.creator:
        raise GameActionError(refusal, code="not_creator")
