// #/clubs/<id> (product C1-C5): a club's page. Anyone sees its members and roles and joins it
// (an open club) or asks to (by approval, with a short message). Members see the donations and
// the treasury, give to it and leave; the admin and deputies decide the requests, invite, remove
// members and buy levels; the admin appoints deputies, edits, renames, buys the own avatar,
// hands the club over and closes it. Every change draws the page again from the server's answer.

import { actionButton, actionForm, clubAvatar, countWaiting, entryLabel, errorSlot, looksFields, roleLabel, tagBadge } from "../clubs.js";
import { fill, h } from "../dom.js";
import { formatDate, formatNumber, t, tn } from "../i18n.js";
import { keyed } from "../keyed.js";
import { reportButton } from "../report.js";

const RIGHTS = {
  member: [],
  deputy: ["announce", "decide", "invite", "kickMember", "level"],
  admin: ["announce", "decide", "invite", "kickMember", "level", "kickDeputy", "appoint", "edit", "rename", "avatar", "close", "handOver"],
};

// What the page listens to while it shows (the club's chat frames): undone when it goes.
const listening = [];
function cleanUp() {
  for (const undo of listening.splice(0)) undo?.();
}

export const screen = {
  id: "club",
  path: "/clubs/:clubId",
  get title() { return t("Club"); },
  nav: false,
  async show(root, { clubId }, ctx) {
    cleanUp();
    const path = `/clubs/${encodeURIComponent(clubId)}`;
    fill(root, h("h2", {}, t("Club")), h("p", { class: "hint" }, t("Loading…")));
    let view;
    try {
      view = await ctx.http("GET", path);
    } catch (problem) {
      fill(root, h("h2", {}, t("Club")), h("p", { class: "error", id: "club-error", role: "alert" }, problem.message));
      return;
    }
    const draw = (answer) => {
      view = answer;
      render();
    };
    // The chat stays as it is when the page draws again after a change (its lines are live).
    let chat = null;
    const render = () => {
      document.title = `${view.club.name} · Yamb`;
      const can = (right) => RIGHTS[view.you || "member"].includes(right) && Boolean(view.you);
      if (view.you && !chat) chat = chatPanel(clubId, ctx, can);
      if (!view.you && chat) {
        cleanUp();
        chat = null;
      }
      fill(root,
        head(view, ctx),
        entryPanel(view, path, ctx, draw),
        view.you ? announcements(view) : null,
        chat,
        members(view, path, ctx, draw, can),
        can("decide") ? requests(view, path, ctx, draw) : null,
        can("invite") ? invite(view, path, ctx) : null,
        view.you ? treasury(view, path, ctx, draw, can) : null,
        can("edit") ? edit(view, path, ctx, draw) : null,
        view.you ? leavePanel(view, path, ctx, can) : null);
    };
    render();
    if (view.you && view.announcements.length) {
      ctx.http("POST", `/me/clubs/${encodeURIComponent(clubId)}/seen`).then(countWaiting).catch(() => undefined);
    }
  },
  hide() {
    cleanUp();
  },
};

function announcements(view) {
  return h("section", { class: "panel", id: "club-announcements", "aria-labelledby": "club-announcements-title" },
    h("h3", { id: "club-announcements-title" }, t("Announcements")),
    view.announcements.length
      ? h("ul", { class: "clubs-list" }, view.announcements.map((a) => h("li", { class: "club-announcement", dataset: { id: a.id } },
        h("strong", {}, a.sender), " ", h("time", { class: "hint", datetime: a.sentAt }, formatDate(a.sentAt, "short")),
        " ", h("span", {}, a.text))))
      : h("p", { class: "hint", id: "club-announcements-empty" }, t("No announcement yet.")));
}

function chatLine(frame) {
  return h("li", { class: `chat-line${frame.line.mine ? " mine" : ""}${frame.announcement ? " announcement" : ""}`,
    dataset: { id: frame.line.id } },
  h("span", { class: "chat-from" }, frame.line.sender), frame.line.club ? [" ", tagBadge(frame.line.club)] : null, " ",
  h("time", { class: "hint", datetime: frame.line.sentAt }, formatDate(frame.line.sentAt, "short")), " ",
  frame.announcement ? h("strong", {}, t("Announcement:"), " ") : null,
  h("span", { class: "chat-text" }, frame.line.text));
}

