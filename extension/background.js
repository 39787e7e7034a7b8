// Grove Pause: sends a navigation to a gated site through Grove's gateway page first.
//
// The browser blocks a gated site's page before its first byte leaves (session request rules,
// `requestRules` in gate.js); this worker then sends the tab to Grove's pause. After Proceed the app
// is open for its grace window: its rule is lifted, and a reminder comes back after the minutes the
// options set. It only reads from `grove serve` (the apps and their latest pause); the pause itself
// — the count, the countdown, Proceed, Exit — happens on Grove's own page. When Grove does not
// answer, nothing is blocked: the rules go, the badge says "off" and the web works as without the
// extension (fail open).
import {
  defaults, appFor, inGrace, gatewayURL, requestRules, pagesPattern, allowedDuring, newVisit, onSite, visitAfter, graceVisit,
  visitSeconds,
} from "./gate.js";

const ext = globalThis.browser ?? globalThis.chrome;

// Proceed on Grove's pause lets that one visit through even with no grace window (0 minutes: every later
// visit asks), if it comes within this many minutes.
const justProceeded = 0.5;

async function settings() {
  return { ...defaults, ...(await ext.storage.local.get(["grove", "token", "graceDefault", "grace", "remindAfter"])) };
}

async function fromGrove(s, path) {
  const headers = s.token ? { Authorization: `Bearer ${s.token}` } : {};
  const reply = await fetch(s.grove.replace(/\/+$/, "") + path, { headers, cache: "no-store", credentials: "omit" });
  if (!reply.ok) throw new Error(`Grove answered ${reply.status}`);
  return reply.json();
}

// The visits after Proceed (gate.js `newVisit`), by app id, kept for the browser session. Changed one
// at a time (events interleave at every await): each change waits for the one before.
let visitsChain = Promise.resolve();
function changeVisits(change) {
  visitsChain = visitsChain.then(async () => {
    const { visits = {} } = await ext.storage.session.get("visits");
    const reports = await change(visits);
    await ext.storage.session.set({ visits });
    return reports;
  }).catch(() => []);
  return visitsChain;
}

// Sends Grove a visit's running totals (the only write the extension makes: its origin and the gate
// key let it through). A key from before Grove restarted is read again once. Fails quietly: the
// figure then stays Grove's estimate.
async function report(visit, s) {
  const send = (key) => fetch(`${s.grove.replace(/\/+$/, "")}/api/v1/pause/sessions/${encodeURIComponent(visit.pause)}/visit`, {
    method: "PUT", cache: "no-store", credentials: "omit",
    headers: { "Content-Type": "application/json", "Grove-Gate-Key": key, ...(s.token ? { Authorization: `Bearer ${s.token}` } : {}) },
    body: JSON.stringify({ seconds: visitSeconds(visit, Date.now()), graceVisits: visit.grace }),
  });
  try {
    let reply = await send(cache.key);
    if (reply.status === 403) { cache = { at: 0, grove: "", apps: [], key: "" }; await apps(s); reply = await send(cache.key); }
  } catch { /* Grove is off: the next report carries the totals */ }
}

// Where the tabs are changed (a navigation committed, a tab closed): each visit's time goes on or
// stops, and one that stopped is reported.
async function tabsMoved(tabs) {
  const s = await settings();
  const stopped = await changeVisits(async (visits) => {
    const out = [];
    for (const [appId, visit] of Object.entries(visits)) {
      visits[appId] = visitAfter(visit, tabs, Date.now(), s.grove);
      if (visit.since !== null && visits[appId].since === null) out.push(visits[appId]);
    }
    return out;
  });
  for (const visit of stopped) await report(visit, s);
}

// The visit a Proceed on Grove's pause leads to: measured from the tab's arrival on the site (a
// visit already measured for this pause goes on).
async function beginVisit(app, latest) {
  await changeVisits(async (visits) => {
    if (visits[app.id]?.pause !== latest.id) visits[app.id] = newVisit(latest.id, app);
    return [];
  });
}

