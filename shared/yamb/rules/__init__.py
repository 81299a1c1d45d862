"""Every rule of rules.md as data: grids, rows, column types, presets, and their score tables."""

from yamb.rules.columns import COLUMN_TYPES, MAIN_COLUMN, PRESETS, ColumnType
from yamb.rules.grids import GRIDS, Grid, RowRule
from yamb.rules.tables import row_scores, score_tables

__all__ = [
    "COLUMN_TYPES",
    "GRIDS",
    "MAIN_COLUMN",
    "PRESETS",
    "ColumnType",
    "Grid",
    "RowRule",
    "row_scores",
    "score_tables",
]
