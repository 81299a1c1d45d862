"""Server frames as text for the terminal: the game, its sheets, the turn, the clock.

Pure functions: they take protocol models (or the JSON dicts of the wire, validated here) and the
current time, and return text. Nothing here reads or writes a socket or the terminal.
"""

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from yamb.protocol import (
    SERVER_FRAMES,
    Ack,
    DisconnectedFrame,
    ErrorFrame,
    GameDeletedFrame,
    GameFrame,
    GameListFrame,
    GameSummary,
    GameView,
    LegalCellView,
    RematchFrame,
    SeatView,
    ServerFrame,
    SheetView,
    TurnView,
)
from yamb.rules import GRIDS, Grid

MAX_ROLLS = 3
EMPTY_CELL = "."
SHORT_ID_LENGTH = 8
LINE_WIDTH = 100
ENTRY_GAP = 4
ONE_CELL_A_LINE_UP_TO = 10
NO_GAME = "You are in no game: `new` creates one, `list` shows open games, `join GAMEID` joins one."
ACK_MESSAGES = {
    "create_game": "Game {game_id} created. Others join it with: join {game_id}",
    "join_game": "Joined game {game_id}.",
    "watch_game": "Watching game {game_id}.",
    "leave_game": "Left game {game_id}.",
    "delete_game": "Deleted game {game_id}.",
}


def parse_frame(data: Mapping[str, Any]) -> ServerFrame | None:
    """The protocol model of a frame received as JSON; None when it is not one we know."""
    try:
        return SERVER_FRAMES.validate_python(data)
    except ValidationError:
        return None


def player_label(player_id: str, me: str | None) -> str:
    """`you`, or the player's id shortened (Cognito ids are long UUIDs)."""
    if player_id == me:
        return "you"
    return player_id[:SHORT_ID_LENGTH] if len(player_id) > SHORT_ID_LENGTH + 4 else player_id


def cell_name(cell: LegalCellView) -> str:
    return f"{cell.column}/{cell.row}"


# ------------------------------------------------------------------------------- frames


def render_frame(frame: ServerFrame | Mapping[str, Any], *, me: str | None, now: datetime) -> str:
    """One received frame as text; "" for an ack whose change the next game frame shows."""
    parsed = frame if not isinstance(frame, Mapping) else parse_frame(frame)
    match parsed:
        case GameFrame(game=None):
            return NO_GAME
        case GameFrame(game=GameView() as game):
            template = ACK_MESSAGES.get(parsed.action or "")
            said = template.format(game_id=game.game_id) + "\n" if template else ""
            return said + render_game(game, me=me, now=now)
        case Ack():
            template = ACK_MESSAGES.get(parsed.action)
            return template.format(game_id=parsed.game_id) if template else ""
        case GameListFrame():
            return render_game_list(parsed, me=me)
        case ErrorFrame():
            return f"Refused ({parsed.code}): {parsed.message}"
        case DisconnectedFrame():
            return f"Disconnected by the server: {parsed.reason}"
        case GameDeletedFrame():
            return f"Game {parsed.game_id} was deleted."
        case RematchFrame():
            who = parsed.nickname or "A player"
            return f"{who} asks for a rematch of {parsed.from_game_id}: join {parsed.game_id}"
        case _:
            return f"(a frame this client does not know: {frame})"


def _creator_name(game: GameSummary, me: str | None) -> str:
    """`you`, or the creator's nickname as the list names the players (their id shortened
    only when the list has no nickname for them)."""
    if game.creator == me:
        return "you"
    for player_id, nickname in zip(game.players, game.nicknames, strict=False):
        if player_id == game.creator and nickname:
            return nickname
    return player_label(game.creator, me)


def render_game_list(frame: GameListFrame, *, me: str | None) -> str:
    if not frame.games:
        return "No open games: `new` creates one."
    lines = [f"Open games ({len(frame.games)}):"]
    for game in frame.games:
        columns = " ".join(game.columns) or game.grid
        lines.append(
            f"  {game.game_id}  {game.status:<7}  {game.grid} ({columns})  "
            f"{len(game.players)}/{game.seats} players  "
            f"created by {_creator_name(game, me)}"
        )
    lines.append("Join one with: join GAMEID")
    return "\n".join(lines)


# ------------------------------------------------------------------------------- the game


def render_game(game: GameView | Mapping[str, Any], *, me: str | None, now: datetime) -> str:
    """The whole game: header and seats, every sheet, then the turn (dice and legal cells)."""
    view = game if isinstance(game, GameView) else GameView.model_validate(game)
    parts = [render_header(view, me=me), render_seats(view.seats, me=me, now=now)]
    grid = GRIDS[view.settings.grid]
    parts.extend(render_sheet(sheet, grid, me=me) for sheet in view.sheets)
    if view.turn is not None:
        parts.append(render_turn(view.turn, me=me, now=now))
    parts.append(render_status(view, me=me))
    return "\n\n".join(part for part in parts if part)


def render_header(game: GameView, *, me: str | None) -> str:
    settings = game.settings
    columns = f": {' '.join(settings.column_ids)}" if settings.column_ids else ""
    clock = "unlimited" if settings.turn_seconds is None else f"{settings.turn_seconds} s"
    seats = "solo" if settings.solo else f"{settings.players} players"
    return (
        f"== Game {game.game_id} ({game.status}, version {game.version}), "
        f"created by {player_label(game.creator, me)}\n"
        f"   {settings.grid}{columns}; {settings.dice} dice; {seats}; time per turn {clock}"
    )


