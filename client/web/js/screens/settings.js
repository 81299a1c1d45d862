// #/settings: the account (product A1-A8): nickname, e-mail and password changes, the profile
// and notification switches, the authenticator app, signing out everywhere and deleting the
// account. Each form answers beside its own button; a refusal naming a field is said there.

import { fill, h } from "../dom.js";
import { countryName, flagOf } from "../countries.js";
import { currentLanguage, formatDate, formatNumber, t, tn } from "../i18n.js";
import { mountPushControl } from "../push.js";
import { standingPanel } from "../fairplay.js";

const LANGUAGES = [["en", "English"], ["fr", "Français"], ["da", "Dansk"], ["hr", "Hrvatski"]];
// The switches' words are said when the screen is drawn, in the page's language.
const EMAIL_GROUPS = [["returnReminders", () => t("Reminders to come back to a game")], ["tournaments", () => t("Tournaments")],
  ["offers", () => t("Offers")]];
const IN_APP_GROUPS = [["rewards", () => t("Rewards")], ["referral", () => t("Invitations and referrals")], ["club", () => t("Clubs")],
  ["system", () => t("News of the game")]];

export const screen = {
  id: "settings",
  path: "/settings",
  get title() { return t("Settings"); },
  nav: true,
  async show(root, _params, ctx) {
    fill(root, h("h2", {}, t("Settings")), h("p", { class: "hint" }, t("Loading…")));
    let account;
    try {
      account = await ctx.http("GET", "/me");
    } catch (problem) {
      fill(root, h("h2", {}, t("Settings")), h("p", { class: "error", role: "alert" }, problem.message));
      return;
    }
    const security = h("section", { class: "panel", id: "security" });
    const push = h("div", { id: "push-slot" });
    // An operator reviews the players' reports (S5) from here.
    const moderation = account.operator
      ? h("p", { class: "panel" }, h("a", { id: "moderation-link", href: "#/moderation" }, t("Reports to review")))
      : null;
    fill(root, h("h2", {}, t("Settings")), moderation,
      nicknamePanel(account, ctx), emailPanel(account, ctx), passwordPanel(ctx),
      profilePanel(account, ctx), notificationsPanel(account, ctx), push, security,
      sessionsPanel(ctx), deletionPanel(account, ctx));
    mountPushControl(push, ctx);
    ctx.securityPanel(security);
    // Fair play (S7): the player's own yellow cards, after the rest is drawn.
    const fairplay = await standingPanel(ctx);
    const deletion = root.querySelector("#deletion, #delete-form");
    if (deletion) deletion.before(fairplay);
    else root.append(fairplay);
  },
};

/** A form whose submit calls `send(form)`; its answer or refusal is said in its own slot. */
function form(id, title, fields, submit, send) {
  const note = h("p", { class: "error", id: `${id}-error`, role: "alert" });
  const element = h("form", { id, class: "panel settings-form", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    for (const slot of element.querySelectorAll(".field-error")) slot.textContent = "";
    note.className = "error";
    note.textContent = "";
    const button = element.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const said = await send(element);
      if (said) {
        note.className = "note";
        note.textContent = said;
      }
    } catch (problem) {
      const slot = problem.field && element.querySelector(`[data-field="${CSS.escape(problem.field)}"] .field-error`);
      (slot || note).textContent = problem.message;
    } finally {
      button.disabled = false;
    }
  } }, h("h3", {}, title), fields, note, h("button", { type: "submit", class: "primary", id: `${id}-save` }, submit));
  return element;
}

function field(name, label, control, hint = null) {
  return h("label", { class: "field", dataset: { field: name } }, h("span", { class: "label" }, label),
    control, hint ? h("small", {}, hint) : null, h("span", { class: "field-error", role: "alert" }));
}

