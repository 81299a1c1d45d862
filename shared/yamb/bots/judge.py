"""Skill and luck on Yamb, judged against the hard bot (issue 32).

The hard bot (search.py) values a write by value.py's `sheet_values`: the change the write makes
to the column's expected final total, `par_total` below (each open cell standing for its par, the
upper bonus weighted by its chance, the middle part's product with pars for its open cells). On
a full sheet `par_total` is the sheet's total, so a game's writes' values add up exactly to the
total less `par_total` of the empty sheet.

Within a turn the hard bot is an expectimax over the turn's rolls with those leaf values. This
module walks a recorded turn through the same arrays:

- after each roll, W: the value of the hard bot's best choice (write now, hold some dice, or
  announce), the dice as they fell;
- each choice's value: the write's leaf value, or the held dice's expected W after the next roll;
- a choice's regret is W less the chosen value; a roll's luck is W less what the choice before
  it expected (for roll 1, V0: the expected W of a whole roll, the turn's expected gain).

Along a turn these telescope: written leaf value = V0 + luck - regret, exactly. Over a game,
total = par_total(empty) + Σ V0 + luck - regret: the player's `expected` is the first two terms,
what the hard bot expects turn by turn from the sheets the player had. Each roll's luck is a
martingale increment (the chances are the dice's own), so luck averages 0 whoever plays.

Where this is the hard bot's own value and not the game's true optimum: the pars, the bonus's
binomial chance and the middle part's pars are tuned estimates (value.py), so a choice that
spoils later turns is priced only through them, and V0 (the worth of the cells a sheet keeps
open) varies from sheet to sheet. With one Down column the row to write is forced and the only
choices are the dice held, whose best is the largest expected leaf value: the hard bot's choice,
zero regret for it.

Only games whose sheets are independent are judged: not with a Directed column (its cells are
opened by the previous player's writes) and not 2 vs 2 (two players share a turn's choices).
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from yamb import fair_dice
from yamb.bots.dice_tables import DiceTables, FloatArray, best_within, dice_tables
from yamb.bots.moves import options_of
from yamb.bots.search import NEG, Values, _announced, _turn_of, _values
from yamb.bots.value import BONUS_WEIGHT, pars_of, reach
from yamb.game import Game
from yamb.layout import Layout, layout_for
from yamb.settings import GameSettings


@dataclass(frozen=True, slots=True)
class JudgedTurn:
    """One recorded turn against the hard bot."""

    seat: int
    # (the hard bot's best value, the chosen one) per decision: the holds in order, the box.
    choices: tuple[tuple[float, float], ...]
    # Per roll: its value less what was expected before it.
    lucks: tuple[float, ...]
    # V0: the turn's expected gain (in par_total's points) before its first roll.
    expected: float
    # The write's leaf value: par_total after the turn less before it.
    gained: float

    @property
    def regret(self) -> float:
        return sum(best - chosen for best, chosen in self.choices)

    @property
    def luck(self) -> float:
        return sum(self.lucks)


def judged(settings: GameSettings) -> bool:
    """Whether a Yamb game of these settings can be judged against the hard bot."""
    if settings.grid != "yamb" or settings.pairs:
        return False
    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    return layout.directed_column is None


def par_total(layout: Layout, values: Sequence[Sequence[int | None]]) -> float:
    """The hard bot's expected final total of a sheet: written cells as they are, each open cell
    at its par, the upper bonus at its chance, the middle part with pars for open cells. A
    full sheet's is its total."""
    grid = layout.grid
    total = 0.0
    for column, cells in enumerate(values):
        pars = pars_of(layout, column)
        for row, rule in enumerate(grid.rows):
            if rule.section != "middle":
                value = cells[row]
                total += pars[row] if value is None else value
        bonus = grid.upper_bonus
        if bonus is not None:
            upper = layout.upper_rows
            need = bonus.threshold - sum(cells[r] or 0 for r in upper)
            mask = sum(1 << f for f, r in enumerate(upper) if cells[r] is None)
            upper_pars = tuple(pars[r] for r in upper)
            total += bonus.amount * BONUS_WEIGHT * reach(upper_pars, mask, need)
        if layout.middle_rows is not None:
            high, low, multiplier = layout.middle_rows

            h, lo, ones = (
                pars[row] if cells[row] is None else cells[row] for row in (high, low, multiplier)
            )
            total += (h - lo) * ones  # type: ignore[operator]
    return total


