// What the extension decides, as plain functions (shared by the background worker and the options page).

/** The settings, with their defaults: Grove's address, its token (if `grove serve` asks for one), the
 * grace window after Proceed in minutes, by app id, with a default. */
export const defaults = { grove: "http://127.0.0.1:4768", token: "", graceDefault: 10, grace: {} };

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
