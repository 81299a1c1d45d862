"""Server frames as text for the terminal: the game, its sheets, the turn, the clock.

Pure functions: they take protocol models (or the JSON dicts of the wire, validated here) and the
current time, and return text. Nothing here reads or writes a socket or the terminal.
"""

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from yamb.i18n import Plural, Text
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

from yamb_client.words import say

MAX_ROLLS = 3
EMPTY_CELL = "."
SHORT_ID_LENGTH = 8
LINE_WIDTH = 100
ENTRY_GAP = 4
ONE_CELL_A_LINE_UP_TO = 10
NO_GAME = Text(
    "You are in no game: `new` creates one, `list` shows open games, `join GAMEID` joins one."
)
ACK_MESSAGES = {
    "create_game": Text("Game {game_id} created. Others join it with: join {game_id}"),
    "join_game": Text("Joined game {game_id}."),
    "watch_game": Text("Watching game {game_id}."),
    "leave_game": Text("Left game {game_id}."),
    "delete_game": Text("Deleted game {game_id}."),
}


def _acknowledged(action: str | None, game_id: str) -> str:
    said = ACK_MESSAGES.get(action or "")
    return "" if said is None else say(Text(said.message, game_id=game_id))


def parse_frame(data: Mapping[str, Any]) -> ServerFrame | None:
    """The protocol model of a frame received as JSON; None when it is not one we know."""
    try:
        return SERVER_FRAMES.validate_python(data)
    except ValidationError:
        return None


def player_label(player_id: str, me: str | None) -> str:
    """`you`, or the player's id shortened (Cognito ids are long UUIDs)."""
    if player_id == me:
        return say(Text("you"))
    return player_id[:SHORT_ID_LENGTH] if len(player_id) > SHORT_ID_LENGTH + 4 else player_id


def cell_name(cell: LegalCellView) -> str:
    return f"{cell.column}/{cell.row}"


# ------------------------------------------------------------------------------- frames


def render_frame(frame: ServerFrame | Mapping[str, Any], *, me: str | None, now: datetime) -> str:
    """One received frame as text; "" for an ack whose change the next game frame shows."""
    parsed = frame if not isinstance(frame, Mapping) else parse_frame(frame)
    match parsed:
        case GameFrame(game=None):
            return say(NO_GAME)
        case GameFrame(game=GameView() as game):
            said = _acknowledged(parsed.action, game.game_id)
            return (said + "\n" if said else "") + render_game(game, me=me, now=now)
        case Ack():
            return _acknowledged(parsed.action, parsed.game_id)
        case GameListFrame():
            return render_game_list(parsed, me=me)
        case ErrorFrame():
            return say(
                Text("Refused ({code}): {message}", code=parsed.code, message=parsed.message)
            )
        case DisconnectedFrame():
            return say(Text("Disconnected by the server: {reason}", reason=parsed.reason))
        case GameDeletedFrame():
            return say(Text("Game {game_id} was deleted.", game_id=parsed.game_id))
        case RematchFrame():
            if parsed.nickname:
                return say(
                    Text(
                        "{nickname} asks for a rematch of {from_game}: join {game_id}",
                        nickname=parsed.nickname,
                        from_game=parsed.from_game_id,
                        game_id=parsed.game_id,
                    )
                )
            return say(
                Text(
                    "A player asks for a rematch of {from_game}: join {game_id}",
                    from_game=parsed.from_game_id,
                    game_id=parsed.game_id,
                )
            )
        case _:
            return say(Text("(a frame this client does not know: {frame})", frame=frame))


def _creator_name(game: GameSummary, me: str | None) -> str:
    """`you`, or the creator's nickname as the list names the players (their id shortened
    only when the list has no nickname for them)."""
    if game.creator == me:
        return say(Text("you"))
    for player_id, nickname in zip(game.players, game.nicknames, strict=False):
        if player_id == game.creator and nickname:
            return nickname
    return player_label(game.creator, me)


def render_game_list(frame: GameListFrame, *, me: str | None) -> str:
    if not frame.games:
        return say(Text("No open games: `new` creates one."))
    count = len(frame.games)
    lines = [say(Plural("{count} open game:", "{count} open games:", count))]
    for game in frame.games:
        columns = " ".join(game.columns) or game.grid
        seats = say(
            Plural(
                "{taken}/{count} player",
                "{taken}/{count} players",
                game.seats,
                taken=len(game.players),
            )
        )
        creator = say(Text("created by {creator}", creator=_creator_name(game, me)))
        lines.append(
            f"  {game.game_id}  {game.status:<7}  {game.grid} ({columns})  {seats}  {creator}"
        )
    lines.append(say(Text("Join one with: join GAMEID")))
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
    clock = (
        say(Text("unlimited"))
        if settings.turn_seconds is None
        else say(Text("{seconds} s", seconds=settings.turn_seconds))
    )
    seats = (
        say(Text("solo"))
        if settings.solo
        else say(Plural("{count} player", "{count} players", settings.players))
    )
    header = Text(
        "Game {game_id} ({status}, version {version}), created by {creator}",
        game_id=game.game_id,
        status=game.status,
        version=game.version,
        creator=player_label(game.creator, me),
    )
    rules = Text(
        "{grid}{columns}; {dice} dice; {seats}; time per turn {clock}",
        grid=settings.grid,
        columns=columns,
        dice=settings.dice,
        seats=seats,
        clock=clock,
    )
    return f"== {say(header)}\n   {say(rules)}"