// A visit the grace window let through after the Proceed whose visit is measured, reported at once.
async function countGraceVisit(app, latest, navigation, s) {
  const [counted] = await changeVisits(async (visits) => {
    const visit = visits[app.id];
    if (visit?.pause !== latest.id) return [];
    visits[app.id] = graceVisit(visit, navigation.tabId, navigation.url, Date.now());
    return visits[app.id] === visit ? [] : [visits[app.id]];
  });
  if (counted) await report(counted, s);
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

// The apps proceeded to and open until an instant (ms), kept for the browser session: a worker that
// is stopped and started again keeps them.
async function openApps() {
  const { open = {} } = await ext.storage.session.get("open");
  const now = Date.now();
  return Object.fromEntries(Object.entries(open).filter(([, until]) => until > now));
}

// The request rules as the apps and the open windows call for them (none when Grove is off). A
// one-time pass for a tab (`passOnce`) is kept.
async function syncRules(list, s) {
  const open = list ? await openApps() : {};
  const rules = list ? requestRules(list, s.grove, new Set(Object.keys(open))) : [];
  const old = (await ext.declarativeNetRequest.getSessionRules()).filter((r) => r.id < onePass);
  await ext.declarativeNetRequest.updateSessionRules({ removeRuleIds: old.map((r) => r.id), addRules: rules });
}

// Rule ids from here on are one tab's pass through an app's block, for the one navigation after
// Proceed when the app has no grace window (every later visit asks again).
const onePass = 100_000;
async function passOnce(tabId, app) {
  const id = onePass + tabId;
  await ext.declarativeNetRequest.updateSessionRules({
    removeRuleIds: [id],
    addRules: [{ id, priority: 3, action: { type: "allow" }, condition: { tabIds: [tabId], regexFilter: pagesPattern(app), resourceTypes: ["main_frame"] } }],
  });
}

// How the browser's rules met `url` in tab `tabId`: let through by the tab's one-time pass, or
// blocked (so the worker must load it again to let it through).
async function ruled(url, tabId) {
  const rules = await ext.declarativeNetRequest.getSessionRules();
  const matches = (r) => Boolean(r.condition.regexFilter) && new RegExp(r.condition.regexFilter, "i").test(url);
  const passed = rules.some((r) => r.id === onePass + tabId && matches(r));
  return { passed, blocked: !passed && rules.some((r) => r.action.type === "block" && matches(r)) };
}

// Reads the apps and sets the rules; Grove off: no rules (fail open). Returns the apps, or null.
async function refresh(s) {
  try {
    const list = await apps(s);
    await status(true, "");
    await syncRules(list, s);
    return list;
  } catch {
    await status(false, "Grove is not running at " + s.grove);
    await syncRules(null, s);
    return null;
  }
}

// Opens `app` until `until`: its rule goes; the grace window's end brings it back, and the reminder
// (if set) comes after its minutes on the site.
async function open(app, until, since, s) {
  const { open: all = {} } = await ext.storage.session.get("open");
  all[app.id] = until;
  await ext.storage.session.set({ open: all });
  await syncRules(cache.apps, s);
  await ext.alarms.create(`grace:${app.id}`, { when: until });
  await remindLater(app, since, s);
}

// The reminder after the options' minutes on `app`'s site, counted from the Proceed at `since`.
async function remindLater(app, since, s) {
  const remind = Number(s.remindAfter);
  if (Number.isFinite(remind) && remind > 0) await ext.alarms.create(`remind:${app.id}`, { when: since + remind * 60_000 });
}

// A navigation in a tab's top frame: to a gated app's page (outside its grace window), it goes to
// Grove's pause instead. Also for a page that changes its address itself (YouTube's Shorts open from
// its home page without loading one): the browser's request rules never see those.
async function decide(navigation) {
  if (navigation.frameId !== 0 || !/^https?:/.test(navigation.url)) return;
  const s = await settings();
  if (navigation.url.startsWith(s.grove.replace(/\/+$/, "") + "/")) return;
  // Where the tab was, read before anything else can change it: a Proceed on Grove's pause in this
  // very tab lets this visit through, even with no grace window.
  const { tabs = {} } = await ext.storage.session.get("tabs");
  const fromPause = (tabs[navigation.tabId] || "").startsWith(s.grove.replace(/\/+$/, "") + "/pause/");
  const { passed, blocked: wasBlocked } = await ruled(navigation.url, navigation.tabId);
  if (passed) return;  // the visit a Proceed let through, loading again: nothing more to decide
  let app;
  try {
    app = appFor(await apps(s), navigation.url);
    await status(true, "");
  } catch (error) {
    await status(false, "Grove is not running at " + s.grove);
    await syncRules(null, s);
    if (wasBlocked) await ext.tabs.update(navigation.tabId, { url: navigation.url });
    return;
  }
  if (!app) return;
  try {
    // While a tree grows there is no grace: Grove's page says so first (leaving costs the tree).
    const current = await fromGrove(s, "/api/v1/focus/current");
    // An app on the session's allowlist (Grove's `focusAllowed`) keeps its grace window: the tree goes on.
    const growing = current?.session?.state === "active" && !allowedDuring(app, current.session.tags);
    const [latest] = await fromGrove(s, `/api/v1/pause/sessions?appId=${encodeURIComponent(app.id)}&limit=1`);
    const chosen = Number(s.grace[app.id] ?? s.graceDefault);
    const minutes = Number.isFinite(chosen) ? chosen : defaults.graceDefault;
    if (!growing && fromPause && inGrace(latest, Math.max(minutes, justProceeded), Date.now())) await beginVisit(app, latest);
    if (!growing && inGrace(latest, minutes, Date.now())) {
      // Onto the site from elsewhere, not from the pause: a visit the grace window let through.
      if (!fromPause && !onSite({ site: app.webURL }, tabs[navigation.tabId] || "", s.grove)) {
        await countGraceVisit(app, latest, navigation, s);
      }
      const since = Date.parse(latest.endTimestamp);
      await open(app, since + minutes * 60_000, since, s);
      if (wasBlocked) await ext.tabs.update(navigation.tabId, { url: navigation.url });
      return;
    }
    if (!growing && fromPause && inGrace(latest, justProceeded, Date.now())) {
      await passOnce(navigation.tabId, app);
      await remindLater(app, Date.parse(latest.endTimestamp), s);
      if (wasBlocked) await ext.tabs.update(navigation.tabId, { url: navigation.url });
      return;
    }
  } catch {
    await status(false, "Grove did not answer");
    await syncRules(null, s);
    if (wasBlocked) await ext.tabs.update(navigation.tabId, { url: navigation.url });
    return;
  }
  await ext.tabs.update(navigation.tabId, { url: gatewayURL(s.grove, app, navigation.url, cache.key) });
}
ext.webNavigation.onBeforeNavigate.addListener(decide);
ext.webNavigation.onHistoryStateUpdated.addListener(decide);

// Where each tab is (for the reminder, and to know a Proceed on Grove's pause), kept for the browser
// session.
ext.webNavigation.onCommitted.addListener(async (navigation) => {
  if (navigation.frameId !== 0) return;
  const { tabs = {} } = await ext.storage.session.get("tabs");
  tabs[navigation.tabId] = navigation.url;
  await ext.storage.session.set({ tabs });
  await tabsMoved(tabs);
});
// A tab's one-time pass is spent once a page has loaded in it (a blocked attempt ends in an error, not here).
ext.webNavigation.onCompleted.addListener(async (navigation) => {
  if (navigation.frameId !== 0) return;
  await ext.declarativeNetRequest.updateSessionRules({ removeRuleIds: [onePass + navigation.tabId] });
});
ext.tabs.onRemoved.addListener(async (tabId) => {
  const { tabs = {} } = await ext.storage.session.get("tabs");
  delete tabs[tabId];
  await ext.storage.session.set({ tabs });
  await tabsMoved(tabs);
});

ext.alarms.onAlarm.addListener(async (alarm) => {
  const s = await settings();
  const [kind, appId] = alarm.name.split(/:(.*)/s);
  if (kind === "grace" || kind === "remind") {
    // The window is over: the app's pages are blocked again before their first byte.
    const { open: all = {} } = await ext.storage.session.get("open");
    if (kind === "remind" || (all[appId] ?? 0) <= Date.now()) delete all[appId];
    await ext.storage.session.set({ open: all });
  }
  const list = await refresh(s);
  if (kind === "sync" && list) await reportRunning(s);
  if (kind !== "remind" || !list) return;
  // Still on the site after the reminder's minutes: Grove's pause again, saying how long it has been.
  const app = list.find((a) => a.id === appId);
  if (!app) return;
  const { tabs = {} } = await ext.storage.session.get("tabs");
  for (const [tabId, url] of Object.entries(tabs)) {
    if (appFor([app], url) === null) continue;
    const back = gatewayURL(s.grove, app, url, cache.key) + `&reminder=${encodeURIComponent(s.remindAfter)}`;
    await ext.tabs.update(Number(tabId), { url: back }).catch(() => {});  // a tab closed meanwhile
  }
});

// Every minute: the visits still going on are reported as they stand (a browser closed mid-visit loses
// at most a minute), and one over for an hour is forgotten (its last report was sent when it ended).
async function reportRunning(s) {
  const running = await changeVisits(async (visits) => {
    for (const [appId, visit] of Object.entries(visits)) {
      if (visit.since === null && visit.left !== null && Date.now() - visit.left > 3_600_000) delete visits[appId];
    }
    return Object.values(visits).filter((visit) => visit.since !== null);
  });
  for (const visit of running) await report(visit, s);
}

// Exit on Grove's page (it marks itself `#left`): the tab goes back to where it was before the
// gated site was asked for, or closes when there is nothing to go back to.
ext.webNavigation.onReferenceFragmentUpdated.addListener(async (navigation) => {
  if (navigation.frameId !== 0 || !navigation.url.endsWith("#left")) return;
  const s = await settings();
  if (!navigation.url.startsWith(s.grove.replace(/\/+$/, "") + "/pause/")) return;
  try { await ext.tabs.goBack(navigation.tabId); } catch { await ext.tabs.remove(navigation.tabId).catch(() => {}); }
});

// New settings (another Grove, other minutes): read the apps and set the rules again now. The options
// page asks for this itself and waits, so that "Saved" means the rules are in place.
ext.storage.onChanged.addListener((changes, area) => {
  if (area !== "local") return;
  if (changes.grove || changes.token || changes.grace || changes.graceDefault) cache = { at: 0, grove: "", apps: [], key: "" };
});
ext.runtime.onMessage.addListener((message, sender, reply) => {
  if (message?.type !== "sync") return false;
  cache = { at: 0, grove: "", apps: [], key: "" };
  // Other minutes: the open windows are decided again at the next visit, by the new ones.
  ext.storage.session.set({ open: {} }).then(settings).then(refresh)
    .then((list) => reply({ reachable: list !== null }), () => reply({ reachable: false }));
  return true;  // the reply comes later
});

// A new or enabled app in Grove is gated within the minute, without a navigation to notice it.
async function start() {
  await ext.alarms.create("sync", { periodInMinutes: 1 });
  await refresh(await settings());
}
ext.runtime.onInstalled.addListener(start);
ext.runtime.onStartup.addListener(start);
