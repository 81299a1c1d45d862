"""2 vs 2 (rules.md 7): the second player's choice of the partner's proposed cell."""

from yamb.rules import Grid


def merge_proposal(grid: Grid, row_id: str, proposed: int, own: int) -> int:
    """The value written when the second player takes the proposed cell: the better of the
    proposal and their own dice's value for it (the smaller in a lower-is-better row, Min)."""
    row = grid.rows[grid.row_index(row_id)]
    return min(proposed, own) if row.lower_is_better else max(proposed, own)
