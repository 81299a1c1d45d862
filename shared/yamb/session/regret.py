"""Regret (issue 16): for a finished game on a Yahtzee-family grid, how many expected points
each turn's choices lost against the optimal solitaire player (yamb.solver), and each player's
total. A turn's regret adds up its keeps' (the best keep's value minus the one kept; writing
early is keeping all five dice) and its box's (the best box's value minus the one written), all
measured from the sheet as it stood before the turn, so a turn is judged on its own.

The game is rebuilt from its record, each player's sheet on its own (a family grid's value
depends on nothing but that sheet). Loading the solver imports numpy and reads a table: done
only when a replay asks, never at import.

On Yamb (issue 32) the yardstick is the hard bot's choices instead (yamb.bots.judge), on the
games whose sheets are independent: `measure` answers both.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from yamb import fair_dice
from yamb.errors import IllegalMoveError
from yamb.game import Game
from yamb.layout import MAX_ROLLS, layout_for
from yamb.settings import GameSettings

if TYPE_CHECKING:  # a type only: the solver loads numpy and a table when first asked
    from yamb.solver import Solver

FAMILY_GRIDS = frozenset({"classic", "scandinavian", "yacht", "generala"})


def turn_regrets(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> list[float | None] | None:
    """Each recorded turn's regret, in the record's order (None for a turn without a write);
    None when the grid has no optimal player here (not a family grid, or its table is not
    built where this runs)."""
    walked = _choices(settings, players, lines)
    if walked is None:
        return None
    regrets: list[float | None] = []
    for turn in walked:
        if turn is None:
            regrets.append(None)
            continue
        lost = 0.0
        for best, chosen in turn.choices:
            lost += best - chosen
        regrets.append(round(lost, 2))
    return regrets


def turn_matches(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> list[tuple[int, int] | None] | None:
    """Each recorded turn's (choices that were the optimal player's, choices made), in the
    record's order: a keep or a box counts when its value is the best's (a tie is a match); a
    box the clock wrote is not the player's choice and is left out. None for a turn without a
    write; None when the grid has no optimal player here."""
    walked = _choices(settings, players, lines)
    if walked is None:
        return None
    matches: list[tuple[int, int] | None] = []
    for turn in walked:
        if turn is None:
            matches.append(None)
            continue
        made = turn.choices[:-1] if turn.auto else turn.choices
        matched = sum(chosen >= best - _TIE for best, chosen in made)
        matches.append((matched, len(made)))
    return matches


# Values within this of the best are the best (float sums of the same table).
_TIE = 1e-6


@dataclass(frozen=True, slots=True)
class _Turn:
    # (the best choice's value, the value of the one made): the keeps in order, then the box.
    choices: list[tuple[float, float]]
    # The box was written by the clock, not chosen.
    auto: bool


def _solver(settings: GameSettings) -> "Solver | None":
    """The grid's optimal player, or None where it has none here (not a family grid, or its
    table is not built where this runs)."""
    if settings.grid not in FAMILY_GRIDS:
        return None
    from yamb.solver import Solver, TableError  # noqa: PLC0415 - numpy, a table

    try:
        return Solver.load(settings.grid)
    except TableError:
        return None


def _choices(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> list[_Turn | None] | None:
    """Each turn's choices against the optimal player's, from the sheet as it stood before the
    turn; None for a turn without a write."""
    solver = _solver(settings)
    if solver is None:
        return None
    from yamb.solver import state_of  # noqa: PLC0415 - loaded with the solver

    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    sheets = [Game(layout, [player]) for player in players]
    turns: list[_Turn | None] = []
    for line in lines:
        recorded = fair_dice.parse_turn(line)
        game = sheets[recorded.seat]
        written = _written_row(line)
        if written is None:  # the turn ended without a write: its player left
            turns.append(None)
            continue
        state = state_of(game, 0)
        rolls = [roll.dice for roll in recorded.rolls]
        choices: list[tuple[float, float]] = []
        for number, dice in enumerate(rolls, start=1):
            if number == len(rolls):
                break
            kept = tuple(sorted(dice[p] for p in recorded.rolls[number].kept))
            keeps = solver.keep_values(state, dice, MAX_ROLLS - number)
            choices.append((max(keeps.values()), keeps[kept]))
        last, number = rolls[-1], len(rolls)
        if number < MAX_ROLLS:  # written early: all five dice kept
            keeps = solver.keep_values(state, last, MAX_ROLLS - number)
            choices.append((max(keeps.values()), keeps[tuple(sorted(last))]))
        boxes = solver.box_values(state, last, number)
        row_id = layout.grid.rows[written].id
        choices.append((max(choice.value for choice in boxes.values()), boxes[row_id].value))
        turns.append(_Turn(choices, auto=_auto(line)))
        game.start_turn(rolls[0])
        for dice in rolls[1:]:
            game.reroll(dice)
        game.write(0, written)
    return turns


@dataclass(frozen=True, slots=True)
class Luck:
    """Luck told apart from skill (issue 32): `expected` is what the optimal player scores on
    average from an empty sheet; each finished player's `luck` is what the dice gave (or, below
    0, took) against an average game. A total is `expected - regret + luck` exactly: each roll's
    luck is the optimal value after it less the value expected before it, each choice's regret
    the best value less the chosen one, and the two sum along the game to the total less
    `expected`. Luck averages 0 whoever plays; regret is the player's own."""

    expected: float
    luck: Mapping[str, float]
    # Yamb, against the hard bot: each finished player's own expected score, what the hard bot
    # expects turn by turn from the sheets they had (yamb.bots.judge); `expected` is then the
    # hard bot's expected total of an empty sheet. None on a family grid: `expected` for all.
    expected_by: Mapping[str, float] | None = None


