// The page: signing in, the lobby, a game and the routed screens (js/screens/); one connection,
// one state. Every server frame goes through `onFrame`, which keeps the newest version of the
// game and draws the screen it belongs to, then hands it to the screens listening for its type;
// a frame of a type nobody knows is ignored.

import * as api from "./api.js";
import { Connection, ServerRefusal } from "./connection.js";
import * as inbox from "./inbox.js";
import * as invitations from "./invitations.js";
import { clubInvited, restoreWaiting } from "./clubs.js";
import * as fairplay from "./fairplay.js";
import { byId, fill, h } from "./dom.js";
import * as gameScreen from "./game.js";
import { seedOwnDice } from "./game/fairness.js";
import { currentLanguage, LANGUAGES, preferredLanguage, t, useLanguage } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as router from "./router.js";
import { screens } from "./screens/index.js";

const state = {
  config: null,
  catalog: null,
  me: null,
  nickname: null,
  game: null,
  // The game on screen, chosen by the player (or opened by their own request); frames of their
  // other games only raise a notice.
  view: null,
  games: new Map(),
  // A game this page watches (no seat): watched again after a reconnect, which sync cannot do.
  watching: null,
  chat: new Map(),
  // The games whose recent chat lines were asked of the server on this connection.
  chatLoaded: new Set(),
  slowGames: [],
};
let connection = null;
// The sign-in is the browser's, shared by its tabs (a new tab is signed in); what a tab watches
// is its own.
const store = localStorage;
const tabStore = sessionStorage;
// Frame listeners of the routed screens: type -> set of functions.
const listeners = new Map();
// The routed screen on show (its module), told when it goes.
let shownScreen = null;

// --------------------------------------------------------------------------- screens

function show(screen) {
  if (shownScreen && shownScreen.id !== screen) {
    const leaving = shownScreen;
    shownScreen = null;
    leaving.hide?.();
  }
  if (screen !== "lobby") lobby.stopLive();
  for (const section of byId("screens").children) section.hidden = section.id !== screen;
  document.body.dataset.screen = screen;
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.dataset.screen === screen) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** The section a routed screen draws in, made on its first visit. */
function sectionOf(screen) {
  let section = byId(screen.id);
  if (!section) {
    section = h("section", { id: screen.id, class: `screen screen-${screen.id}`, hidden: true });
    byId("screens").append(section);
  }
  return section;
}

async function openScreen(screen, params) {
  if (!state.me && !screen.public) return show("signin");
  const section = sectionOf(screen);
  state.view = null; // the game left for this screen: its frames no longer bring it back
  show(screen.id);
  shownScreen = screen;
  document.title = `${screen.title} · Yamb`; // a getter: said in the page's language now
  try {
    await screen.show(section, params, screenContext);
  } catch (error) {
    fill(section, h("p", { class: "error", role: "alert" }, error.message));
  }
}

/** Stops watching a game (no more of its frames reach this page); its answer is not awaited. */
function unwatch(gameId) {
  if (!connection) return;
  connection.send("unwatch_game", { gameId }, { open: false }).catch(() => {
    // Refused or lost: the frames that still come are of a game not on screen, and ignored.
  });
}

function showLobby() {
  if (state.watching) unwatch(state.watching.gameId);
  state.game = null;
  state.view = null;
  state.watching = null;
  tabStore.removeItem("yamb.watching");
  router.pushPath("/");
  document.title = "Yamb";
  show("lobby");
  lobby.refreshList();
  lobby.startLive();
}

function showGame(game) {
  lobby.stopLive();
  state.game = game;
  state.view = game.gameId;
  router.pushPath(`/game/${game.gameId}`);
  show("game");
  document.title = `${gameScreen.gameTitle(game)} · Yamb`;
  gameScreen.renderGame(game);
  gameScreen.renderChat(state.chat.get(game.gameId) || [], game);
  if (!state.chatLoaded.has(game.gameId)) loadChat(game.gameId);
}

/** The game's recent chat lines from the server (after a reload this page has none), merged
 * with the lines heard meanwhile. Asked once a connection: onOpen asks again. */
