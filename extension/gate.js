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

/** The enabled app that gates `address`, if any. */
export function appFor(apps, address) {
  return apps.find((app) => app.isEnabled && app.webURL && owns(app, address)) || null;
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

/** A regular expression for `app`'s pages as a request URL: its host or a subdomain, any port, and
 * no user name or password (what `owns` decides, for the browser's own request matching). */
export function pagesPattern(app) {
  let home;
  try { home = new URL(app.webURL).hostname.toLowerCase(); } catch { return null; }
  if (!home) return null;
  const site = home.startsWith("www.") ? home.slice(4) : home;
  const escaped = site.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `^https?://([^/?#@]*\\.)?${escaped}(:[0-9]+)?([/?#]|$)`;
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
    rules.push({ id: rules.length + 1, priority: 1, action: { type: "block" }, condition: { regexFilter, resourceTypes: ["main_frame"] } });
  }
  return rules;
}
