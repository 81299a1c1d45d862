"""A player's sheet: written values per column, and the totals the rules derive from them."""

from collections.abc import Sequence
from dataclasses import dataclass

from yamb.layout import Layout


@dataclass(frozen=True, slots=True)
class ColumnTotals:
    upper: int
    bonus: int
    middle: int
    lower: int
    extra: int

    @property
    def total(self) -> int:
        return self.upper + self.bonus + self.middle + self.lower + self.extra

    def as_dict(self) -> dict[str, int]:
        return {
            "upper": self.upper,
            "bonus": self.bonus,
            "middle": self.middle,
            "lower": self.lower,
            "extra": self.extra,
            "total": self.total,
        }


class Sheet:
    """Values per column and row (None while empty), a filled-rows mask per column, and the
    extra points (Yahtzee bonuses) per column. `allowed` follows the filled masks: per column,
    the mask of the empty rows its order allows next (before the turn's conditions), and `flat`
    the same rows as positions in the layout's flat cells."""

    __slots__ = (
        "_flat_rows",
        "_tables",
        "allowed",
        "empty_cells",
        "extra",
        "filled",
        "flat",
        "layout",
        "values",
    )

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        rows = layout.rows_per_column
        self.values: list[list[int | None]] = [[None] * rows for _ in layout.columns]
        self.filled: list[int] = [0] * len(layout.columns)
        self.extra: list[int] = [0] * len(layout.columns)
        self.empty_cells = layout.cells_per_sheet
        self._tables = layout.allowed
        self._flat_rows = layout.flat_rows
        self.allowed: list[int] = [table[0] for table in layout.allowed]
        self.flat = [rows[mask] for rows, mask in zip(layout.flat_rows, self.allowed, strict=True)]

    def is_full(self) -> bool:
        return self.empty_cells == 0

    def set(self, column: int, row: int, value: int) -> None:
        self.values[column][row] = value
        filled = self.filled[column] | 1 << row
        self.filled[column] = filled
        allowed = self.allowed[column] = self._tables[column][filled]
        self.flat[column] = self._flat_rows[column][allowed]
        self.empty_cells -= 1

    def set_column(self, column: int, values: Sequence[int | None]) -> None:
        """Replaces a whole column's values (None for an empty cell): how a stored game loads."""
        if len(values) != self.layout.rows_per_column:
            raise ValueError(f"a column has {self.layout.rows_per_column} rows, not {len(values)}")
        filled = 0
        for row, value in enumerate(values):
            if value is not None:
                filled |= 1 << row
        self.empty_cells += self.filled[column].bit_count() - filled.bit_count()
        self.values[column] = list(values)
        self.filled[column] = filled
        allowed = self.allowed[column] = self._tables[column][filled]
        self.flat[column] = self._flat_rows[column][allowed]

    def column_totals(self, column: int) -> ColumnTotals:
        layout = self.layout
        values = self.values[column]
        upper = sum(values[r] or 0 for r in layout.upper_rows)
        bonus_rule = layout.grid.upper_bonus
        bonus = bonus_rule.amount if bonus_rule and upper >= bonus_rule.threshold else 0
        middle = 0
        if layout.middle_rows is not None:
            high, low, multiplier = (values[r] for r in layout.middle_rows)
            if high is not None and low is not None and multiplier is not None:
                middle = (high - low) * multiplier
        lower = sum(values[r] or 0 for r in layout.lower_rows)
        return ColumnTotals(upper, bonus, middle, lower, self.extra[column])

    def total(self) -> int:
        return sum(self.column_totals(c).total for c in range(len(self.layout.columns)))
