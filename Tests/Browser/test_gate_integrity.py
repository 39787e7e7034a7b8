"""The visit after Proceed, measured by the extension in a real headless Chromium and reported to the
real `grove serve`; the gate's integrity on the Pause page; and "let it wither" on the gateway page,
which opens the pause and withers the tree in one step."""
import json
import time
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from test_extension import configure, extended, on_site, site, wait  # noqa: F401 (fixtures)


def latest(grove, app):
    return json.loads(urllib.request.urlopen(f"{grove.url}/api/v1/pause/sessions?appId={app}&limit=1").read())[0]


def test_the_visit_after_proceed_is_measured_and_replaces_the_estimate(grove, site, extended):
    grove.cli("apps", "add", "distraction", "--name", "Distraction", "--url", site.url + "/", "--enable")
    grove.cli("intention", "set", "Finish the essay")
    configure(extended, grove)
    extended.get(site.url + "/feed")
    wait(extended).until(lambda b: "session=" in b.current_url)
    # The gate knows the day's intention (screenshot for people: artifacts/screenshots/).
    assert "Finish the essay" in extended.find_element(By.CSS_SELECTOR, "[data-page=pause]").text
    extended.shot("gateway-with-intention")
    wait(extended, 30).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#gateway-done [data-action=gateway-proceed]"))).click()
    assert on_site(extended, site.url + "/feed")
    time.sleep(2.5)  # time on the site: what is measured
    # Leaving the site ends the stretch; the extension reports it.
    extended.get(grove.url + "/forest")
    wait(extended).until(lambda b: latest(grove, "distraction").get("visitSeconds", 0) >= 2)
    first = latest(grove, "distraction")["visitSeconds"]
    # Back within the grace window, without a pause: a grace visit, and more time on the site.
    extended.get(site.url + "/again")
    assert on_site(extended, site.url + "/again")
    time.sleep(1.5)
    extended.get(grove.url + "/forest")
    wait(extended).until(lambda b: latest(grove, "distraction").get("graceVisits") == 1)
    pause = latest(grove, "distraction")
    assert pause["visitSeconds"] >= first + 1, pause
    assert len(json.loads(urllib.request.urlopen(grove.url + "/api/v1/pause/sessions?appId=distraction").read())) == 1
    # The Pause page: minutes on the site after Proceed, the grace visit, and time saved said to be measured.
    extended.get(grove.url + "/pause")
    visits = extended.find_element(By.CSS_SELECTOR, "[data-testid=week-visits]").text
    assert "over 1 visit" in visits, visits
    assert extended.find_element(By.CSS_SELECTOR, "[data-testid=week-integrity]").text == "1 grace visit"
    extended.shot("pause-figures")


def test_let_it_wither_opens_the_pause_and_withers_the_tree_in_one_step(grove, browser):
    grove.cli("apps", "enable", "youtube")
    grove.cli("focus", "start", "--length", "25m")
    key = json.loads(urllib.request.urlopen(grove.url + "/api/v1/pause/gate").read())["key"]
    browser.get(grove.url + "/pause/youtube?key=" + key)
    growing = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=growing]")))
    growing.find_element(By.CSS_SELECTOR, "[data-action=growing-open]").click()
    wait(browser).until(lambda b: "session=" in b.current_url)
    assert "wither=" not in browser.current_url, "a reload must not ask to wither again"
    pause = latest(grove, "youtube")
    assert pause["witheredTree"] is True, pause
    assert json.loads(urllib.request.urlopen(grove.url + "/api/v1/focus/current").read()).get("session") is None
    browser.get(grove.url + "/pause")
    assert browser.find_element(By.CSS_SELECTOR, "[data-testid=week-integrity]").text == "1 tree withered"
