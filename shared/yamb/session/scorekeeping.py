"""Scorekeeping for real dice (product P6): the players roll at a real table and type what they
rolled; the server checks every write with the same engine, scores, and keeps the sheets and the
history, which the creator may correct, every sheet then scored again from the corrected history.

A table is a scorekeeping one when its settings say `physical_dice`. Its player in turn, or its
creator for whoever is in turn, types each roll (`enter_dice`); the history is kept in the turn
form of a `yamb check` record (yamb.replay), so a correction is a replay of the whole record.
"""

from typing import Any

from yamb.game import Game
from yamb.i18n import Text
from yamb.replay import RecordError, replay
from yamb.session.effects import Effects, GameActionError, require_creator, require_status
from yamb.session.endings import finish
from yamb.session.model import GameSession
from yamb.snapshot import dump_game

HISTORY_PAGE = 100


def is_scorekeeping(session: GameSession) -> bool:
    return session.settings.physical_dice


def enter_dice(session: GameSession, game: Game, dice: list[int]) -> None:
    """The dice just rolled at the table: roll 1 starts the turn, then rolls 2 and 3."""
    if game.roll == 0:
        game.start_turn(dice)
    else:
        game.reroll(dice)
    session.typed_rolls.append(list(dice))
    session.store(game)


def announced(session: GameSession, game: Game, column_id: str, row_id: str) -> None:
    session.typed_announcement = {"column": column_id, "row": row_id, "after_roll": game.roll}


def written(session: GameSession, player_id: str, column_id: str, row_id: str) -> None:
    """The turn just written joins the history."""
    turn: dict[str, Any] = {
        "player": player_id,
        "rolls": session.typed_rolls,
        "write": {"column": column_id, "row": row_id},
    }
    if session.typed_announcement is not None:
        turn["announce"] = session.typed_announcement
    session.history.append(turn)
    session.typed_rolls, session.typed_announcement = [], None


def _record(session: GameSession, turns: list[dict[str, Any]]) -> dict[str, Any]:
    settings = session.settings
    return {
        "grid": settings.grid,
        "dice": settings.dice if settings.grid == "yamb" else None,
        "columns": list(settings.column_ids) if settings.grid == "yamb" else None,
        "players": session.player_ids,
        "turns": turns,
    }


def correct(
    session: GameSession, player_id: str, index: int, turn: dict[str, Any], now: Any
) -> Effects:
    """The creator replaces line `index` of the history; every sheet is scored again from the
    corrected history. Refused, with the line that breaks, when a later write is no longer
    legal (nothing changes); only between turns, and with every seat still at the table."""
    require_status(session, "running", "finished")
    require_creator(session, player_id, Text("only the creator can correct the history"))
    if not is_scorekeeping(session):
        raise GameActionError(
            Text("only a scorekeeping table's history is corrected"), code="not_allowed"
        )
    if session.status == "running" and session.typed_rolls:
        raise GameActionError(Text("finish the turn under way first"), code="turn_started")
    if any(seat.left for seat in session.seats):
        raise GameActionError(Text("a player has left: the history is final"), code="not_allowed")
    if not 0 <= index < len(session.history):
        raise GameActionError(
            Text(
                "the history has {count} lines (0 to {last})",
                count=len(session.history),
                last=len(session.history) - 1,
            ),
            code="correction_refused",
        )
    corrected = [*session.history[:index], turn, *session.history[index + 1 :]]
    try:
        game = replay(_record(session, corrected))
    except RecordError as error:
        line = "the record" if error.turn is None else f"line {error.turn}"
        raise GameActionError(
            Text("the correction breaks {line}: {message}", line=line, message=error.text),
            code="correction_refused",
        ) from None
    session.history = corrected
    session.engine = dump_game(game)
    effects = Effects()
    if session.status == "finished":
        session.winners = game.winners()
        effects.result_changed = True
    elif game.finished:  # pragma: no cover - the same number of writes fills the same cells
        finish(session, game, now, "completed", effects)
    return effects


def history_page(session: GameSession, start: int) -> list[dict[str, Any]]:
    if not is_scorekeeping(session):
        raise GameActionError(Text("only a scorekeeping table keeps a history"), code="not_allowed")
    return session.history[start : start + HISTORY_PAGE]
