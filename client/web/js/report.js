// Reporting a player or one message (product S5): a small form of a reason and a note, sent to
// POST /reports; the server attaches what is reported as the reporter sees it. The third
// different reporter hides it until a moderator reviews it.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const reasons = () => [
  ["abuse", t("Abuse or insults")],
  ["cheating", t("Cheating")],
  ["spam", t("Spam or advertising")],
  ["nickname", t("An offensive nickname")],
  ["other", t("Something else")],
];

/** A "Report" button that opens its form in place; `what` is the request's target part
 * ({kind: "player", nickname} or {kind: "message", message: {...}}); `id` names its elements. */
export function reportButton(ctx, what, id) {
  const wrap = h("span", { class: "report", id: `${id}-report` });
  const open = h("button", { type: "button", class: "link-button", id: `${id}-report-open`, onclick: () => {
    open.hidden = true;
    wrap.append(form());
  } }, t("Report"));
  const form = () => {
    const reason = h("select", { id: `${id}-report-reason`, "aria-label": t("Why do you report this?") },
      reasons().map(([value, label]) => h("option", { value }, label)));
    const note = h("input", { id: `${id}-report-note`, maxlength: "300", autocomplete: "off",
      placeholder: t("A note for the moderators (optional)"), "aria-label": t("A note for the moderators (optional)") });
    const said = h("span", { class: "hint", id: `${id}-report-said`, role: "status" });
    const element = h("form", { class: "report-form", id: `${id}-report-form`, onsubmit: async (event) => {
      event.preventDefault();
      said.textContent = "";
      try {
        const filed = await ctx.http("POST", "/reports", { ...what, reason: reason.value, note: note.value.trim() });
        element.replaceWith(h("span", { class: "hint", id: `${id}-report-done`, role: "status" }, filed.hidden
          ? t("Reported: it is hidden until a moderator looks at it.")
          : t("Reported: a moderator will look at it.")));
      } catch (problem) {
        said.textContent = problem.message;
        said.className = "error";
      }
    } }, reason, note, h("button", { type: "submit", id: `${id}-report-send` }, t("Send the report")), said);
    return element;
  };
  wrap.append(open);
  return wrap;
}
