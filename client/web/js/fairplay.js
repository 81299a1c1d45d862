// Fair play (product S7): the "not a robot" check the server puts to this player mid-game
// (a `fairplay_check` frame, to them alone) opens a dialog at the table: tap the die showing a
// face within 30 seconds. The answer goes back as `fairplay_answer`; the server alone decides.
// A pass or a yellow card comes back as `fairplay_result`, said in a notice. The player's own
// count is on their settings page (GET /me/fairplay).

import { byId, h } from "./dom.js";
import { t, tn } from "./i18n.js";

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
let app = null;
let ticking = null;
let returnFocus = null;

/** `context`: act(action, fields, errorSlot, options) and banner(kind, text) of the page. */
export function setUp(context) {
  app = context;
}

function close() {
  if (ticking) clearInterval(ticking);
  ticking = null;
  byId("fairplay-dialog")?.remove();
  if (returnFocus && document.contains(returnFocus)) returnFocus.focus();
  returnFocus = null;
}

function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
}

/** A `fairplay_check` frame: the dialog (again, when a move was refused for it). */
export function checked(frame) {
  if (byId("fairplay-dialog")?.dataset.check === frame.checkId) {
    byId("fairplay-dialog").querySelector("button")?.focus();
    return;
  }
  close();
  returnFocus = document.activeElement;
  const error = h("p", { class: "error", id: "fairplay-error", role: "alert" });
  const left = h("span", { id: "fairplay-left" });
  const answer = async (position) => {
    for (const button of dialog.querySelectorAll("button")) button.disabled = true;
    const answered = await app.act("fairplay_answer",
      { gameId: frame.gameId, checkId: frame.checkId, position }, "fairplay-error", { open: false });
    if (answered) close();
    else for (const button of dialog.querySelectorAll("button")) button.disabled = false;
  };
  const dice = frame.dice.map((face, position) => h("button", {
    type: "button", class: "die fairplay-die", dataset: { position: String(position), face: String(face) },
    "aria-label": t("Die {number}: {face}", { number: position + 1, face }),
    onclick: () => answer(position),
  }, h("span", { "aria-hidden": "true" }, FACES[face] || String(face)), " ", h("span", { class: "face" }, String(face))));
  const dialog = h("div", { id: "fairplay-dialog", class: "panel fairplay-dialog", role: "alertdialog",
    "aria-modal": "true", "aria-labelledby": "fairplay-title", "aria-describedby": "fairplay-text",
    dataset: { check: frame.checkId } },
  h("h2", { id: "fairplay-title" }, t("Are you there?")),
  h("p", { id: "fairplay-text" }, t("A quick check that a person is playing."), " ",
    h("strong", { id: "fairplay-question" }, frame.question), " ", left),
  h("div", { class: "actions fairplay-dice", role: "group", "aria-label": t("The dice of the check") }, ...dice),
  error);
  // Tab stays within the dialog while it is open.
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const buttons = [...dialog.querySelectorAll("button:not([disabled])")];
    if (!buttons.length) return;
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  const tick = () => {
    const seconds = secondsLeft(frame.deadline);
    left.textContent = tn("{count} second left.", "{count} seconds left.", seconds);
    if (!seconds) {
      clearInterval(ticking);
      ticking = null;
      error.textContent = t("The time to answer is over.");
    }
  };
  tick();
  ticking = setInterval(tick, 1000);
  document.body.append(dialog);
  dialog.querySelector("button").focus();
}

/** A `fairplay_result` frame: passed, or a yellow card (the server's sentence, in our language). */
export function result(frame) {
  close();
  app.banner(frame.passed ? "info" : "warning", frame.message);
}

/** The settings page's panel: the player's own yellow cards. */
export async function standingPanel(ctx) {
  const panel = h("section", { class: "panel", id: "fairplay" }, h("h3", {}, t("Fair play")));
  try {
    const standing = await ctx.http("GET", "/me/fairplay");
    panel.append(h("p", { id: "fairplay-cards" },
      tn("{count} yellow card of {limit}.", "{count} yellow cards of {limit}.", standing.cards,
        { limit: standing.cardsToBan })),
    h("p", { class: "hint" },
      t("A check that is failed or not answered in time is a yellow card; {limit} ban the account.",
        { limit: standing.cardsToBan })));
  } catch (problem) {
    panel.append(h("p", { class: "error", role: "alert" }, problem.message));
  }
  return panel;
}