async function loadChat(gameId) {
  if (!connection || !connection.isOpen) return;
  state.chatLoaded.add(gameId);
  let frame;
  try {
    frame = await connection.send("chat_history", { gameId }, { open: false });
  } catch {
    state.chatLoaded.delete(gameId); // refused (not seated yet) or lost: asked again later
    return;
  }
  const key = (m) => `${m.sender}|${m.sentAt}|${m.text}`;
  const merged = new Map((frame.messages || []).map((m) => [key(m), { ...m, gameId }]));
  for (const m of state.chat.get(gameId) || []) merged.set(key(m), m);
  const messages = [...merged.values()].sort((a, b) => String(a.sentAt).localeCompare(String(b.sentAt)));
  state.chat.set(gameId, messages.slice(-200));
  if (state.game && state.game.gameId === gameId) gameScreen.renderChat(state.chat.get(gameId), state.game);
}

function banner(kind, ...text) {
  const element = byId("banner");
  element.className = `banner ${kind}`;
  element.hidden = text.length === 0;
  fill(element, ...text);
}

// --------------------------------------------------------------------------- actions

/**
 * Sends an action; a refusal's message goes to the element `errorSlot` (an id), and the
 * answer is null. With `open`, a game frame answering it goes on screen.
 */
async function act(action, fields, errorSlot, { open = true } = {}) {
  const slot = errorSlot ? byId(errorSlot) : null;
  if (slot) slot.textContent = "";
  try {
    // The answer reaches onFrame as every frame does; here it only settles the request.
    return await connection.send(action, fields, { open });
  } catch (error) {
    const message = error instanceof ServerRefusal ? error.message : t("{reason} — try again", { reason: error.message });
    if (slot) slot.textContent = message;
    else banner("warning", message);
    return null;
  }
}

async function watch(gameId, follow) {
  const fields = { gameId };
  if (follow) fields.follow = follow;
  const before = state.watching;
  // Set first: the answer is drawn before this function hears of it.
  state.watching = { gameId, follow };
  const answer = await act("watch_game", fields, state.game ? "game-actions-error" : "lobby-error");
  if (answer) {
    tabStore.setItem("yamb.watching", JSON.stringify(state.watching));
    if (before && before.gameId !== gameId) unwatch(before.gameId);
  } else state.watching = before;
}

async function openGame(gameId) {
  await act("sync", { gameId }, "lobby-error");
}

/** `#/game/<id>`: the game on screen if this page has it, else synced (a seat) or watched. */
async function openGameRoute(gameId) {
  if (!state.me) return show("signin");
  const known = state.games.get(gameId);
  if (known && known.status !== "deleted") return showGame(known);
  if (!connection || !connection.isOpen) {
    state.routedGame = gameId; // opened once the connection is (onOpen)
    return undefined;
  }
  const synced = await connection.send("sync", { gameId }, { open: true }).catch(() => null);
  if (!synced || !synced.game) await watch(gameId, null);
  return undefined;
}

// --------------------------------------------------------------------------- frames

function onFrame(frame, meta) {
  for (const listener of listeners.get(frame.type) || []) {
    try {
      listener(frame, meta);
    } catch (error) {
      console.error(error); // a screen's bug never stops the game's frames
    }
  }
  switch (frame.type) {
    case "game":
      return onGame(frame, meta);
    case "game_deleted":
      if (state.game && state.game.gameId === frame.gameId) {
        showLobby();
        banner("info", t("The game was deleted."));
      }
      return undefined;
    case "chat":
      return onChat(frame);
    case "message":
      return inbox.received(frame, banner);
    case "invitation":
      return invitations.received(frame);
    case "invitation_answer":
      return invitations.answered(frame);
    case "invitation_withdrawn":
      return invitations.withdrawn(frame);
    case "club_invitation":
      return clubInvited(frame, banner, screenContext.http);
    case "tournament_game":
      return tournamentGame(frame);
    case "fairplay_check":
      return fairplay.checked(frame);
    case "fairplay_result":
      return fairplay.result(frame);
    case "error":
      // Refusals of our own requests are shown where they were made; this one has no owner.
      if (!frame.requestId) banner("warning", String(frame.message || frame.code));
      return undefined;
    default:
      return undefined; // game_list, replay, ack...: answers, taken by their senders
  }
}

