// #/replay/<id>: a finished game turn by turn (product G8), from the `replay` action's frames:
// step through the turns (buttons or the arrow keys) and see each one's rolls and the sheets as
// they stood after it; the whole list below, with each turn's regret on a Yahtzee-family grid (on Yamb against the
// hard bot's choices).
// Reached from a game's end, a board's row, a head-to-head meeting and the list of past games.

import { fill, h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { cellLabel, gridLabel } from "../labels.js";
import { sheetTable } from "../sheet.js";

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
let onKey = null;

export const screen = {
  id: "replay-view",
  path: "/replay/:gameId",
  get title() { return t("Replay"); },
  nav: false,
  async show(root, { gameId }, ctx) {
    fill(root, h("h2", {}, t("Replay")), h("p", { class: "hint" }, t("Loading the game…")));
    await ctx.connected();
    const slot = h("p", { class: "error", id: "replay-error", role: "alert" });
    fill(root, h("h2", {}, t("Replay")), slot);
    const parts = await ctx.act("replay", { gameId }, "replay-error");
    if (!parts) return;
    const replay = whole(Array.isArray(parts) ? parts : [parts], ctx);
    draw(root, replay, replay.turns.length, ctx);
  },
  hide() {
    if (onKey) document.removeEventListener("keydown", onKey);
    onKey = null;
  },
};

/** The frames' parts as one replay, with names for the players. */
function whole(parts, ctx) {
  const first = parts[0];
  const nameOf = (id, index) => {
    const nickname = first.nicknames?.[index];
    if (id === ctx.state.me) return nickname ? t("{name} (you)", { name: nickname }) : t("You");
    return nickname || t("Player {number}", { number: index + 1 });
  };
  const names = new Map(first.players.map((id, index) => [id, nameOf(id, index)]));
  const settings = first.settings;
  const grid = ctx.state.catalog.grids.find((g) => g.id === (settings.grid || "yamb"));
  const turns = parts.flatMap((part) => part.turns);
  const written = [...new Set(turns.filter((turn) => turn.write).map((turn) => turn.write.column))];
  const columns = settings.columns || ctx.state.catalog.presets[settings.preset] || written;
  const regret = parts.map((part) => part.regret).find((r) => r && typeof r === "object") || null;
  const luck = parts.map((part) => part.luck).find((l) => l && typeof l === "object") || null;
  return { gameId: first.gameId, players: first.players, names, settings, grid, turns, columns,
    regret, luck, expected: first.expected, expectedBy: first.expectedBy || null,
    against: first.against || "optimal", winners: first.winners, outcome: first.outcome };
}

/** The sheets as they stood after `upTo` turns: the cells written so far. */
function sheetsAfter(replay, upTo) {
  const cells = new Map(replay.players.map((id) => [id, {}]));
  for (const turn of replay.turns.slice(0, upTo)) {
    if (!turn.write) continue;
    const sheet = cells.get(turn.playerId);
    sheet[turn.write.column] ||= {};
    sheet[turn.write.column][turn.write.row] = turn.write.score;
  }
  return replay.players.map((id) => {
    const written = cells.get(id);
    const sum = Object.values(written).flatMap((column) => Object.values(column)).reduce((a, b) => a + b, 0);
    const blank = { upper: "", middle: "", lower: "", total: "" };
    return { playerId: id, cells: written, total: sum,
      totals: Object.fromEntries(replay.columns.map((column) => [column, blank])) };
  });
}

function draw(root, replay, at, ctx) {
  const count = replay.turns.length;
  const go = (next) => draw(root, replay, Math.max(0, Math.min(count, next)), ctx);
  if (onKey) document.removeEventListener("keydown", onKey);
  onKey = (event) => {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "ArrowLeft") go(at - 1);
  };
  document.addEventListener("keydown", onKey);
  const turn = at > 0 ? replay.turns[at - 1] : null;
  const winners = replay.winners.map((id) => replay.names.get(id)).join(", ");
  const step = (label, target, id) => h("button", { type: "button", id, disabled: target === at || target < 0 || target > count,
    onclick: () => go(target) }, label);
  const sheets = sheetsAfter(replay, at).map((sheet) => sheetTable({
    sheet, grid: replay.grid, columns: replay.columns, title: replay.names.get(sheet.playerId), turn: null,
  }));
  fill(root,
    h("h2", { id: "replay-title" }, tn("Replay: {count} turn", "Replay: {count} turns", count)),
    h("p", { class: "hint" }, gridLabel(replay.settings.grid || "yamb"), " · ",
      [...replay.names.values()].join(", "),
      winners ? [" · ", t("Won by {names}", { names: winners })] : ""),
    regretSummary(replay),
    luckSummary(replay),
    h("div", { class: "replay-steps", role: "group", "aria-label": t("Turns") },
      step("⏮", 0, "replay-first"), step(t("Previous"), at - 1, "replay-previous"),
      h("span", { id: "replay-at", "aria-live": "polite" },
        t("Turn {number} of {count}", { number: formatNumber(at), count: formatNumber(count) })),
      step(t("Next"), at + 1, "replay-next"), step("⏭", count, "replay-last")),
    h("div", { class: "panel", id: "replay-turn" }, turn ? turnFacts(replay, turn) : t("Before the first turn.")),
    h("div", { class: "sheets replay-sheets" }, sheets),
    h("details", { class: "panel" }, h("summary", {}, t("Every turn")), turnTable(replay, go)),
    h("p", {}, h("a", { href: "#/games" }, t("My past games")), " · ", h("a", { href: "#/boards" }, t("Leaderboards"))));
}

