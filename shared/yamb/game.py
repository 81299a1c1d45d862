"""The turn engine: whose turn it is, the dice, which cells are legal, and what a write does.

A Game is plain mutable state; every move checks the rules first and changes nothing when it
raises IllegalMoveError. Dice are given to it (from a DiceSource, a record, or a test), never
drawn by it, so the same engine serves live play, replays and scorekeeping with physical dice.

Listing cells is the hot path, so what only changes with a write is kept worked out: each sheet
keeps what its columns' order allows (see Sheet), a turn its writable cells, a roll its dice's
index into the score tables. Change a game through its moves (snapshot.load_game builds a fresh
one) and a sheet through Sheet.set or Sheet.set_column.
"""

from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

from yamb.errors import IllegalMoveError
from yamb.i18n import Text
from yamb.layout import MAX_ROLLS, Layout, MaskPicker, picker, sheet_cells
from yamb.sheet import Sheet

type Dice = tuple[int, ...]
_FACES = frozenset(range(1, 7))
# (column index, row index, score): plain tuples, because listing them is the hot path.
type LegalCell = tuple[int, int, int]


class WriteResult(NamedTuple):
    seat: int
    column: int
    row: int
    score: int
    extra: int
    # The seat whose directed cell this write opened, and the row; None when it opened nothing.
    directs: tuple[int, int] | None
    game_over: bool


_new_tuple = tuple.__new__

# A seat's turn while another seat is focused: (roll, dice, announcement).
type OwnTurn = tuple[int, Dice, tuple[int, int] | None]
_NO_TURN: OwnTurn = (0, (), None)


class AutoMove(NamedTuple):
    column: int
    row: int
    score: int
    # True when the cell is an announced one written without an announcement made first.
    announces: bool


