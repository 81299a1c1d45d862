// Words for what the protocol names by id, in the page's language: each table is built when a
// word is asked for (the catalogue is loaded by then; a table built when this module loads would
// stay English). A row's and a column's names are the game's own terms, told apart by their
// context ("Free" the column is not "Free" the price; "Yamb" the row is not the grid).

import { t, tc, tn } from "./i18n.js";

const rows = () => ({
  ones: tc("row", "1s"), twos: tc("row", "2s"), threes: tc("row", "3s"),
  fours: tc("row", "4s"), fives: tc("row", "5s"), sixes: tc("row", "6s"),
  max: tc("row", "Max"), min: tc("row", "Min"),
  three_of_a_kind: tc("row", "Three of a kind"), four_of_a_kind: tc("row", "Four of a kind"),
  straight: tc("row", "Straight"), small_straight: tc("row", "Small straight"),
  large_straight: tc("row", "Large straight"), full_house: tc("row", "Full house"),
  yamb: tc("row", "Yamb"), yahtzee: tc("row", "Yahtzee"), yatzy: tc("row", "Yatzy"), yacht: tc("row", "Yacht"),
  chance: tc("row", "Chance"), choice: tc("row", "Choice"),
  one_pair: tc("row", "One pair"), two_pairs: tc("row", "Two pairs"),
  generala: tc("row", "Generala"), double_generala: tc("row", "Double generala"),
});

const columns = () => ({
  down: tc("column", "↓ Down"), up: tc("column", "↑ Up"), free: tc("column", "Free"),
  announced: tc("column", "Announced"), directed: tc("column", "Directed"), manual: tc("column", "Manual"),
  from_middle: tc("column", "From middle"), to_middle: tc("column", "To middle"),
  late_announced: tc("column", "Late announced"), main: tc("column", "Score"),
});

const turnTypes = () => ({
  turn_by_turn: t("Turn by turn"), simultaneous: t("Simultaneous"),
  each_for_themself: t("Each for themself"), slow: t("Slow (days)"),
});

const grids = () => ({
  yamb: t("Yamb"), classic: t("Yahtzee (classic)"), scandinavian: t("Yatzy (Scandinavian)"),
  yacht: t("Yacht"), generala: t("Generala"),
});

const statuses = () => ({
  waiting: t("Waiting for players"), running: t("In play"), finished: t("Finished"), cancelled: t("Cancelled"),
  deleted: t("Deleted"),
});

// The bots' levels (yamb.bots.levels).
const levels = () => ({
  easy: t("Easy"), medium: t("Medium"), hard: t("Hard"), optimal: t("Optimal"),
});

const words = (id) => String(id).replace(/_/g, " ");
export const rowLabel = (id) => rows()[id] || words(id);
export const columnLabel = (id) => columns()[id] || words(id);
export const turnTypeLabel = (id) => turnTypes()[id] || words(id);
export const gridLabel = (id) => grids()[id] || words(id);
export const cellLabel = (cell) => t("{row} in {column}", { row: rowLabel(cell.row), column: columnLabel(cell.column) });
export const statusLabel = (id) => statuses()[id] || words(id);
export const levelLabel = (id) => levels()[id] || words(id);

/** A statistics kind in words: "preset-3/5d/individual" -> "preset 3 · 5 dice · Individual"
 * (results' kind_of: the columns or grid, the dice, the format). */
export function recordKindLabel(kind) {
  if (kind === "other") return t("Other tables");
  const [columns, dice, format] = String(kind).split("/");
  const table = columns.startsWith("preset-")
    ? t("preset {number}", { number: columns.slice("preset-".length) })
    : columns.startsWith("custom-")
      ? columns.slice("custom-".length).split(".").map(columnLabel).join(", ")
      : gridLabel(columns);
  const count = Number.parseInt(dice, 10);
  const formats = { individual: t("Individual"), pairs: t("2 vs 2"), solo: tc("format", "Solo") };
  return [table, Number.isNaN(count) ? dice : tn("{count} die", "{count} dice", count), formats[format] || format]
    .filter(Boolean).join(" · ");
}
