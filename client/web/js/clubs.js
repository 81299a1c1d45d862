// What the clubs' screens share (product C1-C5): a club's tag drawn in its colours, its avatar,
// the words for roles and entry, and a button that runs one change at a time with its refusal
// beside it.

import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

export const STOCK_AVATARS = ["shield", "crown", "dice", "star", "anchor", "flame", "leaf", "wave"];
const AVATAR_SIGNS = { shield: "🛡️", crown: "👑", dice: "🎲", star: "⭐", anchor: "⚓", flame: "🔥", leaf: "🍃", wave: "🌊" };

export const avatarLabel = (avatar) => ({
  shield: t("Shield"), crown: t("Crown"), dice: t("Dice"), star: t("Star"), anchor: t("Anchor"),
  flame: t("Flame"), leaf: t("Leaf"), wave: t("Wave"), own: t("The club's own"),
})[avatar] || avatar;

export const roleLabel = (role) => ({ admin: t("Admin"), deputy: t("Deputy"), member: t("Member") })[role] || role;

export const entryLabel = (entry) => (entry === "open" ? t("Open to all") : t("By approval"));

/** The tag as it shows beside a member's nickname: its letters on its colours. */
export function tagBadge(tag, id) {
  return h("span", { class: "club-tag", id, style: `color: ${tag.text}; background: ${tag.background}`,
    title: t("Club tag") }, tag.tag);
}

/** The stock avatar's sign, or (the club's own) its tag as a monogram in its colours. */
export function clubAvatar(club, id) {
  if (club.avatar === "own") {
    return h("span", { class: "club-avatar own", id, role: "img", "aria-label": avatarLabel("own"),
      style: `color: ${club.tag.text}; background: ${club.tag.background}` }, club.tag.tag);
  }
  return h("span", { class: "club-avatar", id, role: "img", "aria-label": avatarLabel(club.avatar) },
    AVATAR_SIGNS[club.avatar] || "🎲");
}

export const errorSlot = (id) => h("p", { class: "error", id, role: "alert" });

/** A button that runs `action` once at a time, its refusal shown in `slot`. */
export function actionButton(label, attrs, slot, action) {
  const button = h("button", { type: "button", ...attrs }, label);
  button.addEventListener("click", async () => {
    if (button.disabled) return;
    slot.textContent = "";
    button.disabled = true;
    try {
      await action();
    } catch (error) {
      slot.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** A form whose submit runs `action` once at a time, its refusal in `slot`. */
export function actionForm(attrs, slot, action, ...children) {
  const form = h("form", { ...attrs }, ...children);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const submit = form.querySelector("button[type=submit]");
    if (submit?.disabled) return;
    slot.textContent = "";
    if (submit) submit.disabled = true;
    try {
      await action();
    } catch (error) {
      slot.textContent = error.message;
    } finally {
      if (submit) submit.disabled = false;
    }
  });
  return form;
}

/** What waits for the player in their clubs, counted on the Clubs link of the navigation: the
 * invitations (C2: they reach them even offline) and the announcements not read yet (C6); read
 * at sign-in and whenever the clubs' pages draw. */
export function countWaiting(held) {
  const count = held.invitations.length + held.clubs.reduce((sum, club) => sum + club.unread, 0);
  const link = document.querySelector('#nav a[data-screen="clubs"]');
  if (!link) return;
  let badge = link.querySelector(".unread");
  if (!count) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = h("span", { class: "badge unread", id: "clubs-waiting" });
    link.append(badge);
  }
  badge.textContent = String(count);
  badge.setAttribute("aria-label", tn("{count} new in your clubs", "{count} new in your clubs", count));
}

export async function restoreWaiting(http) {
  const held = await http("GET", "/me/clubs").catch(() => null);
  if (held) countWaiting(held);
}
