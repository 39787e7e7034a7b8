"""A phone offline: what a person does on the train — start a focus session, start a timer and tick its
to-do — is kept on the phone with the instant it was done, and reaches the terminal once, counted from
then, when the connection returns (the network cut by DevTools, over HTTPS with a test certificate)."""
import json, os, time
from datetime import datetime

from selenium.webdriver.common.by import By

from conftest import SHOTS
from test_phone import wait, worker_ready
from test_remote import PASSWORD, log_in, phone, remote  # noqa: F401 (fixtures)


def offline(driver, on):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def queued(driver):
    """How many changes the page says it keeps (0 when the note is hidden)."""
    return driver.execute_script("const p = document.querySelector('#queue [data-queued]'); return p ? Number(p.dataset.queued) : 0")


def test_a_focus_and_a_tick_made_offline_reach_the_terminal_once(remote, phone):
    remote.cli("timer", "add", "Tea", "--duration", "5m", "--todo", "Kettle", "--todo", "Cups")
    phone.get(remote.origin + "/focus")
    log_in(phone, PASSWORD)
    wait(phone).until(lambda b: b.current_url.endswith("/focus"))
    worker_ready(phone)
    # Chromium's own installability check, over HTTPS for the public origin.
    errors = phone.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors")
    assert errors == [], errors
    # Seen once online: the timers page is on the phone for the train.
    phone.get(remote.origin + "/timers")
    wait(phone).until(lambda b: b.find_element(By.CSS_SELECTOR, "[data-action=toggle-todo]"))
    phone.get(remote.origin + "/focus")
    wait(phone).until(lambda b: b.find_element(By.ID, "start").is_displayed())

    offline(phone, True)
    started = time.time()
    phone.find_element(By.ID, "start").click()
    wait(phone).until(lambda b: queued(b) == 1)
    assert not phone.find_element(By.ID, "start").is_displayed(), "the tree grows on the phone meanwhile"
    assert phone.find_element(By.ID, "countdown").text.startswith("2"), phone.find_element(By.ID, "countdown").text
    phone.shot("focus-offline")
    # Another room, offline: the page as last seen, from the service worker.
    phone.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/timers']").click()
    wait(phone).until(lambda b: b.current_url.endswith("/timers") and b.find_elements(By.CSS_SELECTOR, "[data-action=toggle-todo]"))
    box = phone.find_elements(By.CSS_SELECTOR, "[data-action=toggle-todo]")[0]
    box.click()
    wait(phone).until(lambda b: queued(b) == 2)
    phone.find_element(By.CSS_SELECTOR, "[data-action=timer-start]").click()
    wait(phone).until(lambda b: queued(b) == 3)
    assert phone.find_elements(By.CSS_SELECTOR, "[data-action=toggle-todo]")[0].is_selected()
    phone.shot("timers-offline")
    # Nothing reached the server while offline.
    assert json.loads(remote.cli("focus", "status", "--json")) == {}
    time.sleep(2)  # the train goes on: the start must count from the tap, not from the reconnection

    back = time.time()
    offline(phone, False)
    wait(phone).until(lambda b: queued(b) == 0)
    status = json.loads(remote.cli("focus", "status", "--json"))
    arrived = time.time() - back
    start = status["session"]["startTime"]
    tea = json.loads(remote.cli("timer", "show", "Tea", "--json"))
    with open(os.path.join(SHOTS, "offline-replay.txt"), "w") as figure:
        figure.write(f"focus start offline -> terminal after reconnecting: {arrived:.2f} s\n")
    print(f"focus start offline -> terminal after reconnecting: {arrived:.2f} s")
    at = datetime.fromisoformat(start.replace("Z", "+00:00")).timestamp()
    assert started - 1 <= at <= back - 1.5, (start, started, back)
    assert [t["isCompleted"] for t in tea["todoItems"]] == [True, False], tea["todoItems"]
    runs = remote.cli("timer", "runs")
    assert "Tea" in runs, runs
    # Once each: one session, and sending again (a reply lost) changes nothing.
    code, _, body = remote.request("/api/v1/focus/sessions", host=f"127.0.0.1:{remote.port}")
    assert code == 200 and len(json.loads(body)) == 1, body
    phone.shot("after-reconnect")
