import { defaults } from "./gate.js";

const ext = globalThis.browser ?? globalThis.chrome;
const form = document.getElementById("settings");

async function load() {
  const s = { ...defaults, ...(await ext.storage.local.get(["grove", "token", "graceDefault", "grace", "remindAfter", "status"])) };
  form.grove.value = s.grove;
  form.token.value = s.token;
  form.graceDefault.value = s.graceDefault;
  form.remindAfter.value = s.remindAfter;
  const table = document.getElementById("apps");
  table.replaceChildren();
  try {
    const headers = s.token ? { Authorization: `Bearer ${s.token}` } : {};
    const reply = await fetch(s.grove.replace(/\/+$/, "") + "/api/v1/pause/apps", { headers, cache: "no-store" });
    if (!reply.ok) throw new Error(String(reply.status));
    const gated = (await reply.json()).filter((app) => app.isEnabled && app.webURL);
    for (const app of gated) {
      const row = table.insertRow();
      row.insertCell().textContent = app.displayName;
      const input = document.createElement("input");
      Object.assign(input, { type: "number", min: 0, max: 1440, name: `grace-${app.id}`, placeholder: String(s.graceDefault) });
      input.setAttribute("aria-label", `Minutes for ${app.displayName}`);
      if (s.grace[app.id] !== undefined) input.value = s.grace[app.id];
      row.insertCell().append(input);
    }
    document.getElementById("status").textContent = gated.length
      ? `Grove is on: ${gated.map((app) => app.displayName).join(", ")} ${gated.length === 1 ? "is" : "are"} gated.`
      : "Grove is on, and no site with a web address is gated yet (grove apps enable …).";
  } catch {
    document.getElementById("status").textContent = `Grove is off: nothing answers at ${s.grove}. Sites open without a pause until it runs.`;
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  document.getElementById("saved").textContent = "";
  const grace = {};
  for (const input of form.querySelectorAll("input[name^=grace-]")) {
    if (input.value !== "") grace[input.name.slice(6)] = Number(input.value);
  }
  await ext.storage.local.set({
    grove: form.grove.value.trim(), token: form.token.value, graceDefault: Number(form.graceDefault.value), grace,
    remindAfter: Number(form.remindAfter.value),
  });
  // "Saved" once the browser's rules follow the new settings: the next visit is gated by them.
  await ext.runtime.sendMessage({ type: "sync" }).catch(() => null);
  document.getElementById("saved").textContent = "Saved.";
  await load();
});

load();
