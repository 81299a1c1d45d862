// #/chats (product S3): the general chat of every connected player who has it open (its recent
// lines, then new ones in batches every few seconds), and the private conversations, each with
// its unread count. #/chats/<nickname>: one conversation, its history (older pages on demand),
// a message box, and closing it (for oneself alone: the other player keeps theirs).

import { tagBadge } from "../clubs.js";
import { fill, h } from "../dom.js";
import { formatDate, t } from "../i18n.js";
import * as inbox from "../inbox.js";
import { reportButton } from "../report.js";

let leave = [];

function cleanUp() {
  for (const undo of leave) undo();
  leave = [];
}

/** A line; another's can be reported (`where`: its channel, and the conversation's nickname). */
function line(message, ctx, where) {
  const report = !message.mine && ctx
    ? [" ", reportButton(ctx, { kind: "message", message: { id: message.id, ...where } }, `line-${message.id}`)]
    : null;
  return h("li", { class: `chat-line${message.mine ? " mine" : ""}`, dataset: { id: message.id } },
    h("span", { class: "chat-from" }, message.sender), message.club ? [" ", tagBadge(message.club)] : null, " ",
    h("time", { class: "hint", datetime: message.sentAt }, formatDate(message.sentAt, "short")), " ",
    h("span", { class: "chat-text" }, message.text), report);
}

function sendForm(id, label, send) {
  const input = h("input", { id: `${id}-text`, maxlength: "200", autocomplete: "off", required: true,
    "aria-label": label, "aria-describedby": `${id}-error` });
  const error = h("p", { class: "error", id: `${id}-error`, role: "alert" });
  const form = h("form", { class: "chat-form", id: `${id}-form`, onsubmit: async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const answer = await send(text, `${id}-error`);
    if (answer) input.value = "";
    input.focus();
  } }, input, h("button", { type: "submit", id: `${id}-send` }, t("Send")));
  return [form, error];
}

export const screen = {
  id: "chats",
  path: "/chats",
  get title() { return t("Chats"); },
  nav: true,
  async show(root, params, ctx) {
    cleanUp();
    // ---- the general chat
    const lines = h("ol", { class: "chat-lines", id: "general-lines", "aria-live": "polite" });
    const seen = new Set();
    const add = (frameLines) => {
      for (const message of frameLines) {
        if (seen.has(message.id)) continue;
        seen.add(message.id);
        lines.append(line(message, ctx, { channel: "general" }));
      }
      lines.scrollTop = lines.scrollHeight;
    };
    const [generalForm, generalError] = sendForm("general", t("A line for everyone"), async (text, slot) => {
      const answer = await ctx.act("general_chat", { text }, slot, { open: false });
      if (answer) add(answer.lines);
      return answer;
    });
    leave.push(ctx.onFrame("general_chat", (frame) => {
      if (!frame.requestId) add(frame.lines);
    }));
    // ---- the private conversations
    const list = h("ul", { class: "conversations", id: "conversations" });
    const drawConversations = (conversations) => {
      fill(list, conversations.length ? conversations.map((c) => h("li", { dataset: { nickname: c.nickname } },
        h("a", { href: `#/chats/${encodeURIComponent(c.nickname)}` }, c.nickname),
        inbox.unreadOf(c.nickname) ? h("span", { class: "badge unread" }, String(inbox.unreadOf(c.nickname))) : null,
        " · ", h("span", { class: "hint" }, c.lastText)))
        : h("li", { class: "hint" }, t("No conversations yet: write to a player from their page or below.")));
    };
    const refresh = async () => {
      const frame = await ctx.act("conversations", {}, "conversations-error", { open: false });
      if (frame) drawConversations(frame.conversations);
    };
    leave.push(ctx.onFrame("message", (frame) => {
      if (!frame.requestId) refresh();
    }));
    const to = h("input", { id: "new-message-to", maxlength: "30", autocomplete: "off", required: true,
      placeholder: t("a nickname"), "aria-label": t("Write to") });
    const start = h("form", { class: "chat-form", id: "new-message-form", onsubmit: (event) => {
      event.preventDefault();
      if (to.value.trim()) ctx.navigate(`#/chats/${encodeURIComponent(to.value.trim())}`);
    } }, to, h("button", { type: "submit" }, t("Write")));
    fill(root, h("h2", {}, t("Chats")),
      h("section", { class: "panel", id: "general-chat" }, h("h3", {}, t("General chat")),
        h("p", { class: "hint" }, t("Everyone connected who has this chat open reads it. New lines arrive every few seconds.")),
        lines, generalForm, generalError),
      h("section", { class: "panel", id: "private-chats" }, h("h3", {}, t("Private messages")),
        list, h("p", { class: "error", id: "conversations-error", role: "alert" }), start));
    inbox.reading(null);
    leave.push(inbox.watch(() => refresh()));
    await ctx.connected(); // a reload lands here before the socket is open
    const opened = await ctx.act("general_chat_open", {}, "general-error", { open: false });
    if (opened) add(opened.lines);
    leave.push(() => ctx.act("general_chat_close", {}, null, { open: false }));
    await refresh();
  },
  hide() {
    cleanUp();
  },
};

