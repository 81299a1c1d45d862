// #/moderation (product S5), for operators: the reports waiting for review, oldest first, each
// with what was reported and who reported it, and the four decisions: dismiss (shown again),
// hide, warn (a mail to the player) and ban.

import { fill, h } from "../dom.js";
import { formatDate, t } from "../i18n.js";
import { reasons } from "../report.js";

function heading(target) {
  const nickname = target.authorNickname;
  if (target.kind === "club") return t("The club {name}, run by {nickname}", { name: target.clubName || "?", nickname });
  if (target.kind === "private") return t("A private message of {nickname}", { nickname });
  if (target.kind === "general") return t("A general-chat line of {nickname}", { nickname });
  return t("The player {nickname}", { nickname });
}

export const screen = {
  id: "moderation",
  path: "/moderation",
  get title() { return t("Reports to review"); },
  nav: false,
  async show(root, params, ctx) {
    const list = h("div", { id: "moderation-cases" });
    const error = h("p", { class: "error", id: "moderation-error", role: "alert" });
    fill(root, h("h2", {}, t("Reports to review")), error, list);
    // The queue is the operators' alone: anyone else is told so without asking for it.
    const me = await ctx.http("GET", "/me").catch(() => null);
    if (!me?.operator) {
      fill(list, h("p", { class: "hint", id: "moderation-not-operator" }, t("Only moderators review reports.")));
      return;
    }
    const draw = async () => {
      error.textContent = "";
      try {
        const { cases } = await ctx.http("GET", "/moderation/cases");
        fill(list, cases.length ? cases.map((c) => item(c)) : h("p", { class: "hint", id: "moderation-empty" }, t("No report waits for review.")));
      } catch (problem) {
        error.textContent = problem.message;
      }
    };
    const reasonOf = Object.fromEntries(reasons());
    const item = (c) => {
      const note = h("input", { maxlength: "300", autocomplete: "off", "aria-label": t("A note on the decision"),
        placeholder: t("A note on the decision") });
      const act = (action) => async () => {
        error.textContent = "";
        try {
          await ctx.http("POST", `/moderation/cases/${encodeURIComponent(c.caseId)}`, { action, note: note.value.trim() });
          await draw();
        } catch (problem) {
          error.textContent = problem.message;
        }
      };
      return h("section", { class: "moderation-case", dataset: { case: c.caseId, status: c.status } },
        h("h3", {}, heading(c.target),
          c.status === "hidden" ? h("span", { class: "badge" }, t("hidden")) : null),
        h("blockquote", { class: "moderation-content" }, c.content),
        h("ul", {}, c.reports.map((r) => h("li", {}, `${r.reporterNickname} · ${reasonOf[r.reason] || r.reason}`,
          r.note ? ` · ${r.note}` : "", " · ", h("span", { class: "hint" }, formatDate(r.at, "short"))))),
        h("div", { class: "actions" }, note,
          h("button", { type: "button", class: "moderation-dismiss", onclick: act("dismiss") }, t("Dismiss")),
          h("button", { type: "button", class: "moderation-hide", onclick: act("hide") }, t("Hide")),
          h("button", { type: "button", class: "moderation-warn", onclick: act("warn") }, t("Warn")),
          h("button", { type: "button", class: "danger moderation-ban", onclick: act("ban") }, t("Ban"))));
    };
    await draw();
  },
};
