// Grove's web app: what every page shares (the API, messages, actions, forms, live updates). Each
// page's own behaviour is a module of its own that registers its actions and hooks here; no endpoint
// or page is special-cased in this file.

import { enqueue, flush, fromProxy, newKey, onSent, pending } from "./queue.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

export function toast(message) {
  const t = $("#toast");
  t.textContent = message;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 3500);
}

/** Calls the API; shows a problem's detail and throws on failure. Every change carries its own
 *  Idempotency-Key, so that the server applies it once however often it is sent. `offline`
 *  (`{ label, instant }`) marks a change a person may make on the go: when the server cannot be
 *  reached it is kept on this device and sent later (queue.js), and `{ queued: true }` comes back. */
export async function api(method, path, body, offline) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) { options.headers["Content-Type"] = "application/json"; options.body = JSON.stringify(body); }
  const key = method === "GET" ? null : newKey();
  if (key) options.headers["Idempotency-Key"] = key;
  // Behind changes still waiting: in order, after them.
  if (offline && pending().length) { const kept = enqueue({ key, method, path, body, ...offline }); flush(); return kept; }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    if (!offline) { if (key) toast("Your Grove cannot be reached: nothing was changed."); throw error; }
    toast("Offline: kept on this device, sent when your Grove can be reached.");
    return enqueue({ key, method, path, body, ...offline });
  }
  if (offline && fromProxy(response)) return enqueue({ key, method, path, body, ...offline });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (data && data.detail) || response.statusText;
    toast(message);
    throw new Error(message);
  }
  return data;
}