function nicknamePanel(account, ctx) {
  const change = account.nicknameChange;
  const price = change.nextPrice
    ? tn("This change costs {count} token.", "This change costs {count} tokens.", change.nextPrice)
    : t("This change is free.");
  const again = change.availableAt ? t("Possible again from {date}.", { date: formatDate(change.availableAt, "short") }) : "";
  const when = again ? ` ${again}` : "";
  return form("nickname-form", t("Nickname"),
    field("nickname", t("New nickname"), h("input", { name: "nickname", id: "settings-nickname", value: account.nickname,
      autocomplete: "nickname", required: true, maxlength: "20" }), price + when),
    t("Change nickname"), async (element) => {
      const changed = await ctx.http("POST", "/me/nickname", { nickname: element.nickname.value.trim() });
      ctx.renamed(changed.nickname);
      return t("Your nickname is now {name}.", { name: changed.nickname });
    });
}

function emailPanel(account, ctx) {
  const pending = account.pendingEmail
    ? h("p", { class: "hint", id: "pending-email" }, t("Waiting for confirmation: {email}", { email: account.pendingEmail }))
    : null;
  return form("email-form", t("E-mail"), [
    h("p", {}, t("Now: {email}", { email: account.email || "—" })), pending,
    field("email", t("New e-mail address"), h("input", { name: "email", id: "settings-email", type: "email", autocomplete: "email", required: true })),
    field("password", t("Your password"), h("input", { name: "password", id: "settings-email-password", type: "password", autocomplete: "current-password", required: true })),
  ], t("Change e-mail"), async (element) => {
    await ctx.http("POST", "/me/email", { email: element.email.value.trim(), password: element.password.value });
    element.password.value = "";
    return t("Check your new address's mail for the link that confirms it; your old address has been told.");
  });
}

function passwordPanel(ctx) {
  return form("password-form", t("Password"), [
    field("oldPassword", t("Current password"), h("input", { name: "oldPassword", id: "settings-old-password", type: "password", autocomplete: "current-password", required: true })),
    field("newPassword", t("New password"), h("input", { name: "newPassword", id: "settings-new-password", type: "password", autocomplete: "new-password", required: true, minlength: "12" }),
      tn("At least {count} character.", "At least {count} characters.", 12)),
  ], t("Change password"), async (element) => {
    const tokens = await ctx.http("POST", "/me/password", { oldPassword: element.oldPassword.value, newPassword: element.newPassword.value });
    element.oldPassword.value = "";
    element.newPassword.value = "";
    if (tokens.signInAgain) {
      ctx.signOut(t("your password was changed: sign in with the new one"));
      return null;
    }
    ctx.adoptTokens(tokens);
    return t("Password changed; your other devices are signed out.");
  });
}

function profilePanel(account, ctx) {
  const prefs = account.preferences;
  return form("profile-form", t("Profile"), [
    field("language", t("Language"), h("select", { name: "language", id: "settings-language" },
      LANGUAGES.map(([value, label]) => h("option", { value, selected: value === prefs.language }, label)))),
    field("country", t("Country flag"), countrySelect(prefs.country, ctx.state.catalog?.countries || [])),
    field("description", t("About you"), h("textarea", { name: "description", id: "settings-description", maxlength: "1120", rows: "3" }, prefs.description || "")),
    field("publicPage", t("Public page"), h("input", { name: "publicPage", id: "settings-public-page", type: "checkbox", checked: prefs.publicPage }),
      t("Anyone, signed in or not, may see your statistics on a page of their own.")),
    field("proudGame", t("The game you are proud of"), proudGameSelect(account, prefs.proudGame, ctx),
      t("Shown on your page, with its replay: one of your records, or the one chosen before.")),
  ], t("Save profile"), async (element) => {
    await ctx.http("PATCH", "/me/settings", {
      language: element.language.value,
      country: element.country.value || null,
      description: element.description.value,
      publicPage: element.publicPage.checked,
      proudGame: element.proudGame.value || null,
    });
    return t("Saved.");
  });
}

/** The flag beside one's name: "Yamb world" (no country, the default) or a country the server
 * accepts (the catalog's codes), named in the page's language and sorted by that name. */
