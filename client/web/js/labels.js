// Words for what the protocol names by id, in the page's language: each table is built when a
// word is asked for (the catalogue is loaded by then; a table built when this module loads would
// stay English).

import { t } from "./i18n.js";

const rows = () => ({
  ones: t("1s"), twos: t("2s"), threes: t("3s"), fours: t("4s"), fives: t("5s"), sixes: t("6s"),
  max: t("Max"), min: t("Min"),
  three_of_a_kind: t("Three of a kind"), four_of_a_kind: t("Four of a kind"),
  straight: t("Straight"), small_straight: t("Small straight"), large_straight: t("Large straight"),
  full_house: t("Full house"), yamb: t("Yamb"), yahtzee: t("Yahtzee"), yatzy: t("Yatzy"), yacht: t("Yacht"),
  chance: t("Chance"), choice: t("Choice"), one_pair: t("One pair"), two_pairs: t("Two pairs"),
  generala: t("Generala"), double_generala: t("Double generala"),
});

const columns = () => ({
  down: t("↓ Down"), up: t("↑ Up"), free: t("Free"), announced: t("Announced"), directed: t("Directed"),
  manual: t("Manual"), from_middle: t("From middle"), to_middle: t("To middle"),
  late_announced: t("Late announced"), main: t("Score"),
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