def render_seats(seats: Sequence[SeatView], *, me: str | None, now: datetime) -> str:
    described = [
        f"{player_label(seat.player_id, me)} ({seat_presence(seat, now)})" for seat in seats
    ]
    return say(Text("Seats: {seats}", seats=", ".join(described)))


def seat_presence(seat: SeatView, now: datetime) -> str:
    if seat.left:
        return say(Text("left"))
    if seat.present:
        return say(Text("here"))
    if seat.return_deadline is None:
        return say(Text("away"))
    seconds = seconds_until(seat.return_deadline, now)
    kept = f"{seconds // 60}:{seconds % 60:02d}"
    return say(Text("away, seat kept for {countdown}", countdown=kept))


def render_status(game: GameView, *, me: str | None) -> str:
    if game.status == "waiting":
        return say(
            Plural(
                "Waiting for players: {taken} of {count} seat taken. The creator starts the "
                "game with: start",
                "Waiting for players: {taken} of {count} seats taken. The creator starts the "
                "game with: start",
                game.settings.players,
                taken=len(game.seats),
            )
        )
    if game.status in ("finished", "cancelled"):
        winners = ", ".join(player_label(winner, me) for winner in game.winners) or say(
            Text("none")
        )
        if game.outcome:
            return say(
                Text(
                    "Game over ({outcome}). Winners: {winners}",
                    outcome=game.outcome,
                    winners=winners,
                )
            )
        return say(Text("Game over. Winners: {winners}", winners=winners))
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
        say(
            Text(
                "Sheet of {player}: total {total}",
                player=player_label(sheet.player_id, me),
                total=sheet.total,
            )
        ),
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
    facts = {"number": turn.number, "roll": turn.roll, "rolls": MAX_ROLLS}
    whose = (
        Text("Turn {number}: your turn, roll {roll} of {rolls}", **facts)
        if mine
        else Text(
            "Turn {number}: {player}'s turn, roll {roll} of {rolls}",
            player=player_label(turn.player_id, me),
            **facts,
        )
    )
    labels = [say(Text("dice:")), say(Text("position:")), say(Text("locked:"))]
    width = max(len(label) for label in labels) + 1
    lines = [
        say(whose),
        f"  {labels[0]:<{width}}" + "  ".join(str(face) for face in turn.dice),
        f"  {labels[1]:<{width}}"
        + "  ".join(str(position) for position in range(1, len(turn.dice) + 1)),
    ]
    if turn.locks:
        lines.append(
            f"  {labels[2]:<{width}}"
            + "  ".join("L" if i in turn.locks else " " for i in range(len(turn.dice))).rstrip()
        )
    if turn.announcement is not None:
        lines.append("  " + say(Text("announced: {cell}", cell=cell_name(turn.announcement))))
    if turn.directed_row is not None:
        lines.append("  " + say(Text("directed row: {row}", row=turn.directed_row)))
    if turn.pending is not None:
        lines.append(
            "  "
            + say(
                Text(
                    "selected (written if the clock runs out): {cell} = {score}",
                    cell=cell_name(turn.pending),
                    score=turn.pending.score,
                )
            )
        )
    lines.append(render_legal_cells(turn.legal))
    if turn.can_roll and mine:
        lines.append("  " + say(Text("can roll: yes (roll [positions to keep], e.g. roll 1 2)")))
    elif turn.can_roll:
        lines.append("  " + say(Text("can roll: yes")))
    else:
        lines.append("  " + say(Text("can roll: no")))
    lines.append("  " + say(Text("clock: {clock}", clock=render_clock(turn, now))))
    return "\n".join(lines)


def render_legal_cells(cells: Sequence[LegalCellView]) -> str:
    """The legal cells numbered, one a line; many of them in as many columns as fit (numbers
    read down each column)."""
    if not cells:
        return "  " + say(Text("legal cells: none"))
    name_width = max(len(cell_name(cell)) for cell in cells)
    entries = [
        f"{number:>2}. {cell_name(cell):<{name_width}}  {cell.score:>3}"
        for number, cell in enumerate(cells, start=1)
    ]
    per_line = 1
    if len(entries) > ONE_CELL_A_LINE_UP_TO:
        per_line = max(1, (LINE_WIDTH - 4) // (len(entries[0]) + ENTRY_GAP))
    height = math.ceil(len(entries) / per_line)
    lines = ["  " + say(Text("legal cells (write N, announce N, select N):"))]
    for first in range(height):
        row = entries[first::height]
        lines.append("    " + (" " * ENTRY_GAP).join(row))
    return "\n".join(lines)


def render_clock(turn: TurnView, now: datetime) -> str:
    """Seconds left on the turn's clock, or how much a frozen clock keeps, or unlimited."""
    if turn.deadline is not None:
        return say(Text("{seconds} s left", seconds=seconds_until(turn.deadline, now)))
    if turn.frozen_ms is not None:
        seconds = math.ceil(turn.frozen_ms / 1000)
        return say(Text("frozen with {seconds} s left", seconds=seconds))
    return say(Text("unlimited"))


def seconds_until(moment: datetime, now: datetime) -> int:
    return max(0, math.ceil((moment - now).total_seconds()))