def judge(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> list[JudgedTurn | None]:
    """Each recorded turn judged against the hard bot, in the record's order (None for a turn
    without a write); each player's sheet rebuilt on its own. ValueError where the game cannot
    be judged (see `judged`) or the record does not rebuild."""
    return judge_game(settings, players, lines)[0]


def judge_game(
    settings: GameSettings, players: Sequence[str], lines: Sequence[str]
) -> tuple[list[JudgedTurn | None], list[Game]]:
    """`judge`, with each player's sheet at the end (a one-seat game each)."""
    if not judged(settings):
        raise ValueError("only Yamb games without a Directed column, not 2 vs 2, are judged")
    layout = layout_for(settings.grid, settings.column_ids, settings.dice)
    sheets = [Game(layout, [player]) for player in players]
    turns: list[JudgedTurn | None] = []
    for line in lines:
        recorded = fair_dice.parse_turn(line)
        moves = _moves(line)
        if moves.written is None:
            turns.append(None)
            continue
        turns.append(_judge_turn(sheets[recorded.seat], recorded, moves))
    return turns, sheets


@dataclass(frozen=True, slots=True)
class _Moves:
    announced: tuple[int, int, int] | None  # column, row, after roll
    written: tuple[int, int] | None


def _moves(line: str) -> _Moves:
    announced = written = None
    for part in line.split(fair_dice.MOVES_MARK)[1:]:
        if part.startswith("a"):
            cell, after = part[1:].split("@")
            column, row = (int(x) for x in cell.split("."))
            announced = (column, row, int(after))
        elif part.startswith("w"):
            column, row = (int(x) for x in part[1:].split(":")[0].split("."))
            written = (column, row)
    return _Moves(announced, written)


def _judge_turn(game: Game, recorded: fair_dice.RecordedTurn, moves: _Moves) -> JudgedTurn:
    layout = game.layout
    tables = dice_tables(layout.dice_count)
    values: Values = tuple(tuple(column) for column in game.sheets[0].values)
    rolls = [roll.dice for roll in recorded.rolls]
    choices: list[tuple[float, float]] = []
    lucks: list[float] = []
    before = 0.0
    expected = 0.0
    gained = 0.0
    for number, dice in enumerate(rolls, start=1):
        if number == 1:
            game.start_turn(dice)
            worth = _worth_now(game, values, tables)
            expected = before = float(tables.chances[0] @ worth)
        else:
            game.reroll(dice)
            worth = _worth_now(game, values, tables)
        m = tables.multiset_index[tuple(sorted(dice))]
        best = float(worth[m])
        lucks.append(best - before)
        if moves.announced is not None and moves.announced[2] == number:
            game.announce(moves.announced[0], moves.announced[1])
        if number < len(rolls):  # held some dice and rolled again
            kept = tuple(sorted(dice[p] for p in recorded.rolls[number].kept))
            k = tables.keeps.index(kept)
            before = float(_turn_of(game, True, values).keeps(number)[k])
            choices.append((best, before))
            continue
        column, row = moves.written or (0, 0)
        gained = float(_values(layout, True, values, [(column, row)], number)[m, 0])
        choices.append((best, gained))
    assert moves.written is not None
    game.write(*moves.written)
    return JudgedTurn(recorded.seat, tuple(choices), tuple(lucks), expected, gained)


def _worth_now(game: Game, values: Values, tables: DiceTables) -> FloatArray:
    """Per multiset of the dice just rolled: the value of the hard bot's best choice (write
    now, hold and roll again, announce), in the state before any announcement of this roll.
    As search.choose: an announcement is weighed at its column's last roll for one (a late
    one waits for roll 2, which the holds after roll 1 already count)."""
    layout = game.layout
    roll = game.roll
    options = options_of(game)
    cells = [(column, row) for column, row, _ in options.cells]
    worth: FloatArray = np.full(len(tables.multisets), NEG)
    if cells:
        worth = _values(layout, True, values, cells, roll).max(axis=1)
    if options.can_reroll:
        keeps = _turn_of(game, True, values).keeps(roll)
        worth = np.maximum(worth, best_within(tables, keeps, NEG))
    announceable = {(c, r) for c, r, _ in options.announceable}
    for column in sorted({c for c, _ in announceable}):
        if layout.columns[column].type.announce_by_roll != roll:
            continue
        announced = _announced(layout, True, values, column)
        rows = [j for j, row in enumerate(announced.rows) if (column, row) in announceable]
        if rows:
            per_row = best_within(tables, announced.keeps[:, rows], NEG)
            worth = np.maximum(worth, per_row.max(axis=1))
    return worth


def expected_of(layout: Layout) -> float:
    """par_total of an empty sheet."""
    empty = [[None] * layout.rows_per_column for _ in layout.columns]
    return par_total(layout, empty)