/** A tournament paired the player: their game is made and started; it opens at once unless a
 * game is on screen, else a banner offers it. */
function tournamentGame(frame) {
  const open = () => {
    banner("ok");
    location.hash = `#/game/${encodeURIComponent(frame.gameId)}`;
  };
  if (!state.view) return open();
  banner("info", t("Your tournament game is ready."), " ", h("button", { id: "tournament-game-open", onclick: open }, t("Open")));
  return undefined;
}

function onGame(frame, meta) {
  if (Array.isArray(frame.slowGames)) state.slowGames = frame.slowGames;
  const game = frame.game;
  if (!game) {
    if (meta?.open && !state.view && !state.watching) showLobby();
    return;
  }
  const known = state.games.get(game.gameId);
  if (known && game.version < known.version) return; // a frame overtaken by a newer one
  state.games.set(game.gameId, game);
  // This browser's own seed, committed while the table waits and revealed after the start.
  seedOwnDice(game, { me: state.me, send: (action, fields) => connection.send(action, fields, { open: false }) });
  if (game.gameId === state.view || (meta?.open && game.status !== "deleted")) {
    if (game.status === "deleted") showLobby();
    else showGame(game);
    return;
  }
  // Another game of the player's (a slow one beside this, or the one left for the lobby).
  if (game.turn && game.turn.playerId === state.me && game.seats.some((s) => s.playerId === state.me)) {
    banner("info", t("Your turn in game {game}.", { game: game.gameId }), " ",
      h("button", { onclick: () => { banner("ok"); showGame(state.games.get(game.gameId)); } }, t("Open")));
  }
}

function onChat(frame) {
  const messages = state.chat.get(frame.gameId) || [];
  messages.push(frame);
  if (messages.length > 200) messages.shift();
  state.chat.set(frame.gameId, messages);
  if (state.game && state.game.gameId === frame.gameId) gameScreen.renderChat(messages, state.game);
}

// --------------------------------------------------------------------------- connection

// Set while the page connects again after a socket that brought no frame (js/connection.js).
let silentSince = null;

function silentBanner(reconnect) {
  banner("error", t("No answer from the server for {seconds} s: the network may be down. Connecting again…",
    { seconds: Math.round(silentSince / 1000) }), " ", reconnect);
}

function onStatus(status) {
  const reconnect = h("button", { onclick: () => connection.reconnectNow() }, t("Reconnect now"));
  switch (status.state) {
    case "open":
      offline = false;
      silentSince = null;
      return banner("ok");
    case "connecting":
      // After a silent socket the banner keeps saying why the page connects again.
      if (silentSince) return silentBanner(reconnect);
      if (status.attempt) banner("warning", isOffline() ? offlineNotice() : t("Connecting…"));
      return undefined;
    case "silent":
      silentSince = silentSince || status.silentMs;
      return silentBanner(reconnect);
    case "lost":
      // With no network at all, say so: retrying cannot help until it is back.
      if (isOffline()) return banner("warning", offlineNotice());
      return banner("error", t("Connection lost. Retrying in {seconds} s (attempt {attempt}).",
        { seconds: Math.ceil(status.retryInMs / 1000), attempt: status.attempt }), " ", reconnect);
    case "replaced":
      return banner("error", t("This game is open in another window or device; this one is disconnected."), " ",
        h("button", { onclick: () => location.reload() }, t("Use it here")));
    case "signed-out":
      return signedOut(status.message);
    default:
      return undefined;
  }
}

/** Resolves once the connection is open (at once when it is): for screens opened on a reload. */
function connected() {
  if (connection?.isOpen) return Promise.resolve();
  return new Promise((resolve) => waitingForOpen.push(resolve));
}
const waitingForOpen = [];

