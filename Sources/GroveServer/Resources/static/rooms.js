// Grove's web app: intentions and themes, the content library, settings and setup.
import { $, api, on, register, swapMain, toast } from "./grove.js";

register({
  "delete-intention": async (el) => { if (confirm("Delete this intention?")) { await api("DELETE", `/api/v1/intentions/${el.dataset.id}`); await swapMain(); } },
  // A proposal first, as the CLI shows it: the words change only if the person takes them.
  "rephrase": async (el) => {
    const proposal = await api("POST", `/api/v1/intentions/${el.dataset.id}/rephrase`);
    if (proposal.text === proposal.intention.text) return toast("No other wording comes to mind for this one.");
    if (!confirm(`Use this wording?\n\n${proposal.text}${proposal.quote ? `\n\n(with: ${proposal.quote})` : ""}`)) return;
    // The wording shown is the one saved (a model would word it differently if asked again).
    await api("POST", `/api/v1/intentions/${el.dataset.id}/rephrase?apply=true`, { text: proposal.text, quote: proposal.quote ?? undefined, assistant: proposal.assistant });
    await swapMain();
  },
  // Targeted changes: one field each, so that two pages changing different settings never undo each other.
  "default-theme": async (el) => { await api("PUT", "/api/v1/preferences/default-theme", { themeId: el.dataset.id }); await swapMain(); },
  "delete-theme": async (el) => { if (confirm("Delete this theme?")) { await api("DELETE", `/api/v1/themes/${el.dataset.id}`); await swapMain(); } },
});

register({
  "delete-content": async (el) => { if (confirm("Remove this item? A pause never shows it again (the pauses that showed it keep it).")) { await api("DELETE", `/api/v1/pause/content/${encodeURIComponent(el.dataset.id)}`); await swapMain(); } },
  "remove-source": async (el) => {
    if (!confirm(`Stop using ${el.dataset.url}? Its items go (those a pause showed stay in its history).`)) return;
    await api("DELETE", `/api/v1/pause/content-sources?url=${encodeURIComponent(el.dataset.url)}`); await swapMain();
  },
  "refresh-sources": async () => {
    const results = await api("POST", "/api/v1/pause/content-sources/refresh", {});
    const failed = results.filter((r) => r.status === "failed").length;
    toast(failed ? `${failed} of ${results.length} could not be fetched; what they gave before stays.` : "Content is up to date.");
    await swapMain();
  },
});

register({
  "skip-setup": async () => { await api("POST", "/api/v1/setup/skip"); if (location.pathname === "/setup") location.href = "/"; else await swapMain(); },
  "toggle-friction": async (el) => {
    try { await api("PUT", `/api/v1/pause/apps/${el.dataset.id}/adaptive`, { isEnabled: el.checked }); await swapMain(); } catch { el.checked = !el.checked; }
  },
  "toggle-app": async (el) => {
    try { await api("PUT", `/api/v1/pause/apps/${el.dataset.id}/enabled`, { isEnabled: el.checked }); } catch { el.checked = !el.checked; }
  },
  "push-on": async () => {
    if (await Notification.requestPermission() !== "granted") return toast("Notifications are blocked for this site: allow them in the browser's site settings.");
    const registration = await navigator.serviceWorker.ready;
    const { publicKey } = await api("GET", "/api/v1/push/key");
    const key = Uint8Array.from(atob(publicKey.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    let subscription;
    try { subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }); }
    catch (error) { return toast(`This browser could not subscribe: ${error.message}`); }
    await api("POST", "/api/v1/push/subscriptions", subscription.toJSON());
    toast("This device will be notified.");
    await showPush();
  },
  "push-off": async () => {
    const subscription = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
    if (subscription) {
      await api("DELETE", `/api/v1/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`);
      await subscription.unsubscribe();
    }
    toast("This device will not be notified.");
    await showPush();
  },
  "push-test": async () => {
    const result = await api("POST", "/api/v1/push/test");
    toast(result.delivered ? `Sent to ${result.delivered} of ${result.sent} devices.` : `Not delivered: ${result.failed.join("; ") || "no device is subscribed"}`);
  },
  "enable-notifications": async () => {
    if (!("Notification" in window)) return toast("This browser has no notifications.");
    const result = await Notification.requestPermission();
    toast(result === "granted" ? "Reminders will show as notifications." : "Notifications are off.");
  },
});

