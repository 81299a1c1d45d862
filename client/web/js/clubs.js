// What the clubs' screens share (product C1-C5): a club's tag drawn in its colours, its avatar,
// the words for roles and entry, and a button that runs one change at a time with its refusal
// beside it.

import { compose, h } from "./dom.js";
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

/** The fields of a club's looks, as founding and editing ask them (ids `<prefix>-tag`...):
 * `fields` to put in a form, `values()` for the request's body. `club`: the club as it is
 * (editing), or none (founding: the defaults). */
export function looksFields(prefix, { club = null, description = "", ownsAvatar = false } = {}) {
  const field = (name, label, input) => h("label", { for: `${prefix}-${name}` }, label, input);
  const tag = h("input", { id: `${prefix}-tag`, maxlength: "4", minlength: "2", required: true, autocomplete: "off",
    size: "5", value: club?.tag.tag ?? "" });
  const text = h("input", { id: `${prefix}-text`, type: "color", value: club?.tag.text ?? "#ffffff" });
  const background = h("input", { id: `${prefix}-background`, type: "color", value: club?.tag.background ?? "#2f6f4f" });
  const avatars = ownsAvatar ? [...STOCK_AVATARS, "own"] : STOCK_AVATARS;
  const avatar = h("select", { id: `${prefix}-avatar` },
    avatars.map((id) => h("option", { value: id, selected: id === club?.avatar }, avatarLabel(id))));
  const entry = h("select", { id: `${prefix}-entry` }, ["open", "approval"].map((id) =>
    h("option", { value: id, selected: id === club?.entry }, entryLabel(id))));
  const about = h("textarea", { id: `${prefix}-description`, maxlength: "300", rows: "3" });
  about.value = description;
  return {
    fields: [
      field("tag", t("Tag (2 to 4 letters or digits)"), tag),
      field("text", t("Tag's letters"), text),
      field("background", t("Tag's background"), background),
      field("avatar", t("Avatar"), avatar),
      field("entry", t("Entry"), entry),
      field("description", t("Description (up to 300 characters)"), about),
    ],
    values: () => ({
      tag: tag.value, colours: { text: text.value, background: background.value },
      avatar: avatar.value, entry: entry.value, description: about.value,
    }),
  };
}

/** A club's invitation that arrives while the page is open (C2): said in the notice bar with a
 * link to the clubs' page, and counted on the Clubs link. */
export async function clubInvited(frame, banner, http) {
  banner("info", compose(t("{nickname} invites you to the club {club}."), {
    nickname: frame.by,
    club: h("a", { href: "#/clubs", id: "club-invitation-link" }, frame.name),
  }));
  await restoreWaiting(http);
}
