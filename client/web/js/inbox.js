// The private messages waiting to be read (product S3), shown on the navigation's "Chats" link:
// restored from the server once the socket is open (a message sent while the player was away
// waits there), one more with each message that arrives while its conversation is not on
// screen, which a short notice names too.

import { tn, t } from "./i18n.js";

const unread = new Map(); // the other player's nickname -> messages not read
let open = null; // the conversation on screen, if any
const watchers = new Set();

function total() {
  let sum = 0;
  for (const count of unread.values()) sum += count;
  return sum;
}

function draw() {
  const link = document.querySelector('#nav a[data-screen="chats"]');
  if (!link) return;
  let badge = link.querySelector(".unread");
  const count = total();
  if (!count) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = document.createElement("span");
    badge.className = "badge unread";
    badge.id = "chats-unread";
    link.append(badge);
  }
  badge.textContent = String(count);
  badge.setAttribute("aria-label", tn("{count} unread message", "{count} unread messages", count));
  for (const watcher of watchers) watcher();
}

/** After the socket opens: the conversations' unread counts as the server keeps them. */
export async function restore(ask) {
  const frame = await ask("conversations", {});
  if (!frame) return;
  unread.clear();
  for (const conversation of frame.conversations) {
    if (conversation.unread) unread.set(conversation.nickname, conversation.unread);
  }
  draw();
}

/** A `message` frame: counted unless its conversation is open; `say` names the sender. */
export function received(frame, say) {
  if (frame.requestId || frame.message.mine) return;
  if (open && open.toLowerCase() === frame.nickname.toLowerCase()) return;
  unread.set(frame.nickname, (unread.get(frame.nickname) || 0) + 1);
  draw();
  say("info", t("New message from {nickname}", { nickname: frame.nickname }));
}

/** The conversation with `nickname` is on screen (null: none): its messages count as read. */
export function reading(nickname) {
  open = nickname;
  if (nickname) unread.delete(nickname);
  draw();
}

export function unreadOf(nickname) {
  return unread.get(nickname) || 0;
}

/** `watcher()` runs after each change of the counts; returns its removal. */
export function watch(watcher) {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}
