// The table's own settings: the creator of a waiting table changes them (`edit_game`) in the
// create form's fields, filled with the table's settings; after a game has ended, "Rematch"
// (./rematch.js). A refused setting is said beside its field, as the create form does.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { settingsOf } from "../lobby.js";
import { rematchPart } from "./rematch.js";

// The edit form, kept across redraws while the table's settings stay as they were.
let editing = null; // {gameId, key, panel}

export function tablePanel(game, app) {
  if (game.status === "waiting" && game.creator === app.state.me) return editPanel(game, app);
  return rematchPart(game, app);
}

function editPanel(game, app) {
  const key = `${game.gameId}|${JSON.stringify(game.settings)}`;
  if (editing?.key === key) return editing.panel;
  const template = document.getElementById("create-form");
  if (!template) return null;
  const form = template.cloneNode(true);
  form.id = "edit-form";
  form.className = "create-form edit-form";
  for (const element of form.querySelectorAll("[id]")) {
    element.id = element.id.replace(/^setting-/, "edit-").replace(/^create-error$/, "edit-error");
  }
  for (const slot of form.querySelectorAll(".field-error")) slot.textContent = "";
  const submit = form.querySelector("#create");
  submit.id = "edit-save";
  submit.textContent = t("Save the settings");
  prefill(form, game.settings, app.state.catalog);
  relevant(form, app.state.catalog);
  form.addEventListener("change", () => relevant(form, app.state.catalog));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    save(form, game, app);
  });
  const panel = h("details", { class: "panel edit-table", id: "edit-table" },
    h("summary", {}, t("Change the table's settings")),
    h("p", { class: "hint" }, t("The players already seated play the new settings too.")),
    form);
  editing = { gameId: game.gameId, key, panel };
  return panel;
}

/** The create form's fields, set to `settings` (a GameSettings as the game frame shows it). */
function prefill(form, settings, catalog) {
  const set = (name, value) => { if (form[name] && value !== undefined && value !== null) form[name].value = String(value); };
  set("grid", settings.grid);
  set("players", settings.players);
  set("turnType", settings.turnType);
  set("dice", settings.dice);
  set("slowDeadlineHours", settings.slowDeadlineHours);
  for (const name of ["pairs", "ranked", "physicalDice", "sameDice", "timeBonus"]) form[name].checked = Boolean(settings[name]);
  const clockless = settings.turnSeconds === null || settings.turnSeconds === undefined;
  form.unlimited.checked = clockless && settings.turnType !== "slow" && !settings.physicalDice;
  set("turnSeconds", clockless ? catalog.turnSeconds.default : settings.turnSeconds);
  const preset = settings.preset ?? presetOf(settings.columns, catalog);
  form.preset.value = preset ? String(preset) : "custom";
  const columns = new Set(settings.columns || []);
  for (const box of form.querySelectorAll('input[name="column"]')) box.checked = !preset && columns.has(box.value);
}

/** The preset whose columns are exactly `columns`, if one is. */
function presetOf(columns, catalog) {
  if (!columns) return null;
  const found = Object.entries(catalog.presets).find(([, ids]) => ids.join() === columns.join());
  return found ? found[0] : null;
}

/** Hides what does not apply to the grid and turn type chosen, as the create form does. */
function relevant(form, catalog) {
  const grid = catalog.grids.find((g) => g.id === form.grid.value);
  const show = (name, visible) => { form.querySelector(`[data-field="${name}"]`).hidden = !visible; };
  show("preset", grid.columnTypes);
  show("columns", grid.columnTypes && form.preset.value === "custom");
  show("dice", grid.diceCounts.length > 1);
  show("slowDeadlineHours", form.turnType.value === "slow");
  show("turnSeconds", !(form.unlimited.checked || form.turnType.value === "slow" || form.physicalDice.checked));
}

async function save(form, game, app) {
  for (const slot of form.querySelectorAll(".field-error")) slot.textContent = "";
  const general = form.querySelector("#edit-error");
  general.textContent = "";
  try {
    await app.connection().send("edit_game", { gameId: game.gameId, settings: settingsOf(form) }, { open: true });
    form.closest("details").open = false;
  } catch (error) {
    let placed = false;
    for (const name of error.fields || []) {
      const slot = form.querySelector(`[data-field="${CSS.escape(name)}"] .field-error`);
      if (slot && !slot.closest("[hidden]")) {
        slot.textContent = error.message;
        placed = true;
      }
    }
    if (!placed) general.textContent = error.message;
  }
}