def render_seats(seats: Sequence[SeatView], *, me: str | None, now: datetime) -> str:
    described = [
        f"{player_label(seat.player_id, me)} ({seat_presence(seat, now)})" for seat in seats
    ]
    return "Seats: " + ", ".join(described)


def seat_presence(seat: SeatView, now: datetime) -> str:
    if seat.left:
        return "left"
    if seat.present:
        return "here"
    if seat.return_deadline is None:
        return "away"
    seconds = seconds_until(seat.return_deadline, now)
    return f"away, seat kept for {seconds // 60}:{seconds % 60:02d}"


def render_status(game: GameView, *, me: str | None) -> str:
    if game.status == "waiting":
        taken = len(game.seats)
        return (
            f"Waiting for players: {taken} of {game.settings.players} seats taken. "
            f"The creator starts the game with: start"
        )
    if game.status in ("finished", "cancelled"):
        winners = ", ".join(player_label(winner, me) for winner in game.winners) or "none"
        outcome = f" ({game.outcome})" if game.outcome else ""
        return f"Game over{outcome}. Winners: {winners}"
    return ""


# ------------------------------------------------------------------------------- sheets


def render_sheet(sheet: SheetView, grid: Grid, *, me: str | None) -> str:
    """A sheet as a table: one line per row, subtotal lines after each section, the totals."""
    columns = list(sheet.totals) or list(sheet.cells)
    label_width = max(len(row.id) for row in grid.rows) + 3
    widths = [max(5, len(column)) for column in columns]

    def line(label: str, values: Sequence[str]) -> str:
        cells = "  ".join(value.rjust(width) for value, width in zip(values, widths, strict=True))
        return f"{label:<{label_width}}{cells}".rstrip()

    def totals_line(label: str, part: str) -> str:
        values = [str(getattr(sheet.totals[c], part)) if c in sheet.totals else "" for c in columns]
        return line(label, values)

    lines = [
        f"Sheet of {player_label(sheet.player_id, me)}: total {sheet.total}",
        line("", columns),
    ]
    for section in ("upper", "middle", "lower"):
        rows = [row for row in grid.rows if row.section == section]
        if not rows:
            continue
        for row in rows:
            values = [_cell_text(sheet.cells.get(column, {}).get(row.id)) for column in columns]
            lines.append(line(row.id, values))
        lines.append(totals_line(f"-- {section}", section))
        if section == "upper" and grid.upper_bonus is not None:
            lines.append(totals_line("-- bonus", "bonus"))
    if grid.joker is not None:
        lines.append(totals_line("-- extra", "extra"))
    lines.append(totals_line("== total", "total"))
    return "\n".join(lines)


def _cell_text(value: int | None) -> str:
    return EMPTY_CELL if value is None else str(value)


# ------------------------------------------------------------------------------- the turn


def render_turn(turn: TurnView, *, me: str | None, now: datetime) -> str:
    mine = turn.player_id == me
    whose = "your turn" if mine else f"{player_label(turn.player_id, me)}'s turn"
    lines = [
        f"Turn {turn.number}: {whose}, roll {turn.roll} of {MAX_ROLLS}",
        "  dice:     " + "  ".join(str(face) for face in turn.dice),
        "  position: " + "  ".join(str(position) for position in range(1, len(turn.dice) + 1)),
    ]
    if turn.locks:
        lines.append(
            "  locked:   "
            + "  ".join("L" if i in turn.locks else " " for i in range(len(turn.dice))).rstrip()
        )
    if turn.announcement is not None:
        lines.append(f"  announced: {cell_name(turn.announcement)}")
    if turn.directed_row is not None:
        lines.append(f"  directed row: {turn.directed_row}")
    if turn.pending is not None:
        lines.append(
            f"  selected (written if the clock runs out): {cell_name(turn.pending)} "
            f"= {turn.pending.score}"
        )
    lines.append(render_legal_cells(turn.legal))
    if turn.can_roll:
        hint = " (roll [positions to keep], e.g. roll 1 2)" if mine else ""
        lines.append(f"  can roll: yes{hint}")
    else:
        lines.append("  can roll: no")
    lines.append(f"  clock: {render_clock(turn, now)}")
    return "\n".join(lines)


def render_legal_cells(cells: Sequence[LegalCellView]) -> str:
    """The legal cells numbered, one a line; many of them in as many columns as fit (numbers
    read down each column)."""
    if not cells:
        return "  legal cells: none"
    name_width = max(len(cell_name(cell)) for cell in cells)
    entries = [
        f"{number:>2}. {cell_name(cell):<{name_width}}  {cell.score:>3}"
        for number, cell in enumerate(cells, start=1)
    ]
    per_line = 1
    if len(entries) > ONE_CELL_A_LINE_UP_TO:
        per_line = max(1, (LINE_WIDTH - 4) // (len(entries[0]) + ENTRY_GAP))
    height = math.ceil(len(entries) / per_line)
    lines = ["  legal cells (write N, announce N, select N):"]
    for first in range(height):
        row = entries[first::height]
        lines.append("    " + (" " * ENTRY_GAP).join(row))
    return "\n".join(lines)


def render_clock(turn: TurnView, now: datetime) -> str:
    """Seconds left on the turn's clock, or how much a frozen clock keeps, or unlimited."""
    if turn.deadline is not None:
        return f"{seconds_until(turn.deadline, now)} s left"
    if turn.frozen_ms is not None:
        return f"frozen with {math.ceil(turn.frozen_ms / 1000)} s left"
    return "unlimited"


def seconds_until(moment: datetime, now: datetime) -> int:
    return max(0, math.ceil((moment - now).total_seconds()))
