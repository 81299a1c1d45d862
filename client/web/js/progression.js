// The lobby's progress panel (E6-E8): the week's tasks with their progress, a claim button for
// each task done, the countdown to the week's end and the all-tasks bonus; the player's
// referral link and invitees; the badges reached. Everything comes from the HTTP API; what
// another player chose (a nickname) reaches the page as text only.

import * as api from "./api.js";
import { byId, fill, h } from "./dom.js";

let app = null; // {token}
let weekEnd = null;

export function setUp(context) {
  app = context;
  setInterval(showCountdown, 30_000);
}

export async function refresh() {
  const slot = byId("progress-error");
  slot.className = "error";
  slot.textContent = "";
  try {
    const token = await app.token();
    const [tasks, referral, badges] = await Promise.all([
      api.tasks(token), api.referral(token), api.badges(token),
    ]);
    renderTasks(tasks);
    renderReferral(referral);
    renderBadges(badges);
  } catch (error) {
    slot.textContent = error.message;
  }
}

function renderTasks(week) {
  weekEnd = new Date(week.endsAt);
  showCountdown();
  const rows = week.tasks.map((task) => {
    const claim = task.done && !task.claimed
      ? h("button", { class: "claim", onclick: () => claimTask(task, week.week) }, `Claim ${task.reward}`)
      : h("span", { class: "task-state" }, task.claimed ? "claimed" : `${task.reward} tokens`);
    return h("li", { class: `task${task.done ? " done" : ""}`, dataset: { task: task.id } },
      h("span", { class: "task-title" }, task.title),
      h("progress", { max: String(task.target), value: String(task.progress) }),
      h("span", { class: "task-progress" }, `${task.progress}/${task.target}`),
      claim);
  });
  fill(byId("task-list"), rows.length ? rows : h("li", { class: "hint" }, "No tasks this week."));
  byId("tasks-bonus").textContent = week.bonus.claimed
    ? `All done: +${week.bonus.reward} tokens and a Weekly challenge level.`
    : `Claim every task for ${week.bonus.reward} tokens more.`;
}

async function claimTask(task, week) {
  const slot = byId("progress-error");
  try {
    const paid = await api.claimTask(task.id, week, await app.token());
    const bonus = paid.bonus ? ` and the week's bonus of ${paid.bonus}` : "";
    slot.className = "note";
    slot.textContent = `+${paid.tokens} tokens${bonus}: your balance is ${paid.balance}.`;
  } catch (error) {
    slot.className = "error";
    slot.textContent = error.message;
  }
  const [kind, message] = [slot.className, slot.textContent];
  await refresh();
  if (!slot.textContent) [slot.className, slot.textContent] = [kind, message];
}

function showCountdown() {
  const element = byId("tasks-countdown");
  if (!element || !weekEnd) return;
  const minutes = Math.max(0, Math.floor((weekEnd.getTime() - Date.now()) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  element.textContent = days ? `${days} d ${hours} h left` : `${hours} h ${minutes % 60} min left`;
}

function renderReferral(referral) {
  const invitees = referral.invitees.map((invitee) => h("li", {}, invitee.nickname,
    invitee.verified ? "" : " (not verified yet)", invitee.scheme ? ` · ${invitee.scheme} scheme` : ""));
  fill(byId("referral"),
    h("p", {}, "Your link: ", h("a", { id: "referral-link", href: referral.link }, referral.link),
      " · code ", h("code", { id: "referral-code" }, referral.code)),
    h("p", { class: "hint" }, `A friend who signs up with it and confirms the e-mail brings you ${referral.verificationReward} tokens; then more each week they play ranked.`),
    invitees.length ? h("ul", { id: "invitees" }, invitees) : null);
}

function renderBadges(view) {
  const reached = view.badges.filter((badge) => badge.level > 0).map((badge) =>
    h("li", { class: "badge-level", title: badge.does }, `${badge.title}: ${badge.levelName}`));
  if (view.pioneer) reached.unshift(h("li", { class: "badge-level" }, `${view.pioneer.title} #${view.pioneer.number}`));
  fill(byId("badge-list"), reached.length ? reached : h("li", { class: "hint" }, "No badge yet: win a game against a person for Champion."));
  if (view.paid && view.paid.length) {
    const tokens = view.paid.reduce((sum, paid) => sum + paid.tokens, 0);
    const slot = byId("progress-error");
    slot.className = "note";
    slot.textContent = `New badge levels: +${tokens} tokens.`;
  }
}
