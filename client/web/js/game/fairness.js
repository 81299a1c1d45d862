// Verifiable dice in the game screen (product P5, docs/dice.md): the commitment the table
// showed before its first roll, a seated player's own seed until the start, and once the game
// has ended "Check the dice", which asks the server for the dice record (`verify`) and checks
// every roll in this browser (./dicecheck.js), trusting none of the record's own verdicts.

import { apiUrl, request } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { checkRecord } from "./dicecheck.js";

const ENDED = new Set(["finished", "cancelled"]);
// gameId -> {record, result} | {error}: the check survives the redraws of later frames.
const checks = new Map();
// gameId -> {status, url, page} | {status, error}: the game's public fairness page as read for
// that status (read again when the status changes: the seed shows once the game has ended).
const publicPages = new Map();
// The seed form's element, kept across redraws so that a half-typed seed stays.
let seedForm = null;
let context = null; // the page's {state, act}, as the game screen gave it

/** The commitment this browser saw before the game's first roll: what the revealed seed must
 * match, even should a later frame name another. */
function remembered(game) {
  const key = `yamb.commitment.${game.gameId}`;
  const commitment = game.fairness.commitment;
  try {
    if (!ENDED.has(game.status) && !localStorage.getItem(key)) localStorage.setItem(key, commitment);
    return localStorage.getItem(key);
  } catch {
    return null; // no storage: the game frame's own commitment is compared
  }
}

const nameOf = (game, playerId) => game.seats.find((seat) => seat.playerId === playerId)?.nickname || t("a player");

/** The panel, or null at a table of real dice or one stored before verifiable dice. */
export function fairnessPanel(game, app) {
  const fairness = game.fairness;
  if (!fairness || game.settings.physicalDice || game.status === "deleted") return null;
  context = app;
  const published = remembered(game);
  const seeds = Object.entries(fairness.clientSeeds || {});
  const parts = [
    h("h3", {}, t("Fair dice")),
    h("p", { class: "hint" }, t("Every die of this game was fixed before its first roll. The server's seed is sealed by this commitment, and is shown when the game ends so that anyone can check the dice.")),
    h("p", { class: "commitment" }, t("Commitment:"), " ", h("code", { id: "dice-commitment" }, fairness.commitment)),
    publicPart(game),
  ];
  if (seeds.length) {
    parts.push(h("ul", { class: "client-seeds", id: "client-seeds" }, seeds.map(([player, seed]) =>
      h("li", { dataset: { player } }, t("{name}'s seed: ", { name: nameOf(game, player) }), h("code", {}, seed)))));
  }
  if (game.status === "waiting" && game.seats.some((seat) => seat.playerId === app.state.me)) {
    parts.push(seedFormFor(game, app));
  }
  if (ENDED.has(game.status) && fairness.seed) {
    parts.push(h("p", {}, t("Seed:"), " ", h("code", { id: "dice-seed" }, fairness.seed)));
    parts.push(checkPart(game, app, published));
  }
  parts[0].id = "fairness-title";
  return h("section", { class: "panel fairness", id: "fairness", "aria-labelledby": "fairness-title" }, parts);
}

/** The game's public fairness page (GET /games/<id>/fairness, the same for every reader)
 * compared with the commitment this page was shown: two players can never be shown two. */
function publicPart(game) {
  const known = publicPages.get(game.gameId);
  if (!known || known.status !== game.status) {
    publicPages.set(game.gameId, { status: game.status });
    readPublic(game);
  }
  const read = publicPages.get(game.gameId);
  let said = t("Comparing with the game's public page…");
  let ok = null;
  if (read.error) said = t("The game's public page could not be read: {reason}", { reason: read.error });
  else if (read.page) {
    ok = read.page.commitment === game.fairness.commitment;
    said = ok
      ? t("✓ The game's public page shows the same commitment to everyone.")
      : t("✗ The game's public page shows another commitment: {commitment}", { commitment: read.page.commitment });
  }
  return h("p", { id: "public-commitment", class: ok === null ? "hint" : ok ? "good" : "bad",
    dataset: { ok: ok === null ? "" : String(ok) } }, said,
    read.url ? [" ", h("a", { href: read.url, target: "_blank", rel: "noopener", id: "public-commitment-link" }, t("Public page"))] : null);
}

async function readPublic(game) {
  const path = `/games/${encodeURIComponent(game.gameId)}/fairness`;
  const entry = { status: game.status };
  try {
    entry.url = await apiUrl(path);
    entry.page = await request("GET", path);
  } catch (error) {
    entry.error = error.message;
  }
  if (publicPages.get(game.gameId)?.status !== game.status) return; // a newer status asked again
  publicPages.set(game.gameId, entry);
  const shown = document.getElementById("public-commitment");
  if (shown) shown.replaceWith(publicPart(game));
}