function chatPanel(clubId, ctx, can) {
  const lines = h("ol", { class: "chat-lines", id: "club-lines", "aria-live": "polite" });
  const add = (frame) => {
    lines.append(chatLine(frame));
    lines.scrollTop = lines.scrollHeight;
  };
  listening.push(ctx.onFrame("club_chat", (frame) => {
    if (frame.clubId === clubId && !frame.requestId) add(frame);
  }));
  const input = h("input", { id: "club-chat-text", maxlength: "200", autocomplete: "off", required: true,
    "aria-label": t("A line for the club"), "aria-describedby": "club-chat-error" });
  const announce = can("announce")
    ? h("input", { type: "checkbox", id: "club-chat-announce" })
    : null;
  const error = h("p", { class: "error", id: "club-chat-error", role: "alert" });
  const form = h("form", { class: "chat-form", id: "club-chat-form", onsubmit: async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const answer = await ctx.act("club_chat", { clubId, text, announcement: Boolean(announce?.checked) },
      "club-chat-error", { open: false });
    if (answer) {
      add(answer);
      input.value = "";
      if (announce) announce.checked = false;
    }
    input.focus();
  } }, input, h("button", { type: "submit", id: "club-chat-send" }, t("Send")));
  return h("section", { class: "panel", id: "club-chat", "aria-labelledby": "club-chat-title" },
    h("h3", { id: "club-chat-title" }, t("Club chat")),
    h("p", { class: "hint" }, t("Live: the members connected now read it, and it is not kept.")),
    lines, form,
    announce ? h("label", { for: "club-chat-announce", class: "hint" }, announce, " ",
      t("As an announcement: kept for the members who are away")) : null,
    error);
}

function head(view, ctx) {
  const club = view.club;
  return h("div", { class: "club-head" },
    h("h2", { id: "club-name" }, clubAvatar(club, "club-avatar"), " ", club.name, " ", tagBadge(club.tag, "club-tag")),
    view.description ? h("p", { class: "player-description", id: "club-description" }, view.description) : null,
    h("p", { class: "hint", id: "club-facts" },
      t("{members} of {capacity} members", { members: formatNumber(club.members), capacity: formatNumber(club.capacity) }),
      " · ", t("Level {level}", { level: formatNumber(club.level) }),
      " · ", entryLabel(club.entry),
      " · ", t("Admin: {nickname}", { nickname: view.admin }),
      " · ", t("Founded {date}", { date: formatDate(view.foundedAt) })),
    view.you ? h("p", { id: "club-you" }, t("Your role: {role}", { role: roleLabel(view.you) })) : null,
    view.you === "admin" ? null : reportButton(ctx, { kind: "club", clubId: club.clubId }, "club"));
}

function entryPanel(view, path, ctx, draw) {
  if (view.you) return null;
  const error = errorSlot("club-join-error");
  const refreshed = async () => draw(await ctx.http("GET", path));
  if (view.requested) {
    return h("section", { class: "panel", id: "club-entry" },
      h("p", { id: "club-requested" }, t("Your request to join waits for the admin or a deputy.")),
      actionButton(t("Take back my request"), { id: "club-withdraw" }, error, async () => {
        await ctx.http("DELETE", `${path}/request`);
        await refreshed();
      }), error);
  }
  if (view.club.entry === "open") {
    return h("section", { class: "panel", id: "club-entry" },
      actionButton(t("Join the club"), { id: "club-join" }, error, async () => {
        await ctx.http("POST", `${path}/join`, {});
        await refreshed();
      }), error);
  }
  const message = h("input", { id: "club-request-message", maxlength: "140", autocomplete: "off",
    placeholder: t("A short message (optional)"), "aria-label": t("A short message (optional)") });
  return h("section", { class: "panel", id: "club-entry" },
    h("p", { class: "hint" }, t("This club's admin or a deputy decides who joins.")),
    actionForm({ id: "club-request-form" }, error, async () => {
      await ctx.http("POST", `${path}/join`, { message: message.value });
      await refreshed();
    }, message, h("button", { type: "submit", id: "club-request" }, t("Ask to join"))),
    error);
}

