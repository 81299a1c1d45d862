// #/tasks (product E6-E8): the week's tasks with their progress, a claim button for each task
// done, the time left and the all-tasks bonus; the player's referral link and code, a code
// entered later (until the first game against another person), the invitees with the scheme to
// choose for each; every badge with its level and the progress toward the next one. Everything
// comes from the HTTP API; what another player chose (a nickname) reaches the page as text only.

import { fill, h } from "../dom.js";
import { formatDate, formatNumber, formatRelative, t, tn } from "../i18n.js";

let ticker = null;

export const screen = {
  id: "tasks",
  path: "/tasks",
  get title() { return t("Tasks"); },
  nav: true,
  async show(root, _params, ctx) {
    const note = h("p", { class: "error", id: "progress-error", role: "alert" });
    const tasks = h("section", { class: "panel", id: "week" });
    const referral = h("section", { class: "panel", id: "referral" });
    const badges = h("section", { class: "panel", id: "badges" });
    fill(root, h("h2", {}, t("Tasks")), note, h("p", { class: "hint" }, t("Loading…")));
    const say = (kind, text) => {
      note.className = kind;
      note.textContent = text;
    };
    const draw = async () => {
      const [week, invites, reached] = await Promise.all([
        ctx.http("GET", "/me/tasks"), ctx.http("GET", "/me/referral"), ctx.http("GET", "/me/badges"),
      ]);
      fill(tasks, weekPanel(week, ctx, say, draw));
      fill(referral, referralPanel(invites, ctx, draw));
      fill(badges, badgesPanel(reached));
      if (reached.paid?.length) {
        const tokens = reached.paid.reduce((sum, paid) => sum + paid.tokens, 0);
        say("note", tn("New badge levels: +{count} token.", "New badge levels: +{count} tokens.", tokens));
      }
    };
    try {
      await draw();
    } catch (problem) {
      fill(root, h("h2", {}, t("Tasks")), h("p", { class: "error", role: "alert" }, problem.message));
      return;
    }
    fill(root, h("h2", {}, t("Tasks")), note, h("div", { class: "tasks-screen" }, tasks, referral, badges));
  },
  hide() {
    clearInterval(ticker);
    ticker = null;
  },
};

// ------------------------------------------------------------------------------ weekly tasks (E6)

function weekPanel(week, ctx, say, redraw) {
  const countdown = h("span", { id: "tasks-countdown", class: "hint" });
  const tick = () => {
    countdown.textContent = t("Ends {when}", { when: formatRelative(week.endsAt) });
  };
  tick();
  clearInterval(ticker);
  ticker = setInterval(tick, 30_000);
  const claim = async (task, button) => {
    button.disabled = true;
    try {
      const paid = await ctx.http("POST", `/me/tasks/${encodeURIComponent(task.id)}/claim`, { week: week.week });
      const text = paid.bonus
        ? tn("+{count} token and the week's bonus of {bonus}: your balance is {balance}.",
          "+{count} tokens and the week's bonus of {bonus}: your balance is {balance}.",
          paid.tokens, { bonus: formatNumber(paid.bonus), balance: formatNumber(paid.balance) })
        : tn("+{count} token: your balance is {balance}.", "+{count} tokens: your balance is {balance}.",
          paid.tokens, { balance: formatNumber(paid.balance) });
      await redraw();
      say("note", text);
    } catch (problem) {
      button.disabled = false;
      say("error", problem.message);
    }
  };
  const rows = week.tasks.map((task) => {
    const state = task.done && !task.claimed
      ? h("button", { type: "button", class: "claim primary" },
        t("Claim {reward}", { reward: formatNumber(task.reward) }))
      : h("span", { class: "task-state" }, task.claimed ? t("claimed") : tn("{count} token", "{count} tokens", task.reward));
    if (state.tagName === "BUTTON") state.addEventListener("click", () => claim(task, state));
    return h("li", { class: `task${task.done ? " done" : ""}`, dataset: { task: task.id } },
      h("span", { class: "task-title" }, task.title),
      h("progress", { max: String(task.target), value: String(Math.min(task.progress, task.target)),
        "aria-label": t("{progress} of {target}", { progress: task.progress, target: task.target }) }),
      h("span", { class: "task-progress" }, `${formatNumber(task.progress)}/${formatNumber(task.target)}`),
      state);
  });
  return [
    h("h3", {}, t("This week"), " ", countdown),
    h("ul", { id: "task-list", class: "task-list" }, rows.length ? rows : h("li", { class: "hint" }, t("No tasks this week."))),
    h("p", { id: "tasks-bonus", class: "hint" }, week.bonus.claimed
      ? tn("All done: +{count} token and a Weekly challenge level.", "All done: +{count} tokens and a Weekly challenge level.", week.bonus.reward)
      : tn("Claim every task for {count} token more.", "Claim every task for {count} tokens more.", week.bonus.reward)),
  ];
}

