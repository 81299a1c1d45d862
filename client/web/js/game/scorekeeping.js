// A scorekeeping table's history (product P6): every written turn as it was typed (the rolls,
// an announcement, the cell written), read with `history`, and the creator's correction of a
// line (`correct_turn`), after which the server scores every sheet again. A correction the
// rules refuse (a later write no longer legal) is said beside the line's form.

import { h } from "../dom.js";
import { cellLabel, columnLabel, rowLabel } from "../labels.js";
import { formatNumber, t } from "../i18n.js";

const PAGE = 100; // lines per `history` answer (yamb.session.scorekeeping.HISTORY_PAGE)
// gameId -> {version, lines, total}; the line being corrected; the panel kept across redraws.
const loaded = new Map();
let editing = null; // {gameId, line}
let panel = null;
let context = null;

const nameOf = (game, playerId) => game.seats.find((seat) => seat.playerId === playerId)?.nickname || t("a player");

export function scorekeepingPanel(game, app) {
  if (!game.settings.physicalDice || !["running", "finished", "cancelled"].includes(game.status)) return null;
  context = app;
  if (!panel || panel.dataset.game !== game.gameId) {
    panel = h("details", { class: "panel history", id: "history", dataset: { game: game.gameId },
      ontoggle: () => { if (panel.open) refresh(game.gameId); } });
  }
  const known = loaded.get(game.gameId);
  if (panel.open && (!known || known.version !== game.version) && !panel.dataset.loading) refresh(game.gameId);
  draw(game);
  return panel;
}

async function refresh(gameId) {
  const game = context.state.games.get(gameId) || context.state.game;
  if (!game || panel.dataset.loading) return;
  panel.dataset.loading = "1";
  const lines = [];
  let total = 0;
  try {
    for (let start = 0; start === 0 || start < total; start += PAGE) {
      const frame = await context.act("history", { gameId, start }, "history-error", { open: false });
      if (!frame) return;
      total = frame.total;
      lines.push(...frame.turns);
      if (!frame.turns.length) break;
    }
    loaded.set(gameId, { version: game.version, lines, total });
  } finally {
    delete panel.dataset.loading;
  }
  const now = context.state.games.get(gameId) || game;
  draw(now);
}

function draw(game) {
  const known = loaded.get(game.gameId);
  const creator = game.creator === context.state.me;
  const error = panel.querySelector("#history-error")?.textContent || "";
  const rows = (known?.lines || []).map((line, index) => {
    const row = h("li", { class: "history-line", dataset: { line: String(index) } },
      h("span", { class: "who" }, nameOf(game, line.player)), " ",
      h("span", { class: "rolls" }, line.rolls.map((dice) => dice.join("")).join(" → ")), " ",
      line.announce ? h("span", { class: "announced" }, t("announced {cell} after roll {roll}", { cell: cellLabel(line.announce), roll: line.announce.afterRoll }), " ") : null,
      h("span", { class: "written" }, t("wrote {cell}", { cell: writtenLabel(line.write) })),
      creator ? h("button", { class: "correct quiet", "aria-label": t("Correct turn {number}", { number: index + 1 }),
        onclick: () => { editing = { gameId: game.gameId, line: index }; draw(game); } }, t("Correct")) : null);
    if (editing && editing.gameId === game.gameId && editing.line === index) {
      editing.form ||= correctionForm(game, index, line); // kept across redraws: typing stays
      row.append(editing.form);
    }
    return row;
  });
  panel.replaceChildren(
    h("summary", {}, t("Turns so far"), known ? ` (${formatNumber(known.total)})` : ""),
    creator ? h("p", { class: "hint" }, t("As the table's creator you may correct a line: every sheet is then scored again from the corrected turns.")) : null,
    known ? (rows.length ? h("ol", { class: "history-lines", id: "history-lines" }, rows) : h("p", { class: "hint", id: "history-empty" }, t("No turn has been written yet.")))
      : h("p", { class: "hint" }, t("Loading…")),
    h("p", { class: "error", id: "history-error", role: "alert" }, error));
}

const writtenLabel = (write) => (write.column ? cellLabel(write) : rowLabel(write.row));

function correctionForm(game, index, line) {
  const grid = context.state.catalog.grids.find((g) => g.id === game.settings.grid);
  const columns = game.sheets[0] ? Object.keys(game.sheets[0].totals) : [];
  const rolls = h("input", { name: "rolls", id: "correct-rolls", value: line.rolls.map((dice) => dice.join("")).join(" "),
    autocomplete: "off", "aria-describedby": "correct-error" });
  const column = columns.length > 1 || line.write.column
    ? h("select", { name: "column", id: "correct-column" }, columns.map((id) => h("option", { value: id, selected: id === line.write.column }, columnLabel(id))))
    : null;
  const row = h("select", { name: "row", id: "correct-row" }, grid.rows.map((r) => h("option", { value: r.id, selected: r.id === line.write.row }, rowLabel(r.id))));
  const error = h("p", { class: "error", id: "correct-error", role: "alert" });
  return h("form", { class: "correct-form", id: "correct-form", onsubmit: async (event) => {
    event.preventDefault();
    const typed = rolls.value.trim().split(/[\s,;]+/).filter(Boolean).map((dice) => [...dice].map(Number));
    const turn = { player: line.player, rolls: typed, write: { row: row.value } };
    if (column) turn.write.column = column.value;
    if (line.announce) turn.announce = line.announce;
    const answer = await context.act("correct_turn", { gameId: game.gameId, line: index, turn }, "correct-error", { open: false });
    if (answer) {
      editing = null;
      loaded.delete(game.gameId);
      refresh(game.gameId);
    }
  } },
  h("label", { class: "field" }, h("span", { class: "label" }, t("Rolls, each as its dice (e.g. 35126 35146)")), rolls),
  column ? h("label", { class: "field" }, h("span", { class: "label" }, t("Column")), column) : null,
  h("label", { class: "field" }, h("span", { class: "label" }, t("Row")), row),
  h("button", { type: "submit", class: "primary", id: "correct-save" }, t("Save the correction")),
  h("button", { type: "button", id: "correct-cancel", onclick: () => { editing = null; draw(game); } }, t("Cancel")),
  error);
}
