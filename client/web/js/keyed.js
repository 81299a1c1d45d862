// Changes that must not apply twice (a gift, a purchase, a donation) carry an Idempotency-Key
// (docs/economy.md): the same key repeats the request, a new key is a new one.

function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A change sent with an Idempotency-Key that stays the same until the server answers: a
 * repeat after a lost answer is the same request (applied once), a new click after an answer
 * is a new one. `run(key)` sends it.
 */
export function keyed(run) {
  let key = null;
  return async () => {
    key ||= newKey();
    try {
      const answer = await run(key);
      key = null;
      return answer;
    } catch (error) {
      if (error.status) key = null; // answered (refused): nothing was changed under this key
      throw error;
    }
  };
}