async function onOpen() {
  for (const resolve of waitingForOpen.splice(0)) resolve();
  // Lines said while this page was away: the shown game's chat is asked again.
  state.chatLoaded.clear();
  const routed = state.routedGame;
  state.routedGame = null;
  const viewing = state.view || routed;
  // sync gives the regular game (on screen only if nothing else is) and names the slow games;
  // each of those is synced by its id, which also gives its seat this connection.
  // A game that has ended is not opened by itself: signing in or reloading lands in the lobby
  // unless the player has a game in play.
  const regular = await act("sync", {}, null, { open: false });
  // Private messages sent while the page was away (S3): their count on the Chats link.
  inbox.restore((action, fields) => act(action, fields, null, { open: false }));
  // An invitation sent while the page was away (S2) is offered now.
  invitations.restore((action, fields) => act(action, fields, null, { open: false }));
  // A club's invitation or announcement sent while the page was away (C2, C6): counted on
  // the Clubs link.
  restoreWaiting(screenContext.http);
  const inPlay = regular?.game && ["waiting", "running"].includes(regular.game.status);
  // Read after the answer: the player may have gone to another screen meanwhile.
  const onLobby = router.currentPath() === "/" && !state.view;
  if (!viewing && !state.watching && onLobby) {
    if (inPlay) showGame(state.games.get(regular.game.gameId) || regular.game);
    else showLobby();
  }
  for (const gameId of state.slowGames) await act("sync", { gameId }, null, { open: false });
  if (state.watching) {
    await watch(state.watching.gameId, state.watching.follow);
    return;
  }
  if (routed && !state.view) {
    await openGameRoute(routed);
    return;
  }
  const shown = viewing && state.games.get(viewing);
  const gone = regular && !regular.game && !state.slowGames.includes(viewing);
  if (shown && gone && !["finished", "cancelled"].includes(shown.status)) {
    showLobby(); // the table went while this page was away (deleted, or its seat lost)
    banner("info", t("That game is no longer yours to play."));
  }
}

function signedOut(reason) {
  if (connection) connection.close();
  connection = null;
  store.removeItem("yamb.token");
  store.removeItem("yamb.local");
  store.removeItem("yamb.refresh");
  store.removeItem("yamb.access");
  state.me = null;
  fill(byId("who"));
  byId("nav").hidden = true;
  show("signin");
  banner("warning", t("Signed out: {reason}", { reason }));
}

async function freshToken(fresh) {
  const token = store.getItem("yamb.token");
  const expired = !token || (api.claims(token).exp || 0) * 1000 < Date.now() + 5_000;
  if (!fresh && !expired) return token;
  const local = store.getItem("yamb.local");
  const refreshToken = store.getItem("yamb.refresh");
  let next;
  if (local) next = await api.localToken(local);
  else if (refreshToken) {
    const renewed = await api.refresh(refreshToken);
    next = renewed.token;
    if (renewed.accessToken) store.setItem("yamb.access", renewed.accessToken);
  }
  else throw new api.ApiError(t("your sign-in has expired; sign in again"), { code: "expired" });
  store.setItem("yamb.token", next);
  return next;
}

function start(token) {
  store.setItem("yamb.token", token);
  const claims = api.claims(token);
  state.me = claims.sub;
  state.nickname = claims["cognito:username"] || null;
  fill(byId("who"), h("span", { id: "me" }, store.getItem("yamb.nickname") || store.getItem("yamb.local") || claims.email || state.me),
    " ", h("button", { id: "sign-out", onclick: () => signOutHere() }, t("Sign out")));
  connection = new Connection(state.config.webSocketUrl, freshToken, {
    frame: onFrame, status: onStatus, open: onOpen, signedOut, stillSignedIn: api.stillSignedIn,
  });
  connection.open();
  followAccountLanguage();
  byId("nav").hidden = false;
  // The address bar's screen (a link, a reload), else the lobby.
  // The lobby's lists are read once the socket is open (onOpen's showLobby).
  if (router.currentPath() === "/") show("lobby");
  else router.dispatch();
}

