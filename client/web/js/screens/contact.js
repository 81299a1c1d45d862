// #/contact (product S6): a message to the author, delivered by mail with the player's address
// to answer to; three a day.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";

export const screen = {
  id: "contact",
  path: "/contact",
  get title() { return t("Contact"); },
  nav: true,
  async show(root, params, ctx) {
    const subject = h("input", { id: "contact-subject", maxlength: "120", required: true, autocomplete: "off" });
    const text = h("textarea", { id: "contact-text", maxlength: "3000", required: true, rows: "6" });
    const said = h("p", { id: "contact-said", role: "status" });
    const form = h("form", { id: "contact-form", class: "panel", onsubmit: async (event) => {
      event.preventDefault();
      said.textContent = "";
      said.className = "";
      try {
        await ctx.http("POST", "/contact", { subject: subject.value.trim(), text: text.value.trim() });
        said.textContent = t("Sent: the author answers by mail, to your account's address.");
        subject.value = "";
        text.value = "";
      } catch (problem) {
        said.textContent = problem.message;
        said.className = "error";
      }
    } },
    h("label", { class: "field" }, h("span", { class: "label" }, t("Subject")), subject),
    h("label", { class: "field" }, h("span", { class: "label" }, t("Your message")), text),
    h("button", { type: "submit", id: "contact-send" }, t("Send")), said);
    fill(root, h("h2", {}, t("Contact the author")),
      h("p", { class: "hint" }, t("A question, an idea, a problem: write it here (three messages a day at most).")),
      form);
  },
};
