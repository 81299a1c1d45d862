// The rematch: once a game has ended, a player of it opens a table with the same settings
// (`rematch`; the server seats the same bots again) and the game's other players are told by
// a `rematch` frame, which this page shows as a notice with "Join" (join_game).

import { h } from "../dom.js";
import { t } from "../i18n.js";

const ENDED = new Set(["finished", "cancelled"]);

/** "Rematch" under an ended game the player sat at; null elsewhere. */
export function rematchPart(game, app) {
  if (!ENDED.has(game.status) || !game.seats.some((seat) => seat.playerId === app.state.me)) return null;
  const others = game.seats.filter((seat) => !seat.bot && seat.playerId !== app.state.me).length;
  return h("section", { class: "panel rematch", id: "rematch-panel" },
    h("button", { id: "rematch", class: "primary", onclick: async (event) => {
      event.currentTarget.disabled = true;
      const answer = await app.act("rematch", { gameId: game.gameId }, "rematch-error", { open: true });
      if (!answer) event.currentTarget.disabled = false;
    } }, t("Rematch")),
    h("p", { class: "hint" }, others
      ? t("A new table with the same settings; the other players are asked to join it.")
      : t("A new table with the same settings.")),
    h("p", { class: "error", id: "rematch-error", role: "alert" }));
}

/** Listens for invitations to a rematch: a notice with "Join" and "Not now". */
export function setUpRematch(app) {
  app.onFrame("rematch", (frame) => {
    const join = h("button", { id: "rematch-join", class: "primary", onclick: async () => {
      const joined = await app.act("join_game", { gameId: frame.gameId }, "rematch-invite-error", { open: true });
      if (joined) app.banner("ok");
    } }, t("Join"));
    const asker = frame.nickname || t("A player");
    app.banner("info", h("span", { class: "rematch-invite", id: "rematch-invite", dataset: { game: frame.gameId } },
      t("{name} asks for a rematch, with the same settings.", { name: asker }), " ",
      join, " ", h("button", { id: "rematch-decline", onclick: () => app.banner("ok") }, t("Not now")),
      h("span", { class: "error", id: "rematch-invite-error", role: "alert" })));
  });
}
