// Verifiable dice in the game screen (product P5, docs/dice.md): the commitment the table
// showed before its first roll, the players' seeds (this browser commits to one of its own at
// every table it sits at, and reveals it after the start: `seedOwnDice`), and once the game
// has ended "Check the dice", which asks the server for the dice record (`verify`) and checks
// every roll in this browser (./dicecheck.js), trusting none of the record's own verdicts.

import { apiUrl, request } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { checkRecord, seedCommitmentOf } from "./dicecheck.js";

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

// ------------------------------------------------------------------ this browser's own seed

// gameId -> the commit or reveal on its way (one at a time, none sent twice).
const sending = new Map();

const seedKey = (gameId) => `yamb.seed.${gameId}`;

/** The seed this browser committed to at `gameId`: {seed, commitment}, or null. */
export function ownSeed(gameId) {
  try {
    const kept = JSON.parse(localStorage.getItem(seedKey(gameId)) || "null");
    return kept && typeof kept.seed === "string" && typeof kept.commitment === "string" ? kept : null;
  } catch {
    return null;
  }
}

async function keepSeed(gameId, seed) {
  const kept = { seed, commitment: await seedCommitmentOf(seed) };
  try {
    localStorage.setItem(seedKey(gameId), JSON.stringify(kept));
  } catch {
    // no storage: the seed lives as long as the page (the game's start is seconds away)
    memorySeeds.set(gameId, kept);
  }
  return kept;
}
const memorySeeds = new Map();
const keptSeed = (gameId) => ownSeed(gameId) || memorySeeds.get(gameId) || null;

function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function once(gameId, what, send) {
  if (sending.has(gameId)) return sending.get(gameId).promise;
  const promise = Promise.resolve().then(send).catch(() => null).finally(() => sending.delete(gameId));
  sending.set(gameId, { what, promise });
  return promise;
}

/** Resolves once this browser's commit or reveal at `gameId` (if one is on its way) is settled:
 * the Start button waits for it, so that the commitment is in before the start freezes them. */
export const seedSettled = (gameId) => sending.get(gameId)?.promise ?? Promise.resolve();

/**
 * Called with every game frame of a game this browser's player sits at: while the table waits,
 * commits to a fresh random seed (32 bytes from crypto.getRandomValues, in hex), unless the
 * player has a commitment there already; once the game has started and waits for the seeds,
 * reveals it. So the server alone never fixes this player's dice, at bots' and solo tables too.
 * `send(action, fields)` sends an action without opening its answer.
 */
export async function seedOwnDice(game, { me, send }) {
  const fairness = game.fairness;
  if (!fairness || fairness.takesSeeds === false || game.settings?.physicalDice) return null;
  if (!me || !game.seats.some((seat) => seat.playerId === me && !seat.bot)) return null;
  const gameId = game.gameId;
  const committed = (fairness.commitments || {})[me];
  if (game.status === "waiting") {
    if (committed) return null; // committed here, or by another device of theirs (which reveals)
    return once(gameId, "commit", async () => {
      const own = keptSeed(gameId) || await keepSeed(gameId, randomSeed());
      return send("commit_seed", { gameId, commitment: own.commitment });
    });
  }
  const revealed = (fairness.revealed || []).includes(me);
  if (game.status === "running" && fairness.revealBy && committed && !revealed) {
    const own = keptSeed(gameId);
    if (!own || own.commitment !== committed) return null; // another device's commitment
    return once(gameId, "reveal", () => send("reveal_seed", { gameId, seed: own.seed }));
  }
  return null;
}

// ------------------------------------------------------------------ the panel

const nameOf = (game, playerId) => game.seats.find((seat) => seat.playerId === playerId)?.nickname || t("a player");

/** The panel, or null at a table of real dice or one stored before verifiable dice. */
export function fairnessPanel(game, app) {
  const fairness = game.fairness;
  if (!fairness || game.settings.physicalDice || game.status === "deleted") return null;
  context = app;
  const published = remembered(game);
  const seeds = Object.entries(fairness.clientSeeds || {});
  // A duplicate tournament's game: every entrant plays this deal, so its seed, its record and
  // its public page wait for the tournament's end (the server answers `deal_in_play` until then).
  const dealKept = Boolean(fairness.deal) && ENDED.has(game.status) && !fairness.seed;
  const parts = [
    h("h3", {}, t("Fair dice")),
    h("p", { class: "hint" }, t("Every die of this game was fixed before its first roll. The server's seed is sealed by this commitment, and is shown when the game ends so that anyone can check the dice.")),
    h("p", { class: "commitment" }, t("Commitment:"), " ", h("code", { id: "dice-commitment" }, fairness.commitment)),
    dealKept
      ? h("p", { class: "hint", id: "deal-kept" },
        t("Every entrant of this duplicate tournament plays the same dice: the seed is shown, and the dice can be checked, once the tournament is over."))
      : publicPart(game),
  ];
  parts.push(...seedsPart(game, app.state.me));
  if (seeds.length) {
    parts.push(h("ul", { class: "client-seeds", id: "client-seeds" }, seeds.map(([player, seed]) =>
      h("li", { dataset: { player } }, t("{name}'s seed: ", { name: nameOf(game, player) }), h("code", {}, seed)))));
  }
  if (game.status === "waiting" && fairness.takesSeeds !== false && game.seats.some((seat) => seat.playerId === app.state.me)) {
    parts.push(seedFormFor(game, app));
  }
  if (ENDED.has(game.status) && fairness.seed) {
    parts.push(h("p", {}, t("Seed:"), " ", h("code", { id: "dice-seed" }, fairness.seed)));
    parts.push(checkPart(game, app, published));
  } else if (dealKept) {
    parts.push(checkPart(game, app, published)); // refused until the tournament is over, then checked
  }
  parts[0].id = "fairness-title";
  return h("section", { class: "panel fairness", id: "fairness", "aria-labelledby": "fairness-title" }, parts);
}

