// The game screen's panels beyond play, each a module of its own: the fair dice (P5), a
// scorekeeping table's history and corrections (P6), and the table's settings and rematch.
// The game screen calls `renderExtras` after drawing a game frame; the panels go under the
// result, in a box made on first use.

import { byId, fill, h } from "../dom.js";
import { fairnessPanel } from "./fairness.js";
import { setUpRematch } from "./rematch.js";
import { scorekeepingPanel } from "./scorekeeping.js";
import { tablePanel } from "./tablesettings.js";

export function renderExtras(game, app) {
  let box = byId("game-extras");
  if (!box) {
    box = h("div", { id: "game-extras", class: "game-extras" });
    byId("game-result").after(box);
  }
  fill(box, tablePanel(game, app), scorekeepingPanel(game, app), fairnessPanel(game, app));
}

/** At boot: what the panels hear of the server outside a game frame (rematch invitations). */
export function setUpExtras(app) {
  setUpRematch(app);
}
