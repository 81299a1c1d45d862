// Words for what the protocol names by id.

const ROWS = {
  ones: "1s", twos: "2s", threes: "3s", fours: "4s", fives: "5s", sixes: "6s",
  max: "Max", min: "Min",
  three_of_a_kind: "Three of a kind", four_of_a_kind: "Four of a kind",
  straight: "Straight", small_straight: "Small straight", large_straight: "Large straight",
  full_house: "Full house", yamb: "Yamb", yahtzee: "Yahtzee", yatzy: "Yatzy", yacht: "Yacht",
  chance: "Chance", choice: "Choice", one_pair: "One pair", two_pairs: "Two pairs",
  generala: "Generala", double_generala: "Double generala",
};

const COLUMNS = {
  down: "↓ Down", up: "↑ Up", free: "Free", announced: "Announced", directed: "Directed",
  manual: "Manual", from_middle: "From middle", to_middle: "To middle",
  late_announced: "Late announced", main: "Score",
};

const TURN_TYPES = {
  turn_by_turn: "Turn by turn", simultaneous: "Simultaneous",
  each_for_themself: "Each for themself", slow: "Slow (days)",
};

const GRIDS = {
  yamb: "Yamb", classic: "Yahtzee (classic)", scandinavian: "Yatzy (Scandinavian)",
  yacht: "Yacht", generala: "Generala",
};

const STATUSES = {
  waiting: "Waiting for players", running: "In play", finished: "Finished", cancelled: "Cancelled",
  deleted: "Deleted",
};

const words = (id) => id.replace(/_/g, " ");
export const rowLabel = (id) => ROWS[id] || words(id);
export const columnLabel = (id) => COLUMNS[id] || words(id);
export const turnTypeLabel = (id) => TURN_TYPES[id] || words(id);
export const gridLabel = (id) => GRIDS[id] || words(id);
export const cellLabel = (cell) => `${rowLabel(cell.row)} in ${columnLabel(cell.column)}`;
export const statusLabel = (id) => STATUSES[id] || words(id);