function seedFormFor(game, app) {
  if (seedForm?.dataset.game === game.gameId) return seedForm;
  const error = h("p", { class: "error", id: "seed-error", role: "alert" });
  const input = h("input", { id: "seed-input", name: "seed", maxlength: "64", autocomplete: "off",
    "aria-describedby": "seed-error" }); // the server judges it: its refusal is said below
  seedForm = h("form", { class: "seed-form", id: "seed-form", novalidate: true, dataset: { game: game.gameId }, onsubmit: async (event) => {
    event.preventDefault();
    const answer = await app.act("add_seed", { gameId: game.gameId, seed: input.value.trim() }, "seed-error", { open: false });
    if (answer) input.value = "";
  } },
  h("label", { class: "field" }, h("span", { class: "label" }, t("Your own seed (optional)")), input),
  h("p", { class: "hint" }, t("Up to 64 letters, digits or signs, no spaces: mixed into the dice, so that not even the server chose them alone.")),
  h("button", { type: "submit", id: "seed-add" }, t("Add my seed")),
  error);
  return seedForm;
}

function checkPart(game, app, published) {
  const done = checks.get(game.gameId);
  const button = h("button", { id: "check-dice", class: done ? "" : "primary", onclick: async (event) => {
    event.currentTarget.disabled = true;
    const record = await app.act("verify", { gameId: game.gameId }, "verify-error", { open: false });
    if (record) await checkAndShow(game, record, published);
    else event.currentTarget.disabled = false;
  } }, done ? t("Check the dice again") : t("Check the dice"));
  return h("div", { class: "dice-check", id: "dice-check" }, button,
    h("p", { class: "error", id: "verify-error", role: "alert" }),
    done ? report(game, done) : null);
}

/** Checks `record` (a dice_record frame) in this browser and shows the verdict in the panel. */
export async function checkAndShow(game, record, published = null) {
  let done;
  try {
    done = { record, result: await checkRecord(record, { published: published ?? game.fairness?.commitment ?? null }) };
  } catch (error) {
    done = { record, error: error.message };
  }
  checks.set(game.gameId, done);
  const shown = document.getElementById("dice-check");
  if (shown && context) shown.replaceWith(checkPart(game, context, published));
  return done;
}

/** The record a check was last made of (for a player who wants to look at it, and the tests). */
export const recordOf = (gameId) => checks.get(gameId)?.record ?? null;

function report(game, done) {
  if (done.error) {
    return h("p", { class: "verdict bad", id: "dice-verdict", dataset: { ok: "false" } },
      t("The record could not be read: {reason}", { reason: done.error }));
  }
  const { result } = done;
  const bad = result.turns.filter((turn) => !turn.ok);
  const verdict = result.ok
    ? tn("Its {count} turn matches: every die is the one the seed gives, and the seed is the one committed to before the first roll.",
      "All {count} turns match: every die is the one the seed gives, and the seed is the one committed to before the first roll.",
      result.turns.length)
    : tn("Does not match: {count} of {total} turn has dice the seed does not give.",
      "Does not match: {count} of {total} turns have dice the seed does not give.",
      result.turns.length, { count: formatNumber(bad.length), total: formatNumber(result.turns.length) });
  const commitment = result.commitment.matches
    ? t("The seed's SHA-256 is the commitment shown at the start.")
    : t("The seed's SHA-256 is {computed}, not the commitment {recorded}.", { computed: result.commitment.computed, recorded: result.commitment.published ?? result.commitment.recorded });
  const whole = result.labelProblem
    ? h("p", { class: "bad", id: "dice-whole" }, t("The record is not whole: turn {label} is where turn {expected} should be.", { label: result.labelProblem.label, expected: result.labelProblem.expected }))
    : null;
  const players = game.seats;
  const rows = result.turns.map((turn) => h("tr", { class: turn.ok ? "ok" : "bad", dataset: { turn: String(turn.index), ok: String(turn.ok) } },
    h("th", { scope: "row" }, formatNumber(turn.index)),
    h("td", {}, players[turn.seat]?.nickname || t("Player {number}", { number: turn.seat + 1 })),
    h("td", {}, turn.rolls.map((roll, number) => h("span", { class: `roll ${roll.ok ? "ok" : "bad"}` },
      number ? " → " : "", roll.dice.join(""),
      roll.ok ? "" : [" ", t("(the seed gives {dice})", { dice: roll.expected.join("") })]))),
    h("td", { class: "mark" }, turn.ok ? t("✓ matches") : t("✗ differs"))));
  return [
    h("p", { class: `verdict ${result.ok ? "good" : "bad"}`, id: "dice-verdict", dataset: { ok: String(result.ok) } }, verdict),
    h("p", { class: result.commitment.matches ? "good" : "bad", id: "dice-commitment-check",
      dataset: { ok: String(result.commitment.matches) } }, commitment),
    whole,
    h("details", { id: "dice-turns", open: !result.ok },
      h("summary", {}, t("Every roll")),
      h("table", { class: "dice-turns" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Turn")), h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col" }, t("Rolls")), h("th", { scope: "col" }, t("Check")))),
        h("tbody", {}, rows))),
  ];
}
