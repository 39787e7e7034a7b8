// Grove's web app offline: the changes a person makes while their Grove cannot be reached are kept
// on this device (localStorage), each with its own Idempotency-Key and the instant it was made, and
// sent in order when the connection returns. The server applies each key once, so a change whose
// reply was lost is never applied twice; one a rule refuses is shown here, never dropped silently.
const PENDING = "grove-queue", FAILED = "grove-queue-failed";

function read(name) { try { return JSON.parse(localStorage.getItem(name) || "[]"); } catch { return []; } }
function write(name, list) { try { localStorage.setItem(name, JSON.stringify(list)); } catch {} }

/** A fresh key for one change (a UUID; crypto.randomUUID needs a secure context, which a LAN's plain HTTP is not). */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** An answer a proxy in front of an unreachable Grove gave for it (502–504, not Grove's own problem). */
export function fromProxy(response) {
  return response.status >= 502 && response.status <= 504 && !(response.headers.get("Content-Type") || "").includes("problem+json");
}

/** Changes waiting to be sent. */
export const pending = () => read(PENDING);

/** Keeps a change to send later; `instant` names the body's field for when it was made (`at`, `startedAt`). */
export function enqueue({ key, method, path, body, label, instant }) {
  const at = new Date().toISOString();
  const sent = instant ? { ...(body || {}), [instant]: at } : body;
  write(PENDING, [...pending(), { key, method, path, body: sent, label, at }]);
  render();
  schedule();
  return { queued: true, at };
}

const listeners = [];
/** Called after changes were sent (the page then catches up with the server). */
export function onSent(fn) { listeners.push(fn); }

let running = null, retry = null;
/** Sends what is kept, oldest first; stops at the first that cannot be sent yet (and tries again later). */
export function flush() {
  if (!pending().length) { render(); return Promise.resolve(); }
  running ||= (async () => {
    try {
      // One tab at a time sends (another would send the same keys: harmless, but out of order).
      if (navigator.locks) await navigator.locks.request("grove-queue", sendAll); else await sendAll();
    } finally { running = null; }
  })();
  return running;
}

async function sendAll() {
  let sent = 0;
  for (let entry = pending()[0]; entry; entry = pending()[0]) {
    const options = { method: entry.method, headers: { "Idempotency-Key": entry.key }, credentials: "same-origin" };
    if (entry.body !== undefined) { options.headers["Content-Type"] = "application/json"; options.body = JSON.stringify(entry.body); }
    let response;
    try { response = await fetch(entry.path, options); } catch { schedule(); break; }
    // Not reachable yet (a proxy's 502–504), busy (429, a store that cannot write: 503), or signed
    // out: kept, and tried again. Anything else is Grove's answer: applied, or refused and shown.
    if (fromProxy(response) || [401, 429, 503].includes(response.status)) { schedule(); break; }
    const data = await response.json().catch(() => null);
    write(PENDING, pending().filter((e) => e.key !== entry.key));
    if (!response.ok) write(FAILED, [...read(FAILED), { label: entry.label, at: entry.at, detail: (data && data.detail) || response.statusText }]);
    sent += 1;
  }
  render();
  if (sent) for (const fn of listeners) fn();
}

/** Tries again in a while while anything waits (besides the browser's "online" and the live stream's return). */
function schedule() {
  clearTimeout(retry);
  if (pending().length) retry = setTimeout(flush, 15000);
}

/** The note under the page: what waits, and what was refused (kept until dismissed). */
export function render() {
  const note = document.getElementById("queue");
  if (!note) return;
  const waiting = pending(), failed = read(FAILED);
  note.replaceChildren();
  if (waiting.length) {
    const line = document.createElement("p");
    line.dataset.queued = String(waiting.length);
    line.textContent = `${waiting.length} ${waiting.length === 1 ? "change" : "changes"} kept on this device — sent when your Grove can be reached.`;
    note.append(line);
  }
  for (const f of failed) {
    const line = document.createElement("p");
    line.className = "refused";
    line.textContent = `Not applied: ${f.label} (${new Date(f.at).toLocaleTimeString()}) — ${f.detail}`;
    note.append(line);
  }
  if (failed.length) {
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.textContent = "Dismiss";
    dismiss.addEventListener("click", () => { write(FAILED, []); render(); });
    note.append(dismiss);
  }
  note.hidden = !waiting.length && !failed.length;
}

window.addEventListener("online", () => flush());
// Another tab kept or sent something: show it here too.
window.addEventListener("storage", (event) => { if (event.key === PENDING || event.key === FAILED) render(); });
flush();
