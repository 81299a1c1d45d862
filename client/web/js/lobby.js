// The game list and the form that creates a table with any setting the server accepts. The
// server is the judge of settings: a refusal names the settings involved (`fields`), and the
// message is shown beside each of them.

import { byId, fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { columnLabel, gridLabel, statusLabel, turnTypeLabel } from "./labels.js";
import { poolLabel, ratingBadge } from "./ratings.js";

let app = null; // {state, act, openGame, watch}

export function setUp(context) {
  app = context;
}

export async function refreshList() {
  const frame = await app.act("list_games", {}, "lobby-error");
  if (frame) renderList(frame.games);
}

// The lobby is live: while it is on screen (and the tab visible) the list is asked again every
// LIVE_MS, quietly (a refusal shown beside a Join stays; a lost answer waits for the next).
// A push of each table's change to every page in the lobby is the better design; the server
// keeps no list of the connections in the lobby yet (docs/decisions.md, webgame).
const LIVE_MS = Math.max(500, Number(new URLSearchParams(location.search).get("lobbyMs") ?? 5_000));
let live = null;
let lastListed = null;

export function startLive() {
  stopLive();
  live = setInterval(async () => {
    if (document.hidden || byId("lobby").hidden) return;
    const connection = app.connection();
    if (!connection || !connection.isOpen) return;
    try {
      const frame = await connection.send("list_games", {}, { open: false });
      // Drawn again only when something changed: a button is not swapped under a click.
      const listed = JSON.stringify(frame.games);
      if (!byId("lobby").hidden && listed !== lastListed) renderList(frame.games);
    } catch {
      // the next tick asks again
    }
  }, LIVE_MS);
}

export function stopLive() {
  clearInterval(live);
  live = null;
}

function renderList(games) {
  lastListed = JSON.stringify(games);
  const rows = games.map((game) => {
    const names = game.players.map((id, index) => (game.nicknames && game.nicknames[index]) || id);
    const seated = game.players.includes(app.state.me);
    const buttons = [];
    if (game.status === "waiting" && !seated && game.players.length < game.seats) {
      buttons.push(h("button", { class: "join", onclick: () => app.act("join_game", { gameId: game.gameId }, "lobby-error") }, t("Join")));
    }
    if (seated) buttons.push(h("button", { class: "open", onclick: () => app.openGame(game.gameId) }, t("Open")));
    else buttons.push(h("button", { class: "watch", onclick: () => app.watch(game.gameId, null) }, t("Watch")));
    const columns = game.columns.length ? game.columns.map(columnLabel).join(", ") : t("one column");
    return h("li", { class: `game-row status-${game.status}`, dataset: { game: game.gameId } },
      h("div", { class: "game-line" },
        h("strong", {}, gridLabel(game.grid)), ` · ${columns} · `,
        h("span", { class: "players" }, seatNames(game, names)), ` (${game.players.length}/${game.seats})`,
        " ", h("span", { class: `status status-${game.status}`, dataset: { status: game.status } }, statusLabel(game.status)),
        oneVersusOne(game, seated, names)),
      h("div", { class: "actions" }, buttons));
  });
  // Slow games go on for days and may drop off the list of open games: listed here as well.
  const listed = new Set(games.map((game) => game.gameId));
  const slow = app.state.slowGames.filter((id) => !listed.has(id)).map((id) =>
    h("li", { class: "game-row", dataset: { game: id } }, h("div", { class: "game-line" }, h("strong", {}, t("Your slow game")), ` ${id}`),
      h("div", { class: "actions" }, h("button", { class: "open", onclick: () => app.openGame(id) }, t("Open")))));
  const all = [...slow, ...rows];
  fill(byId("game-list"), all.length ? all : h("li", { class: "hint", id: "no-games" }, t("No open games. Create one!")));
}

/** The players' names, each waiting person with their rating in the table's pool (issue 32),
 * "?" while provisional, as the ratings board shows it. */
function seatNames(game, names) {
  const ratings = game.ratings || {};
  return game.players.flatMap((id, index) => {
    const rating = ratings[id];
    const name = rating
      ? h("span", { class: "seat-name", dataset: { player: id } }, names[index], " ",
        ratingBadge(rating, poolLabel(game.pool)))
      : h("span", { class: "seat-name", dataset: { player: id } }, names[index]);
    return index ? [", ", name] : [name];
  });
}

// G2: joining a 1 vs 1 table shows the score against its player (S4), the viewer's first.
function oneVersusOne(game, seated, names) {
  const opponent = names[0];
  if (game.status !== "waiting" || seated || game.seats !== 2 || game.players.length !== 1) return null;
  if (!app.headToHead || (game.bots && game.bots.length) || !opponent) return null;
  const score = h("span", { class: "head-to-head", title: t("your games against {opponent}", { opponent }) });
  app.headToHead(opponent).then((found) => {
    const figures = { wins: found.wins, losses: found.losses, opponent };
    score.textContent = ` · ${found.ties
      ? tn("you {wins}-{losses} {opponent} ({count} tied)", "you {wins}-{losses} {opponent} ({count} tied)", found.ties, figures)
      : t("you {wins}-{losses} {opponent}", figures)}`;
  }).catch(() => {}); // a score not shown never stops joining
  return score;
}

// --------------------------------------------------------------------------- the create form

function field(name, label, control, note = null) {
  return h("label", { class: "field", dataset: { field: name } },
    h("span", { class: "label" }, label), control, note ? h("small", {}, note) : null,
    h("span", { class: "field-error", role: "alert" }));
}

const select = (name, options, value) => h("select", { name, id: `setting-${name}` },
  options.map(([v, text]) => h("option", { value: String(v), selected: String(v) === String(value) }, text)));
const checkbox = (name, checked = false) => h("input", { type: "checkbox", name, id: `setting-${name}`, checked });
const number = (name, value, min, max) => h("input", { type: "number", name, id: `setting-${name}`, value: String(value), min: String(min), max: String(max) });

export function buildCreateForm() {
  const { catalog } = app.state;
  const form = byId("create-form");
  const presets = Object.entries(catalog.presets).map(([n, columns]) => [n, `${n}: ${columns.map(columnLabel).join(", ")}`]);
  const columnBoxes = h("div", { class: "column-boxes" }, catalog.columnTypes.map((c) =>
    h("label", { class: "inline" }, h("input", { type: "checkbox", name: "column", value: c.id }), columnLabel(c.id))));
  fill(form,
    field("grid", t("Grid"), select("grid", catalog.grids.map((g) => [g.id, gridLabel(g.id)]), "yamb")),
    field("players", t("Players"), select("players", [[1, t("1 (solo)")], [2, "2"], [3, "3"], [4, "4"]], 2)),
    field("pairs", t("2 vs 2"), checkbox("pairs"), t("four players in two teams")),
    field("turnType", t("Turns"), select("turnType", catalog.turnTypes.map((type) => [type, turnTypeLabel(type)]), "turn_by_turn")),
    field("preset", t("Columns"), select("preset", [...presets, ["custom", t("custom set…")]], "1")),
    field("columns", t("Custom columns"), columnBoxes),
    field("dice", t("Dice"), select("dice", [[5, "5"], [6, "6"]], 5)),
    field("turnSeconds", t("Seconds a turn"), number("turnSeconds", catalog.turnSeconds.default, catalog.turnSeconds.min, catalog.turnSeconds.max)),
    field("unlimited", t("No clock"), checkbox("unlimited")),
    field("slowDeadlineHours", t("Slow game: hours"), number("slowDeadlineHours", 48, catalog.slowDeadlineHours.min, catalog.slowDeadlineHours.max)),
    field("ranked", t("Ranked"), checkbox("ranked")),
    field("physicalDice", t("Real dice"), checkbox("physicalDice"), t("type the rolls of dice on the table")),
    field("sameDice", t("Same dice"), checkbox("sameDice"), t("everyone's k-th turn has the same dice")),
    field("timeBonus", t("Time bonus"), checkbox("timeBonus"), t("equal totals: the faster wins")),
    h("p", { class: "error", id: "create-error", role: "alert" }),
    h("button", { type: "submit", class: "primary", id: "create" }, t("Create game")));
  form.onchange = () => showRelevant(form);
  form.onsubmit = (event) => {
    event.preventDefault();
    create(form);
  };
  showRelevant(form);
}

/** Hides what does not apply to the grid and turn type chosen (the server still judges). */
function showRelevant(form) {
  const grid = app.state.catalog.grids.find((g) => g.id === form.grid.value);
  const show = (name, visible) => { form.querySelector(`[data-field="${name}"]`).hidden = !visible; };
  show("preset", grid.columnTypes);
  show("columns", grid.columnTypes && form.preset.value === "custom");
  show("dice", grid.diceCounts.length > 1);
  show("slowDeadlineHours", form.turnType.value === "slow");
  show("turnSeconds", !clockless(form));
}

/** Slow and real-dice tables have no turn clock (the server refuses one). */
const clockless = (form) => form.unlimited.checked || form.turnType.value === "slow" || form.physicalDice.checked;

export function settingsOf(form) {
  const grid = app.state.catalog.grids.find((g) => g.id === form.grid.value);
  const settings = {
    grid: grid.id,
    players: Number(form.players.value),
    pairs: form.pairs.checked,
    turnType: form.turnType.value,
    ranked: form.ranked.checked,
    turnSeconds: clockless(form) ? null : Number(form.turnSeconds.value),
    physicalDice: form.physicalDice.checked,
    sameDice: form.sameDice.checked,
    timeBonus: form.timeBonus.checked,
  };
  if (grid.columnTypes) {
    if (form.preset.value === "custom") {
      settings.columns = [...form.querySelectorAll('input[name="column"]:checked')].map((box) => box.value);
    } else settings.preset = Number(form.preset.value);
  }
  if (grid.diceCounts.length > 1) settings.dice = Number(form.dice.value);
  if (settings.turnType === "slow") settings.slowDeadlineHours = Number(form.slowDeadlineHours.value);
  return settings;
}

async function create(form) {
  for (const slot of form.querySelectorAll(".field-error")) slot.textContent = "";
  byId("create-error").textContent = "";
  try {
    await app.connection().send("create_game", { settings: settingsOf(form) }, { open: true });
  } catch (error) {
    const placed = [];
    const problems = String(error.message).split("; ");
    for (const name of error.fields || []) {
      const slot = form.querySelector(`[data-field="${CSS.escape(name)}"] .field-error`);
      if (slot && !slot.closest("[hidden]")) {
        const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        const own = problems.filter((p) => p.includes(snake) || p.includes(name));
        slot.textContent = (own.length ? own : problems).join("; ");
        placed.push(name);
      }
    }
    if (!placed.length) byId("create-error").textContent = error.message;
  }
}