// ------------------------------------------------------------------------------ referral (E7)

/** A small form whose refusal is said beside its one field. */
function inlineForm(id, fields, submit, send) {
  const error = h("span", { class: "field-error", id: `${id}-error`, role: "alert" });
  const element = h("form", { id, class: "inline-form", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = "";
    const button = element.querySelector("button");
    button.disabled = true;
    try {
      await send(element);
    } catch (problem) {
      error.textContent = problem.message;
      button.disabled = false;
    }
  } }, fields, h("button", { type: "submit", id: `${id}-save` }, submit), error);
  return element;
}

function schemeText(scheme) {
  // Two counts: each a phrase of its own, in the sentence as placeholders.
  const weeks = tn("{count} week", "{count} weeks", scheme.weeks);
  const tokens = tn("{count} token", "{count} tokens", scheme.tokensPerWeek);
  return t("{weeks} × {tokens}", { weeks, tokens });
}

function referralPanel(view, ctx, redraw) {
  const schemes = view.schemes || [];
  const copy = h("button", { type: "button", id: "referral-copy", class: "quiet" }, t("Copy the link"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(view.link);
      copy.textContent = t("Copied");
    } catch {
      copy.textContent = t("Select the link to copy it");
    }
  });
  const referrer = view.referrer
    ? h("p", { id: "referrer" }, t("You were invited by {name}.", { name: view.referrer }), " ",
      h("a", { href: `#/players/${encodeURIComponent(view.referrer)}` }, t("Their page")))
    : inlineForm("referrer-form", h("label", { class: "field" },
      h("span", { class: "label" }, t("Invited by a friend? Their code")),
      h("input", { name: "code", id: "referrer-code", autocomplete: "off", maxlength: "64", required: true, spellcheck: "false" })),
    t("Enter code"), async (element) => {
      await ctx.http("PUT", "/me/referrer", { code: element.code.value.trim() });
      await redraw();
    });
  return [
    h("h3", {}, t("Invite a friend")),
    h("p", {}, t("Your link:"), " ", h("a", { id: "referral-link", href: view.link }, view.link), " ", copy),
    h("p", {}, t("Your code:"), " ", h("code", { id: "referral-code" }, view.code)),
    h("p", { class: "hint" }, tn("A friend who signs up with it and confirms the e-mail brings you {count} token; then more each week they play ranked.",
      "A friend who signs up with it and confirms the e-mail brings you {count} tokens; then more each week they play ranked.",
      view.verificationReward)),
    schemes.length ? h("ul", { class: "hint schemes" }, schemes.map((scheme) => h("li", {},
      scheme.name === "long" ? t("Long: {terms}", { terms: schemeText(scheme) }) : t("Short: {terms}", { terms: schemeText(scheme) }),
      scheme.name === view.defaultScheme ? ` ${t("(the default)")}` : ""))) : null,
    referrer,
    view.invitees.length
      ? h("table", { id: "invitees", class: "invitees" },
        h("thead", {}, h("tr", {}, h("th", {}, t("Invitee")), h("th", {}, t("Since")), h("th", {}, t("Weeks played")), h("th", {}, t("Scheme")))),
        h("tbody", {}, view.invitees.map((invitee) => inviteeRow(invitee, schemes, view.defaultScheme, ctx, redraw))))
      : h("p", { class: "hint", id: "no-invitees" }, t("No one has signed up with your code yet.")),
  ];
}