// --------------------------------------------------------------------------- authenticator app

/** A2: two-step sign-in with an authenticator app (TOTP), for a player signed in by password. */
function securityPanel(panel) {
  const access = store.getItem("yamb.access");
  panel.hidden = !access;
  if (!access) return;
  const error = h("p", { class: "error", id: "totp-error", role: "alert" });
  const fail = (problem) => { error.textContent = problem.message; };
  const add = h("button", { type: "button", id: "totp-add", onclick: async () => {
    error.textContent = "";
    try {
      const secret = await api.addAuthenticator(store.getItem("yamb.access"));
      const email = store.getItem("yamb.nickname") || "player";
      const uri = `otpauth://totp/Yamb:${encodeURIComponent(email)}?secret=${secret}&issuer=Yamb`;
      fill(panel, h("h2", {}, t("Two-step sign-in")),
        h("p", { class: "hint" }, t("Add this key to your authenticator app, then type the code it shows.")),
        h("p", {}, h("code", { id: "totp-secret" }, secret)),
        h("p", { class: "hint" }, h("a", { href: uri, id: "totp-link" }, t("Open in an authenticator app"))),
        h("form", { id: "totp-form", onsubmit: async (event) => {
          event.preventDefault();
          error.textContent = "";
          try {
            await api.confirmAuthenticator(store.getItem("yamb.access"), event.target.code.value.trim());
            fill(panel, h("h2", {}, t("Two-step sign-in")),
              h("p", { id: "totp-on" }, t("On: a sign-in now asks for your authenticator app's code.")));
          } catch (problem) {
            fail(problem);
          }
        } },
          h("label", { class: "field" }, h("span", { class: "label" }, t("Code")),
            h("input", { name: "code", id: "totp-code", inputmode: "numeric", autocomplete: "one-time-code", required: true, pattern: "[0-9]{6}" })),
          h("button", { type: "submit", id: "totp-confirm" }, t("Confirm"))),
        error);
    } catch (problem) {
      fail(problem);
    }
  } }, t("Add an authenticator app"));
  fill(panel, h("h2", {}, t("Two-step sign-in")),
    h("p", { class: "hint" }, t("Off: a sign-in asks for your password only.")), add, error);
}

/** The login form's second step: the authenticator app's code, when the account has one. */
function askCode() {
  const step = byId("login-code-step");
  step.hidden = false;
  byId("login-code").focus();
  return new Promise((resolve) => {
    byId("login-code-confirm").onclick = () => {
      step.hidden = true;
      resolve(byId("login-code").value.trim());
    };
  });
}

function signOutHere() {
  signedOut(t("you signed out on this page"));
  banner("info", t("Signed out."));
}

// --------------------------------------------------------------------------- sign in

