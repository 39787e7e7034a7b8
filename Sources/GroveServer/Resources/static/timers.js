// Grove's web app: named timers (their runs live in the store) and their checklists.
import { $, api, clock, on, register, swapMain, toast } from "./grove.js";

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
  const start = !t || t.state === "finished";
  const path = start ? `/api/v1/timers/${id}/run` : t.state === "running" ? `/api/v1/timers/${id}/run/pause` : `/api/v1/timers/${id}/run/resume`;
  const label = `${start ? "Start" : t.state === "running" ? "Pause" : "Resume"} ${card.dataset.name || "timer"}`;
  const run = await api("POST", path, {}, { label, instant: "at" });
  if (!(run && run.queued)) return applyRun(card, run);
  // Kept on this device: the card counts on from what it showed.
  const left = start ? Number(card.dataset.seconds) : t.state === "running" ? t.remaining - (performance.now() - t.at) / 1000 : t.remaining;
  applyRun(card, { state: start || t.state === "paused" ? "running" : "paused", remaining: Math.max(0, left) });
}
async function timerReset(card) {
  await api("DELETE", `/api/v1/timers/${card.dataset.timer}/run`, undefined, { label: `Reset ${card.dataset.name || "timer"}` });
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

register({
  "delete-timer": async (el) => { if (confirm("Delete this timer and its checklist?")) { await api("DELETE", `/api/v1/timers/${el.dataset.id}`); await swapMain(); } },
  "toggle-todo": async (el) => {
    const label = `${el.checked ? "Tick" : "Untick"} “${el.closest("[data-todo-item]")?.querySelector("[data-todo-text]")?.textContent || "a to-do"}”`;
    try { await api("POST", `/api/v1/timers/${el.dataset.timer}/todos/${el.dataset.todo}/toggle`, undefined, { label }); } catch { el.checked = !el.checked; }
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
  "timer-start": (el) => timerToggle(el.closest("[data-timer]")),
  "timer-reset": (el) => timerReset(el.closest("[data-timer]")),
});

on("refresh", () => loadRuns());
on("swapped", () => loadRuns());
on("timer", () => loadRuns());
