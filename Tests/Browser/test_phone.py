"""Grove on a phone: Chromium with a phone's profile (390 x 844, touch, a mobile user agent) against
the real `grove serve`. The tab bar within a thumb's reach, the app installable on a home screen, and
the pages already seen still there when the Grove cannot be reached."""
import json, urllib.request
from selenium.webdriver.common.by import By
from conftest import patient_wait
from selenium.webdriver.support import expected_conditions as EC

MOBILE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/120.0.0.0 Mobile Safari/537.36")


def wait(browser, timeout=30):
    return patient_wait(browser, timeout)


def as_phone(browser):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    browser.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": MOBILE_UA})


def worker_ready(browser):
    """Waits until the service worker is active and controls the page (its install cached this build's
    files; its activation claims the open page)."""
    browser.set_script_timeout(30)
    browser.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true))")
    wait(browser).until(lambda b: b.execute_script("return Boolean(navigator.serviceWorker.controller)"))


def test_the_tab_bar_is_within_a_thumbs_reach_and_more_holds_the_other_rooms(grove, browser):
    as_phone(browser)
    for scheme in ("light", "dark"):
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        browser.get(grove.url + "/")
        tabs = browser.find_element(By.CSS_SELECTOR, "nav.tabs")
        assert tabs.is_displayed() and not browser.find_element(By.CSS_SELECTOR, "header.top nav").is_displayed()
        labels = [t.text for t in tabs.find_elements(By.CSS_SELECTOR, ":scope > a, .more-toggle")]
        assert labels == ["Today", "Focus", "Forest", "Timers", "More"], labels
        viewport = browser.execute_script("return window.innerHeight")
        bar = tabs.rect
        assert abs(bar["y"] + bar["height"] - viewport) <= 1, (bar, viewport)
        for target in tabs.find_elements(By.CSS_SELECTOR, ":scope > a, .more-toggle"):
            assert target.rect["height"] >= 44 and target.rect["width"] >= 44, (target.text, target.rect)
        assert tabs.find_element(By.CSS_SELECTOR, "a[aria-current=page]").text == "Today"
        browser.shot(f"tabs-{scheme}")
    # More opens upward with the other rooms, each a full-size target; the room shown marks More.
    browser.find_element(By.CSS_SELECTOR, "nav.tabs .more-toggle").click()
    menu = browser.find_element(By.CSS_SELECTOR, ".more-menu")
    wait(browser).until(lambda b: menu.is_displayed())
    links = menu.find_elements(By.TAG_NAME, "a")
    assert [a.text for a in links] == ["Stats", "Pause", "Intentions", "Themes", "Settings"]
    assert all(a.rect["height"] >= 44 for a in links)
    browser.shot("tabs-more")
    links[-1].click()
    wait(browser).until(lambda b: b.current_url.endswith("/settings"))
    toggle = browser.find_element(By.CSS_SELECTOR, "nav.tabs .more-toggle")
    assert toggle.get_attribute("aria-current") == "page"
    # A tap elsewhere closes the menu.
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    browser.find_element(By.TAG_NAME, "h1").click()
    assert not browser.find_element(By.CSS_SELECTOR, ".more-menu").is_displayed()


def test_the_app_is_installable_with_its_manifest_icons_and_worker(grove, browser):
    as_phone(browser)
    browser.get(grove.url + "/")
    worker_ready(browser)
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert errors.get("installabilityErrors") == [], errors
    manifest = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert not manifest.get("errors"), manifest
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "/"
    assert {(i["sizes"], i["purpose"]) for i in data["icons"]} >= {("192x192", "maskable"), ("512x512", "maskable"), ("512x512", "any")}
    assert [s["url"] for s in data["shortcuts"]] == ["/focus", "/timers"]
    for icon in data["icons"]:
        with urllib.request.urlopen(grove.url + icon["src"]) as response:
            assert response.headers["Content-Type"] == "image/png" and response.read(8) == b"\x89PNG\r\n\x1a\n"
    # Light and dark theme colours for the browser's own bar.
    colours = browser.execute_script("return [...document.querySelectorAll('meta[name=theme-color]')].map(m => m.media)")
    assert sorted(colours) == ["(prefers-color-scheme: dark)", "(prefers-color-scheme: light)"]


def test_pages_seen_stay_readable_when_the_grove_cannot_be_reached(grove, browser):
    as_phone(browser)
    grove.cli("timer", "add", "Tea on the train", "--duration", "4m")
    browser.get(grove.url + "/")
    worker_ready(browser)
    browser.get(grove.url + "/timers")
    assert "Tea on the train" in browser.find_element(By.TAG_NAME, "main").text
    # The Grove goes away (the phone left the home network): the last copy of a page seen, and for a
    # page never opened here, the page that says what works offline, not the browser's error.
    grove.stop()
    browser.get(grove.url + "/timers")
    wait(browser).until(EC.presence_of_element_located((By.TAG_NAME, "main")))
    assert "Tea on the train" in browser.find_element(By.TAG_NAME, "main").text
    assert browser.find_element(By.CSS_SELECTOR, "link[href='/static/app.css']")
    assert browser.execute_script("return getComputedStyle(document.body).marginTop") == "0px", "the stylesheet came from the cache"
    browser.get(grove.url + "/stats")
    offline = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=offline]")))
    assert "You are offline" in offline.text and "What works offline" in offline.text
    browser.shot("offline")
    # The browser's console says nothing failed but the requests the worker answered from the cache.
    browser.expected_errors = ["Failed to load resource", "net::ERR_CONNECTION_REFUSED", "/api/v1/events"]
