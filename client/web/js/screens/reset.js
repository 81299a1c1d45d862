// #/reset?token=… (product A3): where a mailed password reset link leads (docs/accounts.md). The
// link is checked when the screen opens (opening it changes nothing, so a mail scanner's visit
// does not use it up); the new password is set by posting the token with it, after which every
// device is signed out and the player signs in with the new one. Open to a signed-out visitor.

import { request } from "../api.js";
import { fill, h } from "../dom.js";
import { t, tn } from "../i18n.js";

const MIN_PASSWORD = 12;

export const screen = {
  id: "reset",
  path: "/reset",
  get title() { return t("New password"); },
  nav: false,
  public: true,
  async show(root, params) {
    const token = params.query.get("token") || "";
    const heading = h("h2", {}, t("Choose a new password"));
    const again = h("p", {}, h("a", { href: "#/", id: "set-password-ask-again" }, t("Ask for a new link on the sign-in page")));
    const refused = (message) => fill(root, heading,
      h("p", { class: "error", id: "set-password-refused", role: "alert" }, message), again);
    if (!token) { // not a mailed link's address (a typed one, a walk of every screen): how to get one
      return fill(root, heading, h("p", { class: "hint", id: "set-password-how" },
        t("Open the link of the password reset mail to choose a new password here.")), again);
    }
    fill(root, heading, h("p", { class: "hint" }, t("Loading…")));
    try {
      await request("GET", `/accounts/password-reset?token=${encodeURIComponent(token)}`);
    } catch (problem) {
      return refused(problem.message);
    }
    const fieldError = h("span", { class: "field-error", id: "set-password-field-error", role: "alert" });
    const note = h("p", { class: "error", id: "set-password-error", role: "alert" });
    const password = h("input", { name: "password", id: "set-password", type: "password", required: true,
      minlength: String(MIN_PASSWORD), autocomplete: "new-password" });
    const form = h("form", { id: "set-password-form", class: "panel settings-form", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      fieldError.textContent = "";
      note.textContent = "";
      const button = form.querySelector("button");
      button.disabled = true;
      try {
        await request("POST", "/accounts/password-reset/confirm", { token, password: password.value });
      } catch (problem) {
        button.disabled = false;
        if (problem.field === "password") fieldError.textContent = problem.message;
        else {
          note.textContent = problem.message;
          note.after(again);
        }
        return;
      }
      fill(root, heading,
        h("p", { class: "note", id: "set-password-done", role: "status" },
          t("Your password is changed, and every device was signed out: sign in with the new one.")),
        h("p", {}, h("a", { href: "#/", class: "button", id: "set-password-sign-in" }, t("Sign in"))));
    } },
    h("label", { class: "field", dataset: { field: "password" } },
      h("span", { class: "label" }, t("New password")), password,
      h("small", {}, tn("At least {count} character.", "At least {count} characters.", MIN_PASSWORD)), fieldError),
    note,
    h("button", { type: "submit", class: "primary", id: "set-password-save" }, t("Save the new password")));
    fill(root, heading, form);
    password.focus();
    return undefined;
  },
};
