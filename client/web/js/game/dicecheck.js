// The verifiable dice's checker (docs/dice.md, `yamb-dice/3`, `/2` and `/1`), in the browser with
// WebCrypto: from a `dice_record` frame it recomputes the seed's commitment, each player's seed's
// commitment and every roll, and says for each turn whether its dice are those the seed gives. It
// trusts nothing of the record's own verdicts (`seedMatchesCommitment`, `mismatch`): it computes
// them again.

import { t } from "../i18n.js";

export const SCHEME = "yamb-dice/3";
// Games stored before /3 (seeds sent in the clear) and before /2 (no seat in the dice).
export const SCHEMES = ["yamb-dice/1", "yamb-dice/2", SCHEME];
/** Whether the players' seeds were committed before the start (`yamb-dice/3`). */
export const commitsSeeds = (scheme) => scheme !== "yamb-dice/1" && scheme !== "yamb-dice/2";
/** Whether a turn's seat goes into its dice: `yamb-dice/2`, away from same-dice tables. */
export const bindsSeats = (scheme, sameDice) => scheme !== "yamb-dice/1" && !sameDice;
// A die's face is one byte below 252 (6 x 42): those 252 values split evenly into 6 faces.
const ACCEPT_BELOW = 252;
const encoder = new TextEncoder();

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

function fromHex(text) {
  if (!/^([0-9a-f]{2})+$/i.test(text)) throw new Error(t("the seed is not hexadecimal"));
  return Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));
}

async function hmacKey(raw) {
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

const sign = async (key, text) => new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));

/** SHA-256 of the seed's bytes, lowercase hex: the commitment published at the creation. */
export async function commitmentOf(seedHex) {
  return hex(await crypto.subtle.digest("SHA-256", fromHex(seedHex)));
}

/** A player's commitment to their seed: SHA-256 of its text, lowercase hex (`yamb-dice/3`). */
export async function seedCommitmentOf(seed) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(seed)));
}

