// Grove Pause: sends a navigation to a gated site through Grove's gateway page first.
//
// It only reads from `grove serve` (the apps and their latest pause); the pause itself — the count,
// the countdown, Proceed, Exit — happens on Grove's own page. When Grove does not answer, nothing is
// blocked: the badge says "off" and the web works as without the extension (fail open).
import { defaults, appFor, inGrace, gatewayURL } from "./gate.js";

const ext = globalThis.browser ?? globalThis.chrome;

async function settings() {
  return { ...defaults, ...(await ext.storage.local.get(["grove", "token", "graceDefault", "grace"])) };
}

async function fromGrove(s, path) {
  const headers = s.token ? { Authorization: `Bearer ${s.token}` } : {};
  const reply = await fetch(s.grove.replace(/\/+$/, "") + path, { headers, cache: "no-store", credentials: "omit" });
  if (!reply.ok) throw new Error(`Grove answered ${reply.status}`);
  return reply.json();
}

// The app list changes rarely: read at most every few seconds, not on every navigation.
let cache = { at: 0, grove: "", apps: [], key: "" };
async function apps(s) {
  if (cache.grove === s.grove && Date.now() - cache.at < 5000) return cache.apps;
  const list = await fromGrove(s, "/api/v1/pause/apps");
  // An older Grove has no gate key: its gateway counts every visit, as before.
  const key = await fromGrove(s, "/api/v1/pause/gate").then((gate) => gate.key, () => "");
  cache = { at: Date.now(), grove: s.grove, apps: list, key };
  return list;
}

async function status(reachable, detail) {
  await ext.action.setBadgeText({ text: reachable ? "" : "off" });
  if (!reachable) await ext.action.setBadgeBackgroundColor({ color: "#9E9E9E" });
  await ext.action.setTitle({ title: reachable ? "Grove Pause: on" : `Grove Pause: off — ${detail} (sites open without a pause)` });
  await ext.storage.local.set({ status: { reachable, detail, at: Date.now() } });
}

ext.webNavigation.onBeforeNavigate.addListener(async (navigation) => {
  if (navigation.frameId !== 0 || !/^https?:/.test(navigation.url)) return;
  const s = await settings();
  if (navigation.url.startsWith(s.grove.replace(/\/+$/, "") + "/")) return;
  let app;
  try {
    app = appFor(await apps(s), navigation.url);
    await status(true, "");
  } catch (error) {
    await status(false, "Grove is not running at " + s.grove);
    return;
  }
  if (!app) return;
  try {
    // While a tree grows there is no grace: Grove's page says so first (leaving costs the tree).
    const current = await fromGrove(s, "/api/v1/focus/current");
    const growing = current?.session?.state === "active";
    const [latest] = await fromGrove(s, `/api/v1/pause/sessions?appId=${encodeURIComponent(app.id)}&limit=1`);
    const minutes = Number(s.grace[app.id] ?? s.graceDefault);
    if (!growing && inGrace(latest, Number.isFinite(minutes) ? minutes : defaults.graceDefault, Date.now())) return;
  } catch {
    await status(false, "Grove did not answer");
    return;
  }
  await ext.tabs.update(navigation.tabId, { url: gatewayURL(s.grove, app, navigation.url, cache.key) });
});

// Exit on Grove's page (it marks itself `#left`): the tab goes back to where it was before the
// gated site was asked for, or closes when there is nothing to go back to.
ext.webNavigation.onReferenceFragmentUpdated.addListener(async (navigation) => {
  if (navigation.frameId !== 0 || !navigation.url.endsWith("#left")) return;
  const s = await settings();
  if (!navigation.url.startsWith(s.grove.replace(/\/+$/, "") + "/pause/")) return;
  try { await ext.tabs.goBack(navigation.tabId); } catch { await ext.tabs.remove(navigation.tabId).catch(() => {}); }
});

// New settings (another Grove, other grace minutes): read the apps again at the next navigation.
ext.storage.onChanged.addListener((changes) => {
  if (changes.grove || changes.token || changes.grace || changes.graceDefault) cache = { at: 0, grove: "", apps: [], key: "" };
});

ext.runtime.onInstalled.addListener(async () => {
  const s = await settings();
  try { await apps(s); await status(true, ""); } catch { await status(false, "Grove is not running at " + s.grove); }
});