function members(view, path, ctx, draw, can) {
  const error = errorSlot("club-members-error");
  const rows = view.members.map((member) => {
    const who = encodeURIComponent(member.nickname);
    const actions = [];
    if (member.role !== "admin" && !member.you) {
      if (can("appoint")) {
        const next = member.role === "deputy" ? "member" : "deputy";
        actions.push(actionButton(next === "deputy" ? t("Make deputy") : t("Make member again"),
          { class: "link-button", id: `club-role-${member.nickname}` }, error,
          async () => draw(await ctx.http("PUT", `${path}/members/${who}/role`, { role: next }))));
      }
      if (can("handOver")) {
        actions.push(actionButton(t("Hand the club over"), { class: "link-button", id: `club-hand-${member.nickname}` }, error,
          async () => {
            if (!confirm(t("Make {nickname} the club's admin? You will be a member.", { nickname: member.nickname }))) return;
            draw(await ctx.http("POST", `${path}/admin`, { nickname: member.nickname }));
          }));
      }
      if (can(member.role === "deputy" ? "kickDeputy" : "kickMember")) {
        actions.push(actionButton(t("Remove"), { class: "link-button", id: `club-kick-${member.nickname}` }, error,
          async () => {
            if (!confirm(t("Remove {nickname} from the club?", { nickname: member.nickname }))) return;
            draw(await ctx.http("DELETE", `${path}/members/${who}`));
          }));
      }
    }
    return h("li", { class: "club-member", dataset: { nickname: member.nickname, role: member.role } },
      h("a", { href: `#/players/${who}` }, member.nickname), " · ",
      h("span", { class: `badge role-${member.role}` }, roleLabel(member.role)),
      view.you && member.donated ? [" · ", h("span", { class: "hint" }, tn("gave {count} token", "gave {count} tokens", member.donated,
        { count: formatNumber(member.donated) }))] : null,
      actions.length ? [" ", ...actions] : null);
  });
  return h("section", { class: "panel", id: "club-members", "aria-labelledby": "club-members-title" },
    h("h3", { id: "club-members-title" }, t("Members")),
    h("p", { class: "hint" }, tn("{count} deputy allowed at this size", "{count} deputies allowed at this size",
      view.deputiesAllowed, { count: formatNumber(view.deputiesAllowed) })),
    h("ul", { class: "clubs-list", id: "club-members-list" }, rows), error);
}

function requests(view, path, ctx, draw) {
  const error = errorSlot("club-requests-error");
  const decide = (request, accept) => async () =>
    draw(await ctx.http("POST", `${path}/requests/${encodeURIComponent(request.nickname)}`, { accept }));
  return h("section", { class: "panel", id: "club-requests", "aria-labelledby": "club-requests-title" },
    h("h3", { id: "club-requests-title" }, t("Requests to join")),
    view.requests.length ? h("ul", { class: "clubs-list" }, view.requests.map((request) =>
      h("li", { class: "club-request", dataset: { nickname: request.nickname } },
        h("a", { href: `#/players/${encodeURIComponent(request.nickname)}` }, request.nickname),
        request.message ? [": ", h("q", {}, request.message)] : null, " ",
        actionButton(t("Accept"), { id: `club-accept-${request.nickname}` }, error, decide(request, true)),
        actionButton(t("Refuse"), { id: `club-refuse-${request.nickname}` }, error, decide(request, false)))))
      : h("p", { class: "hint", id: "club-requests-empty" }, t("No request waits.")),
    error);
}

function invite(view, path, ctx) {
  const error = errorSlot("club-invite-error");
  const said = h("p", { class: "note", id: "club-invite-said", role: "status" });
  const nickname = h("input", { id: "club-invite-nickname", maxlength: "30", autocomplete: "off",
    placeholder: t("a nickname"), "aria-label": t("Invite a player") });
  return h("section", { class: "panel", id: "club-invite", "aria-labelledby": "club-invite-title" },
    h("h3", { id: "club-invite-title" }, t("Invite a player")),
    h("p", { class: "hint" }, t("The invitation waits for them, even if they are offline.")),
    actionForm({ id: "club-invite-form" }, error, async () => {
      said.textContent = "";
      const sent = await ctx.http("POST", `${path}/invitations`, { nickname: nickname.value.trim() });
      said.textContent = t("{nickname} is invited.", { nickname: nickname.value.trim() });
      nickname.value = "";
      return sent;
    }, nickname, h("button", { type: "submit", id: "club-invite-send" }, t("Invite"))),
    said, error);
}