export const conversationScreen = {
  id: "conversation",
  path: "/chats/:nickname",
  get title() { return t("Private messages"); },
  nav: false,
  async show(root, { nickname }, ctx) {
    cleanUp();
    const messages = h("ol", { class: "chat-lines", id: "conversation-lines", "aria-live": "polite" });
    const seen = new Set();
    const put = (list, { older = false } = {}) => {
      const fresh = list.filter((m) => !seen.has(m.id));
      for (const m of fresh) seen.add(m.id);
      const items = fresh.map((m) => line(m, ctx, { channel: "private", with: nickname }));
      if (older) messages.prepend(...items);
      else messages.append(...items);
    };
    const olderButton = h("button", { type: "button", id: "conversation-older", hidden: true }, t("Older messages"));
    let before = null;
    olderButton.addEventListener("click", async () => {
      const page = await ctx.act("conversation", { nickname, before }, "conversation-error", { open: false });
      if (!page) return;
      put(page.messages, { older: true });
      before = page.before;
      olderButton.hidden = !before;
    });
    const [form, error] = sendForm("message", t("Your message"), async (text, slot) => {
      const answer = await ctx.act("send_message", { to: nickname, text }, slot, { open: false });
      if (answer) put([answer.message]);
      return answer;
    });
    const close = h("button", { type: "button", id: "conversation-close", onclick: async () => {
      const answer = await ctx.act("close_conversation", { nickname }, "conversation-error", { open: false });
      if (answer) ctx.navigate("#/chats");
    } }, t("Close this conversation"));
    fill(root, h("p", {}, h("a", { href: "#/chats" }, t("← Chats"))),
      h("h2", { id: "conversation-with" }, t("Messages with {nickname}", { nickname })),
      h("p", { class: "hint" }, t("Closing a conversation removes it and its history for you; {nickname} keeps theirs.", { nickname })),
      olderButton, messages, form, error, close,
      h("p", { class: "error", id: "conversation-error", role: "alert" }));
    inbox.reading(nickname);
    leave.push(() => inbox.reading(null));
    leave.push(ctx.onFrame("message", (frame) => {
      if (!frame.requestId && frame.nickname.toLowerCase() === nickname.toLowerCase()) put([frame.message]);
    }));
    // A conversation not started yet has no history: the box is there to begin it.
    await ctx.connected();
    const page = await ctx.act("conversation", { nickname }, null, { open: false });
    if (page) {
      put(page.messages);
      before = page.before;
      olderButton.hidden = !before;
    }
  },
  hide() {
    cleanUp();
  },
};
