// The WebSocket to the game service: actions out with a requestId each, answers matched back,
// everything else handed to the page. A lost connection is retried with growing delays; once
// back, the page sends `sync` and the game is as the server has it (a turn survives a lost
// connection, so nothing is replayed from here).

import { t } from "./i18n.js";

const ANSWER_TIMEOUT_MS = 10_000;
const settings = new URLSearchParams(location.search);
// The heartbeat: a `ping` this often, whatever else goes by: the server takes a connection that
// pinged and then stays silent for 45 s for a dead network and shows the seat away. A connection
// that brought no frame at all for SILENT_MS is taken as dead here too (a network that drops
// traffic closes nothing), is dropped and made again. (Both can be shortened in the address,
// for tests.)
const HEARTBEAT_MS = Math.max(200, Number(settings.get("heartbeatMs") ?? 10_000));
const SILENT_MS = Math.max(400, Number(settings.get("silentMs") ?? 20_000));
const BACKOFF_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000];
// Said when it happens (the catalogue is loaded by then, not when this module is).
const endedElsewhere = () => t("this sign-in has ended: you signed in on another device, or signed out everywhere");

export class ServerRefusal extends Error {
  constructor(frame) {
    super(String(frame.message || frame.code));
    this.code = frame.code;
    this.fields = Array.isArray(frame.fields) ? frame.fields : [];
  }
}

export class ConnectionLost extends Error {}

function randomHex(bytes) {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (v) => v.toString(16).padStart(2, "0")).join("");
}

export class Connection {
  /**
   * url: the WebSocket API; token(fresh): an ID token (fresh: the last one was refused or
   * expired); on: {frame, status, open, signedOut, stillSignedIn(token)}: a handshake refused
   * even with a fresh token asks whether the sign-in still holds (a sign-in on another device
   * ends it: A2), and stops retrying when it does not.
   */
  constructor(url, token, on) {
    this.url = url;
    this.token = token;
    this.on = on;
    this.socket = null;
    this.pending = new Map();
    this.numbers = 0;
    // Unique across reloads: the server derives a new game's id from its creator's requestId.
    this.prefix = randomHex(4);
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.ignored = 0;
    this.needFreshToken = false;
    this.connecting = false;
    this.heard = 0; // when the open socket last brought a frame (performance.now())
    this.heartbeat = null;
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  async open() {
    // One attempt at a time: a click on "reconnect now" during a token fetch is not a second.
    if (this.connecting || this.isOpen) return;
    this.connecting = true;
    this.stopped = false;
    let token;
    try {
      token = await this.token(this.needFreshToken);
    } catch (error) {
      this.connecting = false;
      // Only a refusal of the sign-in ends it; a network that is down is retried.
      if (error.code) this.on.status({ state: "signed-out", message: String(error.message || error) });
      else this.retry();
      return;
    }
    this.connecting = false;
    if (this.stopped) return;
    const fresh = this.needFreshToken;
    this.needFreshToken = false;
    const separator = this.url.includes("?") ? "&" : "?";
    const socket = new WebSocket(`${this.url}${separator}token=${encodeURIComponent(token)}`);
    this.socket = socket;
    let opened = false;
    this.on.status({ state: "connecting", attempt: this.attempt });
    // A handshake that hangs (a dead network) is given up as a silent socket is.
    setTimeout(() => {
      if (!opened && this.socket === socket) this.silent(socket);
    }, SILENT_MS);
    socket.addEventListener("open", () => {
      opened = true;
      this.attempt = 0;
      this.heard = performance.now();
      this.beat(socket);
      this.on.status({ state: "open" });
      this.on.open();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.heard = performance.now();
      this.receive(event.data);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      clearInterval(this.heartbeat);
      this.failPending();
      if (this.stopped) return;
      // A handshake refused before it opened is most often a token that expired meanwhile;
      // refused with a fresh one, the sign-in itself may have ended (another device signed in).
      if (!opened) this.needFreshToken = true;
      if (!opened && fresh && this.on.stillSignedIn) {
        this.on.stillSignedIn(token).then((still) => {
          if (this.stopped || this.socket !== null) return;
          if (still) this.retry();
          else this.disconnected({ code: "signed_in_elsewhere", reason: endedElsewhere() });
        }, () => this.retry());
        return;
      }
      this.retry();
    });
  }

  /** Pings every HEARTBEAT_MS, and sooner while the socket is quiet; a socket silent for
   * SILENT_MS is given up. */
  beat(socket) {
    clearInterval(this.heartbeat);
    const every = Math.min(HEARTBEAT_MS, SILENT_MS / 2);
    let pinged = performance.now();
    this.heartbeat = setInterval(() => {
      if (this.socket !== socket) {
        clearInterval(this.heartbeat);
        return;
      }
      const quiet = performance.now() - this.heard;
      if (quiet >= SILENT_MS) {
        this.silent(socket);
        return;
      }
      const sincePing = performance.now() - pinged;
      if (quiet >= every - 50 || sincePing >= HEARTBEAT_MS - 50) {
        pinged = performance.now();
        this.send("ping", {}, { heartbeat: true }).catch(() => undefined);
      }
    }, Math.max(100, Math.round(every / 2)));
  }

  /** No frame for SILENT_MS: the page says so and connects again on a new socket (the old
   * one may never close by itself on a dead network). */
  silent(socket) {
    clearInterval(this.heartbeat);
    this.socket = null;
    this.failPending();
    try {
      socket.close(4000, "no answer");
    } catch {
      // closing a dead socket may fail: it is dropped all the same
    }
    this.on.status({ state: "silent", silentMs: SILENT_MS });
    this.retry(false);
  }

  retry(tell = true) {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const jittered = Math.round(delay * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    if (tell) this.on.status({ state: "lost", retryInMs: jittered, attempt: this.attempt });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), jittered);
  }