/** Under `yamb-dice/3`, each client seed against its player's commitment: [{player, ok}]. */
export async function checkSeeds(record) {
  if (!commitsSeeds(record.scheme)) return [];
  const commitments = record.commitments || {};
  const seeds = Object.entries(record.clientSeeds || {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const checked = [];
  for (const [player, seed] of seeds) {
    checked.push({ player, ok: commitments[player] !== undefined && commitments[player] === await seedCommitmentOf(seed) });
  }
  return checked;
}

/** The game key: HMAC-SHA256 keyed with the seed over the scheme, the game id and one
 * `playerId=clientSeed` line per client seed, sorted by player id (joined by \n). */
export async function gameKey(seedHex, gameId, clientSeeds, scheme = SCHEME) {
  const players = Object.keys(clientSeeds || {}).sort();
  const lines = [scheme, gameId, ...players.map((player) => `${player}=${clientSeeds[player]}`)];
  const raw = await sign(await hmacKey(fromHex(seedHex)), lines.join("\n"));
  return hmacKey(raw);
}

/** The face at (turn label, roll, die): the first byte below 252 of HMAC(key, "T/R/D/B"), or
 * of HMAC(key, "S/T/R/D/B") with the turn's seat S where the scheme binds seats. */
export async function face(key, label, roll, die, seat = null) {
  const where = seat === null ? `${label}/${roll}/${die}` : `${seat}/${label}/${roll}/${die}`;
  for (let block = 0; ; block += 1) {
    for (const byte of await sign(key, `${where}/${block}`)) {
      if (byte < ACCEPT_BELOW) return (byte % 6) + 1;
    }
  }
}

/** One turn of the record, `seat:label:dice` then `;kept:dice` per later roll (the moves that
 * may follow a `|` are not the dice's). */
export function parseTurn(text) {
  const [seat, label, rolls] = splitTurn(text);
  const [first, ...later] = rolls.split(";");
  const digits = (value) => {
    if (!/^\d+$/.test(value)) throw new Error(t("not a turn of a dice record: {turn}", { turn: String(text).slice(0, 80) }));
    return [...value].map(Number);
  };
  const parsed = [{ kept: [], dice: digits(first) }];
  for (const roll of later) {
    const [kept, dice] = roll.split(":");
    parsed.push({ kept: kept === "" ? [] : digits(kept), dice: digits(dice ?? "") });
  }
  return { seat: Number(seat), label: Number(label), rolls: parsed };
}

function splitTurn(text) {
  const dice = String(text).split("|")[0];
  const first = dice.indexOf(":");
  const second = dice.indexOf(":", first + 1);
  if (first < 0 || second < 0) throw new Error(t("not a turn of a dice record: {turn}", { turn: dice.slice(0, 80) }));
  const seat = dice.slice(0, first);
  const label = dice.slice(first + 1, second);
  if (!/^\d+$/.test(seat) || !/^\d+$/.test(label)) throw new Error(t("not a turn of a dice record: {turn}", { turn: dice.slice(0, 80) }));
  return [seat, label, dice.slice(second + 1)];
}

/** Why the record's labels are not those of a whole game (a turn left out, or twice), or null. */
export function labelProblem(turns, sameDice) {
  if (!sameDice) {
    const labels = turns.map((turn) => turn.label).sort((a, b) => a - b);
    for (let index = 0; index < labels.length; index += 1) {
      if (labels[index] !== index + 1) return { turn: null, expected: index + 1, label: labels[index] };
    }
    return null;
  }
  const seen = new Map();
  for (let index = 0; index < turns.length; index += 1) {
    const turn = turns[index];
    const count = (seen.get(turn.seat) || 0) + 1;
    seen.set(turn.seat, count);
    if (turn.label !== count) return { turn: index + 1, expected: count, label: turn.label };
  }
  return null;
}

/**
 * Checks a `dice_record` frame: {commitment: {computed, recorded, matches, published?},
 * turns: [{index, seat, label, rolls: [{dice, expected, kept, ok}], ok}], whole (the labels),
 * ok}. `published`, when given, is the commitment the game showed before its first roll: it
 * must be the record's too.
 */
export async function checkRecord(record, { published = null, own = null } = {}) {
  const computed = await commitmentOf(record.seed);
  const commitment = {
    computed, recorded: record.commitment, published,
    matches: computed === record.commitment && (published === null || published === record.commitment),
  };
  // A duplicate tournament's games share a deal: its id is in the key where a game's would be.
  const key = await gameKey(record.seed, record.deal || record.gameId, record.clientSeeds, record.scheme);
  const seats = bindsSeats(record.scheme, Boolean(record.sameDice));
  const count = record.diceCount;
  const turns = [];
  for (const [position, text] of record.turns.entries()) {
    const turn = parseTurn(text);
    let previous = [];
    const rolls = [];
    for (const [number, recorded] of turn.rolls.entries()) {
      const kept = number === 0 ? new Set() : new Set(recorded.kept);
      const expected = [];
      for (let die = 0; die < count; die += 1) {
        expected.push(kept.has(die) ? previous[die] : await face(key, turn.label, number + 1, die, seats ? turn.seat : null));
      }
      const ok = recorded.dice.length === count && expected.every((value, die) => recorded.dice[die] === value);
      rolls.push({ dice: recorded.dice, kept: [...kept], expected, ok });
      previous = expected;
    }
    turns.push({ index: position + 1, seat: turn.seat, label: turn.label, rolls, ok: rolls.every((roll) => roll.ok) });
  }
  const labels = labelProblem(turns, Boolean(record.sameDice));
  const seeds = await checkSeeds(record);
  // `own`, {player, seed}: the seed this browser committed to must be among the game's.
  const ownSeed = own ? { ...own, included: (record.clientSeeds || {})[own.player] === own.seed } : null;
  return {
    commitment, turns, whole: labels === null, labelProblem: labels, seeds, ownSeed,
    ok: SCHEMES.includes(record.scheme) && commitment.matches && labels === null && turns.every((turn) => turn.ok)
      && seeds.every((seed) => seed.ok),
    scheme: record.scheme,
  };
}
