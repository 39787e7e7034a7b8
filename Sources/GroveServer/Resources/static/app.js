// Grove's web app: a little vanilla JavaScript over the JSON API. No build step.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

function toast(message) {
  const t = $("#toast");
  t.textContent = message;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 3500);
}

/** Calls the API; shows a problem's detail and throws on failure. */
async function api(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) { options.headers["Content-Type"] = "application/json"; options.body = JSON.stringify(body); }
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (data && data.detail) || response.statusText;
    toast(message);
    throw new Error(message);
  }
  return data;
}

const pad = (n) => String(n).padStart(2, "0");
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${pad(m)}:${pad(r)}`;
}
// The tree's stages come with the page (Swift's TreeStage): the stage a progress reaches is the
// last one whose start it has passed.
function stages() {
  return [...document.querySelectorAll("#stages li")].map((li) => ({ stage: li.dataset.stage, startsAt: Number(li.dataset.startsAt), name: li.textContent }));
}
function stageAt(progress) {
  const all = stages();
  return all.filter((s) => progress >= s.startsAt).pop() || all[0];
}
function showStage(stage) {
  $("#tree").dataset.stage = stage.stage;
  $("#stage-name").textContent = stage.name;
}

// ---------------------------------------------------------------- focus
let focus = null;          // the last /focus/current answer
let focusFetchedAt = 0;    // performance.now() when it arrived: the countdown runs from there, no drift

async function loadFocus() {
  const previous = focus && focus.session;
  focus = await api("GET", "/api/v1/focus/current");
  focusFetchedAt = performance.now();
  // The session we were showing is gone: whoever noticed first (this page's countdown, the server,
  // another terminal), it either completed or was abandoned. Ask which.
  if (previous && (!focus.session || focus.session.id !== previous.id)) {
    const ended = await api("GET", `/api/v1/focus/sessions/${previous.id}`).catch(() => null);
    if (ended && ended.state === "completed") treePlanted(ended.id);
  }
  renderFocus();
}

let breakEnd = null;        // performance.now() when the break after a planted tree ends

async function treePlanted(sessionId) {
  const done = $("#done");
  // The page always says so; a desktop notification only if no one else (another page, the server,
  // a terminal, a waiter) gave it already.
  const canShow = "Notification" in window && Notification.permission === "granted";
  const claim = canShow ? await api("POST", `/api/v1/focus/sessions/${sessionId}/notice`).catch(() => null) : null;
  // Seed 002's words (GroveCore's CompletionNotice); a click opens the forest where the tree stands.
  notify("Tree planted!", "Great focus session!", "/forest", Boolean(claim && claim.claimed));
  if (!$("#tree")) return;
  done.hidden = false;
  // The break this tree earned (short, or long every few trees), counted down on the page; and
  // today's line and the streak as they are now, not as the page was first drawn.
  const [pause, stats] = await Promise.all([api("GET", "/api/v1/focus/break").catch(() => null), api("GET", "/api/v1/focus/stats").catch(() => null)]);
  if (pause) {
    breakEnd = performance.now() + pause.duration * 1000;
    done.textContent = `Tree planted! Time for a ${pause.kind} break of ${Math.round(pause.duration / 60)} min.`;
  }
  if (stats && $("#focus-today")) {
    $("#focus-today").textContent = `${stats.todaysTrees} ${stats.todaysTrees === 1 ? "tree" : "trees"}`;
    const streak = $("#focus-streak");
    if (streak) streak.textContent = `${stats.currentStreak} ${stats.currentStreak === 1 ? "day" : "days"}`;
  }
  renderFocus();
}

function focusNow() {
  if (!focus || !focus.session) return null;
  const s = focus.session;
  const elapsed = s.state === "active" ? (performance.now() - focusFetchedAt) / 1000 : 0;
  const remaining = Math.max(0, focus.remaining - elapsed);
  const progress = Math.min(1, 1 - remaining / s.plannedDuration);
  return { s, remaining, progress };
}

function renderFocus() {
  const now = focusNow();
  const mini = $("#focus-mini");
  if (mini) mini.innerHTML = now ? `<strong>${clock(now.remaining)}</strong> left · ${now.s.state === "paused" ? "paused" : "growing"}` : `<span class="muted">No session running.</span>`;
  if (!$("#tree")) return;
  const running = !!now;
  $("#controls-idle").hidden = running;
  $("#controls-running").hidden = !running;
  if (!running) {
    const breakLeft = breakEnd === null ? 0 : (breakEnd - performance.now()) / 1000;
    if (breakLeft > 0) {
      // The tree stays full beside the break's own countdown.
      $("#countdown").textContent = clock(breakLeft);
      $("#progress-bar").style.width = "100%";
      $("#focus-state").textContent = "On a break — stand up, breathe, look far away.";
      document.title = `Break ${clock(breakLeft)} · Grove`;
      showStage(stageAt(1));
      return;
    }
    if (breakEnd !== null) { breakEnd = null; notify("Break over", "Ready to plant the next tree?"); $("#done").hidden = true; }
    $("#countdown").textContent = clock(Number($("#length").value) * 60);
    $("#progress-bar").style.width = "0%";
    $("#focus-state").textContent = "No session running.";
    document.title = "Focus · Grove";
    showStage(stageAt($("#done").hidden ? 0 : 1));
    return;
  }
  breakEnd = null;
  $("#done").hidden = true;
  $("#countdown").textContent = clock(now.remaining);
  $("#progress-bar").style.width = `${(now.progress * 100).toFixed(1)}%`;
  showStage(stageAt(now.progress));
  const purpose = now.s.tags && now.s.tags.length ? ` For ${now.s.tags.join(", ")}.` : "";
  $("#focus-state").textContent = (now.s.state === "paused" ? "Paused — the tree waits for you." : "Growing. Stay with it.") + purpose;
  $("#pause").hidden = now.s.state !== "active";
  $("#resume").hidden = now.s.state !== "paused";
  document.title = `${clock(now.remaining)} · Grove`;
  if (now.s.state === "active" && now.remaining <= 0 && !loadFocus.pending) {
    loadFocus.pending = true;
    loadFocus().finally(() => { loadFocus.pending = false; });
  }
}

if ($("#focus-mini") || $("#tree")) {
  loadFocus();
  setInterval(renderFocus, 250);
  $("#length")?.addEventListener("change", renderFocus);
}

// A chart wider than the screen opens at its most recent days (its right end).
for (const box of document.querySelectorAll(".chart-scroll")) box.scrollLeft = box.scrollWidth;

// The navigation marks the room this page belongs to (the gateway and the review belong to theirs).
for (const link of document.querySelectorAll("header.top nav a")) {
  const path = new URL(link.href).pathname;
  const here = location.pathname;
  if (path === "/" ? here === "/" : here === path || here.startsWith(path + "/")) link.setAttribute("aria-current", "page");
}

// ---------------------------------------------------------------- actions
const actions = {
  "start-focus": async () => {
    const minutes = Number($("#length")?.value || 0);
    // What the session is for: "essay, reading" (the tag rules are the server's; a refusal says which).
    const tags = ($("#focus-tags")?.value || "").split(",").map((t) => t.trim()).filter((t) => t);
    const body = minutes ? { plannedDuration: minutes * 60 } : {};
    if (tags.length) body.tags = tags;
    await api("POST", "/api/v1/focus/start", body);
    await loadFocus();
  },
  "pause-focus": async () => { await api("POST", "/api/v1/focus/pause"); await loadFocus(); },
  "resume-focus": async () => { await api("POST", "/api/v1/focus/resume"); await loadFocus(); },
  "abandon-focus": async () => { if (confirm("Abandon this session? No tree will grow.")) { await api("POST", "/api/v1/focus/abandon"); await loadFocus(); } },
  "delete-timer": async (el) => { if (confirm("Delete this timer and its checklist?")) { await api("DELETE", `/api/v1/timers/${el.dataset.id}`); await swapMain(); } },
  "toggle-todo": async (el) => {
    try { await api("POST", `/api/v1/timers/${el.dataset.timer}/todos/${el.dataset.todo}/toggle`); } catch { el.checked = !el.checked; }
    // The card's count follows its boxes at once (the page is not re-rendered: running timers keep running).
    const card = el.closest("[data-timer]");
    const boxes = [...card.querySelectorAll("[data-action=toggle-todo]")];
    const count = $("[data-todo-count]", card);
    if (count) count.textContent = `${boxes.filter((b) => b.checked).length}/${boxes.length} done`;
  },
  "move-todo": async (el) => moveTodo(el, Number(el.dataset.delta)),
  "load-samples": async () => { await api("POST", "/api/v1/timers/samples"); await swapMain(); loadRuns(); },
  // Edits in place: the text becomes a field; Enter saves, Escape puts it back.
  "edit-todo": (el) => {
    const item = el.closest("[data-todo-item]");
    const text = $("[data-todo-text]", item);
    if ($("input[data-todo-edit]", item)) return;
    const field = document.createElement("input");
    field.value = text.textContent;
    field.dataset.todoEdit = "";
    field.setAttribute("aria-label", "To-do text");
    text.hidden = true;
    text.after(field);
    field.focus();
    field.addEventListener("keydown", async (e) => {
      if (e.key === "Escape") { field.remove(); text.hidden = false; el.focus(); }
      if (e.key !== "Enter") return;
      e.preventDefault();
      try {
        const saved = await api("PATCH", `/api/v1/timers/${el.dataset.timer}/todos/${el.dataset.todo}`, { text: field.value });
        text.textContent = saved.text;
        field.remove(); text.hidden = false; el.focus();
      } catch {}
    });
  },
  "delete-todo": async (el) => {
    if (!confirm("Delete this to-do?")) return;
    await api("DELETE", `/api/v1/timers/${el.dataset.timer}/todos/${el.dataset.todo}`);
    const card = el.closest("[data-timer]");
    el.closest("li").remove();
    const boxes = [...card.querySelectorAll("[data-action=toggle-todo]")];
    const count = $("[data-todo-count]", card);
    if (count) count.textContent = `${boxes.filter((b) => b.checked).length}/${boxes.length} done`;
  },
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
  "delete-content": async (el) => { if (confirm("Delete this item?")) { await api("DELETE", `/api/v1/pause/content/${encodeURIComponent(el.dataset.id)}`); await swapMain(); } },
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
  "print": () => window.print(),
  "skip-setup": async () => { await api("POST", "/api/v1/setup/skip"); if (location.pathname === "/setup") location.href = "/"; else await swapMain(); },
  "delete-theme": async (el) => { if (confirm("Delete this theme?")) { await api("DELETE", `/api/v1/themes/${el.dataset.id}`); await swapMain(); } },
  "toggle-friction": async (el) => {
    try { await api("PUT", `/api/v1/pause/apps/${el.dataset.id}/adaptive`, { isEnabled: el.checked }); await swapMain(); } catch { el.checked = !el.checked; }
  },
  "toggle-app": async (el) => {
    try { await api("PUT", `/api/v1/pause/apps/${el.dataset.id}/enabled`, { isEnabled: el.checked }); } catch { el.checked = !el.checked; }
  },
  "enable-notifications": async () => {
    if (!("Notification" in window)) return toast("This browser has no notifications.");
    const result = await Notification.requestPermission();
    toast(result === "granted" ? "Reminders will show as notifications." : "Notifications are off.");
  },
  "timer-start": (el) => timerToggle(el.closest("[data-timer]")),
  "timer-reset": (el) => timerReset(el.closest("[data-timer]")),
  "gateway-exit": () => gatewayFinish("exit"),
  "gateway-tree": () => gatewayFinish("tree"),
  "gateway-proceed": () => gatewayFinish("proceed"),
  "gateway-start": () => { gatewayPage.dataset.confirm = "no"; $("#gateway-confirm").hidden = true; startGateway(gatewayPage).catch(() => {}); },
};

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
    await api(method, path, body);
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

// ---------------------------------------------------------------- checklists: reorder by button or Alt+↑/↓
/** Moves a to-do one place up or down (the server renumbers; the list follows at once, focus kept). */
async function moveTodo(el, delta) {
  const item = el.closest("[data-todo-item]");
  const list = item.parentElement;
  const items = [...list.children];
  const position = items.indexOf(item) + delta;
  if (position < 0 || position >= items.length) return;
  await api("POST", `/api/v1/timers/${el.dataset.timer}/todos/${el.dataset.todo}/move`, { position });
  if (delta < 0) list.insertBefore(item, items[position]); else list.insertBefore(item, items[position].nextSibling);
  el.focus();
  toast(`Moved to place ${position + 1} of ${items.length}.`);
}
// The focus page's keys are the terminal's: p or space pauses and resumes, a abandons (asking first).
// Not while typing, and not with a modifier (the browser's own shortcuts stay).
document.addEventListener("keydown", (e) => {
  if (!$("[data-page=focus]") || e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
  if (e.target.closest?.("input, textarea, select, button, a, [contenteditable]")) return;
  const visible = (id) => { const b = $(id); return b && !b.hidden && !b.closest("[hidden]") ? b : null; };
  const button = e.key === "p" || e.key === " " ? visible("#pause") || visible("#resume") : e.key === "a" ? visible("#abandon") : null;
  if (!button) return;
  e.preventDefault();
  button.click();
});

// Checklists: drag a to-do to its place (the same move the keys and buttons make).
let dragged = null;
document.addEventListener("dragstart", (e) => {
  dragged = e.target.closest?.("[data-todo-item]") || null;
  if (!dragged) return;
  e.dataTransfer.effectAllowed = "move";
  e.dataTransfer.setData("text/plain", dragged.querySelector("[data-action=toggle-todo]")?.dataset.todo || "");
  dragged.classList.add("dragging");
});
document.addEventListener("dragover", (e) => {
  const over = e.target.closest?.("[data-todo-item]");
  if (dragged && over && over.parentElement === dragged.parentElement) e.preventDefault();
});
document.addEventListener("drop", async (e) => {
  const over = e.target.closest?.("[data-todo-item]");
  const item = dragged;
  if (!item || !over || over === item || over.parentElement !== item.parentElement) return;
  e.preventDefault();
  const box = item.querySelector("[data-action=toggle-todo]");
  const items = [...item.parentElement.children];
  await moveTodo(box, items.indexOf(over) - items.indexOf(item));
});
document.addEventListener("dragend", () => { dragged?.classList.remove("dragging"); dragged = null; });

document.addEventListener("keydown", (e) => {
  if (!e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
  const box = e.target.closest?.("[data-action=toggle-todo]");
  if (!box) return;
  e.preventDefault();
  moveTodo(box, e.key === "ArrowUp" ? -1 : 1);
});

// ---------------------------------------------------------------- timers (their runs live in the store)
// Several at once. A run is the server's: the page shows it, so a reload, another tab, the CLI or
// `grove now` all see the same countdown; the page only counts the seconds between two readings.
const runningTimers = new Map();  // timer id -> { state, remaining, at (performance.now() of the reading) }
function applyRun(card, run) {
  const id = card.dataset.timer;
  const button = $("[data-action=timer-start]", card);
  card.classList.remove("running", "paused", "finished");
  if (!run) {
    runningTimers.delete(id);
    $("[data-countdown]", card).textContent = clock(Number(card.dataset.seconds));
    button.textContent = "Start";
    return;
  }
  runningTimers.set(id, { state: run.state, remaining: run.remaining, at: performance.now() });
  card.classList.add(run.state);
  button.textContent = run.state === "running" ? "Pause" : run.state === "paused" ? "Resume" : "Start";
  $("[data-countdown]", card).textContent = run.state === "finished" ? "Done" : clock(run.remaining);
}
async function loadRuns() {
  if (!$("article[data-timer]")) return;
  const runs = await api("GET", "/api/v1/timers/runs").catch(() => null);
  if (!runs) return;
  const byId = new Map(runs.map((r) => [r.timerId, r]));
  for (const card of document.querySelectorAll("article[data-timer]")) applyRun(card, byId.get(card.dataset.timer));
}
async function timerToggle(card) {
  const id = card.dataset.timer;
  const t = runningTimers.get(id);
  // Start on a finished timer runs it again from its full length.
  const path = !t || t.state === "finished" ? `/api/v1/timers/${id}/run` : t.state === "running" ? `/api/v1/timers/${id}/run/pause` : `/api/v1/timers/${id}/run/resume`;
  applyRun(card, await api("POST", path));
}
async function timerReset(card) {
  await api("DELETE", `/api/v1/timers/${card.dataset.timer}/run`);
  applyRun(card, null);
}
setInterval(() => {
  for (const [id, t] of runningTimers) {
    if (t.state !== "running") continue;
    const card = $(`article[data-timer="${id}"]`);
    if (!card) continue;
    const left = t.remaining - (performance.now() - t.at) / 1000;
    $("[data-countdown]", card).textContent = clock(left);
    // At zero, the server's word: it says finished (and announces it once, for every face).
    if (left <= 0 && !t.asked) { t.asked = true; loadRuns(); }
  }
  // The dashboard's list: counted down from the reading the page came with (a change redraws it).
  for (const item of document.querySelectorAll("[data-run][data-state=running]")) {
    if (!item.dataset.read) item.dataset.read = String(performance.now());
    const left = Number(item.dataset.remaining) - (performance.now() - Number(item.dataset.read)) / 1000;
    $("[data-run-countdown]", item).textContent = left > 0 ? clock(left) : "done";
  }
}, 250);
loadRuns();

// ---------------------------------------------------------------- the mindful pause
let gateway = null;
/** The gate: a navigation opens one pause (one attempt); the page's address then names it, so a
 * reload shows the same pause with the same countdown instead of counting again. */
async function startGateway(page) {
  if (page.dataset.gated !== "yes") return;  // the page says so, with a link on
  if (page.dataset.confirm === "yes") return;  // sent by another site: counted only once the person starts it
  const params = new URLSearchParams(location.search);
  let session = null, c = null;
  if (params.get("session")) {
    session = await api("GET", `/api/v1/pause/sessions/${encodeURIComponent(params.get("session"))}`).catch(() => null);
    if (session && session.appId !== page.dataset.app) session = null;
    // Ended by the person (not a timeout recovery guessed while the page was away): nothing to redo.
    if (session && session.completionStatus && session.completionStatus !== "timeout") return gatewayOver("This pause is over.");
    if (session) c = await api("GET", `/api/v1/pause/content/${encodeURIComponent(session.contentId)}`).catch(() => ({ text: "" }));
  }
  if (!session) {
    const data = await api("POST", "/api/v1/pause/sessions", { appId: page.dataset.app, platform: "web" });
    session = data.session; c = data.content;
    params.set("session", session.id);
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }
  const left = Date.parse(session.startTimestamp) + session.durationSetting * 1000 - Date.now();
  gateway = { id: session.id, ends: performance.now() + Math.max(0, left) };
  $("#content").innerHTML = "";
  const text = document.createElement("p");
  text.textContent = c.text;
  $("#content").append(text);
  if (c.author) { const cite = document.createElement("cite"); cite.textContent = `— ${c.author}`; $("#content").append(cite); }
  const tick = () => {
    const left = (gateway.ends - performance.now()) / 1000;
    $("#gateway-countdown").textContent = left > 0 ? Math.ceil(left) : "✓";
    if (left <= 0) { $("#gateway-wait").hidden = true; $("#gateway-done").hidden = false; gateway.done = true; return; }
    gateway.timer = setTimeout(tick, Math.max(50, (left % 1) * 1000));
  };
  tick();
}

async function gatewayFinish(choice) {
  if (!gateway || gateway.finished) return;
  gateway.finished = true;
  clearTimeout(gateway.timer);
  const status = gateway.done ? "completed" : "exited";
  const outcome = choice === "proceed" ? "proceed_to_app" : choice === "tree" ? "deepen_pause" : "exit_to_home";
  await api("POST", `/api/v1/pause/sessions/${gateway.id}/finish`, { completionStatus: status, actionOutcome: outcome });
  if (choice === "proceed") {
    location.href = gatewayPage.dataset.target || "/";
  } else if (choice === "tree") {
    // The finish itself planted the seed (one operation, one transaction, as `grove pause`).
    location.href = "/focus";
  } else {
    gatewayOver("Good call. It will still be there later.");
    // Marks the page "left" without a new history entry: the browser extension takes the tab back
    // to where it was (or closes it); without the extension this page stays, with its links.
    location.replace("#left");
  }
}

/** The end of a pause that does not leave the page: what happened, and where to go from here. */
function gatewayOver(message) {
  $("#content").innerHTML = "";
  const text = document.createElement("p");
  text.textContent = message;
  $("#content").append(text);
  $("#gateway-done").hidden = true; $("#gateway-wait").hidden = true;
  $("#gateway-countdown").textContent = "";
  $("#gateway-after").hidden = false;
}

const gatewayPage = $("[data-page=pause]");
if (gatewayPage) startGateway(gatewayPage).catch(() => {});

// ---------------------------------------------------------------- live updates and reminders
function notify(title, body, link, desktop = true) {
  toast(`${title} — ${body}`);
  if (desktop && "Notification" in window && Notification.permission === "granted") {
    const shown = new Notification(title, { body, icon: "/static/tree.svg" });
    if (link) shown.onclick = () => { window.focus(); location.href = link; };
  }
}

let lastGeneration = null;
function connectEvents() {
  const events = new EventSource("/api/v1/events");
  events.addEventListener("hello", (e) => {
    $("#live")?.classList.add("on");
    const generation = JSON.parse(e.data).generation;
    // Changes made while the stream was (re)connecting were not sent: catch up once connected.
    if (lastGeneration !== null && generation !== lastGeneration) refresh();
    else if ($("#tree") || $("#focus-mini")) loadFocus();
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
    notify(`${r.name} is done`, "Timer finished.");
    loadRuns();
  });
  events.onerror = () => $("#live")?.classList.remove("on");
  // Browsers allow six connections per host: never leave a stream open behind a page that is gone.
  window.addEventListener("pagehide", () => events.close());
}

/** Brings the page up to date after a change made anywhere (another tab, the CLI). */
let refreshTimer = null;
function refresh() {
  if ($("#tree") || $("#focus-mini")) loadFocus();
  loadRuns();
  if (gatewayPage) return;  // never interrupt a pause
  const editing = document.activeElement && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName) && document.activeElement.type !== "checkbox";
  if (editing || $("[data-page=focus]")) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(swapMain, 150);
}

/** Replaces the page's content with the server's current rendering of it (no reload, no flash). When the
 *  rendering is what the page already shows (the live event of the page's own change, say), the page is
 *  left alone, so nothing the person is looking at or holding is swapped from under them. */
let lastMain = document.querySelector("#main")?.outerHTML ?? null;
async function swapMain() {
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
  if ($("#focus-mini")) renderFocus();
  loadRuns();
}

connectEvents();