// The account's encryption (Settings → Sync), as `grove sync encrypt`/`unlock`/`passphrase`/`recovery-code`/`new-key`
// do it: a new passphrase is typed twice; a new recovery code is shown once, and the page is not
// re-rendered under it until the person says it is written down.
let recoveryShown = false;
on("busy", () => recoveryShown);
register({ "recovery-kept": async () => { recoveryShown = false; await swapMain(); } });
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!form.dataset.syncKey) return;
  event.preventDefault();
  const [method, path] = form.dataset.syncKey.split(" ");
  const fields = form.elements, body = {};
  for (const name of ["passphrase", "currentPassphrase", "newPassphrase", "recoveryCode"]) {
    if (fields[name]) body[name] = name === "recoveryCode" ? fields[name].value.trim().split(/\s+/).join(" ") : fields[name].value;
  }
  const repeated = fields.newPassphrase || fields.passphrase;
  if (fields.confirm && fields.confirm.value !== repeated.value) { toast("The two passphrases differ: type the same one twice."); fields.confirm.focus(); return; }
  const button = form.querySelector("button");
  button.disabled = true;
  // An encryption's answer carries the recovery code: the live refresh its own commits set off must
  // not re-render the page before the code is on it.
  if (path.endsWith("/encrypt") || path.endsWith("/recovery-code") || path.endsWith("/new-key")) recoveryShown = true;
  let result;
  try { result = await api(method, path, body); } catch { recoveryShown = false; return; } finally { button.disabled = false; }
  form.reset();
  if (result.recoveryCode) {
    $("#recovery-code").textContent = result.recoveryCode;
    $("#recovery").hidden = false;
    $("#recovery").scrollIntoView({ block: "center" });
    toast(path.endsWith("/encrypt") ? `Encrypted end to end: ${result.sent} values sent again, sealed.`
      : path.endsWith("/new-key") ? `A new key (${result.keyId}): key ${result.replaced} seals nothing now; your other devices ask for the passphrase once.`
      : "A new recovery code: the old one opens nothing now.");
    return;
  }
  toast(result.syncError ? `Unlocked (key ${result.keyId}), but the sync that followed failed: ${result.syncError}`
    : path.endsWith("/passphrase") ? "The passphrase is changed: your other devices keep syncing."
    : `Unlocked: this device holds key ${result.keyId}; ${result.applied} received, ${result.sent} sent.`);
  await swapMain();
});

// Going back to an earlier moment (Settings → Sync), as `grove sync restore --apply` does it: first what
// would change, then — asked again — going back. The instant is the browser's local time. The page is
// not re-rendered from under the question (the preview's own sync commits set off a live refresh).
let restoreAsked = false;
on("busy", () => restoreAsked);
document.addEventListener("toggle", (event) => {
  if (event.target.tagName === "DETAILS" && !event.target.open && event.target.querySelector("form[data-sync-restore]")) restoreAsked = false;
}, true);
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!("syncRestore" in form.dataset)) return;
  event.preventDefault();
  const local = new Date(form.elements.asOf.value);
  if (Number.isNaN(local.getTime())) { toast("Choose a day and a time."); return; }
  const asOf = local.toISOString(), preview = form.querySelector("[data-testid=sync-restore-preview]");
  const apply = form.querySelector("[data-testid=sync-restore-apply]");
  const said = (r) => `${r.added} back, ${r.changed} as they were, ${r.removed} made since removed`;
  restoreAsked = true;
  const result = await api("POST", "/api/v1/sync/restore", { asOf, apply: false }).catch(() => null);
  if (!result) { restoreAsked = false; return; }
  const total = result.added + result.changed + result.removed;
  restoreAsked = total > 0;
  preview.hidden = false;
  preview.textContent = total === 0 ? `The account is as it stood at ${local.toLocaleString()} already: nothing to change.`
    : `Going back to ${local.toLocaleString()} changes ${total} records (${said(result)}); sessions and pauses made since stay.`;
  apply.hidden = total === 0;
  apply.onclick = async () => {
    apply.disabled = true;
    const done = await api("POST", "/api/v1/sync/restore", { asOf, apply: true }).catch(() => null);
    apply.disabled = false;
    if (!done) return;
    restoreAsked = false;
    toast(`The account is as it stood at ${local.toLocaleString()} (${said(done)}): your other devices take it at their next sync.`);
    await swapMain();
  };
});

