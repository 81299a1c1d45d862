// The installed app's shell (decision: network first): every request for the page's own files
// goes to the network, and what comes back is kept, so that the page is always the newest one
// when online and still opens offline (with its "offline" notice). The page tells this worker
// which files it loaded on its first visit (before this worker controlled it): they are kept
// too. Calls of the APIs are on other origins and never pass through here.

const CACHE = "yamb-shell-v1";

self.addEventListener("install", (event) => {
  // The browser asks for the tab's icon and the manifest on its own, outside the page's list of
  // files (performance entries): kept from the start, so that an offline start finds them too.
  const shell = ["./", "index.html", "manifest.webmanifest", "icons/icon.svg", "icons/icon-192.png"];
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(shell)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const own = urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(own.map((url) =>
    cache.add(url).catch(() => undefined))))); // a file that fails now is kept at its next load
});

/** Tells the page a request failed for want of network (it shows its "offline" notice): the
 * page being opened (a navigation's resultingClientId) or the one that asked. */
function tellOffline(event) {
  const id = event.resultingClientId || event.clientId;
  if (!id) return;
  event.waitUntil(self.clients.get(id).then((client) => client?.postMessage({ offline: true })));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/_local/")) return; // the local stack's own routes
  event.respondWith((async () => {
    try {
      const answer = await fetch(request);
      if (answer.ok) {
        const copy = answer.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return answer;
    } catch (offline) {
      tellOffline(event);
      const kept = await caches.match(request, { ignoreSearch: url.pathname.endsWith("/") });
      if (kept) return kept;
      if (request.mode === "navigate") return (await caches.match("index.html")) || Response.error();
      throw offline;
    }
  })());
});

// Web Push (docs/push.md): the server's notification (yamb.push.messages.Notification: title,
// body, the page to open, a tag so that a newer one about the same game replaces the older) is
// shown as it came; a click opens the game's page, in a window of the app already open if there
// is one. Only this app's own pages are opened.
self.addEventListener("push", (event) => {
  let shown = {};
  try {
    shown = event.data ? event.data.json() : {};
  } catch {
    shown = { body: event.data ? event.data.text() : "" };
  }
  const target = new URL(shown.url || "./", self.location.href);
  const url = target.origin === self.location.origin ? target.href : new URL("./", self.location.href).href;
  event.waitUntil(self.registration.showNotification(shown.title || "Yamb", {
    body: shown.body || "",
    tag: shown.tag || undefined,
    icon: "icons/icon-192.png",
    data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url || new URL("./", self.location.href).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const app = open.find((client) => new URL(client.url).origin === self.location.origin);
    if (app) {
      try {
        await app.focus();
        return await app.navigate(url); // a page this worker does not control refuses
      } catch {
        // opened below instead
      }
    }
    return self.clients.openWindow(url);
  })());
});