function countrySelect(chosen, codes) {
  const all = chosen && !codes.includes(chosen) ? [...codes, chosen] : codes;
  const named = all.map((code) => [code, countryName(code)]);
  named.sort((a, b) => a[1].localeCompare(b[1], currentLanguage()));
  return h("select", { name: "country", id: "settings-country", autocomplete: "off" },
    h("option", { value: "", selected: !chosen }, t("Yamb world")),
    named.map(([code, name]) => h("option", { value: code, selected: code === chosen }, `${flagOf(code)} ${name}`)));
}

/** The proud game's choices: none, the one chosen, and the games of the player's records (their
 * statistics, read after the screen is drawn: the select fills in when they come). */
function proudGameSelect(account, chosen, ctx) {
  const select = h("select", { name: "proudGame", id: "settings-proud-game" },
    h("option", { value: "" }, t("None")),
    chosen ? h("option", { value: chosen, selected: true }, t("The game chosen before")) : null);
  ctx.http("GET", `/players/${encodeURIComponent(account.nickname)}/statistics`).then((stats) => {
    const seen = new Set(chosen ? [chosen] : []);
    for (const [kind, record] of Object.entries(stats.records || {})) {
      const label = t("{score} points · {kind} · {date}", { score: formatNumber(record.score),
        kind: kind.replace(/\//g, " · "), date: formatDate(record.at) });
      if (record.gameId === chosen) select.querySelector(`option[value="${CSS.escape(chosen)}"]`).textContent = label;
      if (seen.has(record.gameId)) continue;
      seen.add(record.gameId);
      select.append(h("option", { value: record.gameId }, label));
    }
  }).catch(() => undefined); // no statistics yet: only "None" and the chosen game
  return select;
}

function notificationsPanel(account, ctx) {
  const notifications = account.preferences.notifications;
  const box = (group, name, label) => h("label", { class: "switch" },
    h("input", { type: "checkbox", name: `${group}.${name}`, id: `notify-${group}-${name}`, checked: notifications[group][name] }), ` ${label()}`);
  return form("notifications-form", t("Notifications"), [
    h("fieldset", {}, h("legend", {}, t("By e-mail (mails about your account always come)")),
      EMAIL_GROUPS.map(([name, label]) => box("email", name, label))),
    h("fieldset", {}, h("legend", {}, t("In the game")),
      IN_APP_GROUPS.map(([name, label]) => box("inApp", name, label))),
  ], t("Save notifications"), async (element) => {
    const pick = (group, names) => Object.fromEntries(names.map(([name]) => [name, element.elements[`${group}.${name}`].checked]));
    await ctx.http("PATCH", "/me/settings", { notifications: { email: pick("email", EMAIL_GROUPS), inApp: pick("inApp", IN_APP_GROUPS) } });
    return t("Saved.");
  });
}

function sessionsPanel(ctx) {
  return form("sessions-form", t("Devices"), h("p", { class: "hint" }, t("Signs out every device where you are signed in, this one too.")),
    t("Sign out everywhere"), async () => {
      await ctx.http("POST", "/me/sign-out");
      ctx.signOut(t("you signed out on every device"));
      return null;
    });
}

function deletionPanel(account, ctx) {
  if (account.deletion) {
    return h("section", { class: "panel", id: "deletion" }, h("h3", {}, t("Delete the account")),
      h("p", { id: "deletion-pending" }, t("Your account will be deleted on {date}. Sign in before then to keep it.",
        { date: formatDate(account.deletion.purgeAt) })));
  }
  return form("delete-form", t("Delete the account"), [
    h("p", { class: "hint" }, t("Your account is closed at once and deleted after 30 days, with everything it holds; signing in again before then cancels the deletion.")),
    field("confirm", t("Type your nickname to confirm"), h("input", { name: "confirm", id: "delete-confirm", autocomplete: "off", required: true })),
  ], t("Delete my account"), async (element) => {
    if (element.confirm.value.trim() !== account.nickname) {
      throw Object.assign(new Error(t("Type your nickname exactly as it is: {name}", { name: account.nickname })), { field: "confirm" });
    }
    const answer = await ctx.http("DELETE", "/me");
    ctx.signOut(t("your account will be deleted on {date}; sign in again before then to keep it",
      { date: formatDate(answer.deletion.purgeAt) }));
    return null;
  });
}