function inviteeRow(invitee, schemes, defaultScheme, ctx, redraw) {
  let scheme;
  if (invitee.canChoose) {
    scheme = inlineForm(`scheme-${invitee.nickname}`, [
      h("select", { name: "scheme", "aria-label": t("Scheme for {name}", { name: invitee.nickname }) },
        schemes.map((option) => h("option", { value: option.name, selected: option.name === defaultScheme },
          option.name === "long" ? t("Long: {terms}", { terms: schemeText(option) }) : t("Short: {terms}", { terms: schemeText(option) })))),
      invitee.chooseBy ? h("small", {}, t("Choose by {date}", { date: formatDate(invitee.chooseBy, "short") })) : null,
    ], t("Choose"), async (element) => {
      await ctx.http("PUT", `/me/referral/invitees/${encodeURIComponent(invitee.nickname)}/scheme`, { scheme: element.scheme.value });
      await redraw();
    });
    scheme.classList.add("scheme-form");
  } else if (invitee.scheme) {
    scheme = invitee.scheme === "long" ? t("Long") : t("Short");
  } else if (invitee.startedAt) {
    scheme = t("{name} (the default)", { name: defaultScheme === "long" ? t("Long") : t("Short") });
  } else {
    scheme = h("span", { class: "hint" }, t("Chosen after their first ranked game"));
  }
  return h("tr", { class: "invitee", dataset: { nickname: invitee.nickname } },
    h("td", {}, h("a", { href: `#/players/${encodeURIComponent(invitee.nickname)}` }, invitee.nickname),
      invitee.verified ? null : h("small", { class: "hint" }, " ", t("(not verified yet)"))),
    h("td", {}, invitee.startedAt ? formatDate(invitee.startedAt) : "—"),
    h("td", {}, t("{played} ({paid} paid)", { played: formatNumber(invitee.weeksPlayed), paid: formatNumber(invitee.weeksPaid) })),
    h("td", { class: "scheme" }, scheme));
}

// ------------------------------------------------------------------------------ badges (E8)

function badgesPanel(view) {
  const items = view.badges.map((badge) => {
    const next = badge.nextThreshold;
    const toward = next === null
      ? h("span", { class: "badge-next" }, t("Highest level reached"))
      : [
        h("progress", { max: String(next), value: String(Math.min(badge.count, next)),
          "aria-label": t("{count} of {next} toward the next level", { count: badge.count, next }) }),
        h("span", { class: "badge-next" }, tn("{progress}/{next}: the next level pays {count} token",
          "{progress}/{next}: the next level pays {count} tokens", badge.nextReward ?? 0,
          { progress: formatNumber(badge.count), next: formatNumber(next) })),
      ];
    return h("li", { class: `badge-item${badge.level ? " reached" : ""}`, dataset: { badge: badge.badge } },
      h("span", { class: "badge-title" }, badge.title),
      h("span", { class: "badge-level" }, badge.level ? badge.levelName : t("Not yet")),
      h("small", { class: "badge-does" }, badge.does),
      h("span", { class: "badge-toward" }, toward));
  });
  return [
    h("h3", {}, t("Badges")),
    view.pioneer ? h("p", { id: "pioneer", class: "badge-level" }, t("{title} #{number}", { title: view.pioneer.title, number: view.pioneer.number })) : null,
    h("ul", { id: "badge-list", class: "badge-list" }, items),
  ];
}