function signInForms() {
  const note = (id) => h("p", { class: "error", id, role: "alert" });
  const local = state.config.local
    ? h("form", { id: "local-form", onsubmit: async (event) => {
        event.preventDefault();
        const name = event.target.name.value.trim().toLowerCase();
        byId("local-error").textContent = "";
        try {
          const token = await api.localToken(name);
          store.setItem("yamb.local", name);
          store.setItem("yamb.nickname", name);
          start(token);
        } catch (error) {
          byId("local-error").textContent = error.message;
        }
      } },
      h("h2", {}, t("Local player")),
      h("p", { class: "hint" }, t("The local stack makes the player on the spot.")),
      h("label", { class: "field" }, h("span", { class: "label" }, t("Name")),
        h("input", { name: "name", id: "local-name", autocomplete: "off", required: true, maxlength: "20", pattern: "[a-z0-9\\-]+" })),
      note("local-error"),
      h("button", { type: "submit", class: "primary", id: "local-play" }, t("Play")))
    : null;
  const login = h("form", { id: "login-form", onsubmit: async (event) => {
      event.preventDefault();
      const form = event.target;
      byId("login-error").textContent = "";
      try {
        const { token, refreshToken, accessToken } = await api.logIn(form.email.value.trim(), form.password.value, askCode);
        if (refreshToken) store.setItem("yamb.refresh", refreshToken);
        if (accessToken) store.setItem("yamb.access", accessToken);
        store.setItem("yamb.nickname", form.email.value.trim());
        start(token);
      } catch (error) {
        byId("login-error").textContent = error.message;
      }
    } },
    h("h2", {}, t("Log in")),
    h("label", { class: "field" }, h("span", { class: "label" }, t("E-mail")), h("input", { name: "email", id: "login-email", type: "email", required: true, autocomplete: "username" })),
    h("label", { class: "field" }, h("span", { class: "label" }, t("Password")), h("input", { name: "password", id: "login-password", type: "password", required: true, autocomplete: "current-password" })),
    h("div", { id: "login-code-step", hidden: true },
      h("label", { class: "field" }, h("span", { class: "label" }, t("Authenticator app's code")),
        h("input", { name: "code", id: "login-code", inputmode: "numeric", autocomplete: "one-time-code", pattern: "[0-9]{6}" })),
      h("button", { type: "button", id: "login-code-confirm" }, t("Confirm"))),
    note("login-error"),
    h("button", { type: "submit", class: "primary", id: "login" }, t("Log in")));
  const register = h("form", { id: "register-form", onsubmit: async (event) => {
      event.preventDefault();
      const form = event.target;
      for (const slot of form.querySelectorAll(".field-error")) slot.textContent = "";
      byId("register-error").textContent = "";
      try {
        await api.register(form.nickname.value.trim(), form.email.value.trim(), form.password.value,
          form.referralCode.value.trim());
        byId("register-error").className = "note";
        byId("register-error").textContent = t("Check your mail for the verification link, then log in.")
          + (state.config.local ? ` ${t("(Local mailbox: /_local/mail on the HTTP API.)")}` : "");
      } catch (error) {
        const slot = error.field && form.querySelector(`[data-field="${CSS.escape(error.field)}"] .field-error`);
        (slot || byId("register-error")).textContent = error.message;
      }
    } },
    h("h2", {}, t("Register")),
    ...[["nickname", t("Nickname"), "text", "nickname"], ["email", t("E-mail"), "email", "email"], ["password", t("Password"), "password", "new-password"]].map(([name, label, type, auto]) =>
      h("label", { class: "field", dataset: { field: name } }, h("span", { class: "label" }, label),
        h("input", { name, id: `register-${name}`, type, required: true, autocomplete: auto }), h("span", { class: "field-error", role: "alert" }))),
    // An inviter's link is <web client>/?ref=<code> (E7): the code comes filled in.
    h("label", { class: "field", dataset: { field: "referralCode" } }, h("span", { class: "label" }, t("Referral code (optional)")),
      h("input", { name: "referralCode", id: "register-referralCode", type: "text", autocomplete: "off",
        value: new URLSearchParams(location.search).get("ref") || "" }),
      h("span", { class: "field-error", role: "alert" })),
    note("register-error"),
    h("button", { type: "submit", id: "register" }, t("Register")));
  fill(byId("signin"), local, login, register, mailForm("reset", t("Forgot your password?"),
    t("We mail a link to set a new one."), t("Mail me a link"), "/accounts/password-reset"),
  mailForm("resend", t("No verification mail?"), t("We mail the link that verifies your address again."),
    t("Mail it again"), "/accounts/verification"));
}

/** A form that asks the server to mail `address` (a reset link, the verification link again);
 * the answer is the same whatever the address, so the page says the same too. */
function mailForm(id, title, hint, submit, path) {
  const note = h("p", { class: "error", id: `${id}-error`, role: "alert" });
  return h("form", { id: `${id}-form`, class: "mail-form", onsubmit: async (event) => {
    event.preventDefault();
    note.className = "error";
    note.textContent = "";
    try {
      await api.request("POST", path, { email: event.target.email.value.trim() });
      note.className = "note";
      note.textContent = t("If an account has this address, a mail is on its way.")
        + (state.config.local ? ` ${t("(Local mailbox: /_local/mail on the HTTP API.)")}` : "");
    } catch (error) {
      note.textContent = error.message;
    }
  } },
  h("h2", {}, title), h("p", { class: "hint" }, hint),
  h("label", { class: "field" }, h("span", { class: "label" }, t("E-mail")),
    h("input", { name: "email", id: `${id}-email`, type: "email", required: true, autocomplete: "email" })),
  note, h("button", { type: "submit", id: `${id}-send` }, submit));
}