class Game:
    __slots__ = (
        "_columns",
        "_flat",
        "_index",
        "_lasts",
        "_open",
        "_parked",
        "_picks",
        "_until",
        "announcement",
        "dice",
        "finished",
        "layout",
        "left",
        "obligations",
        "own_turns",
        "players",
        "roll",
        "seat",
        "sheets",
        "turns_played",
    )

    def __init__(self, layout: Layout, players: Sequence[str], *, own_turns: bool = False) -> None:
        if not 1 <= len(players) <= 4:
            raise ValueError("a game has 1 to 4 players")
        if len(set(players)) != len(players):
            raise ValueError("each player may sit only once")
        self.layout = layout
        self.players = tuple(players)
        self.sheets = [Sheet(layout) for _ in players]
        self.seat = 0
        self.roll = 0  # 0 until the server's roll 1 starts the turn
        self.dice: Dice = ()
        # The roll number and the dice's multiset number in one, worked out once per roll (-1
        # until asked for): the index into the layout's scores and flat cells.
        self._index = -1
        self.announcement: tuple[int, int] | None = None
        # The directed row each seat must write next, opened by the previous seat.
        self.obligations: list[int | None] = [None] * len(players)
        self.left: set[int] = set()
        self.turns_played = [0] * len(players)
        self.finished = False
        # Own turns (simultaneous, each for themself, slow): every seat has a turn of its own,
        # and the moves act on the focused one (`seat`); the others' wait here as
        # (roll, dice, announcement), a roll of 0 when the seat has no turn under way.
        self.own_turns = own_turns
        self._parked: list[OwnTurn] = [_NO_TURN] * len(players) if own_turns else []
        # The turn's writable cells, worked out at its first question and forgotten whenever
        # they may change: per column the mask of writable rows, the last roll they may be
        # written after, and the last roll after which any cell is writable.
        self._open: list[int] | None = None
        self._flat: list[tuple[int, ...]] = []
        self._lasts = layout.last_rolls
        self._until = 0
        # Per roll number: the columns that count, and what picks the legal cells (see Layout).
        self._columns = layout.columns_by_roll
        self._picks: list[MaskPicker | None] = [None, None, None]

    # -- own turns -------------------------------------------------------------------------

    def focus(self, seat: int) -> None:
        """In a game of own turns: the moves act on `seat`'s turn from now on."""
        if seat == self.seat:
            return
        if not self.own_turns:
            raise ValueError("only a game of own turns moves its focus")
        self._parked[self.seat] = (self.roll, self.dice, self.announcement)
        self.roll, self.dice, self.announcement = self._parked[seat]
        self.seat = seat
        self._open = None
        self._index = -1

    def turn_of(self, seat: int) -> OwnTurn:
        """A seat's turn as (roll, dice, announcement); in turn by turn, only the seat in turn
        has one."""
        if seat == self.seat:
            return (self.roll, self.dice, self.announcement)
        return self._parked[seat] if self.own_turns else _NO_TURN

    def park(self, seat: int, turn: OwnTurn) -> None:
        """Restores the turn of a seat that is not focused (snapshot.load_game)."""
        if seat == self.seat or not self.own_turns:
            raise ValueError("only an unfocused seat's own turn is parked")
        self._parked[seat] = turn

    def _all_done(self) -> bool:
        return all(
            s in self.left or not self.sheets[s].empty_cells for s in range(len(self.players))
        )

    # -- dice ------------------------------------------------------------------------------

    def _bad_dice(self) -> IllegalMoveError:
        count = self.layout.dice_count
        return IllegalMoveError(
            Text("dice must be {count} values from 1 to 6", count=count), code="bad_dice"
        )

    def _find_index(self) -> int:
        """The index of the roll number and the dice's multiset in the layout's scores and flat
        cells, worked out at the roll's first question (a roll rerolled unasked needs none)."""
        layout = self.layout
        dice = self.dice
        key = layout.dice_keys.get(dice)
        if key is None:
            key = layout.dice_keys[tuple(sorted(dice))]
        index = self._index = (self.roll - 1) * layout.multisets + key
        return index

    def start_turn(self, dice: Sequence[int]) -> None:
        """The server's roll 1, which starts the turn of the seat in turn."""
        if self.finished:
            raise IllegalMoveError(Text("the game is over"), code="game_over")
        if self.roll:
            raise IllegalMoveError(Text("the turn has already started"), code="turn_started")
        rolled = dice if type(dice) is tuple else tuple(dice)
        if len(rolled) != self.layout.dice_count or not _FACES.issuperset(rolled):
            raise self._bad_dice()
        self.dice = rolled
        self._index = -1
        self.roll = 1

    def can_reroll(self) -> bool:
        """Another roll is allowed, and some cell could still be written after it."""
        roll = self.roll
        if self.finished or not 1 <= roll < MAX_ROLLS:
            return False
        if self._open is None:
            self._find_turn_cells()
        return roll < self._until

    def reroll(self, dice: Sequence[int]) -> None:
        """Rolls 2 and 3; the caller has kept the locked dice in `dice`."""
        rolled = dice if type(dice) is tuple else tuple(dice)
        if len(rolled) != self.layout.dice_count or not _FACES.issuperset(rolled):
            raise self._bad_dice()
        if self.finished:
            raise IllegalMoveError(Text("the game is over"), code="game_over")
        if not self.roll:
            raise IllegalMoveError(Text("the turn has not started"), code="turn_not_started")
        if self.roll >= MAX_ROLLS:
            raise IllegalMoveError(Text("a turn has at most 3 rolls"), code="no_rolls_left")
        if not self.can_reroll():
            raise IllegalMoveError(
                Text("no cell could be written after another roll: write now"),
                code="reroll_refused",
            )
        self.dice = rolled
        self._index = -1
        self.roll += 1

    # -- legal cells -----------------------------------------------------------------------

    def _find_turn_cells(self) -> list[int]:
        """Per column, the mask of rows the seat in turn may write this turn (each up to its
        last roll): worked out once a turn, and again after an announcement."""
        layout = self.layout
        announcement = self.announcement
        obligation = self.obligations[self.seat]
        directed = layout.directed_column
        if announcement is None and (obligation is None or directed is None):
            # The sheet keeps what each column's order allows; only a directed column's
            # condition depends on the other seats.
            sheet = self.sheets[self.seat]
            cells, flat = sheet.allowed, sheet.flat
            if directed is not None and cells[directed] and not self._directed_free(directed):
                # The directed column sits the turn out: no last roll, not among the columns.
                lasts, columns = layout.undirected_last_rolls, layout.undirected_columns_by_roll
            else:
                lasts, columns = layout.last_rolls, layout.columns_by_roll
            if any(columns[2](cells)):
                until = 3
            elif any(columns[1](cells)):
                until = 2
            else:
                until = 1 if any(columns[0](cells)) else 0
        else:
            # One cell only, writable after any roll: the announced one, or the directed one.
            lasts, until = layout.last_rolls, MAX_ROLLS
            column, row = announcement or (directed, obligation)
            assert column is not None and row is not None
            cells = [0] * len(lasts)
            cells[column] = 1 << row
            flat = [()] * len(lasts)
            flat[column] = (column * layout.rows_per_column + row,)
            lasts = (*lasts[:column], MAX_ROLLS, *lasts[column + 1 :])
            every = layout.columns_by_roll[0]
            columns = (every, every, every)
        self._open, self._lasts, self._until, self._columns = cells, lasts, until, columns
        self._flat = flat
        self._picks = [None, None, None]
        return cells

    def _directed_free(self, column: int) -> bool:
        """Unopened directed cells are free once no direction can reach them any more."""
        layout = self.layout
        director = (self.seat - 1) % len(self.players)
        if director in self.left:
            return True
        # A column is full when its order allows nothing more.
        allowed = self.sheets[director].allowed
        for directs in layout.directs_columns:
            if allowed[directs]:
                break
        else:
            return True
        sheet = self.sheets[self.seat]
        return sheet.empty_cells == layout.rows_per_column - sheet.filled[column].bit_count()

    def _joker_active(self) -> bool:
        """Classic's forced joker: five alike with the Yahtzee box filled."""
        joker_row = self.layout.joker_row
        if joker_row is None or not self.roll:
            return False
        dice = self.dice
        if dice.count(dice[0]) != len(dice):
            return False
        return bool(self.sheets[self.seat].filled[0] >> joker_row & 1)

    def legal_cells(self) -> list[LegalCell]:
        """Every cell the seat in turn may write now, with the score it would get."""
        roll = self.roll
        if not roll or self.finished:
            return []
        layout = self.layout
        if layout.joker_row is not None and self._joker_active():
            return self._joker_cells()
        if self._open is None:
            self._find_turn_cells()
        pick = self._picks[roll - 1]
        if pick is None:
            # The turn's first listing after this roll: the flat positions of its cells.
            positions: tuple[int, ...] = sum(self._columns[roll - 1](self._flat), ())
            pick = itemgetter(*positions) if len(positions) > 1 else picker(positions)
            self._picks[roll - 1] = pick
        index = self._index
        if index < 0:
            # _find_index, inlined: the roll's first listing.
            key = layout.dice_keys.get(self.dice)
            if key is None:
                key = layout.dice_keys[tuple(sorted(self.dice))]
            index = self._index = (roll - 1) * layout.multisets + key
        cells: list[LegalCell] = list(pick(layout.sheet_cells[index] or sheet_cells(layout, index)))
        if layout.conditional_rows:
            cells = [(c, r, self._conditional_score(c, r, s)) for c, r, s in cells]
        return cells

    def is_legal(self, column: int, row: int) -> bool:
        roll = self.roll
        if not roll or self.finished:
            return False
        if self.layout.joker_row is not None and self._joker_active():
            return any(c == column and r == row for c, r, _ in self._joker_cells())
        open_cells = self._open
        if open_cells is None:
            open_cells = self._find_turn_cells()
        return (
            0 <= column < len(open_cells)
            and 0 <= row < self.layout.rows_per_column
            and bool(open_cells[column] >> row & 1)
            and self._lasts[column] >= roll
        )

    def _conditional_score(self, column: int, row: int, score: int) -> int:
        values = self.sheets[self.seat].values[column]
        for conditional, required_row, required_value in self.layout.conditional_rows:
            if conditional == row and values[required_row] != required_value:
                return 0
        return score

    def _joker_cells(self) -> list[LegalCell]:
        """Classic's forced joker: the face's upper box, else any lower box at full value,
        else any upper box for 0."""
        layout = self.layout
        joker = layout.grid.joker
        assert joker is not None
        grid = layout.grid
        filled = self.sheets[self.seat].filled[0]
        index = self._index
        scores = layout.scores[index if index >= 0 else self._find_index()]
        face_row = layout.upper_rows[self.dice[0] - 1]
        if not filled >> face_row & 1:
            return [(0, face_row, scores[face_row])]
        lower = [r for r in layout.lower_rows if not filled >> r & 1]
        if lower:
            return [(0, r, joker.joker_values.get(grid.rows[r].id, scores[r])) for r in lower]
        return [(0, r, 0) for r in layout.upper_rows if not filled >> r & 1]

    def score_of(self, column: int, row: int) -> int:
        """The score a legal cell would get now; IllegalMoveError when the cell is not legal."""
        layout = self.layout
        roll = self.roll
        if layout.joker_row is None and roll and not self.finished:
            # is_legal, inlined.
            open_cells = self._open or self._find_turn_cells()
            if (
                0 <= column < len(open_cells)
                and 0 <= row < layout.rows_per_column
                and open_cells[column] >> row & 1
                and self._lasts[column] >= roll
            ):
                index = self._index
                score = layout.scores[index if index >= 0 else self._find_index()][row]
                if layout.conditional_rows:
                    return self._conditional_score(column, row, score)
                return score
            raise self._why_not_legal(column, row)
        if not self.is_legal(column, row):
            raise self._why_not_legal(column, row)
        if self._joker_active():
            return next(s for c, r, s in self._joker_cells() if c == column and r == row)
        index = self._index
        return layout.scores[index if index >= 0 else self._find_index()][row]

    def _why_not_legal(self, column: int, row: int) -> IllegalMoveError:
        layout = self.layout
        if not 0 <= column < len(layout.columns) or not 0 <= row < layout.rows_per_column:
            return IllegalMoveError(Text("no such cell"), code="unknown_cell")
        cell = f"{layout.columns[column].id}/{layout.grid.rows[row].id}"
        if self.finished:
            return IllegalMoveError(Text("the game is over"), code="game_over")
        if not self.roll:
            return IllegalMoveError(Text("the turn has not started"), code="turn_not_started")
        if self.sheets[self.seat].filled[column] >> row & 1:
            return IllegalMoveError(
                Text("{cell} is already written", cell=cell), code="cell_written"
            )
        if self.announcement is not None:
            c, r = self.announcement
            announced = f"{layout.columns[c].id}/{layout.grid.rows[r].id}"
            return IllegalMoveError(
                Text("{announced} was announced: write it", announced=announced),
                code="announced_elsewhere",
            )
        obligation = self.obligations[self.seat]
        if obligation is not None:
            return IllegalMoveError(
                Text("directed to directed/{row}: write it", row=layout.grid.rows[obligation].id),
                code="directed_elsewhere",
            )
        if self._joker_active():
            return IllegalMoveError(
                Text("the joker rule does not allow {cell}", cell=cell), code="joker_rule"
            )
        column_type = layout.columns[column].type
        if column_type.first_roll_only and self.roll != 1:
            return IllegalMoveError(
                Text("{cell} can be written only after roll 1", cell=cell), code="manual_rule"
            )
        if column_type.announce_by_roll is not None:
            return IllegalMoveError(
                Text(
                    "{cell} needs an announcement by roll {announce_by_roll}",
                    cell=cell,
                    announce_by_roll=column_type.announce_by_roll,
                ),
                code="needs_announcement",
            )
        if column_type.directed:
            return IllegalMoveError(
                Text("{cell} is not opened by a direction", cell=cell), code="not_directed"
            )
        return IllegalMoveError(
            Text("the column order does not allow {cell} yet", cell=cell), code="column_order"
        )

    # -- announcing ------------------------------------------------------------------------

    def announce(self, column: int, row: int) -> None:
        layout = self.layout
        if not 0 <= column < len(layout.columns) or not 0 <= row < layout.rows_per_column:
            raise IllegalMoveError(Text("no such cell"), code="unknown_cell")
        column_type = layout.columns[column].type
        if column_type.announce_by_roll is None:
            raise IllegalMoveError(
                Text("{column} is not an announced column", column=column_type.id),
                code="bad_announcement",
            )
        if self.announcement is not None:
            raise IllegalMoveError(
                Text("an announcement was already made this turn"), code="bad_announcement"
            )
        if not self.roll or self.roll > column_type.announce_by_roll:
            raise IllegalMoveError(
                Text("{column} is announced after roll 1 or 2", column=column_type.id)
                if column_type.announce_by_roll == 2
                else Text("{column} is announced after roll 1", column=column_type.id),
                code="bad_announcement",
            )
        if not any(c == column and r == row for c, r, _ in self.legal_cells()):
            raise self._why_not_legal(column, row)
        self.announcement = (column, row)
        self._open = None

    # -- writing ---------------------------------------------------------------------------

    def write(self, column: int, row: int) -> WriteResult:
        layout = self.layout
        roll = self.roll
        if layout.joker_row is None and roll and not self.finished:
            # score_of, inlined: the hot path.
            open_cells = self._open or self._find_turn_cells()
            if not (
                0 <= column < len(open_cells)
                and 0 <= row < layout.rows_per_column
                and open_cells[column] >> row & 1
                and self._lasts[column] >= roll
            ):
                raise self._why_not_legal(column, row)
            index = self._index
            score = layout.scores[index if index >= 0 else self._find_index()][row]
            if layout.conditional_rows:
                score = self._conditional_score(column, row, score)
        else:
            score = self.score_of(column, row)
        seat = self.seat
        sheet = self.sheets[seat]
        extra = 0
        joker_row = layout.joker_row
        if joker_row is not None and self._joker_active():
            joker = layout.grid.joker
            assert joker is not None
            if sheet.values[0][joker_row] == joker.bonus_needs:
                extra = joker.bonus
                sheet.extra[column] += extra
        return self._commit(column, row, score, extra)

    def write_value(self, column: int, row: int, score: int) -> WriteResult:
        """Writes `score` in an empty cell, however the dice stand: a 2 vs 2 team's final write
        of its proposed cell, whose value the session worked out (rules.md 7)."""
        if self.finished:
            raise IllegalMoveError(Text("the game is over"), code="game_over")
        layout = self.layout
        if not 0 <= column < len(layout.columns) or not 0 <= row < layout.rows_per_column:
            raise IllegalMoveError(Text("no such cell"), code="unknown_cell")
        if self.sheets[self.seat].filled[column] >> row & 1:
            raise IllegalMoveError(Text("the cell is already written"), code="cell_written")
        return self._commit(column, row, score, 0)

    def _commit(self, column: int, row: int, score: int, extra: int) -> WriteResult:
        layout = self.layout
        seat = self.seat
        sheet = self.sheets[seat]
        # Sheet.set, inlined.
        sheet.values[column][row] = score
        filled = sheet.filled[column] | 1 << row
        sheet.filled[column] = filled
        allowed = sheet.allowed[column] = layout.allowed[column][filled]
        sheet.flat[column] = layout.flat_rows[column][allowed]
        sheet.empty_cells -= 1
        self.obligations[seat] = None
        directs = self._direct(column, row) if column in layout.directs_columns else None
        self.turns_played[seat] += 1
        # _end_turn, inlined.
        self._open = None
        self.roll = 0
        self.dice = ()
        self.announcement = None
        if self.own_turns:
            self.finished = self._all_done()
        elif len(self.players) > 1 or self.left:
            self._next_seat()
        elif not sheet.empty_cells:
            self.finished = True
        # tuple.__new__ straight: NamedTuple's own __new__ is a Python function around it.
        return _new_tuple(WriteResult, (seat, column, row, score, extra, directs, self.finished))

    def restart_turn(self) -> None:
        """The same seat's turn begins again from no dice: a 2 vs 2 team turn's second part,
        played by the partner with their own roll 1 (rules.md 7)."""
        self._open = None
        self._index = -1
        self.roll = 0
        self.dice = ()
        self.announcement = None

    def withdraw_announcement(self) -> None:
        """Forgets the turn's announcement: in 2 vs 2 an announcement only opens a row."""
        self.announcement, self._open = None, None

    def cells_if_announced(self, column: int, row: int) -> list[LegalCell]:
        """The legal cells the dice would give if (column, row) were announced now (none when
        it could not be written then): a 2 vs 2 announcement opens a row without binding."""
        if self.announcement is not None:
            return []
        self.announcement, self._open = (column, row), None
        try:
            return self.legal_cells()
        finally:
            self.announcement, self._open = None, None

    def _direct(self, column: int, row: int) -> tuple[int, int] | None:
        directed = self.layout.directed_column
        if directed is None or not self.layout.columns[column].type.directs:
            return None
        target = (self.seat + 1) % len(self.players)
        if target in self.left or self.sheets[target].filled[directed] >> row & 1:
            return None
        self.obligations[target] = row
        return (target, row)

    def _end_turn(self) -> None:
        self._open = None
        self.roll = 0
        self.dice = ()
        self.announcement = None
        self._next_seat()

    def _next_seat(self) -> None:
        """The next seat round the table that is still seated with cells to write; the game is
        over when there is none."""
        count = len(self.players)
        sheets, left = self.sheets, self.left
        for step in range(1, count + 1):
            candidate = (self.seat + step) % count
            if sheets[candidate].empty_cells and candidate not in left:
                self.seat = candidate
                return
        self.finished = True

    # -- the clock -------------------------------------------------------------------------

    def auto_move(self) -> AutoMove:
        """What the server writes when the clock runs out: the best legal cell for the current
        dice (obligations first, since they are the only legal cells), first in sheet order on
        ties."""
        cells = self.legal_cells()
        if not cells:
            raise IllegalMoveError(Text("no turn is in progress"), code="turn_not_started")
        column, row, score = max(cells, key=lambda cell: cell[2])
        announces = (
            self.announcement is None
            and self.layout.columns[column].type.announce_by_roll is not None
        )
        return AutoMove(column, row, score, announces)

    def play_auto_move(self) -> WriteResult:
        move = self.auto_move()
        if move.announces:
            self.announce(move.column, move.row)
        return self.write(move.column, move.row)

    # -- leaving and the end ---------------------------------------------------------------

    def leave(self, seat: int) -> None:
        """A seat leaves (resigns or does not come back); the others play on."""
        if seat in self.left:
            return
        self.left.add(seat)
        self.obligations[seat] = None
        self._open = None
        if self.own_turns:
            if seat == self.seat:
                self.roll, self.dice, self.announcement = _NO_TURN
            else:
                self._parked[seat] = _NO_TURN
            self.finished = self.finished or self._all_done()
        elif seat == self.seat and not self.finished:
            self._end_turn()
        elif all(s in self.left or self.sheets[s].is_full() for s in range(len(self.players))):
            self.finished = True

    def is_complete(self) -> bool:
        """Every player has filled every cell."""
        return all(sheet.is_full() for sheet in self.sheets)

    def winners(self) -> list[str]:
        """The leaders among the players still seated once the game is over; ties all win."""
        if not self.finished:
            return []
        present = [s for s in range(len(self.players)) if s not in self.left]
        if not present:
            return []
        totals = {s: self.sheets[s].total() for s in present}
        best = max(totals.values())
        return [self.players[s] for s in present if totals[s] == best]