/** The players' seeds: the commitments while the table waits, the wait for the reveals, the
 * commitments dropped, and whether this browser's own seed is in the dice. */
function seedsPart(game, me) {
  const fairness = game.fairness;
  const commitments = Object.entries(fairness.commitments || {});
  const parts = [];
  if (commitments.length) {
    parts.push(h("ul", { class: "client-seeds", id: "seed-commitments" }, commitments.map(([player, hash]) =>
      h("li", { dataset: { player } }, t("{name}'s sealed seed: ", { name: nameOf(game, player) }), h("code", {}, hash)))));
  }
  if (game.status === "running" && fairness.revealBy) {
    parts.push(h("p", { class: "hint", id: "seeds-awaited" },
      t("The first roll waits a few seconds for the players' sealed seeds.")));
  }
  for (const player of fairness.withheld || []) {
    parts.push(h("p", { class: "bad withheld", dataset: { player } },
      t("{name}'s seed was not revealed in time: the dice go without it.", { name: nameOf(game, player) })));
  }
  const own = keptSeed(game.gameId);
  const mine = (fairness.clientSeeds || {})[me];
  if (own && (fairness.commitments || {})[me] === own.commitment) {
    if (game.status === "waiting") {
      parts.push(h("p", { class: "good", id: "own-seed", dataset: { state: "sealed" } },
        t("Your own random seed is sealed: it will be mixed into the dice, so that not even the server chooses them alone.")));
    } else if (mine !== undefined) {
      const ok = mine === own.seed;
      parts.push(h("p", { class: ok ? "good" : "bad", id: "own-seed", dataset: { state: ok ? "in" : "other" } },
        ok ? t("✓ Your own seed is in the dice.") : t("✗ The seed shown as yours is not the one this browser sealed.")));
    } else if (!fairness.revealBy) {
      parts.push(h("p", { class: "bad", id: "own-seed", dataset: { state: "left-out" } },
        t("✗ Your own seed is not in the dice.")));
    }
  }
  return parts;
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

/** An advanced option: a seed of the player's own choosing in place of the random one. Its
 * SHA-256 is sent now, the seed itself after the start (kept in this browser until then). */
function seedFormFor(game, app) {
  if (seedForm?.dataset.game === game.gameId) return seedForm;
  const error = h("p", { class: "error", id: "seed-error", role: "alert" });
  const input = h("input", { id: "seed-input", name: "seed", maxlength: "64", autocomplete: "off",
    "aria-describedby": "seed-error" });
  seedForm = h("form", { class: "seed-form", id: "seed-form", novalidate: true, dataset: { game: game.gameId }, onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = "";
    const seed = input.value.trim();
    if (!/^[\x21-\x7e]{1,64}$/.test(seed)) {
      error.textContent = t("Up to 64 letters, digits or signs, no spaces.");
      return;
    }
    const before = keptSeed(game.gameId);
    const own = await keepSeed(game.gameId, seed);
    const answer = await app.act("commit_seed", { gameId: game.gameId, commitment: own.commitment }, "seed-error", { open: false });
    if (answer) input.value = "";
    else if (before) await keepSeed(game.gameId, before.seed); // the commitment that stands
  } },
  h("details", { id: "seed-own" },
    h("summary", {}, t("Choose your own seed")),
    h("label", { class: "field" }, h("span", { class: "label" }, t("Your own seed (optional)")), input),
    h("p", { class: "hint" }, t("Up to 64 letters, digits or signs, no spaces. Only its SHA-256 is sent now; the seed itself after the start, when nobody can change theirs.")),
    h("button", { type: "submit", id: "seed-add" }, t("Seal my seed")),
    error));
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
    const me = context?.state?.me;
    const kept = me ? keptSeed(game.gameId) : null;
    const own = kept && (record.commitments || {})[me] === kept.commitment ? { player: me, seed: kept.seed } : null;
    done = { record, result: await checkRecord(record, { published: published ?? game.fairness?.commitment ?? null, own }) };
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
  const badSeeds = (result.seeds || []).filter((seed) => !seed.ok);
  const seeds = !(result.seeds || []).length ? null
    : h("p", { class: badSeeds.length ? "bad" : "good", id: "dice-seeds-check", dataset: { ok: String(!badSeeds.length) } },
      badSeeds.length
        ? t("{names}: not the seed committed to before the start.", { names: badSeeds.map((seed) => nameOf(game, seed.player)).join(", ") })
        : tn("The player's seed is the one committed to before the start.",
          "Every player's seed is the one committed to before the start.", result.seeds.length));
  const ownSeedLine = !result.ownSeed ? null
    : h("p", { class: result.ownSeed.included ? "good" : "bad", id: "dice-own-seed", dataset: { ok: String(result.ownSeed.included) } },
      result.ownSeed.included ? t("✓ Your own seed is in the dice.") : t("✗ Your own seed is not in the dice."));
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
    seeds,
    ownSeedLine,
    whole,
    h("details", { id: "dice-turns", open: !result.ok },
      h("summary", {}, t("Every roll")),
      h("table", { class: "dice-turns" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Turn")), h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col" }, t("Rolls")), h("th", { scope: "col" }, t("Check")))),
        h("tbody", {}, rows))),
  ];
}
