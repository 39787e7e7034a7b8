// Grove's web app: the focus session (the Focus page, and the dashboard's line about it).
import { $, api, clock, notify, on, register } from "./grove.js";

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

let focus = null;          // the last /focus/current answer
let focusFetchedAt = 0;    // performance.now() when it arrived: the countdown runs from there, no drift
let breakEnd = null;       // performance.now() when the stored break (the server's) ends
let breakKind = null;
let breakLength = 0;       // seconds: the bar drains over the break
let breakAfter = null;     // the session whose tree earned the break

async function loadFocus() {
  const previous = focus && focus.session && focus.session.state !== "completed" && focus.session.state !== "abandoned" ? focus.session : null;
  focus = await api("GET", "/api/v1/focus/current");
  focusFetchedAt = performance.now();
  // The break is the store's: a reload, another page or a terminal see the same one, and a skip
  // anywhere ends it here at the next refresh.
  const pause = focus.break;
  if (pause) {
    breakEnd = focusFetchedAt + pause.remaining * 1000;
    breakKind = pause.kind;
    breakLength = pause.duration;
    breakAfter = pause.sessionID;
  } else if (breakEnd !== null && breakEnd > focusFetchedAt + 1000) {
    breakEnd = null;  // ended elsewhere (skipped, or a session started): no "break over"
  }
  // The session we were showing is gone: whoever noticed first (this page's countdown, the server,
  // another terminal), it either completed or was abandoned. Ask which.
  const running = focus.session && (focus.session.state === "active" || focus.session.state === "paused") ? focus.session : null;
  if (previous && (!running || running.id !== previous.id)) {
    const ended = await api("GET", `/api/v1/focus/sessions/${previous.id}`).catch(() => null);
    if (ended && ended.state === "completed") treePlanted(ended);
    // Stopped before a tree's cost (a minute of focus): the server gave it up; say why, with no tree.
    else if (ended && ended.state === "abandoned" && ended.openEnded && $("#tree")) {
      $("#done").hidden = false;
      $("#done").dataset.withered = "1";
      $("#done").textContent = `Stopped after ${clock(ended.duration)}: a tree costs a minute of focus, so none was planted.`;
    }
  }
  renderFocus();
}

async function treePlanted(session) {
  const done = $("#done");
  // The page always says so; a desktop notification only if no one else (another page, the server,
  // a terminal, a waiter) gave it already.
  const canShow = "Notification" in window && Notification.permission === "granted";
  const claim = canShow ? await api("POST", `/api/v1/focus/sessions/${session.id}/notice`).catch(() => null) : null;
  // Seed 002's words (GroveCore's CompletionNotice); a click opens the forest where the tree stands.
  notify("Tree planted!", "Great focus session!", "/forest", Boolean(claim && claim.claimed));
  if (!$("#tree")) return;
  done.hidden = false;
  delete done.dataset.withered;
  // The break this tree earned (short, or long every few trees) came with /focus/current; an
  // open-ended session earns none. Today's line and the streak as they are now.
  const pause = focus && focus.break;
  done.textContent = pause
    ? `Tree planted! Time for a ${pause.kind} break of ${Math.round(pause.duration / 60)} min.`
    : `Tree planted: ${clock(session.duration)} of focus.`;
  const stats = await api("GET", "/api/v1/focus/stats").catch(() => null);
  if (stats && $("#focus-today")) {
    $("#focus-today").textContent = `${stats.todaysTrees} ${stats.todaysTrees === 1 ? "tree" : "trees"}`;
    const streak = $("#focus-streak");
    if (streak) streak.textContent = `${stats.currentStreak} ${stats.currentStreak === 1 ? "day" : "days"}`;
  }
  renderFocus();
}

// BreakNotice's words; a desktop notification only if nobody (the session's waiter, a terminal,
// another page) gave it already.
async function breakOver(sessionId) {
  const canShow = "Notification" in window && Notification.permission === "granted";
  const claim = canShow && sessionId ? await api("POST", `/api/v1/focus/sessions/${sessionId}/break-notice`).catch(() => null) : null;
  notify("Break over", "Ready for the next tree?", "/focus", Boolean(claim && claim.claimed));
}

