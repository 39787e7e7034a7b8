// What the extension decides, as plain functions (shared by the background worker and the options page).

/** The settings, with their defaults: Grove's address, its token (if `grove serve` asks for one), the
 * grace window after Proceed in minutes, by app id, with a default, and the minutes on a gated site
 * after which Grove's pause comes back as a reminder (0: never). */
export const defaults = { grove: "http://127.0.0.1:4768", token: "", graceDefault: 10, grace: {}, remindAfter: 15 };

/** Whether `address` is one of `app`'s pages: on the host of its web URL or a subdomain of it (the
 * same rule as Grove's `SocialApp.owns`; owns-cases.json holds both to the same cases). */
export function owns(app, address) {
  let home, url;
  try { home = new URL(app.webURL).hostname.toLowerCase(); url = new URL(address); } catch { return false; }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  // A user name or password in the address is how a link hides its real host: never one of the app's.
  if (url.username !== "" || url.password !== "") return false;
  const host = url.hostname.toLowerCase();
  const site = home.startsWith("www.") ? home.slice(4) : home;
  return host === home || host === site || host.endsWith("." + site);
}

/** A path as a server reads it: percent-decoded, dot segments resolved, repeated slashes as one, in
 * lowercase; null when its percent-encoding is malformed (Grove's `SocialApp.comparablePath`). */
export function comparablePath(encoded) {
  let decoded;
  try { decoded = decodeURIComponent(encoded); } catch { return null; }
  const segments = [];
  for (const segment of decoded.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop(); else segments.push(segment);
  }
  return ("/" + segments.join("/")).toLowerCase();
}

/** Whether a visit to `address` meets `app`'s pause: one of its pages and, when the app gates some
 * paths only (`gatedPaths`, e.g. ["/shorts"]), at or under one of them; a path that cannot be decoded
 * is gated (Grove's `SocialApp.gates`; gates-cases.json holds both to the same cases). */
export function gates(app, address) {
  if (!owns(app, address)) return false;
  const paths = app.gatedPaths || [];
  if (paths.length === 0) return true;
  const path = comparablePath(new URL(address).pathname);
  if (path === null) return true;
  return paths.some((p) => path === p || path.startsWith(p + "/"));
}

/** The enabled app that gates `address`, if any. */
export function appFor(apps, address) {
  return apps.find((app) => app.isEnabled && app.webURL && gates(app, address)) || null;
}

// Whether `app` opens during a focus session with `tags` without withering the tree (Grove's
// `SocialApp.isAllowed`: "*" for every session, else a tag in common, letters A-Z folded).
export function allowedDuring(app, tags) {
  const allowed = app.focusAllowed || [];
  if (allowed.includes("*")) return true;
  const fold = (tag) => tag.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const folded = new Set(allowed.map(fold));
  return (tags || []).some((tag) => folded.has(fold(tag)));
}

/** Whether the latest pause of the app lets the site open without another: the person proceeded
 * less than the grace window ago. */
export function inGrace(latest, minutes, now) {
  if (!latest || latest.actionOutcome !== "proceed_to_app" || !latest.endTimestamp) return false;
  return Date.parse(latest.endTimestamp) + minutes * 60_000 > now;
}

/** The gateway page for `app`, carrying where the person was going, and Grove's gate key (which no
 * web page can read): with it the visit counts at once; a link from another site is asked about first. */
export function gatewayURL(grove, app, address, key) {
  const gate = key ? `&key=${encodeURIComponent(key)}` : "";
  return `${grove.replace(/\/+$/, "")}/pause/${encodeURIComponent(app.id)}?to=${encodeURIComponent(address)}${gate}`;
}

/** A regular expression for `app`'s gated pages as a request URL (matched without regard to case):
 * its host or a subdomain, any port, no user name or password, and — when it gates some paths only —
 * one of them, slashes repeated or not (what `gates` decides for every path that is not
 * percent-encoded; the navigation listener decides those). */
export function pagesPattern(app) {
  let home;
  try { home = new URL(app.webURL).hostname.toLowerCase(); } catch { return null; }
  if (!home) return null;
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const site = home.startsWith("www.") ? home.slice(4) : home;
  const paths = app.gatedPaths || [];
  const where = paths.length === 0 ? "([/?#]|$)"
    : `/+(${paths.map((p) => p.split("/").filter(Boolean).map(escape).join("/+")).join("|")})(/|[?#]|$)`;
  return `^https?://([^/?#@]*\\.)?${escape(site)}(:[0-9]+)?${where}`;
}

/** The browser's request rules for the gated apps: each one's pages are blocked before the first byte
 * leaves (the worker then sends the tab to Grove's pause), except the apps in `open` (proceeded to,
 * inside their grace window) and Grove's own pages. Ids from 1, in the apps' order. */
export function requestRules(apps, grove, open) {
  const rules = [];
  const origin = (() => { try { return new URL(grove).origin; } catch { return null; } })();
  if (origin) {
    // Grove's own pages always load (a gated site on the same host, as in a test, must not gate Grove).
    rules.push({ id: 1, priority: 2, action: { type: "allow" }, condition: { urlFilter: `|${origin}/`, resourceTypes: ["main_frame"] } });
  }
  for (const app of apps) {
    if (!app.isEnabled || !app.webURL || open.has(app.id)) continue;
    const regexFilter = pagesPattern(app);
    if (!regexFilter) continue;
    rules.push({ id: rules.length + 1, priority: 1, action: { type: "block" }, condition: { regexFilter, isUrlFilterCaseSensitive: false, resourceTypes: ["main_frame"] } });
  }
  return rules;
}

/** The visit after a Proceed, as the extension measures it for Grove's pause figures: `ms` spent with
 * at least one tab on the app's site (`since`: when the current stretch began, or null; `left`: when
 * the last one ended), and the visits its grace window let through after it, without another pause
 * (`grace`; `last` is the latest, so that a navigation decided twice counts once). */
export function newVisit(pause, app) {
  return { pause, app: app.id, site: app.webURL, ms: 0, since: null, left: null, grace: 0, last: null };
}

/** Whether `address` is one of the visited app's pages, and not Grove's own (a Grove on the same host,
 * as in a test, is never the site). */
export function onSite(visit, address, grove) {
  const own = grove.replace(/\/+$/, "") + "/";
  return owns({ webURL: visit.site }, address) && !address.startsWith(own);
}

/** The visit once the tabs are where `tabs` says (tab id → address) at `now`; `grove` is Grove's address. */
export function visitAfter(visit, tabs, now, grove) {
  const v = { ...visit };
  const on = Object.values(tabs).some((address) => onSite(v, address, grove));
  if (on && v.since === null) { v.since = now; v.left = null; }
  if (!on && v.since !== null) { v.ms += now - v.since; v.since = null; v.left = now; }
  return v;
}

/** The visit once the grace window let tab `tab` onto `address` from elsewhere at `now`: one more grace
 * visit, unless it is the same navigation decided again within 5 seconds (a blocked request loaded again). */
export function graceVisit(visit, tab, address, now) {
  const last = visit.last;
  if (last && last.tab === tab && last.address === address && now - last.at < 5000) return visit;
  return { ...visit, grace: visit.grace + 1, last: { tab, address, at: now } };
}

/** The whole seconds a visit has lasted by `now`: the running total Grove is sent. */
export function visitSeconds(visit, now) {
  return Math.floor((visit.ms + (visit.since === null ? 0 : Math.max(0, now - visit.since))) / 1000);
}
