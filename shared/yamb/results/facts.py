"""What a filled sheet says about how it was played, for the success rates of the statistics
(R4): upper bonuses taken, five of a kind (Yamb, Yahtzee, Yatzy...) and four of a kind (the
Yamb "poker") scored, cells crossed out (written 0); and for the badges (E8), the pokers and the
aces written at the best score their row can give (four sixes; five ones)."""

from functools import cache

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from yamb.layout import Layout
from yamb.sheet import Sheet


class SheetFacts(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

    columns: int = 0
    bonuses: int = 0
    cells: int = 0
    crossed: int = 0
    yamb_cells: int = 0
    yambs: int = 0
    poker_cells: int = 0
    pokers: int = 0
    # Badges (E8): cells written at their row's best score, four of a kind (Poker) and ones
    # (Aces).
    top_pokers: int = 0
    full_aces: int = 0

    def __add__(self, other: "SheetFacts") -> "SheetFacts":
        return SheetFacts(
            **{name: getattr(self, name) + getattr(other, name) for name in SheetFacts.model_fields}
        )


def _of_a_kind_rows(sheet: Sheet, n: int) -> set[int]:
    return {
        index
        for index, row in enumerate(sheet.layout.grid.rows)
        if row.scorer == "of_a_kind" and row.params.get("n") == n
    }


@cache
def _best_scores(layout: Layout) -> tuple[int, ...]:
    """Each row's best score over every roll the layout scores (its dice count; more than five
    dice score their best five, so six ones make five ones' 5): four sixes' 64 on a Yamb
    poker, a first roll's 45 on Generala's, 5 on the ones."""
    return tuple(
        max(scores[row] for scores in layout.scores) for row in range(len(layout.grid.rows))
    )


def _ones_rows(sheet: Sheet) -> set[int]:
    return {
        index
        for index, row in enumerate(sheet.layout.grid.rows)
        if row.scorer == "face" and row.params.get("face") == 1
    }


def facts_of(sheet: Sheet) -> SheetFacts:
    yamb_rows, poker_rows = _of_a_kind_rows(sheet, 5), _of_a_kind_rows(sheet, 4)
    ones_rows, best = _ones_rows(sheet), _best_scores(sheet.layout)
    bonus_rule = sheet.layout.grid.upper_bonus
    cells = crossed = yamb_cells = yambs = poker_cells = pokers = bonuses = 0
    top_pokers = full_aces = 0
    for column, values in enumerate(sheet.values):
        if bonus_rule is not None and sheet.column_totals(column).bonus > 0:
            bonuses += 1
        for row, value in enumerate(values):
            if value is None:
                continue
            cells += 1
            crossed += value == 0
            if row in yamb_rows:
                yamb_cells, yambs = yamb_cells + 1, yambs + (value > 0)
            elif row in poker_rows:
                poker_cells, pokers = poker_cells + 1, pokers + (value > 0)
                top_pokers += value == best[row] > 0
            elif row in ones_rows:
                full_aces += value == best[row] > 0
    return SheetFacts(
        columns=len(sheet.values) if bonus_rule is not None else 0,
        bonuses=bonuses,
        cells=cells,
        crossed=crossed,
        yamb_cells=yamb_cells,
        yambs=yambs,
        poker_cells=poker_cells,
        pokers=pokers,
        top_pokers=top_pokers,
        full_aces=full_aces,
    )
