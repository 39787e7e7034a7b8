// Grove's web app: the mindful pause before an app or site (the gateway page).
import { $, api, on, register } from "./grove.js";

let gateway = null;
/** The gate: a navigation opens one pause (one attempt); the page's address then names it, so a
 * reload shows the same pause with the same countdown instead of counting again. */
async function startGateway(page) {
  if (page.dataset.gated !== "yes") return;  // the page says so, with a link on
  if (page.dataset.growing === "yes") return;  // a focus session first: nothing counts unless it is let go
  if (page.dataset.blocked === "yes") return;  // its schedule blocks it: only the week's emergency pass gets through
  if (page.dataset.confirm === "yes") return;  // not on the way to the app: counted only once the person starts it
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
    const emergency = page.dataset.emergency === "yes";
    const letTreeWither = page.dataset.wither === "yes";
    const data = await api("POST", "/api/v1/pause/sessions",
      { appId: page.dataset.app, platform: "web", ...(emergency ? { emergency } : {}), ...(letTreeWither ? { letTreeWither } : {}) });
    session = data.session; c = data.content;
    params.delete("emergency"); params.delete("wither");
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
  await api("POST", `/api/v1/pause/sessions/${gateway.id}/finish`, { completionStatus: status, actionOutcome: outcome }, { label: "Answer a pause" });
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

register({
  "gateway-exit": () => gatewayFinish("exit"),
  "gateway-tree": () => gatewayFinish("tree"),
  "gateway-proceed": () => gatewayFinish("proceed"),
  // "Why are you opening this?": the answer is the person's; the page says something back, and keeps nothing.
  why: (button) => {
    for (const other of document.querySelectorAll("#why button")) other.setAttribute("aria-pressed", String(other === button));
    $("#why-reply").textContent = button.dataset.reply;
    $("#why-reply").hidden = false;
  },
  // Back to focus: the extension takes the tab back (`#left`), as after an exit; nothing was counted.
  "growing-back": () => { $("#growing").hidden = true; $("#growing-after").hidden = false; location.replace("#left"); },
  // Leaving costs the tree, as in Forest. Navigated again by this page (same-origin) with `wither=1`:
  // the person chose the app over the tree, so the pause that follows counts at once, and opening it
  // abandons the session in the same step (the pause remembers it: a figure of the gate's integrity).
  "growing-open": () => {
    const params = new URLSearchParams(location.search);
    params.set("wither", "1");
    location.assign(`${location.pathname}?${params}`);
  },
  "gateway-start": () => { gatewayPage.dataset.confirm = "no"; $("#gateway-confirm").hidden = true; startGateway(gatewayPage).catch(() => {}); },
});

// Never swap the page from under a pause.
on("busy", () => Boolean(gatewayPage));
