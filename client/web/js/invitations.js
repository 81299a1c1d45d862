// Invitations to a table (product S2): an invitation that arrives, or that waited for this
// sign-in, opens a small dialog (Yes seats the player at the table and opens it; No tells the
// inviter); the inviter hears the answer in a notice.

import { byId, h } from "./dom.js";
import { formatRelative, t, tn } from "./i18n.js";

let app = null;

/** `context`: act(action, fields, errorSlot, options) and banner(kind, text) of the page. */
export function setUp(context) {
  app = context;
}

function close() {
  byId("invitation-dialog")?.remove();
}

function show(invitation) {
  close();
  const error = h("p", { class: "error", id: "invitation-error", role: "alert" });
  const answer = async (accept) => {
    const answered = await app.act("answer_invitation", { invitationId: invitation.invitationId, accept },
      "invitation-error", { open: accept });
    if (answered) close();
  };
  const players = invitation.settings?.players;
  const dialog = h("div", { id: "invitation-dialog", class: "panel invitation-dialog", role: "alertdialog",
    "aria-modal": "false", "aria-labelledby": "invitation-title", "aria-describedby": "invitation-text",
    dataset: { invitation: invitation.invitationId } },
  h("h2", { id: "invitation-title" }, t("Invitation to a game")),
  h("p", { id: "invitation-text" }, t("{nickname} invites you to their table.", { nickname: invitation.by }),
    players ? [" ", tn("A table for {count} player.", "A table for {count} players.", players)] : null,
    " ", h("span", { class: "hint" }, t("Open until {when}.", { when: formatRelative(invitation.expiresAt) }))),
  h("div", { class: "actions" },
    h("button", { type: "button", id: "invitation-yes", onclick: () => answer(true) }, t("Yes, take me there")),
    h("button", { type: "button", id: "invitation-no", onclick: () => answer(false) }, t("No, thanks"))),
  error);
  document.body.append(dialog);
  byId("invitation-yes").focus();
}

/** An `invitation` frame: to the invitee (the inviter's own copy answers their `invite`). */
export function received(frame) {
  if (!frame.requestId) show(frame.invitation);
}

export function answered(frame) {
  app.banner("info", frame.accepted
    ? t("{nickname} accepted your invitation.", { nickname: frame.nickname })
    : t("{nickname} declined your invitation.", { nickname: frame.nickname }));
}

export function withdrawn(frame) {
  if (byId("invitation-dialog")?.dataset.invitation === frame.invitationId) {
    close();
    app.banner("info", t("The invitation was withdrawn."));
  }
}

/** After the socket opens: an invitation sent while the page was away. */
export async function restore(ask) {
  const frame = await ask("invitations", {});
  if (frame?.received) show(frame.received);
}