// --------------------------------------------------------------------------- routes

let screenContext = null;

function setUpRoutes() {
  router.route("/", () => {
    if (!state.me) return show("signin");
    showLobby();
    return undefined;
  });
  router.route("/game/:gameId", ({ gameId }) => openGameRoute(gameId));
  const links = [h("a", { href: "#/", dataset: { screen: "lobby" } }, t("Play"))];
  for (const screen of screens) {
    router.route(screen.path, (params) => openScreen(screen, params));
    if (screen.nav) {
      links.push(h("a", { href: `#${screen.path}`, dataset: { screen: screen.id } }, screen.title));
    }
  }
  fill(byId("nav"), links);
  router.start(() => router.navigate("#/"));
}

// --------------------------------------------------------------------------- theme and shell

/** Light, dark, or the system's (the default): kept for the next visit. */
// Each language named in itself, as a player looks for theirs.
const LANGUAGE_NAMES = { en: "English", fr: "Français", da: "Dansk", hr: "Hrvatski" };

/** The header's language switch: the page speaks the chosen language at once (a reload draws
 * every screen anew) and, signed in, the account keeps it (its mails follow). */
function setUpLanguage() {
  const select = byId("language");
  fill(select, LANGUAGES.map((tag) =>
    h("option", { value: tag, lang: tag, selected: tag === currentLanguage() }, LANGUAGE_NAMES[tag])));
  select.addEventListener("change", async () => {
    const chosen = await useLanguage(select.value);
    if (store.getItem("yamb.token")) {
      await screenContext.http("PATCH", "/me/settings", { language: chosen }).catch(() => undefined);
    }
    location.reload();
  });
}

/** Signed in, the page speaks the account's language (chosen on another device, or at
 * sign-up): a page in another one switches and draws itself again. */
async function followAccountLanguage() {
  const me = await screenContext.http("GET", "/me").catch(() => null);
  const wanted = me?.preferences?.language;
  if (!wanted || wanted === currentLanguage() || !LANGUAGES.includes(wanted)) return;
  await useLanguage(wanted);
  location.reload();
}

function setUpTheme() {
  const apply = (theme) => {
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
  };
  apply(store.getItem("yamb.theme"));
  const dark = () => document.documentElement.dataset.theme === "dark"
    || (!document.documentElement.dataset.theme && matchMedia("(prefers-color-scheme: dark)").matches);
  const button = byId("theme");
  const label = () => {
    button.textContent = dark() ? t("Light theme") : t("Dark theme");
  };
  button.addEventListener("click", () => {
    const next = dark() ? "light" : "dark";
    store.setItem("yamb.theme", next);
    apply(next);
    label();
  });
  label();
  // The system's theme changing (the phone turning dark at night) changes what the button offers.
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", label);
}

/**
 * The worker says when it answered from its cache because the network failed (sw.js): the
 * browser's navigator.onLine stays true on a network that is up but reaches nothing. Listened
 * to as the module first runs: the messages of this load's first requests are delivered at
 * DOMContentLoaded, before boot() has read its configuration.
 */
function hearTheWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (!event.data?.offline || offline) return;
    offline = true;
    if (byId("banner").hidden || byId("banner").classList.contains("error")) {
      banner("warning", offlineNotice());
    }
  });
}