// Importing a file: the file itself is the body (streamed by the browser, never read into the page).
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (form.id !== "import-form") return;
  event.preventDefault();
  const file = form.elements.file.files[0];
  if (!file) return toast("Choose a file first.");
  const from = form.elements.from.value;
  const query = new URLSearchParams();
  if (from !== "grove-json") query.set("from", from);
  if (from === "csv" && form.elements.map.value.trim()) query.set("map", form.elements.map.value.trim());
  if ((from === "csv" || from === "forest") && form.elements.zone.value.trim()) query.set("zone", form.elements.zone.value.trim());
  const path = from === "grove-json" ? "/api/v1/import" : `/api/v1/import/sessions?${query}`;
  const response = await fetch(path, { method: "POST", body: file, credentials: "same-origin",
                                       headers: { "Content-Type": from === "grove-json" || from === "timewarrior" ? "application/json" : "text/csv" } });
  const data = await response.json().catch(() => null);
  const result = $("#import-result");
  result.hidden = false;
  if (!response.ok) { result.textContent = (data && data.detail) || response.statusText; return; }
  if (from === "grove-json") { result.textContent = "Imported."; return; }
  const lines = [`Imported ${data.imported}; ${data.alreadyThere} already there; ${data.skippedCount} skipped.`];
  for (const s of data.skipped) lines.push(`row ${s.row}: ${s.reason}`);
  if (data.tagged) lines.push(`${data.tagged} of them carry tags: see Stats by tag.`);
  result.textContent = lines.join("\n");
});

// The forest scrolls on: as its "Older days" link comes into view, the next window of days is read and
// added under its month (a month split across two windows stays one). Without script, the link pages.
function growForestOnScroll() {
  const link = document.querySelector("#forest-older");
  const forest = document.querySelector("#forest");
  if (!link || !forest || !("IntersectionObserver" in window)) return;
  let loading = false;
  const watcher = new IntersectionObserver(async (entries) => {
    if (loading || !entries.some((entry) => entry.isIntersecting)) return;
    loading = true;
    try {
      const current = document.querySelector("#forest-older");
      const reply = await fetch(current.href, { credentials: "same-origin" });
      if (!reply.ok) return;
      const page = new DOMParser().parseFromString(await reply.text(), "text/html");
      for (const month of page.querySelectorAll("#forest .forest-month")) {
        const last = forest.querySelector(".forest-month:last-of-type");
        if (last && last.dataset.month === month.dataset.month) {
          last.querySelector(".forest").append(...month.querySelector(".forest").children);
        } else {
          forest.append(document.importNode(month, true));
        }
      }
      forestExtended = true;
      const next = page.querySelector("#forest-older");
      if (!next) { watcher.disconnect(); current.remove(); return; }
      current.href = next.getAttribute("href");
      // Watched anew: a link still in view after a short window asks again at once.
      watcher.unobserve(current);
      watcher.observe(current);
    } finally {
      loading = false;
    }
  }, { rootMargin: "400px" });
  watcher.observe(link);
}
// Once older days are added, a live refresh would take them away again: the page stays as scrolled.
let forestExtended = false;
on("busy", () => forestExtended);
growForestOnScroll();

/** Settings' "Notifications on this device": what this browser can do, and whether it is subscribed. */
async function showPush() {
  const state = $("#push-state");
  if (!state) return;
  const buttons = { on: $("[data-action=push-on]"), off: $("[data-action=push-off]"), test: $("[data-action=push-test]") };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
    state.textContent = /iPhone|iPad/.test(navigator.userAgent)
      ? "To be notified on this iPhone, add Grove to the Home Screen (Share → Add to Home Screen) and open it from there."
      : "This browser cannot receive push notifications here (it needs HTTPS, or this machine's own address).";
    for (const b of Object.values(buttons)) b.hidden = true;
    return;
  }
  const subscription = await (await navigator.serviceWorker.ready).pushManager.getSubscription().catch(() => null);
  buttons.on.hidden = Boolean(subscription);
  buttons.off.hidden = buttons.test.hidden = !subscription;
}
showPush();
on("swapped", showPush);