export const pad = (n) => String(n).padStart(2, "0");
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${pad(m)}:${pad(r)}`;
}
/** What the buttons of every page do, by `data-action`: each page module registers its own. */
const actions = {};
export function register(more) { Object.assign(actions, more); }

/** Hooks the page modules join: `refresh` (data changed anywhere), `swapped` (the page was re-rendered),
 *  `busy` (a predicate: true while the page must not be swapped, e.g. during a pause). */
const hooks = { refresh: [], swapped: [], busy: [], timer: [] };
export function on(name, fn) { hooks[name].push(fn); }
function emit(name, ...args) { for (const fn of hooks[name]) fn(...args); }

// A chart wider than the screen opens at its most recent days (its right end).
for (const box of document.querySelectorAll(".chart-scroll")) box.scrollLeft = box.scrollWidth;

// The navigation marks the room this page belongs to (the gateway and the review belong to theirs).
// The phone's tab bar does too, and its "More" when the room is one of those it holds.
for (const link of document.querySelectorAll("header.top nav a, nav.tabs a")) {
  const path = new URL(link.href).pathname;
  const here = location.pathname;
  if (path === "/" ? here === "/" : here === path || here.startsWith(path + "/")) link.setAttribute("aria-current", "page");
}
if (document.querySelector(".more-menu a[aria-current]")) document.querySelector(".more-toggle").setAttribute("aria-current", "page");
/** Opens or closes the tab bar's "More" menu. */
function showMore(open) {
  const toggle = $(".more-toggle"), menu = $("#more-menu");
  if (!toggle || !menu) return;
  toggle.setAttribute("aria-expanded", String(open));
  menu.hidden = !open;
}
// The menu closes when a tap lands elsewhere, or on Escape.
document.addEventListener("click", (event) => { if (!event.target.closest(".more")) showMore(false); });
document.addEventListener("keydown", (event) => { if (event.key === "Escape") showMore(false); });

// Installed on a home screen and offline: this build's files and the pages seen stay on the device
// (`/sw.js`). Only where the browser allows a worker (HTTPS, or this machine's loopback).
if ("serviceWorker" in navigator && window.isSecureContext) navigator.serviceWorker.register("/sw.js").catch(() => {});

register({
  "print": () => window.print(),
  "more": () => showMore($("#more-menu").hidden),
});

// A range input shows its value in the element after it (the page's policy allows no inline handlers).
document.addEventListener("input", (event) => {
  const el = event.target;
  if (el.dataset && el.dataset.echo !== undefined && el.nextElementSibling) el.nextElementSibling.textContent = el.value + el.dataset.echo;
});

document.addEventListener("click", (event) => {
  const el = event.target.closest("[data-action]");
  if (!el || !actions[el.dataset.action]) return;
  if (el.tagName !== "INPUT") event.preventDefault();
  Promise.resolve(actions[el.dataset.action](el)).catch(() => {});
});

// Forms marked data-autosave save each change as it is made (a settings screen with no Save button):
// changes made close together are sent once, with the whole form as it then stands.
document.addEventListener("change", (event) => {
  const form = event.target.closest && event.target.closest("form[data-autosave]");
  if (!form || !event.target.name) return;
  clearTimeout(form.saveTimer);
  form.saveTimer = setTimeout(() => form.requestSubmit(), 300);
});

// Forms with data-api="METHOD /path" post their fields as JSON.
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!form.dataset.api) return;
  event.preventDefault();
  const [method, path] = form.dataset.api.split(" ");
  const minutes = (form.dataset.minutes || "").split(" ");
  let body = {};
  for (const input of form.elements) {
    if (!input.name) continue;
    // A group of checkboxes marked data-list is one field: the values of those checked.
    if (input.type === "checkbox" && "list" in input.dataset) { (body[input.name] ||= []); if (input.checked) body[input.name].push(input.value); continue; }
    if (input.type === "checkbox") body[input.name] = input.checked;
    // An empty field is left out, unless emptying it means something (data-empty: notes cleared).
    else if (input.value === "" && !("empty" in input.dataset)) continue;
    else if (input.type === "number" || input.type === "range" || input.tagName === "SELECT" && /^\d+$/.test(input.value) && input.name !== "themeId") body[input.name] = Number(input.value);
    // A text of lines marked data-lines is a list: one entry per non-blank line.
    else if ("lines" in input.dataset) body[input.name] = input.value.split("\n").map((t) => t.trim()).filter(Boolean);
    else body[input.name] = input.value;
    // Fields the page asks for in minutes that the API takes in seconds (data-minutes="name …").
    if (minutes.includes(input.name)) body[input.name] = Math.round(Number(input.value) * 60);
  }
  try {
    // A form marked data-offline="What it does" is kept on the device when the server cannot be reached.
    const kept = await api(method, path, body, form.dataset.offline ? { label: form.dataset.offline } : undefined);
    if (kept && kept.queued) return;
    toast("Saved.");
  } catch (error) {
    // A theme under 4.5:1 contrast: say so and save it only when the person insists.
    if (!/allowLowContrast/.test(error.message) || !confirm(`${error.message.split("; to keep them anyway")[0]}. Save these colours anyway?`)) return;
    try { await api(method, path, { ...body, allowLowContrast: true }); } catch { return; }
    toast("Saved — its text is hard to read.");
  }
  if (form.dataset.next) { location.href = form.dataset.next; return; }
  await swapMain();
});

/** Whether the person is looking at this page: then its toast is the notice, as the seed's app in the
 *  foreground cancels its own notification; a desktop one is for a page in the background. */
export const inForeground = () => document.visibilityState === "visible" && document.hasFocus();

/** A notice: the page's toast, and for a page in the background a notification — through the service
 *  worker's `showNotification` (Chrome on Android refuses `new Notification`, iOS shows a home-screen
 *  app's only), whose click opens `link`; the constructor only where no worker runs. */
export async function notify(title, body, link, desktop = true) {
  toast(`${title} — ${body}`);
  if (!desktop || inForeground() || !("Notification" in window) || Notification.permission !== "granted") return;
  const options = { body, icon: "/static/icon-192.png", data: { link: link || "/" } };
  const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration().catch(() => null) : null;
  if (registration) return registration.showNotification(title, options);
  const shown = new Notification(title, options);
  if (link) shown.onclick = () => { window.focus(); location.href = link; };
}

let lastGeneration = null;
function connectEvents() {
  const events = new EventSource("/api/v1/events");
  events.addEventListener("hello", (e) => {
    $("#live")?.classList.add("on");
    flush();  // connected again: what was kept meanwhile goes now
    const generation = JSON.parse(e.data).generation;
    // Changes made while the stream was (re)connecting were not sent: catch up once connected.
    if (lastGeneration !== null && generation !== lastGeneration) refresh();
    else emit("refresh", { connected: true });
    lastGeneration = generation;
  });
  events.addEventListener("change", (e) => {
    const generation = JSON.parse(e.data).generation;
    if (generation === lastGeneration) return;
    lastGeneration = generation;
    refresh();
  });
  // The weekly reminder is also the moment to look back: its notification opens last week's review.
  events.addEventListener("reminder", (e) => {
    const r = JSON.parse(e.data);
    if (r.kind === "weekly") notify("Grove", `${r.prompt} Your week in review is ready.`, "/review?week=last");
    else notify("Grove", r.prompt);
  });
  // A named timer reached its length: the server announces each once, whoever else is watching.
  events.addEventListener("timer", (e) => {
    const r = JSON.parse(e.data);
    notify(`${r.name} is done`, "Timer finished.", "/timers");
    emit("timer", r);
  });
  events.onerror = () => $("#live")?.classList.remove("on");
  // Browsers allow six connections per host: never leave a stream open behind a page that is gone.
  window.addEventListener("pagehide", () => events.close());
}

/** Brings the page up to date after a change made anywhere (another tab, the CLI). */
let refreshTimer = null;
function refresh() {
  emit("refresh", { connected: false });
  if (hooks.busy.some((busy) => busy())) return;  // e.g. never interrupt a pause
  const editing = document.activeElement && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName) && document.activeElement.type !== "checkbox";
  if (editing || $("[data-page=focus]")) return;
  clearTimeout(refreshTimer);
  // Busy may begin meanwhile (a request whose answer the page must keep on screen): asked again.
  refreshTimer = setTimeout(() => { if (!hooks.busy.some((busy) => busy())) swapMain(); }, 150);
}

/** Replaces the page's content with the server's current rendering of it (no reload, no flash). When the
 *  rendering is what the page already shows (the live event of the page's own change, say), the page is
 *  left alone, so nothing the person is looking at or holding is swapped from under them. */
let lastMain = document.querySelector("#main")?.outerHTML ?? null;
export async function swapMain() {
  const response = await fetch(location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const doc = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = doc.querySelector("#main");
  if (!fresh || fresh.outerHTML === lastMain) return;
  lastMain = fresh.outerHTML;
  // A keyboard user keeps their place: the control that had the focus has it again in the new page.
  const had = document.activeElement;
  const again = had?.dataset?.action && had.dataset.todo ? `[data-action="${had.dataset.action}"][data-todo="${had.dataset.todo}"]`
    : had?.id && had.closest("#main") ? `#${CSS.escape(had.id)}` : null;
  $("#main").replaceWith(fresh);
  for (const box of document.querySelectorAll(".chart-scroll")) box.scrollLeft = box.scrollWidth;
  if (again) $(again)?.focus();
  emit("swapped");
}

connectEvents();
// Kept changes sent: the page shows the server's state again.
onSent(() => refresh());