function treasury(view, path, ctx, draw, can) {
  const error = errorSlot("club-treasury-error");
  const amount = h("input", { id: "club-donate-amount", type: "number", min: "10", step: "1", value: "10",
    "aria-label": t("Tokens to give") });
  const donate = keyed((key) => ctx.http("POST", `${path}/donations`, { amount: Number(amount.value) }, { "Idempotency-Key": key }));
  const history = h("ul", { class: "clubs-list", id: "club-history", hidden: true });
  const spend = (label, id, price, run) => actionButton(
    t("{label} ({price} tokens)", { label, price: formatNumber(price) }), { id }, error, run);
  return h("section", { class: "panel", id: "club-treasury", "aria-labelledby": "club-treasury-title" },
    h("h3", { id: "club-treasury-title" }, t("Treasury")),
    h("p", { id: "club-treasury-balance" }, tn("{count} token", "{count} tokens", view.treasury, { count: formatNumber(view.treasury) })),
    actionForm({ id: "club-donate-form" }, error, async () => {
      await donate();
      draw(await ctx.http("GET", path));
    }, amount, h("button", { type: "submit", id: "club-donate" }, t("Give to the treasury"))),
    h("p", { class: "hint" }, t("A gift to the treasury is at least 10 tokens and is never refunded.")),
    topDonors(view),
    h("div", { class: "actions" },
      can("level") && view.nextLevelPrice !== null
        ? spend(t("Buy the next level: 5 more seats"), "club-level", view.nextLevelPrice,
          async () => draw(await ctx.http("POST", `${path}/level`)))
        : null,
      can("avatar") && !view.ownsAvatar
        ? spend(t("Buy the club's own avatar"), "club-buy-avatar", view.ownAvatarPrice,
          async () => draw(await ctx.http("POST", `${path}/avatar`)))
        : null,
      actionButton(t("Show the history"), { id: "club-history-show", class: "link-button" }, error, async () => {
        const read = await ctx.http("GET", `${path}/treasury`);
        fill(history, read.history.map((entry) => h("li", {},
          `${entry.amount > 0 ? "+" : ""}${formatNumber(entry.amount)} · `, movement(entry), " · ",
          h("span", { class: "hint" }, formatDate(entry.at)))));
        history.hidden = false;
      })),
    history, error);
}

/** The members who gave most, best first (C5: for members' eyes only, as the page is). */
function topDonors(view) {
  const donors = view.members.filter((m) => m.donated > 0).sort((a, b) => b.donated - a.donated).slice(0, 5);
  if (!donors.length) return null;
  return h("div", { id: "club-top-donors" }, h("h4", {}, t("Top donors")),
    h("ol", {}, donors.map((m) => h("li", {}, m.nickname, " · ",
      tn("{count} token", "{count} tokens", m.donated, { count: formatNumber(m.donated) })))));
}

function movement(entry) {
  switch (entry.reason) {
    case "club_donation": return t("A member's gift");
    case "club_level": return t("Level {level} bought", { level: entry.detail || "?" });
    case "club_rename": return t("Renamed {name}", { name: entry.detail || "" });
    case "club_avatar": return t("The club's own avatar bought");
    case "club_reward": return t("The week's club reward: {percent}% of the tasks solved", { percent: (entry.detail || "").split(":")[1] || "?" });
    default: return entry.reason;
  }
}

function edit(view, path, ctx, draw) {
  const error = errorSlot("club-edit-error");
  const club = view.club;
  const looks = looksFields("club-edit", { club, description: view.description, ownsAvatar: view.ownsAvatar });
  const renameError = errorSlot("club-rename-error");
  const name = h("input", { id: "club-rename-name", maxlength: "24", value: club.name, autocomplete: "off" });
  return h("section", { class: "panel", id: "club-edit", "aria-labelledby": "club-edit-title" },
    h("h3", { id: "club-edit-title" }, t("The club's looks")),
    actionForm({ id: "club-edit-form", class: "club-form" }, error,
      async () => draw(await ctx.http("PATCH", path, looks.values())),
      looks.fields,
      h("button", { type: "submit", id: "club-edit-save" }, t("Save"))),
    error,
    actionForm({ id: "club-rename-form", class: "club-form" }, renameError,
      async () => draw(await ctx.http("POST", `${path}/name`, { name: name.value })),
      h("label", { for: "club-rename-name" }, t("New name"), name),
      h("button", { type: "submit", id: "club-rename" },
        t("Rename ({price} tokens from the treasury)", { price: formatNumber(view.nextRenamePrice) }))),
    renameError);
}

function leavePanel(view, path, ctx, can) {
  const error = errorSlot("club-leave-error");
  const alone = view.club.members === 1;
  const leaving = view.you === "admin"
    ? (alone && can("close")
      ? actionButton(t("Close the club"), { id: "club-close", class: "danger" }, error, async () => {
        if (!confirm(t("Close {name}? Its treasury goes with it.", { name: view.club.name }))) return;
        await ctx.http("DELETE", path);
        location.hash = "#/clubs";
      })
      : h("p", { class: "hint", id: "club-admin-stays" }, t("Hand the club over to a member before you leave.")))
    : actionButton(t("Leave the club"), { id: "club-leave" }, error, async () => {
      if (!confirm(t("Leave {name}?", { name: view.club.name }))) return;
      await ctx.http("DELETE", `/me${path}`);
      location.hash = "#/clubs";
    });
  return h("section", { class: "panel", id: "club-leave-panel" }, leaving, error);
}
