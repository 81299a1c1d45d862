"""Typed lines as protocol actions: `roll 1 3`, `write 2`, `new preset 3 players 2`...

`parse_command` is pure: it returns the action to send (without its requestId), a command the
client carries out itself (help, show, quit), or a message saying what is wrong with the input.
Numbered cells refer to the legal cells of the last game shown, passed in a `CommandContext`.
"""

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from yamb.i18n import Text
from yamb.protocol import LegalCellView
from yamb.rules import COLUMN_TYPES, GRIDS

from yamb_client.words import say

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_DICE = 6
MAX_PLAYERS = 4
MAX_PRESET = 7

HELP = Text(
    """\
Commands:
  new [preset N] [players N] [seconds N|unlimited] [grid G] [dice 5|6] [columns C,C,...]
                             create a game (defaults: preset 1, 1 player, the server's clock)
  list                       the open games
  join GAMEID                take a seat in a game
  watch GAMEID               watch a game
  start                      start your game (the creator)
  lock [POSITIONS]           lock these dice for the next roll (none: release them): lock 1 3
  roll [POSITIONS]           roll again, keeping the dice at these positions: roll 1 3 4
                             (roll alone keeps the dice locked with lock)
  announce N | announce COLUMN ROW
                             announce legal cell N (or a named cell) after roll 1
  select N | select COLUMN ROW | select none
                             the cell written if the clock runs out (none takes it back)
  write N | write COLUMN ROW | write ROW
                             write legal cell N (or a named cell)
  resign                     give up the game
  finish yes|no              answer the offer to finish your sheet alone
  leave | delete             leave a waiting game | delete your waiting game
  rematch [GAMEID]           after a game has ended: a new table with its settings, its
                             other players asked to join it
  sync                       ask the server for your game again
  show                       show the last game again (fresh clock)
  help                       this text
  quit                       leave the client (the game goes on)"""
)


@dataclass(frozen=True, slots=True)
class CommandContext:
    """What the parser needs to know of the game on screen."""

    game_id: str | None = None
    legal: tuple[LegalCellView, ...] = ()
    dice_count: int = MAX_DICE
    # The turn on screen: turn actions name it, so that one arriving late is refused.
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class SendAction:
    """An action for the server, without its requestId."""

    action: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LocalCommand:
    name: Literal["help", "show", "quit"]


@dataclass(frozen=True, slots=True)
class BadInput:
    message: str


@dataclass(frozen=True, slots=True)
class NoInput:
    """An empty line."""


type Command = SendAction | LocalCommand | BadInput | NoInput
type Parser = Callable[[list[str], CommandContext], Command]