function turnFacts(replay, turn) {
  const rolls = turn.rolls.map((roll, index) => h("span", { class: "replay-roll",
    "aria-label": t("Roll {number}: {dice}", { number: index + 1, dice: roll.dice.join(", ") }) },
  roll.dice.map((die) => FACES[die] || String(die)).join("")));
  return [
    h("strong", {}, replay.names.get(turn.playerId)), " · ",
    h("span", { class: "replay-rolls" }, rolls),
    turn.announcement ? h("p", {}, t("Announced {cell}", { cell: cellLabel(turn.announcement) })) : null,
    h("p", { id: "replay-written" }, turn.write
      ? t("Wrote {score} in {cell}", { score: turn.write.score, cell: cellLabel(turn.write) })
        + (turn.write.auto ? ` ${t("(the clock ran out)")}` : "")
      : t("Nothing written")),
  ];
}

function regretSummary(replay) {
  if (!replay.regret) return null;
  const parts = Object.entries(replay.regret).map(([id, value]) =>
    `${replay.names.get(id)} ${isNumber(value) ? points(value) : "?"}`);
  return h("p", { id: "replay-regret" }, replay.against === "hard"
    ? t("Regret (expected points lost against the hard bot’s choices; 0 is as good): {list}", { list: parts.join(" · ") })
    : t("Regret (expected points lost against the optimal player; 0 is perfect): {list}", { list: parts.join(" · ") }));
}

/** Luck told apart from skill (issue 32): per player who finished, the points their own
 * choices lost and the points the dice gave or took, against the optimal player's average on a
 * family grid; on Yamb against the hard bot's choices, beside what it expected from their sheets. */
function luckSummary(replay) {
  if (!replay.luck || !isNumber(replay.expected)) return null;
  const signed = (value) => `${value > 0 ? "+" : ""}${points(value)}`;
  const hard = replay.against === "hard" && replay.expectedBy;
  const rows = Object.entries(replay.luck).map(([id, luck]) => h("tr", { dataset: { player: id } },
    h("th", { scope: "row" }, replay.names.get(id)),
    hard ? h("td", { class: "expected" }, isNumber(replay.expectedBy[id]) ? points(replay.expectedBy[id]) : "") : null,
    h("td", {}, isNumber(replay.regret?.[id]) ? `−${points(replay.regret[id])}` : ""),
    h("td", {}, signed(luck))));
  const heads = hard ? [t("Player"), t("Expected"), t("Lost to choices"), t("Dice luck")]
    : [t("Player"), t("Lost to choices"), t("Dice luck")];
  return h("section", { class: "panel", id: "replay-luck", dataset: { against: replay.against } },
    h("h3", {}, t("Skill and luck")),
    h("p", { class: "hint" }, hard
      ? t("Measured against the hard bot’s choices. “Expected” is what it expects, turn by turn, from the sheets the player had; each total is that, less the points the player’s own choices lost, plus what the dice gave or took.")
      : t("The optimal player scores {expected} on average here. Each total is that, less the points the player’s own choices lost, plus what the dice gave or took.", { expected: points(replay.expected) })),
    h("table", { class: "board-table" },
      h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, rows)));
}

function turnTable(replay, go) {
  const withRegret = replay.turns.some((turn) => isNumber(turn.regret)) || Boolean(replay.regret);
  const heads = ["#", t("Player"), t("Rolls"), t("Announced"), t("Proposed"), t("Written")];
  if (withRegret) heads.push(t("Regret"));
  const rows = replay.turns.map((turn) => h("tr", {},
    h("td", {}, h("button", { type: "button", class: "link", onclick: () => go(turn.number) }, String(turn.number))),
    h("td", {}, replay.names.get(turn.playerId)),
    h("td", {}, turn.rolls.map((roll) => roll.dice.join("")).join(" → ")),
    h("td", {}, turn.announcement ? cellLabel(turn.announcement) : ""),
    h("td", {}, turn.proposal ? `${cellLabel(turn.proposal)} (${turn.proposal.score})` : ""),
    h("td", {}, turn.write ? `${cellLabel(turn.write)}: ${turn.write.score}${turn.write.auto ? ` ${t("(clock)")}` : ""}` : "—"),
    withRegret ? h("td", { class: "regret" }, isNumber(turn.regret) ? points(turn.regret) : "") : null));
  return h("div", { class: "sheet-scroll" }, h("table", { class: "replay", id: "replay-turns" },
    h("thead", {}, h("tr", {}, heads.map((head) => h("th", { scope: "col" }, head)))),
    h("tbody", {}, rows)));
}

const isNumber = (value) => typeof value === "number" && Number.isFinite(value);
const points = (value) => formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
