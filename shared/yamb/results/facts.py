"""What a filled sheet says about how it was played, for the success rates of the statistics
(R4): upper bonuses taken, five of a kind (Yamb, Yahtzee, Yatzy...) and four of a kind (the
Yamb "poker") scored, cells crossed out (written 0)."""

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

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


def facts_of(sheet: Sheet) -> SheetFacts:
    yamb_rows, poker_rows = _of_a_kind_rows(sheet, 5), _of_a_kind_rows(sheet, 4)
    bonus_rule = sheet.layout.grid.upper_bonus
    cells = crossed = yamb_cells = yambs = poker_cells = pokers = bonuses = 0
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
    return SheetFacts(
        columns=len(sheet.values) if bonus_rule is not None else 0,
        bonuses=bonuses,
        cells=cells,
        crossed=crossed,
        yamb_cells=yamb_cells,
        yambs=yambs,
        poker_cells=poker_cells,
        pokers=pokers,
    )
