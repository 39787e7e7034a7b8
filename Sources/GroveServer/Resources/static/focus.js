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


register({
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
});

on("refresh", () => { if ($("#tree") || $("#focus-mini")) loadFocus(); });
on("swapped", () => { if ($("#focus-mini")) renderFocus(); });

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
