// "Notifications on this device" (Web Push, issue 28, A8): turning them on asks the browser for
// its permission, subscribes this device's browser with the server's VAPID key and hands the
// subscription to the server (PUT /me/push-subscriptions); turning them off removes it there and
// in the browser. What comes follows the account's in-game switches: "News of the game" (a slow
// game waiting for your turn, a return countdown started) and "Rewards" (a prize paid). The
// service worker (sw.js) shows each push and opens its game on a click.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

/** The server's VAPID key (base64url) as the bytes `pushManager.subscribe` takes. */
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** A device's id, as the server works it out (yamb.push.messages.device_id): the first 32 hex
 * digits of its endpoint's SHA-256. */
async function deviceId(endpoint) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("").slice(0, 32);
}

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** The worker's registration, or null when none comes within a few seconds (a page opened
 * from a file, a browser that refused the worker). */
async function registration() {
  const timeout = new Promise((resolve) => setTimeout(() => resolve(null), 5000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/** Mounts the control into `element` (the settings screen's slot); `ctx` is the screen's. */
export function mountPushControl(element, ctx) {
  const status = h("p", { id: "push-status", class: "hint", "aria-live": "polite" });
  const error = h("p", { id: "push-error", class: "error", role: "alert" });
  // Shown once the page knows whether this device is subscribed (or never, without push).
  const button = h("button", { type: "button", id: "push-toggle", class: "primary", hidden: true },
    t("Turn on on this device"));
  const panel = h("section", { class: "panel", id: "push-panel", "aria-labelledby": "push-title" },
    h("h3", { id: "push-title" }, t("Notifications on this device")),
    h("p", { class: "hint" }, t("Your phone or computer tells you when a slow game waits for your turn, when your return countdown starts and when a prize is paid, as your switches under In the game allow.")),
    status, button, error);
  fill(element, panel);

  let key = null;
  let on = false;
  const show = (text) => { status.textContent = text; };
  const draw = () => {
    button.textContent = on ? t("Turn off on this device") : t("Turn on on this device");
    button.setAttribute("aria-pressed", String(on));
    button.disabled = false;
    button.hidden = false;
  };

  async function turnOn(worker) {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      throw new Error(t("Notifications are blocked for this site: allow them in your browser's site settings, then try again."));
    }
    const subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    try {
      await ctx.http("PUT", "/me/push-subscriptions", subscription.toJSON());
    } catch (problem) {
      await subscription.unsubscribe().catch(() => undefined); // the server did not take it
      throw problem;
    }
  }

  async function turnOff(worker) {
    const subscription = await worker.pushManager.getSubscription();
    if (!subscription) return;
    await ctx.http("DELETE", `/me/push-subscriptions/${await deviceId(subscription.endpoint)}`);
    await subscription.unsubscribe();
  }

  button.addEventListener("click", async () => {
    error.textContent = "";
    button.disabled = true;
    const worker = await registration();
    try {
      if (!worker) throw new Error(t("This page has no service worker, so it cannot show notifications: reload it and try again."));
      if (on) await turnOff(worker);
      else await turnOn(worker);
      on = !on;
      show(on ? t("Notifications are on for this device.") : t("Notifications are off for this device."));
    } catch (problem) {
      error.textContent = problem.message || t("The browser could not subscribe to notifications.");
    } finally {
      draw();
    }
  });

  (async () => {
    if (!supported()) {
      show(t("This browser cannot show notifications from the game."));
      return;
    }
    try {
      key = (await ctx.http("GET", "/push/vapid-key")).publicKey;
    } catch (problem) {
      error.textContent = problem.message;
      return;
    }
    if (!key) {
      show(t("This server sends no notifications."));
      return;
    }
    const worker = await registration();
    const subscription = worker ? await worker.pushManager.getSubscription().catch(() => null) : null;
    on = Boolean(subscription) && Notification.permission === "granted";
    if (on) {
      // Handed over again at each visit: the server may have dropped it (a push service that
      // called it gone), or it may be a new one the browser rotated.
      ctx.http("PUT", "/me/push-subscriptions", subscription.toJSON()).catch((problem) => {
        error.textContent = problem.message;
      });
    }
    show(on ? t("Notifications are on for this device.") : t("Notifications are off for this device."));
    draw();
  })();
}