/** The shell kept by a service worker (sw.js), so that the installed app opens offline too. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("sw.js").catch((error) => {
    console.warn("no service worker:", error.message); // the page works without it
  });
  // The files of this first load came before the worker: it keeps them for offline starts.
  // A page the worker already controls had each of its files kept as it passed (sw.js): told
  // again, the worker would fetch every one a second time (make bench counted it).
  if (navigator.serviceWorker.controller) return;
  navigator.serviceWorker.ready.then((registration) => {
    const keep = performance.getEntriesByType("resource").map((entry) => entry.name);
    registration.active?.postMessage({ keep: [location.href.split("#")[0], ...keep] });
  }).catch(() => undefined);
}

const offlineNotice = () => t("You are offline: the game will go on when the network is back.");
let offline = false; // the service worker answered from its cache: the network failed
const isOffline = () => offline || !navigator.onLine;

/** A notice while the browser has no network: nothing the page sends can arrive. */
function watchOnline() {
  const notice = () => banner("warning", offlineNotice());
  window.addEventListener("offline", notice);
  window.addEventListener("online", () => {
    offline = false;
    banner("ok");
  });
  if (!navigator.onLine) notice();
}

// --------------------------------------------------------------------------- boot

async function boot() {
  try {
    const [config, catalog] = await Promise.all([
      api.loadConfig(),
      fetch("catalog.json", { cache: "no-store" }).then((r) => r.json()),
    ]);
    state.config = config;
    state.catalog = catalog;
    await useLanguage(preferredLanguage()).catch(() => useLanguage("en"));
  } catch (error) {
    if (!navigator.onLine) banner("warning", offlineNotice());
    else banner("error", t("The page could not load its configuration: {reason}", { reason: error.message }));
    return;
  }
  const context = {
    state, act, watch, openGame,
    showLobby, connection: () => connection,
    banner, onFrame: (type, listener) => screenContext.onFrame(type, listener),
    headToHead: async (nickname) => api.headToHead(nickname, await freshToken(false)),
    token: () => freshToken(false),
  };
  screenContext = {
    state, act, banner, t,
    navigate: router.navigate,
    // `headers`: extra ones, such as the economy's {"Idempotency-Key": key}.
    http: async (method, path, body, headers) =>
      api.request(method, path, body, await freshToken(false), headers),
    token: () => freshToken(false),
    connected,
    securityPanel,
    /** After a password change: the new tokens of this device (the others are signed out). */
    adoptTokens: ({ idToken, accessToken, refreshToken }) => {
      if (idToken) store.setItem("yamb.token", idToken);
      if (accessToken) store.setItem("yamb.access", accessToken);
      if (refreshToken) store.setItem("yamb.refresh", refreshToken);
    },
    /** The header's name, after a nickname change. */
    renamed: (nickname) => {
      store.setItem("yamb.nickname", nickname);
      state.nickname = nickname;
      const me = byId("me");
      if (me) me.textContent = nickname;
    },
    signOut: (reason) => signedOut(reason),
    onFrame: (type, listener) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type).add(listener);
      return () => listeners.get(type).delete(listener);
    },
  };
  invitations.setUp({ act, banner });
  fairplay.setUp({ act, banner });
  setUpRoutes();
  setUpLanguage();
  setUpTheme();
  registerServiceWorker();
  watchOnline();
  lobby.setUp(context);
  gameScreen.setUp(context);
  lobby.buildCreateForm();
  byId("refresh").addEventListener("click", () => lobby.refreshList());
  byId("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = byId("chat-input");
    if (!state.game || !input.value.trim()) return;
    const sent = await act("chat", { gameId: state.game.gameId, text: input.value }, "chat-error");
    if (sent) input.value = "";
  });
  signInForms();
  const watching = tabStore.getItem("yamb.watching");
  if (watching) {
    try { state.watching = JSON.parse(watching); } catch { state.watching = null; }
  }
  const token = store.getItem("yamb.token");
  if (token) start(token);
  else if (publicScreenShown()) router.dispatch();
  else show("signin");
}

/** Whether the address names a screen open to a signed-out visitor (a mailed link's). */
function publicScreenShown() {
  const found = router.match(router.currentPath());
  return Boolean(found && screens.some((screen) => screen.public && screen.path === found.route.pattern));
}

window.yamb = { state, frames: () => connection?.ignored ?? 0 };
hearTheWorker();
boot();