  /** Connect again now (the banner's button). */
  reconnectNow() {
    if (this.connecting || this.socket !== null || this.stopped) return;
    clearTimeout(this.timer);
    this.open();
  }

  close() {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000, "bye");
    this.socket = null;
    this.failPending();
  }

  failPending() {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timeout);
      entry.reject(new ConnectionLost(t("the connection was lost before the answer came")));
    }
    this.pending.clear();
  }

  /**
   * Sends an action; resolves with its answer (a game frame, an ack, a list...). `meta` goes
   * with the answer to `on.frame`, so the page knows what the frame answers.
   */
  send(action, fields = {}, meta = null) {
    if (!this.isOpen) return Promise.reject(new ConnectionLost(t("not connected")));
    this.numbers += 1;
    const requestId = `${this.prefix}-${this.numbers}`;
    return new Promise((resolve, reject) => {
      const timeout = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new ConnectionLost(t("no answer from the server")));
      }, ANSWER_TIMEOUT_MS);
      this.pending.set(requestId, { resolve, reject, timeout, parts: [], meta });
      this.socket.send(JSON.stringify({ action, requestId, ...fields }));
    });
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      frame = null;
    }
    if (frame === null || typeof frame !== "object" || typeof frame.type !== "string") {
      this.ignored += 1;
      console.warn("ignored a frame that is not a server frame");
      return;
    }
    if (frame.type === "disconnected") {
      this.disconnected(frame);
      return;
    }
    const entry = typeof frame.requestId === "string" ? this.pending.get(frame.requestId) : null;
    if (entry) this.answer(frame, entry);
    try {
      this.on.frame(frame, entry ? entry.meta : null);
    } catch (error) {
      // A frame the page cannot draw must not stop the frames after it.
      this.ignored += 1;
      console.error("a frame could not be shown", error);
    }
  }

  answer(frame, entry) {
    if (frame.type === "replay") {
      entry.parts.push(frame);
      if (frame.part < frame.parts) return;
    }
    clearTimeout(entry.timeout);
    this.pending.delete(frame.requestId);
    if (frame.type === "error") entry.reject(new ServerRefusal(frame));
    else if (frame.type === "replay") entry.resolve(entry.parts);
    else entry.resolve(frame);
  }

  disconnected(frame) {
    if (frame.code === "session_expired") {
      this.needFreshToken = true; // the server closes it next; the retry signs in afresh
      return;
    }
    this.stopped = true;
    clearTimeout(this.timer);
    if (frame.code === "replaced") {
      this.on.status({ state: "replaced", message: String(frame.reason || "") });
    } else {
      this.on.signedOut(String(frame.reason || t("signed out")));
    }
  }
}