type Yardstick = Literal["optimal", "hard"]


@dataclass(frozen=True, slots=True)
class Measured:
    """A finished game's skill and luck: each turn's regret (None: no write), each player's
    total regret, their luck (None where it cannot be told), and what it is measured against:
    the optimal solitaire player (family grids) or the hard bot's choices (Yamb)."""

    against: Yardstick
    regrets: list[float | None]
    totals: Mapping[str, float]
    luck: Luck | None


def measure(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> Measured | None:
    """Skill and luck over a finished game's record; None where nothing here can judge it (a
    family grid whose table is not built, a Yamb game with a Directed column or of pairs, a
    record that does not rebuild)."""
    try:
        if settings.grid == "yamb":
            return _measure_yamb(settings, players, lines)
        regrets = turn_regrets(settings, players, lines)
        if regrets is None:
            return None
        summed = totals(players, lines, regrets)
        try:
            told = luck(settings, players, lines, summed)
        except (KeyError, ValueError):  # the record does not rebuild: regret stands
            told = None
        return Measured("optimal", regrets, summed, told)
    except (KeyError, ValueError, IllegalMoveError):  # the judge and the record disagree
        return None


def _measure_yamb(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> Measured | None:
    from yamb.bots import judge  # noqa: PLC0415 - numpy, loaded when a game is judged

    if not judge.judged(settings):
        return None
    judged, sheets = judge.judge_game(settings, players, lines)
    regrets = [None if turn is None else round(turn.regret, 2) for turn in judged]
    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    empty = judge.expected_of(layout)
    gains = dict.fromkeys(players, 0.0)
    lucks = dict.fromkeys(players, 0.0)
    lost = dict.fromkeys(players, 0.0)
    for turn in judged:
        if turn is not None:
            gains[players[turn.seat]] += turn.expected
            lucks[players[turn.seat]] += turn.luck
            lost[players[turn.seat]] += turn.regret
    finished = [
        player for player, game in zip(players, sheets, strict=True) if game.sheets[0].is_full()
    ]
    told = Luck(
        expected=round(empty, 2),
        luck={player: round(lucks[player], 2) for player in finished},
        expected_by={player: round(empty + gains[player], 2) for player in finished},
    )
    summed = {player: round(lost[player], 2) for player in players}
    return Measured("hard", regrets, summed, told)


def luck(
    settings: GameSettings,
    players: Sequence[str],
    lines: Sequence[str],
    regret_totals: Mapping[str, float],
) -> Luck | None:
    """Each player's luck over a finished game whose sheet is full (a player who left has
    none); None where the grid has no optimal player here."""
    solver = _solver(settings)
    if solver is None:
        return None
    from yamb.solver import state_of  # noqa: PLC0415 - loaded with the solver

    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    expected = solver.expected(state_of(Game(layout, ["empty"]), 0))
    sheets = _final_sheets(settings, players, lines)
    return Luck(
        expected=round(expected, 2),
        luck={
            player: round(game.sheets[0].total() - expected + regret_totals.get(player, 0.0), 2)
            for player, game in zip(players, sheets, strict=True)
            if game.sheets[0].is_full()
        },
    )


def _final_sheets(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> list[Game]:
    """Each player's sheet at the end, rebuilt from the record on its own."""
    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    sheets = [Game(layout, [player]) for player in players]
    for line in lines:
        written = _written_row(line)
        if written is None:
            continue
        recorded = fair_dice.parse_turn(line)
        game = sheets[recorded.seat]
        rolls = [roll.dice for roll in recorded.rolls]
        game.start_turn(rolls[0])
        for dice in rolls[1:]:
            game.reroll(dice)
        game.write(0, written)
    return sheets


def totals(
    players: Sequence[str], lines: Sequence[str], regrets: Sequence[float | None]
) -> Mapping[str, float]:
    """Each player's regret over the game."""
    summed = dict.fromkeys(players, 0.0)
    for line, lost in zip(lines, regrets, strict=True):
        if lost is not None:
            player = players[fair_dice.parse_turn(line).seat]
            summed[player] = round(summed[player] + lost, 2)
    return summed


def _auto(line: str) -> bool:
    return any(
        part.startswith("w") and part.endswith("!") for part in line.split(fair_dice.MOVES_MARK)
    )


def _written_row(line: str) -> int | None:
    for part in line.split(fair_dice.MOVES_MARK)[1:]:
        if part.startswith("w"):
            cell = part[1:].split(":")[0]
            return int(cell.split(".")[1])
    return None