function focusNow() {
  if (!focus || !focus.session || (focus.session.state !== "active" && focus.session.state !== "paused")) return null;
  const s = focus.session;
  const elapsed = s.state === "active" ? (performance.now() - focusFetchedAt) / 1000 : 0;
  // An open-ended session has no time left (null): only its safety stop, the planned length.
  const remaining = Math.max(0, (focus.remaining ?? s.plannedDuration - (focus.focusTime || 0)) - elapsed);
  const focused = Math.min(s.plannedDuration, (focus.focusTime || 0) + elapsed);
  // An open-ended session counts up; its tree is full after the page's stated time (Swift's rule).
  const full = Number($("#stages")?.dataset.openFullTree || 1500);
  const progress = s.openEnded ? Math.min(1, focused / full) : Math.min(1, 1 - remaining / s.plannedDuration);
  return { s, remaining, focused, progress, shown: s.openEnded ? focused : remaining };
}

function renderFocus() {
  const now = focusNow();
  const breakLeft = !now && breakEnd !== null ? (breakEnd - performance.now()) / 1000 : 0;
  const mini = $("#focus-mini");
  if (mini) {
    mini.innerHTML = now
      ? `<strong>${clock(now.shown)}</strong> ${now.s.openEnded ? "so far" : "left"} · ${now.s.state === "paused" ? "paused" : "growing"}`
      : breakLeft > 0 ? `<strong>${clock(breakLeft)}</strong> of break left` : `<span class="muted">No session running.</span>`;
    // Today's main button plants a tree; while one grows it would only be refused ("already running").
    const plant = mini.parentElement && mini.parentElement.querySelector('[data-action="start-focus"]');
    if (plant) plant.hidden = !!now;
  }
  if (!$("#tree")) return;
  const running = !!now;
  const onBreak = breakLeft > 0;
  $("#controls-idle").hidden = running || onBreak;
  $("#controls-running").hidden = !running;
  $("#controls-break").hidden = !onBreak;
  if (!running) {
    if (onBreak) {
      // The tree stays full beside the break's own countdown; the bar drains as the break goes.
      $("#countdown").textContent = clock(breakLeft);
      $("#progress-bar").style.width = `${(100 * Math.min(1, breakLeft / (breakLength || breakLeft))).toFixed(1)}%`;
      $("#focus-state").textContent = `On a ${breakKind || "short"} break — stand up, breathe, look far away.`;
      document.title = `Break ${clock(breakLeft)} · Grove`;
      showStage(stageAt(1));
      return;
    }
    if (breakEnd !== null) {
      breakEnd = null;
      breakOver(breakAfter);
      $("#done").hidden = false;
      $("#done").textContent = "Break over. Ready for the next tree?";
    }
    const open = $("#length").value === "open";
    $("#countdown").textContent = clock(open ? 0 : Number($("#length").value) * 60);
    $("#progress-bar").style.width = "0%";
    $("#focus-state").textContent = "No session running.";
    document.title = "Focus · Grove";
    showStage(stageAt($("#done").hidden || $("#done").dataset.withered ? 0 : 1));
    return;
  }
  breakEnd = null;
  $("#done").hidden = true;
  $("#countdown").textContent = clock(now.shown);
  $("#progress-bar").style.width = `${(now.progress * 100).toFixed(1)}%`;
  showStage(stageAt(now.progress));
  const purpose = now.s.tags && now.s.tags.length ? ` For ${now.s.tags.join(", ")}.` : "";
  const growing = now.s.openEnded ? "Growing, counting up: stop when you are done." : "Growing. Stay with it.";
  $("#focus-state").textContent = (now.s.state === "paused" ? "Paused — the tree waits for you." : growing) + purpose;
  $("#pause").hidden = now.s.state !== "active";
  $("#resume").hidden = now.s.state !== "paused";
  $("#stop").hidden = !now.s.openEnded;
  document.title = `${clock(now.shown)} · Grove`;
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


// Starts a session with the idle controls' length (or open-ended) and tags.
async function startFocus() {
  const length = $("#length")?.value || "";
  // What the session is for: "essay, reading" (the tag rules are the server's; a refusal says which).
  const tags = ($("#focus-tags")?.value || "").split(",").map((t) => t.trim()).filter((t) => t);
  const body = length === "open" ? { openEnded: true } : Number(length) ? { plannedDuration: Number(length) * 60 } : {};
  if (tags.length) body.tags = tags;
  const kept = await api("POST", "/api/v1/focus/start", body, { label: "Start focus", instant: "startedAt" });
  if ($("#done")) $("#done").hidden = true;
  if (kept && kept.queued) {
    // Kept on this device: the tree grows here from now, and the server counts it from now too.
    const planned = body.openEnded ? 4 * 3600 : body.plannedDuration || Number($("#stages")?.dataset.openFullTree || 1500);
    focus = { session: { id: null, state: "active", plannedDuration: planned, openEnded: !!body.openEnded, tags }, remaining: body.openEnded ? null : planned, focusTime: 0 };
    focusFetchedAt = performance.now();
    breakEnd = null;
    return renderFocus();
  }
  await loadFocus();
}

/** A change to the running session (`pause`, `resume`, `stop`, `abandon`), kept on this device when
 *  the server cannot be reached; the page then shows it made, from the countdown it had. */
async function changeFocus(action, label) {
  const kept = await api("POST", `/api/v1/focus/${action}`, {}, { label, instant: "at" });
  if (!(kept && kept.queued)) return loadFocus();
  const now = focusNow();
  if (!now) return;
  if (action === "pause" || action === "resume") {
    focus = { ...focus, session: { ...now.s, state: action === "pause" ? "paused" : "active" }, focusTime: now.focused, remaining: now.s.openEnded ? null : now.remaining };
    focusFetchedAt = performance.now();
  } else {
    focus = { ...focus, session: null };
  }
  renderFocus();
}

register({
  "start-focus": startFocus,
  // Starting a session ends the break (the server does so in the same transaction).
  "next-focus": startFocus,
  "skip-break": async () => {
    await api("POST", "/api/v1/focus/break/skip").catch(() => null);  // over already: nothing to skip
    breakEnd = null;
    $("#done").hidden = false;
    $("#done").textContent = "Break skipped. Ready for the next tree?";
    await loadFocus();
  },
  "stop-focus": () => changeFocus("stop", "Stop focus"),
  "pause-focus": () => changeFocus("pause", "Pause focus"),
  "resume-focus": () => changeFocus("resume", "Resume focus"),
  "abandon-focus": async () => { if (confirm("Abandon this session? No tree will grow.")) await changeFocus("abandon", "Give up focus"); },
});

on("refresh", () => { if ($("#tree") || $("#focus-mini")) loadFocus(); });
on("swapped", () => { if ($("#focus-mini")) renderFocus(); });

// The focus page's keys are the terminal's: p or space pauses and resumes, s stops an open-ended
// session, a abandons (asking first).
// Not while typing, and not with a modifier (the browser's own shortcuts stay).
document.addEventListener("keydown", (e) => {
  if (!$("[data-page=focus]") || e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
  if (e.target.closest?.("input, textarea, select, button, a, [contenteditable]")) return;
  const visible = (id) => { const b = $(id); return b && !b.hidden && !b.closest("[hidden]") ? b : null; };
  const keys = { p: () => visible("#pause") || visible("#resume"), " ": () => visible("#pause") || visible("#resume"), s: () => visible("#stop"), a: () => visible("#abandon") };
  const button = keys[e.key] ? keys[e.key]() : null;
  if (!button) return;
  e.preventDefault();
  button.click();
});