class _InputError(Exception):
    """Raised inside the parsers with a sentence; becomes BadInput with it, in the client's
    language."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.message)
        self.text = text


def parse_command(line: str, context: CommandContext) -> Command:
    words = line.split()
    if not words:
        return NoInput()
    name, args = words[0].lower(), words[1:]
    parser = PARSERS.get(name)
    if parser is None:
        return BadInput(_unknown_command_message(name))
    try:
        return parser(args, context)
    except _InputError as error:
        return BadInput(say(error.text))


def _unknown_command_message(name: str) -> str:
    close = difflib.get_close_matches(name, PARSERS, n=1)
    if close:
        return say(
            Text(
                "Unknown command {name}. Did you mean `{close}`? Type `help` for the commands.",
                name=repr(name),
                close=close[0],
            )
        )
    return say(Text("Unknown command {name}. Type `help` for the commands.", name=repr(name)))


# ------------------------------------------------------------------------------- helpers


def _action(name: str, **fields: Any) -> SendAction:
    return SendAction({"action": name, **fields})


def _no_args(command: str, args: list[str]) -> None:
    if args:
        raise _InputError(Text("`{command}` takes no arguments.", command=command))


def _current_game(context: CommandContext) -> str:
    if context.game_id is None:
        raise _InputError(
            Text(
                "You are in no game: `new` creates one, `join GAMEID` joins one, `list` shows them."
            )
        )
    return context.game_id


def _game_id(command: str, args: list[str], context: CommandContext | None = None) -> str:
    """The game named in the arguments, or the current game when `context` allows one."""
    if not args and context is not None:
        return _current_game(context)
    if len(args) != 1:
        raise _InputError(Text("Usage: {command} GAMEID", command=command))
    if not GAME_ID.match(args[0]):
        raise _InputError(
            Text("{text} is not a game id (letters, digits, - and _).", text=repr(args[0]))
        )
    return args[0]


def _number(text: str, what: Text, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise _InputError(
            Text(
                "{what} is a number from {low} to {high}, not {text}.",
                what=what,
                low=low,
                high=high,
                text=repr(text),
            )
        )
    return int(text)


def _legal_cell(number_text: str, context: CommandContext) -> LegalCellView:
    if not context.legal:
        raise _InputError(
            Text("No legal cells are shown now (is it your turn? `sync` shows the game).")
        )
    return context.legal[_number(number_text, Text("A legal cell"), 1, len(context.legal)) - 1]


def _cell(command: str, args: list[str], context: CommandContext) -> tuple[str, str]:
    """(column, row) from `N` (a legal cell's number), `COLUMN ROW`, or `ROW` when the legal
    cells have that row in one column only."""
    usage = Text(
        "Usage: {command} N (a legal cell's number) or {command} COLUMN ROW.", command=command
    )
    if len(args) == 2:
        return args[0].lower(), args[1].lower()
    if len(args) != 1:
        raise _InputError(usage)
    if args[0].isdigit():
        cell = _legal_cell(args[0], context)
        return cell.column, cell.row
    row = args[0].lower()
    columns = [cell.column for cell in context.legal if cell.row == row]
    if len(columns) != 1:
        raise _InputError(usage)
    return columns[0], row


# ------------------------------------------------------------------------------- lobby


NEW_GAME_OPTIONS = ("preset", "players", "seconds", "grid", "dice", "columns")


def _new(args: list[str], context: CommandContext) -> Command:
    if len(args) % 2:
        raise _InputError(
            Text(
                "Options come in pairs: {usage}.",
                usage=f"new {' N '.join(NEW_GAME_OPTIONS)} N",
            )
        )
    options: dict[str, str] = {}
    for name, value in zip(args[::2], args[1::2], strict=True):
        key = name.lower()
        if key not in NEW_GAME_OPTIONS:
            raise _InputError(
                Text(
                    "Unknown option {option}: one of {options}.",
                    option=repr(key),
                    options=", ".join(NEW_GAME_OPTIONS),
                )
            )
        options[key] = value.lower()
    return _action("create_game", settings=_settings(options))


def _settings(options: dict[str, str]) -> dict[str, Any]:
    grid = options.get("grid", "yamb")
    if grid not in GRIDS:
        raise _InputError(
            Text("Unknown grid {grid}: one of {grids}.", grid=repr(grid), grids=", ".join(GRIDS))
        )
    settings: dict[str, Any] = {"grid": grid, "players": 1}
    if "players" in options:
        settings["players"] = _number(options["players"], Text("players"), 1, MAX_PLAYERS)
    if "seconds" in options:
        seconds = options["seconds"]
        settings["turnSeconds"] = (
            None if seconds == "unlimited" else _number(seconds, Text("seconds"), 1, 3600)
        )
    if "dice" in options:
        settings["dice"] = _number(options["dice"], Text("dice"), 5, 6)
    if "columns" in options:
        columns = [column for column in options["columns"].split(",") if column]
        unknown = [column for column in columns if column not in COLUMN_TYPES]
        if unknown or not columns:
            raise _InputError(
                Text(
                    "columns are some of {columns}, comma-separated.",
                    columns=",".join(COLUMN_TYPES),
                )
            )
        settings["columns"] = columns
    if "preset" in options:
        settings["preset"] = _number(options["preset"], Text("preset"), 1, MAX_PRESET)
    elif grid == "yamb" and "columns" not in options:
        settings["preset"] = 1
    return settings


def _list(args: list[str], context: CommandContext) -> Command:
    _no_args("list", args)
    return _action("list_games")


def _sync(args: list[str], context: CommandContext) -> Command:
    _no_args("sync", args)
    return _action("sync")


def _join(args: list[str], context: CommandContext) -> Command:
    return _action("join_game", gameId=_game_id("join", args))


def _watch(args: list[str], context: CommandContext) -> Command:
    return _action("watch_game", gameId=_game_id("watch", args))


def _game_action(name: str, command: str) -> Parser:
    """A parser for an action on the current game (or on the game named after the command)."""

    def parse(args: list[str], context: CommandContext) -> Command:
        return _action(name, gameId=_game_id(command, args, context))

    return parse


# ------------------------------------------------------------------------------- the turn


def _turn_action(name: str, context: CommandContext, **fields: Any) -> SendAction:
    """An action of the turn on screen, naming that turn when it is known."""
    turn = {} if context.turn is None else {"turn": context.turn}
    return _action(name, gameId=_current_game(context), **fields, **turn)


def _positions(words: list[str], context: CommandContext) -> list[int]:
    positions: set[int] = set()
    for word in words:
        for part in word.replace(",", " ").split():
            # `roll 134` keeps positions 1, 3 and 4: a position is one digit.
            for digit in part:
                positions.add(_number(digit, Text("A die's position"), 1, context.dice_count))
    return sorted(position - 1 for position in positions)


def _lock(args: list[str], context: CommandContext) -> Command:
    _current_game(context)
    return _turn_action("lock", context, keep=_positions(args, context))


def _roll(args: list[str], context: CommandContext) -> Command:
    _current_game(context)
    words = args[1:] if args and args[0].lower() == "keep" else args
    if not words:
        return _turn_action("roll", context)  # the dice locked with `lock` stay
    return _turn_action("roll", context, keep=_positions(words, context))


def _announce(args: list[str], context: CommandContext) -> Command:
    column, row = _cell("announce", args, context)
    return _turn_action("announce", context, column=column, row=row)


def _select(args: list[str], context: CommandContext) -> Command:
    _current_game(context)
    if [arg.lower() for arg in args] == ["none"]:
        return _turn_action("select", context)
    column, row = _cell("select", args, context)
    return _turn_action("select", context, column=column, row=row)


def _write(args: list[str], context: CommandContext) -> Command:
    column, row = _cell("write", args, context)
    return _turn_action("write", context, column=column, row=row)


def _resign(args: list[str], context: CommandContext) -> Command:
    _no_args("resign", args)
    return _action("resign", gameId=_current_game(context))


def _finish(args: list[str], context: CommandContext) -> Command:
    answers = {"yes": True, "y": True, "no": False, "n": False}
    if len(args) != 1 or args[0].lower() not in answers:
        raise _InputError(Text("Usage: finish yes|no"))
    return _action("finish_sheet", gameId=_current_game(context), accept=answers[args[0].lower()])


def _local(name: Literal["help", "show", "quit"]) -> Parser:
    def parse(args: list[str], context: CommandContext) -> Command:
        _no_args(name, args)
        return LocalCommand(name)

    return parse


PARSERS: dict[str, Parser] = {
    "new": _new,
    "list": _list,
    "join": _join,
    "watch": _watch,
    "start": _game_action("start_game", "start"),
    "leave": _game_action("leave_game", "leave"),
    "delete": _game_action("delete_game", "delete"),
    "rematch": _game_action("rematch", "rematch"),
    "sync": _sync,
    "lock": _lock,
    "roll": _roll,
    "announce": _announce,
    "select": _select,
    "write": _write,
    "resign": _resign,
    "finish": _finish,
    "help": _local("help"),
    "show": _local("show"),
    "quit": _local("quit"),
    "exit": _local("quit"),
}
