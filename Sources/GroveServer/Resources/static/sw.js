// Grove's service worker: the app's files kept for offline use, and the last copy of each page seen.
// Served at /sw.js (so that its scope is the whole app) with this build's version written in: a new
// build is a new worker, whose install fetches the files again and whose activation drops the old.
const VERSION = "__GROVE_SHELL_VERSION__";
const SHELL = `grove-shell-${VERSION}`;
const PAGES = "grove-pages";
/** The most pages kept for offline reading; the oldest go first. */
const MAX_PAGES = 40;
const FILES = [
  "/offline", "/static/app.css", "/static/app.js", "/static/grove.js", "/static/focus.js", "/static/timers.js",
  "/static/pause.js", "/static/rooms.js", "/static/queue.js", "/static/icons.svg", "/static/tree.svg", "/static/icon-192.png",
  "/static/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith("grove-shell-") && key !== SHELL) await caches.delete(key);
    await self.clients.claim();
  })());
});

async function keepPage(request, response) {
  const cache = await caches.open(PAGES);
  await cache.put(request, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(old);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    // This build's files, from the versioned cache; anything else from the network.
    event.respondWith(caches.open(SHELL).then((cache) => cache.match(request)).then((hit) => hit || fetch(request)));
  } else if (request.mode === "navigate") {
    // Pages from the network while it answers (always today's state); offline, the copy last seen,
    // else the page that says what works offline.
    event.respondWith((async () => {
      try {
        const response = await fetch(request);
        if (response.ok && (response.headers.get("Content-Type") || "").startsWith("text/html")) {
          event.waitUntil(keepPage(request, response.clone()));
        }
        return response;
      } catch (error) {
        const kept = await (await caches.open(PAGES)).match(request);
        return kept || (await (await caches.open(SHELL)).match("/offline")) || Response.error();
      }
    })());
  }
});

// A notification's click opens the page it names: in a window of this app already open, else a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const link = new URL((event.notification.data && event.notification.data.link) || "/", self.location.origin).href;
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (!client.url.startsWith(self.location.origin)) continue;
      await client.focus();
      if ("navigate" in client) await client.navigate(link);
      return;
    }
    await self.clients.openWindow(link);
  })());
});

// Web Push from this Grove (RFC 8030/8291): a tree grown, a break over, a timer done, a reminder —
// shown even when no page is open. The payload names the page a click opens.
self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch { notice = { body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(notice.title || "Grove", {
    body: notice.body || "", icon: "/static/icon-192.png", tag: notice.tag || undefined, data: { link: notice.link || "/" },
  }));
});

// The push service renewed this browser's subscription: tell this Grove the new one.
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil((async () => {
    const options = event.oldSubscription ? event.oldSubscription.options : null;
    const fresh = event.newSubscription || (options && await self.registration.pushManager.subscribe(options));
    if (!fresh) return;
    await fetch("/api/v1/push/subscriptions", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fresh.toJSON()) });
  })());
});
